import LV2Units
import TestSupport
import XCTest

extension XCTestCase {
    /// An initialized unit of the UI fixtures' plug-in `uri` (Tests/LV2UITests/Fixtures).
    func makeFixtureUnit(_ uri: String) throws -> AudioUnitInstance {
        let component = try XCTUnwrap(LV2PluginUITests.fixtures.component(uri: uri))
        let unit = try AudioUnitInstance(component)
        try unit.initialize()
        return unit
    }

    /// Idles `ui` until `condition` holds (30 s at most: a deadline for a stuck UI, not a timing).
    func idle(_ ui: LV2PluginUI, until condition: () -> Bool) throws -> Bool {
        var failure: Error?
        let held = waitUntil(poll: 20_000) {
            do { try ui.idle() } catch {
                failure = error
                return true
            }
            return condition()
        }
        if let failure { throw failure }
        return held
    }
}

/// Renders 256 frames of the constant `value` (on every input channel) through `unit` at 44.1 kHz;
/// its first output channel.
func renderConstantInput(_ unit: AudioUnitInstance, _ value: Float) throws -> [Float] {
    let input = UnsafeMutablePointer<Float>.allocate(capacity: 1)
    input.initialize(to: value)
    defer { input.deallocate() }
    var callback = AURenderCallbackStruct(
        inputProc: { refCon, _, _, _, frames, ioData in
            let value = refCon.assumingMemoryBound(to: Float.self).pointee
            for buffer in UnsafeMutableAudioBufferListPointer(ioData!) {
                let samples = buffer.mData!.assumingMemoryBound(to: Float.self)
                for i in 0..<Int(frames) { samples[i] = value }
            }
            return noErr
        }, inputProcRefCon: UnsafeMutableRawPointer(input))
    try AudioError.check(
        AudioUnitSetProperty(
            unit.handle, kAudioUnitProperty_SetRenderCallback, kAudioUnitScope_Input, 0, &callback,
            UInt32(MemoryLayout<AURenderCallbackStruct>.size)), "callback")
    defer {
        var none = AURenderCallbackStruct(inputProc: nil, inputProcRefCon: nil)
        AudioUnitSetProperty(
            unit.handle, kAudioUnitProperty_SetRenderCallback, kAudioUnitScope_Input, 0, &none,
            UInt32(MemoryLayout<AURenderCallbackStruct>.size))
    }
    let storage = AudioBufferStorage(format: .canonical(sampleRate: 44_100, channels: 1), capacity: 256)
    storage.prepare(frames: 256)
    var flags: AudioUnitRenderActionFlags = []
    var time = AudioTimeStamp()
    time.mFlags = .sampleTimeValid
    try AudioError.check(AudioUnitRender(unit.handle, &flags, &time, 0, 256, storage.list), "AudioUnitRender")
    return storage.samples(channel: 0, frames: 256)
}

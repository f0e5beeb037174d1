import XCTest
import TestSupport

/// A test gain unit set up as hosts do: stereo canonical formats, a render callback producing
/// frame numbers (sample n of channel c is n + 1000c), and buffers to render into.
final class GainFixture {
    let unit: AudioUnit
    /// Frames the ramp callback has produced (heap memory: the callback keeps the pointer).
    let counterPointer = UnsafeMutablePointer<Int>.allocate(capacity: 1)
    var counter: Int { counterPointer.pointee }
    let storage = AudioBufferStorage(format: .canonical(sampleRate: 44_100, channels: 2), capacity: 4096)
    var timeStamp = AudioTimeStamp()

    init(maxFrames: UInt32 = 512, initialize: Bool = true) throws {
        counterPointer.initialize(to: 0)
        registerTestUnits()
        var desc = TestGainUnit.description
        var u: AudioUnit?
        try AudioError.check(AudioComponentInstanceNew(AudioComponentFindNext(nil, &desc)!, &u), "instance")
        unit = u!
        var frames = maxFrames
        try AudioError.check(
            AudioUnitSetProperty(unit, kAudioUnitProperty_MaximumFramesPerSlice, kAudioUnitScope_Global, 0, &frames, 4), "max")
        var callback = AURenderCallbackStruct(inputProc: rampCallback, inputProcRefCon: counterPointer)
        try AudioError.check(
            AudioUnitSetProperty(
                unit, kAudioUnitProperty_SetRenderCallback, kAudioUnitScope_Input, 0,
                &callback, UInt32(MemoryLayout<AURenderCallbackStruct>.size)), "callback")
        timeStamp.mFlags = .sampleTimeValid
        if initialize { try AudioError.check(AudioUnitInitialize(unit), "initialize") }
    }

    deinit {
        AudioComponentInstanceDispose(unit)
        counterPointer.deallocate()
    }

    /// Renders `frames` frames into the fixture's buffers; returns the status.
    @discardableResult
    func render(_ frames: UInt32, advance: Bool = true) -> OSStatus {
        storage.prepare(frames: frames)
        var flags: AudioUnitRenderActionFlags = []
        let status = AudioUnitRender(unit, &flags, &timeStamp, 0, frames, storage.list)
        if advance { timeStamp.mSampleTime += Double(frames) }
        return status
    }

    func left(_ frames: Int) -> [Float] { storage.samples(channel: 0, frames: frames) }
    func right(_ frames: Int) -> [Float] { storage.samples(channel: 1, frames: frames) }
}

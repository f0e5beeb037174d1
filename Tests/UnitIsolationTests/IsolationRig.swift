import AUHost
import Foundation
import UnitIsolation
import XCTest

/// The checkout's root (from this file's location).
let checkoutRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

/// Makes an instance through AudioComponentInstantiate, out of process or in process.
func instantiate(_ component: AudioComponent, outOfProcess: Bool) throws -> AudioUnit {
    final class Box {
        var unit: AudioUnit?
        var status: OSStatus = 0
    }
    let box = Box()
    AudioComponentInstantiate(
        component, outOfProcess ? .loadOutOfProcess : .loadInProcess,
        { unit, status, refCon in
            let box = Unmanaged<Box>.fromOpaque(refCon!).takeUnretainedValue()
            box.unit = unit
            box.status = status
        }, Unmanaged.passUnretained(box).toOpaque())
    try AudioError.check(box.status, LastErrorMessage.current ?? "AudioComponentInstantiate failed")
    return try XCTUnwrap(box.unit)
}

/// The test input: a deterministic mix of two sines and noise, a function of the sample index
/// and channel only (so every render call of any unit sees the same signal at the same time).
func testSignal(_ n: Int, _ channel: Int) -> Float {
    var x = UInt32(truncatingIfNeeded: n &* 2_654_435_761 &+ channel &* 97)
    x ^= x >> 13
    x = x &* 0x5bd1_e995
    x ^= x >> 15
    let noise = Float(x & 0xFFFF) / 65_536 - 0.5
    let t = Float(n) / 48_000
    return 0.4 * sinf(2 * .pi * 220 * t + Float(channel)) + 0.2 * sinf(2 * .pi * 3_517 * t) + 0.1 * noise
}

/// A unit set up as a host does: every element at 48 kHz, every input fed `testSignal`, output
/// element 0 rendered into preallocated buffers.
final class IsolationRig {
    let unit: AudioUnit
    let outputChannels: Int
    let storage: AudioBufferStorage
    var time = AudioTimeStamp()

    /// `deadline`: kAUHostIsolatedUnitProperty_RenderDeadline for an out-of-process unit; tests
    /// other than the hang's use a long one, so that a busy machine never looks like a hung child.
    /// Whether the rig disposes the unit.
    let owned: Bool

    init(
        _ unit: AudioUnit, owned: Bool = true, maxFrames: UInt32 = 512, sampleRate: Double = 48_000, deadline: Double = 30,
        initialize: Bool = true
    ) throws {
        self.unit = unit
        self.owned = owned
        if AUHostIsolatedUnitIsOutOfProcess(unit) != 0 {
            var seconds = deadline
            try AudioError.check(
                AudioUnitSetProperty(unit, kAUHostIsolatedUnitProperty_RenderDeadline, kAudioUnitScope_Global, 0, &seconds, 8), "deadline")
        }
        var frames = maxFrames
        try AudioError.check(
            AudioUnitSetProperty(unit, kAudioUnitProperty_MaximumFramesPerSlice, kAudioUnitScope_Global, 0, &frames, 4), "max")
        func setRate(_ scope: AudioUnitScope) throws -> [Int] {
            var count: UInt32 = 0, size: UInt32 = 4
            try AudioError.check(AudioUnitGetProperty(unit, kAudioUnitProperty_ElementCount, scope, 0, &count, &size), "count")
            return try (0..<count).map { element in
                var format = AudioStreamBasicDescription()
                var size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
                try AudioError.check(AudioUnitGetProperty(unit, kAudioUnitProperty_StreamFormat, scope, element, &format, &size), "format")
                format.mSampleRate = sampleRate
                try AudioError.check(AudioUnitSetProperty(unit, kAudioUnitProperty_StreamFormat, scope, element, &format, size), "format")
                return Int(format.mChannelsPerFrame)
            }
        }
        let inputs = try setRate(kAudioUnitScope_Input)
        outputChannels = try setRate(kAudioUnitScope_Output).first ?? 0
        storage = AudioBufferStorage(format: .canonical(sampleRate: sampleRate, channels: UInt32(outputChannels)), capacity: maxFrames)
        for element in inputs.indices {
            var callback = AURenderCallbackStruct(
                inputProc: { _, _, timeStamp, _, frames, ioData in
                    let start = Int(timeStamp.pointee.mSampleTime)
                    for (c, buffer) in UnsafeMutableAudioBufferListPointer(ioData!).enumerated() {
                        let samples = buffer.mData!.assumingMemoryBound(to: Float.self)
                        for i in 0..<Int(frames) { samples[i] = testSignal(start + i, c) }
                    }
                    return noErr
                }, inputProcRefCon: nil)
            try AudioError.check(
                AudioUnitSetProperty(
                    unit, kAudioUnitProperty_SetRenderCallback, kAudioUnitScope_Input, UInt32(element), &callback,
                    UInt32(MemoryLayout<AURenderCallbackStruct>.size)), "callback")
        }
        time.mFlags = .sampleTimeValid
        if initialize { try AudioError.check(AudioUnitInitialize(unit), LastErrorMessage.current ?? "AudioUnitInitialize") }
    }

    deinit { if owned { AudioComponentInstanceDispose(unit) } }

    /// Renders one block into `storage`; returns the status.
    func renderBlock(_ frames: UInt32) -> OSStatus {
        storage.prepare(frames: frames)
        var flags = AudioUnitRenderActionFlags(rawValue: 0)
        let status = AudioUnitRender(unit, &flags, &time, 0, frames, storage.list)
        time.mSampleTime += Double(frames)
        return status
    }

    /// Renders `blocks` blocks of `frames`; `before(block)` runs ahead of each (parameter changes,
    /// MIDI). Returns the output per channel.
    func render(blocks: Int, frames: UInt32, before: (Int) -> Void = { _ in }) throws -> [[Float]] {
        var out = [[Float]](repeating: [], count: outputChannels)
        for b in 0..<blocks {
            before(b)
            try AudioError.check(renderBlock(frames), "AudioUnitRender, block \(b)")
            let buffers = UnsafeMutableAudioBufferListPointer(storage.list)
            for c in 0..<outputChannels {
                out[c] += UnsafeBufferPointer(start: buffers[c].mData!.assumingMemoryBound(to: Float.self), count: Int(frames))
            }
        }
        return out
    }
}

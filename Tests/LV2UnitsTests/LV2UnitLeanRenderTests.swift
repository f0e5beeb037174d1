import Foundation
import LV2Host
import LV2Units
import TestSupport
import XCTest

#if canImport(Glibc)
import Glibc
#endif

/// The unit connects a port only when its buffer moves and writes a control port only when its
/// parameter changes: output must still land in whichever buffer the caller passes, and every
/// parameter change must reach the plug-in.
final class LV2UnitLeanRenderTests: XCTestCase {
    /// eg-amp's output is its input times powf(10, gain × 0.05) (its own formula, in Float), so
    /// every sample is known exactly.
    private func expected(_ input: ArraySlice<Float>, gain: Float) -> [Float] {
        let coefficient = powf(10, gain * 0.05)
        return input.map { $0 * coefficient }
    }

    private func render(_ rig: LV2UnitRig, into storage: AudioBufferStorage, frames: Int) -> [Float] {
        storage.prepare(frames: UInt32(frames))
        var flags: AudioUnitRenderActionFlags = []
        XCTAssertEqual(AudioUnitRender(rig.unit, &flags, &rig.time, 0, UInt32(frames), storage.list), noErr)
        rig.time.mSampleTime += Double(frames)
        return storage.samples(channel: 0, frames: frames)
    }

    func testOutputFollowsTheCallersBufferAndEveryGainChange() throws {
        let frames = 64
        let rig = try LV2UnitRig(component: LV2UnitTestSupport.component("http://lv2plug.in/plugins/eg-amp"), maxFrames: UInt32(frames))
        let input = LV2UnitTestSupport.noise(frames * 5, seed: 11)
        rig.inputs = [[input]]
        let a = rig.storages[0]
        let b = AudioBufferStorage(format: .canonical(sampleRate: 48_000, channels: 1), capacity: UInt32(frames))
        func slice(_ cycle: Int) -> ArraySlice<Float> { input[cycle * frames..<(cycle + 1) * frames] }

        XCTAssertEqual(AudioUnitSetParameter(rig.unit, 0, kAudioUnitScope_Global, 0, -6, 0), noErr)
        XCTAssertEqual(render(rig, into: a, frames: frames), expected(slice(0), gain: -6), "first cycle, buffer A")
        let firstInA = a.samples(channel: 0, frames: frames)
        XCTAssertEqual(render(rig, into: b, frames: frames), expected(slice(1), gain: -6), "the caller's buffer moved to B")
        XCTAssertEqual(a.samples(channel: 0, frames: frames), firstInA, "rendering into B left A alone")
        XCTAssertEqual(AudioUnitSetParameter(rig.unit, 0, kAudioUnitScope_Global, 0, 3, 0), noErr)
        XCTAssertEqual(render(rig, into: a, frames: frames), expected(slice(2), gain: 3), "back to A, with the new gain")
        XCTAssertEqual(render(rig, into: a, frames: frames), expected(slice(3), gain: 3), "an unchanged gain stays applied")
        XCTAssertEqual(AudioUnitSetParameter(rig.unit, 0, kAudioUnitScope_Global, 0, -6, 0), noErr)
        XCTAssertEqual(render(rig, into: a, frames: frames), expected(slice(4), gain: -6), "the first value again")
    }

    /// Output that starts partway into the caller's buffer (a parameter change scheduled at a
    /// frame splits the cycle; ports are reconnected at the split) and then a whole cycle again.
    func testScheduledChangeSplitsTheCycleAndTheNextCycleStartsWhole() throws {
        let frames = 64, split = 24
        let rig = try LV2UnitRig(component: LV2UnitTestSupport.component("http://lv2plug.in/plugins/eg-amp"), maxFrames: UInt32(frames))
        let input = LV2UnitTestSupport.noise(frames * 2, seed: 12)
        rig.inputs = [[input]]
        XCTAssertEqual(AudioUnitSetParameter(rig.unit, 0, kAudioUnitScope_Global, 0, -6, 0), noErr)
        XCTAssertEqual(AudioUnitSetParameter(rig.unit, 0, kAudioUnitScope_Global, 0, 2, UInt32(split)), noErr)
        let first = render(rig, into: rig.storages[0], frames: frames)
        XCTAssertEqual(Array(first[..<split]), expected(input[..<split], gain: -6))
        XCTAssertEqual(Array(first[split...]), expected(input[split..<frames], gain: 2))
        XCTAssertEqual(render(rig, into: rig.storages[0], frames: frames), expected(input[frames...], gain: 2))
    }
}

import XCTest
import TestSupport

final class DelayUnitTests: XCTestCase {
    func testImpulseComesOutAtRoundedDelayWithWetDryWeightsAndFeedbackDecay() throws {
        let h = try UnitHarness(type: kAudioUnitType_Effect, subType: kAudioUnitSubType_Delay)
        try h.feed(bus: 0, [impulse(8000), impulse(8000)])
        try h.set(kDelayParam_DelayTime, 0.0501)  // 0.0501 s × 44100 = 2209.41 → 2209 frames
        try h.set(kDelayParam_WetDryMix, 30)
        try h.set(kDelayParam_Feedback, 50)
        try h.set(kDelayParam_LopassCutoff, 22_050)  // Nyquist: the low pass is off
        try h.initialize()
        let out = try h.render(frames: 8000, channels: 2)
        let d = Int((0.0501 * 44_100).rounded())
        for channel in out {
            XCTAssertEqual(channel[0], 0.7, accuracy: 1e-6, "dry weight 1 − 0.3")
            XCTAssertEqual(channel[d], 0.3, accuracy: 1e-6, "wet weight at round(t·fs)")
            XCTAssertEqual(channel[2 * d], 0.15, accuracy: 1e-6, "one feedback repeat: × 0.5")
            XCTAssertEqual(channel[3 * d], 0.075, accuracy: 1e-6)
            let others = channel.enumerated().filter { ![0, d, 2 * d, 3 * d].contains($0.offset) }.map { abs($0.element) }
            XCTAssertEqual(others.max() ?? 1, 0, "nothing but the impulse and its repeats")
        }
    }

    func testResetClearsTheLineAndBypassPassesInput() throws {
        let h = try UnitHarness(type: kAudioUnitType_Effect, subType: kAudioUnitSubType_Delay)
        try h.feed(bus: 0, [impulse(512)])
        try h.set(kDelayParam_DelayTime, 0.01)
        try h.initialize()
        _ = try h.render(frames: 256, channels: 2)
        try AudioError.check(AudioUnitReset(h.unit, kAudioUnitScope_Global, 0), "reset")
        let after = try h.render(frames: 1024, channels: 2)
        XCTAssertEqual(after[0].map(abs).max(), 0, "the echo pending before the reset is gone")

        var on: UInt32 = 1
        try AudioError.check(AudioUnitSetProperty(h.unit, kAudioUnitProperty_BypassEffect, kAudioUnitScope_Global, 0, &on, 4), "bypass")
        h.sources[0].position = 0
        let bypassed = try h.render(frames: 512, channels: 2)
        XCTAssertEqual(bypassed[0], impulse(512))
    }

    func testParameterInfoTailAndClassInfoRoundTrip() throws {
        let h = try UnitHarness(type: kAudioUnitType_Effect, subType: kAudioUnitSubType_Delay)
        var info = AudioUnitParameterInfo()
        var size = UInt32(MemoryLayout<AudioUnitParameterInfo>.size)
        try AudioError.check(
            AudioUnitGetProperty(
                h.unit, kAudioUnitProperty_ParameterInfo, kAudioUnitScope_Global, kDelayParam_DelayTime,
                &info, &size), "info")
        XCTAssertEqual(info.unit, kAudioUnitParameterUnit_Seconds)
        XCTAssertEqual(info.maxValue, 2)
        XCTAssertEqual(info.defaultValue, 1)
        try h.set(kDelayParam_DelayTime, 0.5)
        try h.set(kDelayParam_Feedback, 10)
        var tail = 0.0
        size = 8
        try AudioError.check(AudioUnitGetProperty(h.unit, kAudioUnitProperty_TailTime, kAudioUnitScope_Global, 0, &tail, &size), "tail")
        XCTAssertEqual(tail, 0.5 * 4, accuracy: 1e-9, "0.1^3 = −60 dB after three repeats: 4 delays")

        var state: UnsafeRawPointer?
        size = UInt32(MemoryLayout<UnsafeRawPointer>.size)
        try AudioError.check(AudioUnitGetProperty(h.unit, kAudioUnitProperty_ClassInfo, kAudioUnitScope_Global, 0, &state, &size), "save")
        try h.set(kDelayParam_DelayTime, 1.5)
        try AudioError.check(AudioUnitSetProperty(h.unit, kAudioUnitProperty_ClassInfo, kAudioUnitScope_Global, 0, &state, size), "restore")
        XCTAssertEqual(try h.get(kDelayParam_DelayTime), 0.5)
        Unmanaged<AnyObject>.fromOpaque(state!).release()
    }
}

import XCTest
import TestSupport

final class MixerUnitTests: XCTestCase {
    func makeMixer(buses: UInt32) throws -> UnitHarness {
        let h = try UnitHarness(type: kAudioUnitType_Mixer, subType: kAudioUnitSubType_MultiChannelMixer)
        var count = buses
        try AudioError.check(AudioUnitSetProperty(h.unit, kAudioUnitProperty_ElementCount, kAudioUnitScope_Input, 0, &count, 4), "count")
        return h
    }

    func testUnityGainsSumExactlyAndUnconnectedBusesAreSilent() throws {
        let h = try makeMixer(buses: 3)
        let a: [Float] = (0..<256).map { Float($0) / 1024 }, b: [Float] = (0..<256).map { -Float($0) / 4096 }
        try h.feed(bus: 0, [a, b])
        try h.feed(bus: 1, [b, a])
        // Bus 2 has nothing connected: silence, not an error.
        try h.initialize()
        let out = try h.render(frames: 256, channels: 2)
        XCTAssertEqual(out[0], zip(a, b).map { $0 + $1 })
        XCTAssertEqual(out[1], zip(b, a).map { $0 + $1 })
    }

    func testPanLawAtLeftCentreRightAndMute() throws {
        let h = try makeMixer(buses: 1)
        try h.setFormat(.canonical(sampleRate: 44_100, channels: 1), scope: kAudioUnitScope_Input)
        try h.feed(bus: 0, [[Float](repeating: 0.5, count: 4096)])
        try h.initialize()
        for (pan, left, right) in [
            (Float(-1), Float(0.5), Float(0)), (0, 0.5 * Float(0.5).squareRoot(), 0.5 * Float(0.5).squareRoot()), (1, 0, 0.5),
        ] {
            try h.set(kMultiChannelMixerParam_Pan, pan, scope: kAudioUnitScope_Input)
            let out = try h.render(frames: 64, channels: 2)
            XCTAssertEqual(out[0][10], left, accuracy: 1e-6, "left at pan \(pan)")
            XCTAssertEqual(out[1][10], right, accuracy: 1e-6, "right at pan \(pan)")
        }
        try h.set(kMultiChannelMixerParam_Enable, 0, scope: kAudioUnitScope_Input)
        let muted = try h.render(frames: 64, channels: 2)
        XCTAssertEqual(muted[0].map(abs).max(), 0)
        XCTAssertEqual(muted[1].map(abs).max(), 0)
    }

    func testMeteringReadsTheKnownPeakAndOutputVolumeScales() throws {
        let h = try makeMixer(buses: 1)
        let sine: [Float] = (0..<4096).map { 0.25 * sin(2 * .pi * 1000 * Float($0) / 44_100) }
        var peakSignal = sine
        peakSignal[100] = 0.5
        try h.feed(bus: 0, [peakSignal, peakSignal])
        var on: UInt32 = 1
        try AudioError.check(AudioUnitSetProperty(h.unit, kAudioUnitProperty_MeteringMode, kAudioUnitScope_Global, 0, &on, 4), "metering")
        try h.set(kMultiChannelMixerParam_Volume, 0.5, scope: kAudioUnitScope_Output)
        try h.initialize()
        let out = try h.render(frames: 512, channels: 2)
        XCTAssertEqual(out[0][100], 0.25, accuracy: 1e-7, "output volume 0.5")
        XCTAssertEqual(
            try h.get(kMultiChannelMixerParam_PrePeakHoldLevel, scope: kAudioUnitScope_Input), Float(20 * log10(0.5)), accuracy: 1e-4)
        XCTAssertEqual(
            try h.get(kMultiChannelMixerParam_PostPeakHoldLevel, scope: kAudioUnitScope_Output), Float(20 * log10(0.25)), accuracy: 1e-4)
    }
}

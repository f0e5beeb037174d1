import XCTest
import TestSupport
import DSPKernels

final class Mixer3DTests: XCTestCase {
    func makeMixer(buses: UInt32 = 1, inputRate: Double = 44_100) throws -> UnitHarness {
        let h = try UnitHarness(type: kAudioUnitType_Mixer, subType: kAudioUnitSubType_AU3DMixerEmbedded)
        var count = buses
        try AudioError.check(AudioUnitSetProperty(h.unit, kAudioUnitProperty_ElementCount, kAudioUnitScope_Input, 0, &count, 4), "count")
        for b in 0..<buses { try h.setFormat(.canonical(sampleRate: inputRate, channels: 1), scope: kAudioUnitScope_Input, element: b) }
        return h
    }

    func testLeftRightDifferenceFollowsAzimuthMonotonicallyWithTheDocumentedGains() throws {
        let h = try makeMixer()
        try h.feed(bus: 0, [[Float](repeating: 0.5, count: 100_000)])
        try h.initialize()
        var previous = -Double.infinity
        for azimuth in stride(from: -90.0, through: 90.0, by: 15) {
            try h.set(k3DMixerParam_Azimuth, Float(azimuth), scope: kAudioUnitScope_Input)
            let out = try h.render(frames: 64, channels: 2)
            let expected = Panner3DKernel.gains(azimuth: azimuth, elevation: 0, distance: 1, gainDecibels: 0)
            XCTAssertEqual(out[0][10], 0.5 * expected.left, accuracy: 1e-7, "left at \(azimuth)°")
            XCTAssertEqual(out[1][10], 0.5 * expected.right, accuracy: 1e-7, "right at \(azimuth)°")
            let difference = Double(out[1][10] - out[0][10])
            XCTAssertGreaterThan(difference, previous, "right − left rises with azimuth (\(azimuth)°)")
            previous = difference
            if azimuth == 0 { XCTAssertEqual(out[0][10], out[1][10], "centred ahead") }
        }
        try h.set(k3DMixerParam_Azimuth, -90, scope: kAudioUnitScope_Input)
        XCTAssertEqual(try h.render(frames: 64, channels: 2)[1][10], 0, "hard left: nothing on the right")
    }

    func testDistanceAttenuatesByTheDocumentedCurve() throws {
        let h = try makeMixer()
        try h.feed(bus: 0, [[Float](repeating: 0.5, count: 100_000)])
        try h.initialize()
        let centre = 0.5 * 0.5.squareRoot()
        for distance in [0.25, 1, 2, 4, 10, 100, 1000, 5000] {
            try h.set(k3DMixerParam_Distance, Float(distance), scope: kAudioUnitScope_Input)
            let out = try h.render(frames: 64, channels: 2)
            let expected = centre / min(max(distance, 1), 1000)  // 1 / clamp(d, 1 m, 1000 m)
            XCTAssertEqual(Double(out[0][10]), expected, accuracy: expected * 1e-6, "at \(distance) m")
            XCTAssertEqual(Double(out[1][10]), expected, accuracy: expected * 1e-6, "at \(distance) m")
        }
    }

    func testGainsEnableAndSumOfBuses() throws {
        let h = try makeMixer(buses: 2)
        try h.feed(bus: 0, [[Float](repeating: 0.5, count: 100_000)])
        try h.feed(bus: 1, [[Float](repeating: 0.25, count: 100_000)])
        try h.set(k3DMixerParam_Azimuth, -90, scope: kAudioUnitScope_Input, element: 0)
        try h.set(k3DMixerParam_Azimuth, 90, scope: kAudioUnitScope_Input, element: 1)
        try h.set(k3DMixerParam_Gain, Float(20 * log10(0.5)), scope: kAudioUnitScope_Input, element: 1)
        try h.initialize()
        var out = try h.render(frames: 64, channels: 2)
        XCTAssertEqual(out[0][5], 0.5, accuracy: 1e-6)
        XCTAssertEqual(out[1][5], 0.125, accuracy: 1e-6, "bus 1 at −6.02 dB")
        try h.set(k3DMixerParam_Gain, Float(20 * log10(0.5)), scope: kAudioUnitScope_Output)
        try h.set(k3DMixerParam_Enable, 0, scope: kAudioUnitScope_Input, element: 0)
        out = try h.render(frames: 64, channels: 2)
        XCTAssertEqual(out[0].map(abs).max(), 0, "bus 0 disabled")
        XCTAssertEqual(out[1][5], 0.0625, accuracy: 1e-6, "output gain −6.02 dB")
    }

    func testInputRateConversionAndPlaybackRateKeepTheSineAtItsTimeScaledFrequency() throws {
        // A 22.05 kHz input into a 44.1 kHz output: a 1 kHz sine stays at 1 kHz.
        let slow = try makeMixer(inputRate: 22_050)
        try slow.feed(bus: 0, [(0..<40_000).map { Float(0.5 * sin(2 * .pi * 1_000 * Double($0) / 22_050)) }])
        try slow.initialize()
        let converted = try slow.render(frames: 44_100, channels: 2)[0]
        let fit = PhaseFit(Array(converted[4_096..<36_864]), firstIndex: 4_096, frequency: 1_000, sampleRate: 44_100)
        let thdPlusNoise = 10 * log10(fit.residualPower / fit.signalPower)
        print("3D mixer 22.05→44.1 kHz, 1 kHz sine: amplitude \(fit.amplitude), THD+N \(thdPlusNoise) dB, delay \(fit.delayFrames) frames")
        XCTAssertEqual(fit.amplitude, 0.5 * 0.5.squareRoot(), accuracy: 0.002)
        XCTAssertLessThan(thdPlusNoise, -50, "cubic interpolation of a 1 kHz tone")
        XCTAssertLessThan(min(fit.delayFrames, 44.1 - fit.delayFrames), 0.01, "aligned: no latency")

        // Playback rate 2 at equal rates: the 1 kHz input comes out at 2 kHz, read sample by sample.
        let fast = try makeMixer()
        let input = (0..<100_000).map { Float(0.5 * sin(2 * .pi * 1_000 * Double($0) / 44_100)) }
        try fast.feed(bus: 0, [input])
        try fast.set(k3DMixerParam_PlaybackRate, 2, scope: kAudioUnitScope_Input)
        try fast.initialize()
        let doubled = try fast.render(frames: 8_192, channels: 2)[0]
        let gain = Float(0.5.squareRoot())
        for n in [0, 1, 100, 4_000, 8_191] {
            XCTAssertEqual(doubled[n], input[2 * n] * gain, accuracy: 1e-6, "output \(n) is input \(2 * n)")
        }
    }

    func testResetParameterInfoClassInfoAndRefusedFormats() throws {
        let h = try makeMixer(buses: 3)
        var info = AudioUnitParameterInfo()
        var size = UInt32(MemoryLayout<AudioUnitParameterInfo>.size)
        try AudioError.check(
            AudioUnitGetProperty(
                h.unit, kAudioUnitProperty_ParameterInfo, kAudioUnitScope_Input, k3DMixerParam_Azimuth,
                &info, &size), "info")
        XCTAssertEqual(info.unit, kAudioUnitParameterUnit_Degrees)
        XCTAssertEqual(info.minValue, -180)
        XCTAssertEqual(info.maxValue, 180)
        XCTAssertEqual(try h.get(k3DMixerParam_Distance, scope: kAudioUnitScope_Input, element: 2), 1, "default on the new bus")

        try h.set(k3DMixerParam_Azimuth, 30, scope: kAudioUnitScope_Input, element: 2)
        var state: UnsafeRawPointer?
        size = UInt32(MemoryLayout<UnsafeRawPointer>.size)
        try AudioError.check(AudioUnitGetProperty(h.unit, kAudioUnitProperty_ClassInfo, kAudioUnitScope_Global, 0, &state, &size), "save")
        try h.set(k3DMixerParam_Azimuth, -60, scope: kAudioUnitScope_Input, element: 2)
        try AudioError.check(AudioUnitSetProperty(h.unit, kAudioUnitProperty_ClassInfo, kAudioUnitScope_Global, 0, &state, size), "restore")
        Unmanaged<AnyObject>.fromOpaque(state!).release()
        XCTAssertEqual(try h.get(k3DMixerParam_Azimuth, scope: kAudioUnitScope_Input, element: 2), 30)

        var stereo = AudioStreamBasicDescription.canonical(sampleRate: 44_100, channels: 2)
        XCTAssertEqual(
            AudioUnitSetProperty(
                h.unit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Input, 0, &stereo,
                UInt32(MemoryLayout<AudioStreamBasicDescription>.size)), kAudioUnitErr_FormatNotSupported,
            "inputs are mono")

        // Reset: a bus read at half speed holds input in its FIFO; after a reset it is gone.
        try h.feed(bus: 0, [[Float](repeating: 0.5, count: 1_000)])
        try h.set(k3DMixerParam_PlaybackRate, 0.5, scope: kAudioUnitScope_Input)
        try h.initialize()
        _ = try h.render(frames: 512, channels: 2)
        try AudioError.check(AudioUnitReset(h.unit, kAudioUnitScope_Global, 0), "reset")
        h.sources[0].position = 1_000_000
        let after = try h.render(frames: 512, channels: 2)
        XCTAssertEqual(after[0].map(abs).max(), 0)
    }
}

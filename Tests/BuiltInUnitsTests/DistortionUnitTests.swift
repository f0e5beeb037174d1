import Foundation
import XCTest
import TestSupport

final class DistortionUnitTests: XCTestCase {
    /// Every stage off but the one under test: comb, decimation, polynomial and ring modulator
    /// mixed out (each mix of 0 passes its input exactly), soft clip at 0 dB, FinalMix 100 %.
    private func distortion(channels: [[Float]]) throws -> UnitHarness {
        let h = try UnitHarness(type: kAudioUnitType_Effect, subType: kAudioUnitSubType_Distortion)
        try h.feed(bus: 0, channels)
        for (id, value) in [
            (kDistortionParam_DelayMix, Float(0)), (kDistortionParam_DecimationMix, 0), (kDistortionParam_PolynomialMix, 0),
            (kDistortionParam_RingModMix, 0), (kDistortionParam_SoftClipGain, 0), (kDistortionParam_FinalMix, 100),
        ] { try h.set(id, value) }
        return h
    }

    private func noise(_ count: Int, seed: UInt32 = 3) -> [Float] {
        var s = seed
        return (0..<count).map { _ in
            s = s &* 1_664_525 &+ 1_013_904_223
            return Float(Int32(bitPattern: s)) / Float(Int32.max) * 0.9
        }
    }

    /// The soft clip as the unit computes it at 0 dB (g = 1).
    private func clip(_ y: Float) -> Float { Float(tanh(Double(y))) }

    func testFinalMixZeroPassesTheInputExactly() throws {
        let h = try UnitHarness(type: kAudioUnitType_Effect, subType: kAudioUnitSubType_Distortion)
        let x = noise(4096)
        try h.feed(bus: 0, [x, x.reversed()])
        try h.set(kDistortionParam_FinalMix, 0)
        try h.set(kDistortionParam_RingModMix, 100)  // everything else busy: it must not leak
        try h.set(kDistortionParam_SquaredTerm, 20)
        try h.initialize()
        let out = try h.render(frames: 4096, channels: 2)
        XCTAssertEqual(out[0], x)
        XCTAssertEqual(out[1], x.reversed())
    }

    /// Decimation 50 % holds every second sample (x₀ x₀ x₂ x₂ …) exactly; then the soft clip.
    func testDecimationHoldsEverySecondSampleExactly() throws {
        let x = noise(2048)
        let h = try distortion(channels: [x])
        try h.set(kDistortionParam_Decimation, 50)
        try h.set(kDistortionParam_DecimationMix, 100)
        try h.initialize()
        let out = try h.render(frames: 2048, channels: 2)[0]
        XCTAssertEqual(out, (0..<2048).map { clip(x[$0 & ~1]) })
    }

    /// Rounding 87 % rounds to 4 bits (a step of 1/16) exactly; Decimation 0 keeps every sample.
    func testRoundingQuantizesToTheStatedStepExactly() throws {
        let x = noise(2048, seed: 11)
        let h = try distortion(channels: [x])
        try h.set(kDistortionParam_Decimation, 0)
        try h.set(kDistortionParam_Rounding, 87)
        try h.set(kDistortionParam_DecimationMix, 100)
        try h.initialize()
        let out = try h.render(frames: 2048, channels: 2)[0]
        XCTAssertEqual(out, x.map { clip(($0 * 16).rounded() / 16) })
    }

    /// Linear·x + Squared·x² + Cubic·x³ on a sine of amplitude A: DC and 2nd harmonic S·A²/2, 3rd
    /// C·A³/4, fundamental L·A + 3C·A³/4. With the clip at −80 dB (tanh(10⁻⁴·y) = 10⁻⁴·y within
    /// 10⁻⁸) the DFT amplitudes of 32 whole periods match within 0.1 %.
    func testPolynomialTermsGiveTheExpectedHarmonics() throws {
        let n = 4096, period = 128, a: Float = 0.5
        let sine = (0..<n).map { a * Float(sin(2 * Double.pi * Double($0) / Double(period))) }
        let h = try distortion(channels: [sine])
        try h.set(kDistortionParam_LinearTerm, 0.5)
        try h.set(kDistortionParam_SquaredTerm, 2)
        try h.set(kDistortionParam_CubicTerm, 4)
        try h.set(kDistortionParam_PolynomialMix, 100)
        try h.set(kDistortionParam_SoftClipGain, -80)
        try h.initialize()
        let out = try h.render(frames: n, channels: 2)[0].map { $0 * 1e4 }
        func amplitude(_ harmonic: Int) -> Double {
            var re = 0.0, im = 0.0
            for (i, y) in out.enumerated() {
                let w = 2 * Double.pi * Double(harmonic * i) / Double(period)
                re += Double(y) * cos(w)
                im += Double(y) * sin(w)
            }
            return (harmonic == 0 ? 1 : 2) * (re * re + im * im).squareRoot() / Double(n)
        }
        let (l, s, c, amp) = (0.5, 2.0, 4.0, Double(a))
        XCTAssertEqual(amplitude(0), s * amp * amp / 2, accuracy: 1e-3 * s * amp * amp / 2)
        XCTAssertEqual(amplitude(1), l * amp + 3 * c * amp * amp * amp / 4, accuracy: 1e-3)
        XCTAssertEqual(amplitude(2), s * amp * amp / 2, accuracy: 1e-3 * s * amp * amp / 2)
        XCTAssertEqual(amplitude(3), c * amp * amp * amp / 4, accuracy: 1e-3 * c * amp * amp * amp / 4)
        XCTAssertLessThan(amplitude(4), 1e-4)
    }

    /// The comb: an impulse comes back after round(Delay × rate) frames, scaled by (1 − g) and
    /// the soft clip, g = 10^(−3·Delay·Decay) per repeat.
    func testDelayRepeatsAnImpulseAtTheDelay() throws {
        let h = try distortion(channels: [impulse(4096)])
        try h.set(kDistortionParam_Delay, 10)  // 441 frames
        try h.set(kDistortionParam_Decay, 20)  // g = 10^(−0.6)
        try h.set(kDistortionParam_DelayMix, 100)
        try h.initialize()
        let out = try h.render(frames: 4096, channels: 2)[0]
        let g = Float(pow(10, -3 * 0.010 * 20))
        XCTAssertEqual(out[0], 0)
        XCTAssertEqual(out[441], clip((1 - g) * 1), accuracy: 1e-6)
        XCTAssertEqual(out[882], clip((1 - g) * g), accuracy: 1e-6)
        XCTAssertEqual(out[440], 0)
    }

    /// Ring modulation of a constant 0.5 by (1 − b)·sin 2πf₁t + b·sin 2πf₂t (b = 25 %, 1 and 3 kHz),
    /// then the clip at 0 dB: within 10⁻⁶ of the formula over 8192 frames (the oscillators are
    /// rotating phasors in Double).
    func testRingModulatorMultipliesByTheBalancedCarriers() throws {
        let h = try distortion(channels: [[Float](repeating: 0.5, count: 8192)])
        try h.set(kDistortionParam_RingModFreq1, 1000)
        try h.set(kDistortionParam_RingModFreq2, 3000)
        try h.set(kDistortionParam_RingModBalance, 25)
        try h.set(kDistortionParam_RingModMix, 100)
        try h.initialize()
        let out = try h.render(frames: 8192, channels: 2)[0]
        for n in 0..<8192 {
            let t = 2 * Double.pi * Double(n) / 44_100
            let carrier = 0.75 * sin(1000 * t) + 0.25 * sin(3000 * t)
            XCTAssertEqual(out[n], Float(tanh(0.5 * carrier)), accuracy: 1e-6, "frame \(n)")
        }
    }

    func testFactoryPresetsSetParametersAndKeepTheMix() throws {
        let h = try UnitHarness(type: kAudioUnitType_Effect, subType: kAudioUnitSubType_Distortion)
        try h.set(kDistortionParam_FinalMix, 30)
        var preset = AUPreset(presetNumber: 12, presetName: nil)  // Multi-Echo 1
        try AudioError.check(
            AudioUnitSetProperty(
                h.unit, kAudioUnitProperty_PresentPreset, kAudioUnitScope_Global, 0, &preset, UInt32(MemoryLayout<AUPreset>.size)),
            "preset")
        XCTAssertEqual(try h.get(kDistortionParam_Delay), 150)
        XCTAssertEqual(try h.get(kDistortionParam_DelayMix), 50)
        XCTAssertEqual(try h.get(kDistortionParam_FinalMix), 30)
        preset.presetNumber = 22
        XCTAssertEqual(
            AudioUnitSetProperty(
                h.unit, kAudioUnitProperty_PresentPreset, kAudioUnitScope_Global, 0, &preset, UInt32(MemoryLayout<AUPreset>.size)),
            kAudioUnitErr_InvalidPropertyValue)
        // Every preset renders finite audio.
        try h.feed(bus: 0, [noise(8192), noise(8192, seed: 5)])
        try h.initialize()
        for number in Int32(0)...21 {
            preset.presetNumber = number
            try AudioError.check(
                AudioUnitSetProperty(
                    h.unit, kAudioUnitProperty_PresentPreset, kAudioUnitScope_Global, 0, &preset, UInt32(MemoryLayout<AUPreset>.size)),
                "preset \(number)")
            let out = try h.render(frames: 1024, channels: 2)
            XCTAssertTrue(out.allSatisfy { $0.allSatisfy { $0.isFinite && abs($0) <= 1 } }, "preset \(number)")
        }
    }
}

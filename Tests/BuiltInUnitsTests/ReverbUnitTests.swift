import XCTest
import TestSupport

/// RT60 of an impulse response by Schroeder backward integration: the energy decay curve's fall
/// from −5 dB to −35 dB (T30), doubled to 60 dB.
func schroederRT60(_ h: [Float], sampleRate: Double) -> Double {
    var remaining = [Double](repeating: 0, count: h.count + 1)
    for i in stride(from: h.count - 1, through: 0, by: -1) { remaining[i] = remaining[i + 1] + Double(h[i]) * Double(h[i]) }
    let total = remaining[0]
    func crossing(_ dB: Double) -> Double {
        let level = total * pow(10, dB / 10)
        let i = remaining.firstIndex { $0 < level } ?? h.count
        return Double(i) / sampleRate
    }
    return 2 * (crossing(-35) - crossing(-5))
}

/// Normalized correlation of two signals at lag 0.
func correlation(_ a: [Float], _ b: [Float]) -> Double {
    var ab = 0.0, aa = 0.0, bb = 0.0
    for i in 0..<min(a.count, b.count) {
        ab += Double(a[i]) * Double(b[i])
        aa += Double(a[i]) * Double(a[i])
        bb += Double(b[i]) * Double(b[i])
    }
    return ab / (aa * bb).squareRoot()
}

final class ReverbUnitTests: XCTestCase {
    private func reverb(decay: Float, atNyquist: Float? = nil) throws -> UnitHarness {
        let h = try UnitHarness(type: kAudioUnitType_Effect, subType: kAudioUnitSubType_Reverb2)
        try h.set(kReverb2Param_DecayTimeAt0Hz, decay)
        try h.set(kReverb2Param_DecayTimeAtNyquist, atNyquist ?? decay)
        return h
    }

    /// With equal decay times at 0 Hz and Nyquist every path round the network loses 60 dB in the
    /// decay time, so the impulse response's RT60 (Schroeder, T30 × 2) is that time: measured
    /// within 10 % at 0.5, 1 and 2.5 s, on both channels.
    func testImpulseTailDecaysInTheDecayTime() throws {
        for decay: Float in [0.5, 1, 2.5] {
            let h = try reverb(decay: decay)
            try h.feed(bus: 0, [impulse(64), impulse(64)])
            try h.initialize()
            let out = try h.render(frames: Int(Double(decay) * 2 * 44_100), channels: 2)
            for c in 0..<2 {
                let rt60 = schroederRT60(out[c], sampleRate: 44_100)
                XCTAssertEqual(rt60, Double(decay), accuracy: 0.1 * Double(decay), "channel \(c) at \(decay) s")
            }
        }
    }

    /// DecayTimeAtNyquist shorter than at 0 Hz: the high band dies first (first difference vs
    /// two-point sum of the same response).
    func testHighFrequenciesDecayFasterWhenNyquistDecayIsShorter() throws {
        let h = try reverb(decay: 2, atNyquist: 0.2)
        try h.feed(bus: 0, [impulse(64)])
        try h.initialize()
        let out = try h.render(frames: 4 * 44_100, channels: 2)[0]
        let high = (1..<out.count).map { out[$0] - out[$0 - 1] }, low = (1..<out.count).map { out[$0] + out[$0 - 1] }
        let rtHigh = schroederRT60(high, sampleRate: 44_100), rtLow = schroederRT60(low, sampleRate: 44_100)
        XCTAssertLessThan(rtHigh, 0.6 * rtLow, "high \(rtHigh) s, low \(rtLow) s")
        XCTAssertEqual(rtLow, 2, accuracy: 0.5)
    }

    func testDryMixPassesTheInputExactly() throws {
        let h = try UnitHarness(type: kAudioUnitType_Effect, subType: kAudioUnitSubType_Reverb2)
        var seed: UInt32 = 7
        let noise = (0..<4096).map { _ -> Float in
            seed = seed &* 1_664_525 &+ 1_013_904_223
            return Float(Int32(bitPattern: seed)) / Float(Int32.max)
        }
        try h.feed(bus: 0, [noise, noise.reversed()])
        try h.set(kReverb2Param_DryWetMix, 0)
        try h.initialize()
        let out = try h.render(frames: 4096, channels: 2)
        XCTAssertEqual(out[0], noise)
        XCTAssertEqual(out[1], noise.reversed())
    }

    /// Left and right take orthogonal sums of the lines: their tails differ and are nearly
    /// uncorrelated (|ρ| < 0.2 measured over the first second after an impulse).
    func testStereoTailsAreDecorrelated() throws {
        let h = try reverb(decay: 1.5)
        try h.feed(bus: 0, [impulse(64)])
        try h.initialize()
        let out = try h.render(frames: 44_100, channels: 2)
        XCTAssertNotEqual(out[0], out[1])
        let rho = correlation(out[0], out[1])
        XCTAssertLessThan(abs(rho), 0.2, "ρ = \(rho)")
    }

    func testFactoryPresetsSetTheirParametersAndChangeTheTail() throws {
        let h = try UnitHarness(type: kAudioUnitType_Effect, subType: kAudioUnitSubType_Reverb2)
        var presets: Unmanaged<CFArray>?
        var size = UInt32(MemoryLayout<Unmanaged<CFArray>?>.size)
        try AudioError.check(
            AudioUnitGetProperty(h.unit, kAudioUnitProperty_FactoryPresets, kAudioUnitScope_Global, 0, &presets, &size), "presets")
        XCTAssertEqual(CFArrayGetCount(presets!.takeRetainedValue()), 13)
        try h.set(kReverb2Param_DryWetMix, 40)
        func load(_ number: Int32) -> OSStatus {
            var preset = AUPreset(presetNumber: number, presetName: nil)
            return AudioUnitSetProperty(
                h.unit, kAudioUnitProperty_PresentPreset, kAudioUnitScope_Global, 0, &preset, UInt32(MemoryLayout<AUPreset>.size))
        }
        XCTAssertEqual(load(13), kAudioUnitErr_InvalidPropertyValue)
        XCTAssertEqual(load(8), noErr)  // Cathedral
        XCTAssertEqual(try h.get(kReverb2Param_DecayTimeAt0Hz), 5)
        XCTAssertEqual(try h.get(kReverb2Param_MaxDelayTime), 0.2, accuracy: 1e-7)
        XCTAssertEqual(try h.get(kReverb2Param_DryWetMix), 40, "the mix is the user's")
        try h.feed(bus: 0, [impulse(64)])
        try h.initialize()
        func lateEnergy() throws -> Double {
            let out = try h.render(frames: 2 * 44_100, channels: 2)[0]
            return out[44_100...].reduce(0) { $0 + Double($1) * Double($1) }
        }
        let cathedral = try lateEnergy()
        XCTAssertEqual(load(0), noErr)  // Small Room, while initialized
        XCTAssertEqual(try h.get(kReverb2Param_DecayTimeAt0Hz), 0.4, accuracy: 1e-7)
        try AudioError.check(AudioUnitReset(h.unit, kAudioUnitScope_Global, 0), "reset")
        h.sources[0].position = 0
        let small = try lateEnergy()
        XCTAssertGreaterThan(cathedral, 1e6 * small, "after 1 s the cathedral still sounds, the small room not")
    }
}

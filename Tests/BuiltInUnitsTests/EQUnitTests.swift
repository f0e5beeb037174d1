import XCTest
import TestSupport
import DSPKernels

final class EQUnitTests: XCTestCase {
    func testNBandEQMatchesTheBiquadDesignWithinATenthOfADecibel() throws {
        let h = try UnitHarness(type: kAudioUnitType_Effect, subType: kAudioUnitSubType_NBandEQ)
        try h.feed(bus: 0, [impulse(16_384)])
        let bands: [(BiquadFilterType, Double, Double, Double)] = [
            (.parametric, 1000, 6, 1), (.lowShelf, 200, -4, 1), (.butterworthHighPass, 40, 0, 1),
        ]
        for (b, band) in bands.enumerated() {
            let b = UInt32(b)
            try h.set(kAUNBandEQParam_BypassBand + b, 0)
            try h.set(kAUNBandEQParam_FilterType + b, Float(band.0.rawValue))
            try h.set(kAUNBandEQParam_Frequency + b, Float(band.1))
            try h.set(kAUNBandEQParam_Gain + b, Float(band.2))
            try h.set(kAUNBandEQParam_Bandwidth + b, Float(band.3))
        }
        try h.initialize()
        let response = try h.render(frames: 16_384, channels: 2)[0]
        let designs = try bands.map { try BiquadCoefficients(type: $0.0, frequency: $0.1, gain: $0.2, bandwidth: $0.3, sampleRate: 44_100) }
        let frequencies = (0..<20).map { 25 * pow(2, Double($0) * 0.5) }  // 25 Hz … 18.5 kHz
        for f in frequencies {
            let expected = designs.reduce(1.0) { $0 * $1.magnitude(atFrequency: f, sampleRate: 44_100) }
            let measured = measuredMagnitude(response, frequency: f, sampleRate: 44_100)
            XCTAssertEqual(20 * log10(measured), 20 * log10(expected), accuracy: 0.1, "at \(f) Hz")
        }
    }

    /// The preset number in a ClassInfo's extra state is the caller's: one beyond 32 bits is
    /// refused with kAudioUnitErr_InvalidPropertyValue (narrowing it trapped before), and the unit
    /// keeps its preset.
    func testIPodEQClassInfoWithAPresetNumberBeyond32BitsIsRefused() throws {
        let h = try UnitHarness(type: kAudioUnitType_Effect, subType: kAudioUnitSubType_AUiPodEQ)
        var ref: UnsafeRawPointer?
        var size = UInt32(MemoryLayout<UnsafeRawPointer>.size)
        try AudioError.check(AudioUnitGetProperty(h.unit, kAudioUnitProperty_ClassInfo, kAudioUnitScope_Global, 0, &ref, &size), "get")
        guard case .dictionary(var dict)? = CFBridge.value(ref) else { return XCTFail("ClassInfo is not a dictionary") }
        Unmanaged<AnyObject>.fromOpaque(ref!).release()
        for number: Int64 in [1 << 40, Int64(Int32.max) + 1, Int64(Int32.min) - 1, .min] {
            dict["auhost-state"] = .dictionary(["ipod-preset": .integer(number)])
            var plist: UnsafeRawPointer? = UnsafeRawPointer(CFBridge.propertyList(.dictionary(dict)).toOpaque())
            XCTAssertEqual(
                AudioUnitSetProperty(h.unit, kAudioUnitProperty_ClassInfo, kAudioUnitScope_Global, 0, &plist, size),
                kAudioUnitErr_InvalidPropertyValue, "\(number)")
            Unmanaged<AnyObject>.fromOpaque(plist!).release()
        }
        var preset = AUPreset()
        size = UInt32(MemoryLayout<AUPreset>.size)
        try AudioError.check(
            AudioUnitGetProperty(h.unit, kAudioUnitProperty_PresentPreset, kAudioUnitScope_Global, 0, &preset, &size), "get")
        preset.presetName?.release()
        XCTAssertNotEqual(preset.presetNumber, Int32(truncatingIfNeeded: Int64(1) << 40))
    }

    /// The EQs report how long their filters ring (TailTime), so AUEffectBase's OutputIsSilence
    /// does not cut the ringing off: one parametric band at 100 Hz, 0.1 octave wide, +12 dB, decays
    /// 60 dB in about ln(1000)·Q·A/(π·f) s (Q = 1/(2 sinh(ln 2/2 · 0.1)) ≈ 14.4; the cookbook's
    /// boost puts the poles at Q·A, A = 10^(12/40): 0.633 s), within 10 %; the bypassed bands add
    /// nothing; the iPod EQ's longest preset rings for a positive time.
    func testEQTailTimesAreTheirFiltersRingTimes() throws {
        let h = try UnitHarness(type: kAudioUnitType_Effect, subType: kAudioUnitSubType_NBandEQ)
        try h.set(kAUNBandEQParam_BypassBand, 0)
        try h.set(kAUNBandEQParam_FilterType, Float(kAUNBandEQFilterType_Parametric))
        try h.set(kAUNBandEQParam_Frequency, 100)
        try h.set(kAUNBandEQParam_Bandwidth, 0.1)
        try h.set(kAUNBandEQParam_Gain, 12)
        try h.feed(bus: 0, [[Float](repeating: 0, count: 1024), [Float](repeating: 0, count: 1024)])
        try h.initialize()
        _ = try h.render(frames: 64, channels: 2)  // the band's design is made at the first slice
        var tail = 0.0
        var size = UInt32(MemoryLayout<Double>.size)
        try AudioError.check(AudioUnitGetProperty(h.unit, kAudioUnitProperty_TailTime, kAudioUnitScope_Global, 0, &tail, &size), "tail")
        let poleQ = 1 / (2 * sinh(log(2.0) / 2 * 0.1)) * pow(10, 12.0 / 40)
        let expected = log(1000) * poleQ / (Double.pi * 100)
        XCTAssertEqual(tail, expected, accuracy: 0.1 * expected)

        let ipod = try UnitHarness(type: kAudioUnitType_Effect, subType: kAudioUnitSubType_AUiPodEQ)
        try ipod.initialize()
        try AudioError.check(AudioUnitGetProperty(ipod.unit, kAudioUnitProperty_TailTime, kAudioUnitScope_Global, 0, &tail, &size), "tail")
        XCTAssertGreaterThan(tail, 0.01)
        XCTAssertLessThan(tail, 5)
    }

    func testEveryIPodPresetLoadsByName() throws {
        let h = try UnitHarness(type: kAudioUnitType_Effect, subType: kAudioUnitSubType_AUiPodEQ)
        try h.feed(bus: 0, [impulse(8192)])
        try h.initialize()
        var array: Unmanaged<CFArray>?
        var size = UInt32(MemoryLayout<UnsafeRawPointer>.size)
        try AudioError.check(
            AudioUnitGetProperty(h.unit, kAudioUnitProperty_FactoryPresets, kAudioUnitScope_Global, 0, &array, &size), "presets")
        let presets = array!.takeRetainedValue()
        XCTAssertEqual(CFArrayGetCount(presets), 22)
        for i in 0..<CFArrayGetCount(presets) {
            var preset = CFArrayGetValueAtIndex(presets, i)!.assumingMemoryBound(to: AUPreset.self).pointee
            let name = String(cfString: preset.presetName?.takeUnretainedValue())!
            let model = try XCTUnwrap(IPodEQPreset(name: name), "documented name \(name)")
            try AudioError.check(
                AudioUnitSetProperty(
                    h.unit, kAudioUnitProperty_PresentPreset, kAudioUnitScope_Global, 0, &preset,
                    UInt32(MemoryLayout<AUPreset>.size)), "select \(name)")
            try AudioError.check(AudioUnitReset(h.unit, kAudioUnitScope_Global, 0), "reset")
            h.sources[0].position = 0
            let response = try h.render(frames: 8192, channels: 2)[0]
            let designs = model.bandCoefficients(sampleRate: 44_100).compactMap { $0 }
            for f in [100.0, 1000, 5000] {
                let expected = designs.reduce(1.0) { $0 * $1.magnitude(atFrequency: f, sampleRate: 44_100) }
                XCTAssertEqual(
                    20 * log10(measuredMagnitude(response, frequency: f, sampleRate: 44_100)), 20 * log10(expected),
                    accuracy: 0.1, "\(name) at \(f) Hz")
            }
        }
    }
}

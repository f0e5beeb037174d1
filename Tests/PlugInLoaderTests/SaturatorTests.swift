import AUHost
import XCTest

/// The saturator plug-in: bounded output, aliasing of a high sine, latency, dry alignment, state.
final class SaturatorTests: XCTestCase {
    enum P { static let drive: AudioUnitParameterID = 0, output: AudioUnitParameterID = 1, mix: AudioUnitParameterID = 2 }

    func testOutputIsBoundedForAnyInputAndDrive() throws {
        // +12 dBFS sine and a full-scale square, at the most drive.
        let loud = sine(1000, amplitude: 4, frames: 8192)
        let square = (0..<8192).map { Float(($0 / 50) % 2 == 0 ? 1 : -1) }
        let h = try EffectHarness(try BuiltPlugIns.component("satu"), input: [loud, square])
        try h.set(P.drive, 48)
        try h.set(P.output, 0)
        let out = try h.render(8192)
        let sinePeak = out[0].map(abs).max() ?? 0, squarePeak = out[1].map(abs).max() ?? 0
        print("saturator peaks at drive 48 dB: \(sinePeak) (+12 dBFS sine), \(squarePeak) (full-scale square)")
        // The curve is bounded by 1, so the output is bounded by the decimation filter's Σ|h|
        // (1.831 for the 257-tap Kaiser low-pass) × the output gain, whatever the input.
        // Driven this hard both come out nearly square, so both show the filter's ringing on the
        // clipped edges (measured about 1.4).
        XCTAssertLessThanOrEqual(squarePeak, 1.831)
        XCTAssertLessThanOrEqual(sinePeak, 1.831)
        XCTAssertGreaterThan(sinePeak, 0.9)
    }

    /// A 10 kHz sine driven hard makes harmonics at 30, 50 … kHz, all above the 22.05 kHz Nyquist
    /// frequency: any output other than the 10 kHz tone is aliasing. With 8× oversampling it stays
    /// below −65 dB relative to the tone (measured −70.5 dB: at this drive the curve is nearly a
    /// hard clipper, whose harmonics above 8 × 22 kHz fold back); the same curve without
    /// oversampling, computed here, aliases at −8 dB.
    func testAliasingOfAHighSineStaysBelowMinus65dB() throws {
        let n = 8192, bin = 1858  // 1858 × 44100 / 8192 = 10002.7 Hz, bin-centred
        let frequency = Double(bin) * 44_100 / Double(n)
        let input = sine(frequency, amplitude: 0.5, frames: n + 1024)
        let h = try EffectHarness(try BuiltPlugIns.component("satu"), channels: 1, input: [input])
        try h.set(P.drive, 24)
        let out = Array(try h.render(n + 1024)[0][1024...])
        let aliasing = residualRelativeToTone(out, bin: bin)

        let naive = Array(input[1024...]).map { softClipReference($0 * 15.848_932) }
        let naiveAliasing = residualRelativeToTone(naive, bin: bin)
        print("saturator aliasing at 10 kHz, drive 24 dB: \(aliasing) dB with 8× oversampling, \(naiveAliasing) dB without")
        XCTAssertLessThan(aliasing, -65)
        XCTAssertGreaterThan(naiveAliasing, -40, "the reference without oversampling does alias (the measure can tell)")
    }

    func testReportsItsLatencyAndDryPathIsAlignedToIt() throws {
        let input = sine(500, amplitude: 0.5, frames: 2048)
        let h = try EffectHarness(try BuiltPlugIns.component("satu"), channels: 1, input: [input])
        var latency: Float64 = 0
        var size = UInt32(8)
        XCTAssertEqual(AudioUnitGetProperty(h.unit, kAudioUnitProperty_Latency, kAudioUnitScope_Global, 0, &latency, &size), noErr)
        XCTAssertEqual(latency, 32 / 44_100, accuracy: 1e-12)
        try h.set(P.mix, 0)
        try h.set(P.output, 0)
        let out = try h.render(2048)[0]
        XCTAssertEqual(Array(out[0..<32]), Array(repeating: 0, count: 32))
        XCTAssertEqual(Array(out[32...]), Array(input[0..<(2048 - 32)]), "mix 0 is the input delayed by exactly 32 frames")
    }

    func testStateRoundTripsThroughClassInfo() throws {
        let input = [sine(200, frames: 1024)]
        let a = try EffectHarness(try BuiltPlugIns.component("satu"), channels: 1, input: input)
        try a.set(P.drive, 33)
        try a.set(P.output, -9)
        try a.set(P.mix, 70)
        let state = try a.classInfo()
        defer { Unmanaged<AnyObject>.fromOpaque(state).release() }
        let b = try EffectHarness(try BuiltPlugIns.component("satu"), channels: 1, input: input)
        try b.restore(classInfo: state)
        XCTAssertEqual([try b.get(P.drive), try b.get(P.output), try b.get(P.mix)], [33, -9, 70])
        XCTAssertEqual(try a.render(1024), try b.render(1024))
    }
}

/// The plug-in's curve, for the comparison without oversampling.
func softClipReference(_ x: Float) -> Float {
    if x >= 3 { return 1 }
    if x <= -3 { return -1 }
    return x * (27 + x * x) / (27 + 9 * x * x)
}

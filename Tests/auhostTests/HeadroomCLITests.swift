import Foundation
import XCTest

/// What a render keeps past full scale: a float file every value (as Apple's ExtAudioFile and
/// libsndfile write it), an integer file what its bits hold, with the clipped count said once.
final class HeadroomCLITests: XCTestCase {
    let ampURI = "http://lv2plug.in/plugins/eg-amp"

    /// A 0.5 sine through eg-amp at +12 dB peaks near 2.0 in a float WAV: each sample is the input
    /// times 10^(12/20) as the plug-in computes it in Float, none clamped to 1.
    func testFloatWAVKeepsValuesAboveFullScale() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let input = dir.appendingPathComponent("in.wav").path, output = dir.appendingPathComponent("out.wav").path
        let samples = (0..<4_800).map { Float(sin(Double($0) * 2 * Double.pi * 440 / 48_000)) * 0.5 }
        try WAV.writeFloat(samples, rate: 48_000, to: input)
        let r = try CLI.run(["render", "-i", input, "-o", output, "-p", "gain=12", ampURI])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertFalse(r.stderr.contains("clipped"), r.stderr)
        let out = try WAV.readFloat(output)
        XCTAssertEqual(out.count, samples.count)
        let gain = Float(pow(10.0, 12.0 / 20.0))
        for i in out.indices { XCTAssertEqual(out[i], samples[i] * gain, accuracy: 1e-5, "frame \(i)") }
        XCTAssertGreaterThan(out.map(abs).max()!, 1.98)
    }

    /// A graph of two eg-amps at +12 dB each renders a 0.5 sine at about 8 times full scale into a float WAV.
    func testGraphIntoFloatWAVKeepsValuesAboveFullScale() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let input = dir.appendingPathComponent("in.wav").path, output = dir.appendingPathComponent("out.wav").path
        let graph = dir.appendingPathComponent("loud.json").path
        let samples = (0..<4_800).map { Float(sin(Double($0) * 2 * Double.pi * 440 / 48_000)) * 0.5 }
        try WAV.writeFloat(samples, rate: 48_000, to: input)
        try """
        {"channels": 1, "nodes": [{"name": "a", "unit": "\(ampURI)", "parameters": {"gain": 12}},
                                  {"name": "b", "unit": "\(ampURI)", "parameters": {"gain": 12}}],
         "connections": [{"from": "a", "to": "b"}, {"from": "b", "to": "output"}], "output": {"file": "\(output)"}}
        """.write(toFile: graph, atomically: true, encoding: .utf8)
        let r = try CLI.run(["render", "-i", input, "-o", output, "--graph", graph])
        XCTAssertEqual(r.status, 0, r.stderr)
        let out = try WAV.readFloat(output)
        let gain = Float(pow(10.0, 12.0 / 20.0))
        XCTAssertEqual(out.map(abs).max()!, samples.map(abs).max()! * gain * gain, accuracy: 1e-4)
    }

    /// A 16-bit input renders to a 16-bit file: +6 dB carries exactly the 200 samples at ±30000
    /// past full scale (about ±59860); they are clamped to the integer range, and auhost says so
    /// once with their count. The quiet samples (1000 → about 1995) are kept.
    func testIntegerWAVClipsAndCountsTheClippedSamples() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let input = dir.appendingPathComponent("in.wav").path, output = dir.appendingPathComponent("out.wav").path
        let samples: [Int16] = (0..<2_000).map { i in i % 10 == 0 ? (i % 20 == 0 ? 30_000 : -30_000) : 1_000 }
        try WAV.writeInt16(samples, rate: 48_000, to: input)
        let r = try CLI.run(["render", "-i", input, "-o", output, "-p", "gain=6", ampURI])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stderr.components(separatedBy: "clipped").count - 1, 1, "said once: \(r.stderr)")
        XCTAssertTrue(r.stderr.contains("200 samples clipped at 16-bit full scale"), r.stderr)
        let out = try WAV.readInt16(output)
        XCTAssertEqual(out.count, samples.count)
        for i in out.indices {
            switch samples[i] {
            case 30_000: XCTAssertEqual(out[i], Int16.max, "frame \(i)")
            case -30_000: XCTAssertEqual(out[i], Int16.min, "frame \(i)")
            default: XCTAssertEqual(Double(out[i]), 1_000 * pow(10, 6.0 / 20), accuracy: 1, "frame \(i)")
            }
        }
    }
}

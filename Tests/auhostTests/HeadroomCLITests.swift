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

extension WAV {
    static func writeInt16(_ samples: [Int16], rate: Int, to path: String) throws {
        var data = Data()
        func u32(_ v: Int) { withUnsafeBytes(of: UInt32(v).littleEndian) { data.append(contentsOf: $0) } }
        func u16(_ v: Int) { withUnsafeBytes(of: UInt16(v).littleEndian) { data.append(contentsOf: $0) } }
        data.append(contentsOf: Array("RIFF".utf8)); u32(36 + samples.count * 2); data.append(contentsOf: Array("WAVEfmt ".utf8))
        u32(16); u16(1); u16(1); u32(rate); u32(rate * 2); u16(2); u16(16)
        data.append(contentsOf: Array("data".utf8)); u32(samples.count * 2)
        for s in samples { withUnsafeBytes(of: s.littleEndian) { data.append(contentsOf: $0) } }
        try data.write(to: URL(fileURLWithPath: path))
    }

    /// The samples of a 16-bit mono WAV's data chunk.
    static func readInt16(_ path: String) throws -> [Int16] {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        func u32(_ i: Int) -> Int { Int(bytes[i]) | Int(bytes[i + 1]) << 8 | Int(bytes[i + 2]) << 16 | Int(bytes[i + 3]) << 24 }
        var i = 12
        while i + 8 <= bytes.count {
            let id = String(decoding: bytes[i..<i + 4], as: UTF8.self), size = u32(i + 4)
            if id == "data" {
                return stride(from: i + 8, to: i + 8 + size, by: 2).map { Int16(bitPattern: UInt16(bytes[$0]) | UInt16(bytes[$0 + 1]) << 8) }
            }
            i += 8 + size + (size & 1)
        }
        throw CocoaError(.fileReadCorruptFile)
    }
}

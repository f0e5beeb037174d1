import Foundation
import XCTest

/// `auhost play` through the real binary, against ALSA's `file` plugin over `null` (a real PCM
/// without a sound card) configured in a temporary HOME's .asoundrc. `null` has no clock, so the
/// device runs ahead of the wall clock and the file ends in whole periods of silence after the
/// played frames; the default period (256 frames × 2) is pinned by the ALSA I/O unit.
final class PlayCLITests: XCTestCase {
    let ampURI = "http://lv2plug.in/plugins/eg-amp"
    var home: URL!

    override func setUpWithError() throws {
        home = try CLI.temporaryDirectory()
        try """
        pcm.cli_raw_out {
            type file
            slave.pcm "null"
            file "\(home.path)/out.raw"
            format "raw"
        }
        """.write(to: home.appendingPathComponent(".asoundrc"), atomically: true, encoding: .utf8)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: home) }

    func run(_ arguments: [String]) throws -> CLI.Result {
        try CLI.run(arguments, environment: ["HOME": home.path, "XDG_CONFIG_HOME": home.path])
    }

    /// The device's raw FLOAT_LE samples (mono).
    func played() throws -> [Float] {
        let bytes = [UInt8](try Data(contentsOf: home.appendingPathComponent("out.raw")))
        return stride(from: 0, to: bytes.count - 3, by: 4).map { i in
            Float(bitPattern: UInt32(bytes[i]) | UInt32(bytes[i + 1]) << 8 | UInt32(bytes[i + 2]) << 16 | UInt32(bytes[i + 3]) << 24)
        }
    }

    func assertPlayed(_ samples: [Float], times gain: Float, file: StaticString = #filePath, line: UInt = #line) throws {
        let out = try played()
        XCTAssertGreaterThanOrEqual(out.count, samples.count, file: file, line: line)
        XCTAssertEqual(out.count % 256, 0, "whole periods reach the device", file: file, line: line)
        for i in 0..<samples.count where abs(out[i] - samples[i] * gain) > 1e-6 {
            XCTFail("frame \(i): \(out[i]) is not \(samples[i] * gain)", file: file, line: line)
            return
        }
        XCTAssertEqual(out[samples.count...].map(abs).max() ?? 0, 0, "silence after the file", file: file, line: line)
    }

    func testPlayAFileThroughAUnitOnTheDevice() throws {
        let samples = (0..<3_000).map { Float($0 % 100) / 200 }
        let input = home.appendingPathComponent("in.wav").path
        try WAV.writeFloat(samples, rate: 48_000, to: input)
        let r = try run(["play", input, ampURI, "-p", "gain=-6", "--device", "cli_raw_out"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdout.contains("on cli_raw_out (1 ch, 48000 Hz; 0 xruns)"), r.stdout)
        try assertPlayed(samples, times: Float(pow(10.0, -6.0 / 20.0)))
    }

    /// A graph whose head is an output file plays on the device --device names.
    func testPlayAFileThroughAGraphFile() throws {
        let samples = (0..<2_000).map { Float(sin(Double($0) * 0.03)) * 0.25 }
        let input = home.appendingPathComponent("in.wav").path
        try WAV.writeFloat(samples, rate: 48_000, to: input)
        let graph = home.appendingPathComponent("g.json").path
        try """
        {"channels": 1, "nodes": [{"unit": "\(ampURI)", "parameters": {"gain": -12}}, {"unit": "\(ampURI)", "parameters": {"gain": 6}}],
         "connections": [{"from": "node1", "to": "node2"}], "output": {"file": "never.wav"}}
        """.write(toFile: graph, atomically: true, encoding: .utf8)
        let r = try run(["play", input, "--graph", graph, "--device", "cli_raw_out"])
        XCTAssertEqual(r.status, 0, r.stderr)
        try assertPlayed(samples, times: Float(pow(10.0, -12.0 / 20.0)) * Float(pow(10.0, 6.0 / 20.0)))
    }

    func testPlayOnAMissingDeviceSaysSo() throws {
        let input = home.appendingPathComponent("in.wav").path
        try WAV.writeFloat([0, 0.5, 0], rate: 48_000, to: input)
        let r = try run(["play", input, ampURI, "--device", "no_such_pcm"])
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.stderr.contains("no_such_pcm"), r.stderr)
    }
}

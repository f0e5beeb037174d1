import Foundation
import TestSupport
import XCTest

/// x42's convoLV2 (x42-plugins) takes its impulse response only by path, through patch:Set
/// (patch:writable, atom:Path), loads it in its worker and keeps it in its state. Through the
/// real binary: `-p impulse=FILE` convolves with it (convoLV2 scales an IR by its default IR gain,
/// 0.5); a preset saved with it restores it, so the preset renders the same convolution from
/// the first frame. FFT convolution: within 1e-6 of the direct sum.
final class ConvolverPatchCLITests: XCTestCase {
    let convolver = "http://gareus.org/oss/lv2/convoLV2#Mono"
    var dir: URL!
    var environment: [String: String] = [:]

    override func setUpWithError() throws {
        guard FileManager.default.fileExists(atPath: "/usr/lib/lv2/convo.lv2") else {
            throw XCTSkip("x42-plugins is not installed (make test installs it: scripts/debian-packages.txt)")
        }
        dir = try CLI.temporaryDirectory()
        // An LV2_PATH of the convolver's bundle and the presets saved here only.
        let plugins = dir.appendingPathComponent("lv2"), presets = dir.appendingPathComponent("presets")
        try FileManager.default.createDirectory(at: plugins, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: presets, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: plugins.path + "/convo.lv2", withDestinationPath: "/usr/lib/lv2/convo.lv2")
        environment = ["LV2_PATH": plugins.path + ":" + presets.path]
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: dir) }

    func path(_ name: String) -> String { dir.appendingPathComponent(name).path }

    func testTheImpulseResponseGoesByPathAndSurvivesInAPreset() throws {
        var ir = [Float](repeating: 0, count: 64)
        (ir[0], ir[10], ir[20]) = (0.125, 0.5, -0.25)
        try WAV.writeFloat(ir, rate: 48_000, to: path("ir.wav"))
        var input = [Float](repeating: 0, count: 24_000)
        for k in stride(from: 100, to: 24_000, by: 8_000) { input[k] = k == 100 ? 1 : 0.5 }
        try WAV.writeFloat(input, rate: 48_000, to: path("in.wav"))
        var expected = [Float](repeating: 0, count: input.count)
        for n in expected.indices {
            for k in 0..<min(ir.count, n + 1) { expected[n] += input[n - k] * 0.5 * ir[k] }
        }

        let direct = try CLI.run(
            ["render", "-i", path("in.wav"), "-o", path("direct.wav"), "--tail", "0", convolver, "-p", "impulse=\(path("ir.wav"))"],
            environment: environment)
        XCTAssertEqual(direct.status, 0, direct.stderr)
        // The IR arrives with the first run and loads in the worker: from the second impulse on.
        let byPath = try WAV.readFloat(path("direct.wav"))
        XCTAssertEqual(byPath.count, input.count)
        let settled = 4_096
        XCTAssertLessThan(
            zip(byPath[settled...], expected[settled...]).map { abs($0 - $1) }.max() ?? 1, 1e-6, "the convolution with 0.5 × IR")

        let saved = try CLI.run(
            ["preset", "save", convolver, "With IR", "-p", "impulse=\(path("ir.wav"))", "--into", path("presets")], environment: environment
        )
        XCTAssertEqual(saved.status, 0, saved.stderr)
        let restored = try CLI.run(
            ["render", "-i", path("in.wav"), "-o", path("preset.wav"), "--tail", "0", convolver, "--preset", "With IR"],
            environment: environment)
        XCTAssertEqual(restored.status, 0, restored.stderr)
        let fromPreset = try WAV.readFloat(path("preset.wav"))
        XCTAssertLessThan(zip(fromPreset, expected).map { abs($0 - $1) }.max() ?? 1, 1e-6, "the preset's IR from the first frame")
    }
}

import Foundation
import XCTest

/// The `auhost` binary as a user runs it: outputs, argument errors and exit codes.
final class CLITests: XCTestCase {
    let ampURI = "http://lv2plug.in/plugins/eg-amp"

    func testListShowsBuiltInAndLV2UnitsWithOrigins() throws {
        let r = try CLI.run(["list"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdout.contains("aufx dely AUHs  -  AUHost: Delay  (built-in)"), r.stdout)
        XCTAssertTrue(r.stdout.contains("lv2 \(ampURI) file:///"), "eg-amp's URI and bundle are listed")
    }

    func testListFiltersByTypeAndPrintsJSON() throws {
        let r = try CLI.run(["list", "auou", "--json"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let rows = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [[String: String]])
        XCTAssertFalse(rows.isEmpty)
        XCTAssertTrue(rows.allSatisfy { $0["type"] == "auou" })
        XCTAssertTrue(rows.contains { $0["subtype"] == "genr" && $0["manufacturer"] == "AUHs" })
    }

    func testListRefusesABadCodeWithUsageExitCode() throws {
        let r = try CLI.run(["list", "toolong"])
        XCTAssertEqual(r.status, 64, "ArgumentParser's validation exit code")
        XCTAssertTrue(r.stderr.contains("\"toolong\" is not a four-character code"), r.stderr)
    }

    func testInfoByTripleURIAndName() throws {
        let delay = try CLI.run(["info", "aufx dely AUHs"])
        XCTAssertEqual(delay.status, 0, delay.stderr)
        XCTAssertTrue(delay.stdout.contains("1  Delay Time  [0.0 … 2.0] default 1.0 seconds"), delay.stdout)
        XCTAssertTrue(delay.stdout.contains("origin:      built-in"))
        let amp = try CLI.run(["info", ampURI])
        XCTAssertEqual(amp.status, 0, amp.stderr)
        XCTAssertTrue(amp.stdout.contains("0  Gain  [-90.0 … 24.0] default 0.0 dB"), amp.stdout)
        let byName = try CLI.run(["info", "ipod eq"])
        XCTAssertEqual(byName.status, 0, byName.stderr)
        XCTAssertTrue(byName.stdout.contains("aufx ipeq AUHs"))
        XCTAssertTrue(byName.stdout.contains("Bass Booster"), "presets are listed")
    }

    func testUnknownUnitSuggestsNearestNames() throws {
        let r = try CLI.run(["info", "delya"])
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.stderr.contains("No unit is called \"delya\". Nearest names:"), r.stderr)
        XCTAssertTrue(r.stderr.contains("aufx dely AUHs  AUHost: Delay"), r.stderr)
    }

    /// eg-amp at -6 dB: every output sample is the input times 10^(-6/20) in Float, as the plug-in computes it.
    func testRenderAppliesAnLV2PluginWithAParameter() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let input = dir.appendingPathComponent("in.wav").path, output = dir.appendingPathComponent("out.wav").path
        let samples = (0..<10_000).map { Float(sin(Double($0) * 0.01)) * 0.5 }
        try WAV.writeFloat(samples, rate: 48_000, to: input)
        let r = try CLI.run(["render", "-i", input, "-o", output, "-p", "gain=-6", "--block", "1000", ampURI])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertFalse(r.stdout.contains("\r"), "no progress bar when stdout is a pipe")
        let out = try WAV.readFloat(output)
        XCTAssertEqual(out.count, samples.count)
        let gain = Float(pow(10.0, -6.0 / 20.0))
        for i in stride(from: 0, to: samples.count, by: 97) { XCTAssertEqual(out[i], samples[i] * gain, accuracy: 1e-6) }
    }

    /// A plug-in with a side-chain input (swh SC3: a second input element) renders: the rig sets
    /// the file's rate on every element (a plug-in runs at one rate; before, it refused to
    /// initialize with "every element must use 48000.0 Hz", as 80 of the large set's plug-ins did).
    func testRenderTakesAPlugInWithASideChainInput() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let input = dir.appendingPathComponent("in.wav").path, output = dir.appendingPathComponent("out.wav").path
        try WAV.writeFloat((0..<4_800).map { Float(sin(Double($0) * 0.05)) * 0.5 }, rate: 48_000, to: input)
        let r = try CLI.run(["render", "-i", input, "-o", output, "--tail", "0", "http://plugin.org.uk/swh-plugins/sc3"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdout.contains("Rendered 4800 frames"), r.stdout)
        XCTAssertTrue(FileManager.default.fileExists(atPath: output))
    }

    func testRenderRefusesAnUnknownParameterAndAMissingInput() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let input = dir.appendingPathComponent("in.wav").path
        try WAV.writeFloat([0, 0.5], rate: 48_000, to: input)
        let bad = try CLI.run(["render", "-i", input, "-o", dir.appendingPathComponent("o.wav").path, "-p", "volume=1", ampURI])
        XCTAssertEqual(bad.status, 1)
        XCTAssertTrue(bad.stderr.contains("has no parameter \"volume\"; its parameters: Gain"), bad.stderr)
        let missing = try CLI.run([
            "render", "-i", dir.appendingPathComponent("nope.wav").path, "-o", dir.appendingPathComponent("o.wav").path, ampURI,
        ])
        XCTAssertEqual(missing.status, 1)
        XCTAssertTrue(missing.stderr.contains("There is no file at"), missing.stderr)
        let noType = try CLI.run(["render", "-i", input, "-o", dir.appendingPathComponent("o.xyz").path, ampURI])
        XCTAssertEqual(noType.status, 64)
    }

    func testValidatePassesAGoodUnit() throws {
        let r = try CLI.run(["validate", ampURI, "--json"])
        XCTAssertEqual(r.status, 0, r.stdout + r.stderr)
        let report = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        XCTAssertEqual((report["summary"] as? [String: Int])?["failed"], 0)
        let checks = try XCTUnwrap(((report["units"] as? [[String: Any]])?.first)?["checks"] as? [[String: String]])
        XCTAssertTrue(checks.contains { $0["check"] == "too many frames" && $0["outcome"] == "PASS" })
        XCTAssertEqual(checks.count, 13)
    }

    /// The broken fixture bundles (scripts/build-lv2-fixtures.sh): the plug-in that raises SIGSEGV in run()
    /// is a FAIL naming the signal, the run goes on, and the exit status is 1.
    func testValidateReportsACrashingPluginAsAFail() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let build = Process()
        build.executableURL = URL(fileURLWithPath: "/bin/sh")
        build.arguments = [root.appendingPathComponent("scripts/build-lv2-fixtures.sh").path]
        let pipe = Pipe()
        build.standardOutput = pipe
        try build.run()
        let fixtures = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).trimmingCharacters(
            in: .whitespacesAndNewlines)
        build.waitUntilExit()
        XCTAssertEqual(build.terminationStatus, 0)
        defer { try? FileManager.default.removeItem(atPath: fixtures) }
        let r = try CLI.run(["validate", "urn:auhost:fixture:crash-run", "--json"], environment: ["LV2_PATH": fixtures])
        XCTAssertEqual(r.status, 1)
        let report = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any], r.stdout + r.stderr)
        let unit = try XCTUnwrap((report["units"] as? [[String: Any]])?.first)
        XCTAssertEqual(unit["result"] as? String, "FAIL")
        let checks = try XCTUnwrap(unit["checks"] as? [[String: String]])
        XCTAssertTrue(checks.contains { $0["check"] == "process" && $0["reason"]!.contains("signal 11") }, "\(checks)")
        XCTAssertTrue(checks.contains { $0["check"] == "open time" && $0["outcome"] == "PASS" }, "checks before the crash are kept")
    }

    /// The sliced-render check feeds the same signal however it slices: the built-in delay (whose
    /// slice invariance its own tests show) passes it. The rig once fed each slicing other noise.
    func testSlicedRenderCheckPassesASliceInvariantUnit() throws {
        let r = try CLI.run(["validate", "aufx dely AUHs", "--json"])
        XCTAssertEqual(r.status, 0, r.stdout + r.stderr)
        let report = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        let checks = try XCTUnwrap(((report["units"] as? [[String: Any]])?.first)?["checks"] as? [[String: String]])
        let sliced = try XCTUnwrap(checks.first { $0["check"] == "render sliced at 64" })
        XCTAssertEqual(sliced["outcome"], "PASS", sliced["reason"] ?? "")
    }

    func testValidateNeedsAUnitOrAll() throws {
        let r = try CLI.run(["validate"])
        XCTAssertEqual(r.status, 64)
        XCTAssertTrue(r.stderr.contains("Name one UNIT or pass --all"), r.stderr)
    }

    func testCompletionScriptIsGenerated() throws {
        let r = try CLI.run(["--generate-completion-script", "bash"])
        XCTAssertEqual(r.status, 0)
        XCTAssertTrue(r.stdout.contains("validate"), "subcommands are completed")
    }
}

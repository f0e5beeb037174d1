import Foundation
import XCTest

/// `--isolate` and `"isolated": true` (AUHostIsolation.h) as a user meets them: the same output as
/// in process, and a crashing plug-in reported, restarted and silenced instead of ending auhost.
final class IsolateCLITests: XCTestCase {
    let ampURI = "http://lv2plug.in/plugins/eg-amp"

    func testAnIsolatedGraphNodeRendersTheSameFileAsInProcess() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let samples = (0..<20_000).map { Float(sin(Double($0) * 0.013)) * 0.5 }
        try WAV.writeFloat(samples, rate: 48_000, to: dir.appendingPathComponent("in.wav").path)
        func graph(isolated: Bool, output: String) throws -> String {
            let path = dir.appendingPathComponent("g-\(isolated).json").path
            try """
            {
              "channels": 1, "input": "in.wav",
              "nodes": [{"name": "amp", "unit": "\(ampURI)", "parameters": {"gain": -6}, "isolated": \(isolated)}],
              "output": {"file": "\(output)"}
            }
            """.write(toFile: path, atomically: true, encoding: .utf8)
            return path
        }
        let local = try CLI.run(["run", try graph(isolated: false, output: "local.wav")])
        XCTAssertEqual(local.status, 0, local.stderr)
        let isolated = try CLI.run(["run", try graph(isolated: true, output: "isolated.wav")])
        XCTAssertEqual(isolated.status, 0, isolated.stderr)
        XCTAssertFalse(isolated.stderr.contains("auhost:"), "no fault: \(isolated.stderr)")
        let a = try WAV.readFloat(dir.appendingPathComponent("local.wav").path)
        let b = try WAV.readFloat(dir.appendingPathComponent("isolated.wav").path)
        XCTAssertEqual(a.count, samples.count)
        XCTAssertEqual(b.count, a.count)
        XCTAssertEqual(zip(a, b).filter { $0.bitPattern != $1.bitPattern }.count, 0, "the isolated node's output is the same")
    }

    func testIsolatedMustBeABooleanAndNamesItsLine() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("g.json").path
        try "{\n  \"nodes\": [\n    {\"unit\": \"aufx dely AUHs\", \"isolated\": \"yes\"}\n  ],\n  \"output\": {\"file\": \"o.wav\"}\n}"
            .write(toFile: path, atomically: true, encoding: .utf8)
        let r = try CLI.run(["graph", "show", path])
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.stderr.contains("g.json:3: \"isolated\" must be true or false, not a string"), r.stderr)
    }

    /// The fixture that raises SIGSEGV in every run(): auhost says so, restarts it three times,
    /// then leaves it silent, and writes the whole (silent) file with exit status 0.
    func testRenderIsolateSurvivesACrashingPlugin() throws {
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
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let input = dir.appendingPathComponent("in.wav").path, output = dir.appendingPathComponent("out.wav").path
        try WAV.writeFloat((0..<8_192).map { Float($0 % 64) / 128 }, rate: 48_000, to: input)
        let r = try CLI.run(
            ["render", "--isolate", "--block", "512", "-i", input, "-o", output, "urn:auhost:fixture:crash-run"],
            environment: ["LV2_PATH": fixtures])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stderr.contains("crashed: its process ended on signal 11"), r.stderr)
        XCTAssertTrue(r.stderr.contains("restarted (1 of 3)"), r.stderr)
        XCTAssertTrue(r.stderr.contains("restarted (3 of 3)"), r.stderr)
        XCTAssertTrue(r.stderr.contains("it stays silent"), r.stderr)
        let out = try WAV.readFloat(output)
        XCTAssertEqual(out.count, 8_192)
        XCTAssertEqual(out.map(abs).max(), 0, "the crashing unit is silent")
    }
}

import ALSATestSupport
import Foundation
import TestSupport
import XCTest

/// `auhost play --jack`, `run --jack` and `capture --jack` through the real binary against jackd's dummy backend:
/// the JACK I/O unit is the head, a 44.1 kHz file plays at the server's 48 kHz for its length,
/// and a missing server is named in the error.
final class JACKCLITests: XCTestCase {
    let ampURI = "http://lv2plug.in/plugins/eg-amp"

    func testPlayAndRunOnJACKAtTheServersRate() throws {
        let server = try DummyJACKServer.ready(name: "auhost-cli-jack-test", periodFrames: 64)
        defer { server.interrupt() }
        let folder = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("in.wav").path
        try WAV.writeFloat((0..<44_100).map { Float($0 % 100) / 400 }, rate: 44_100, to: input)
        let environment = ["JACK_DEFAULT_SERVER": "auhost-cli-jack-test"]

        let played = try CLI.run(["play", input, ampURI, "-p", "gain=-6", "--jack"], environment: environment)
        XCTAssertEqual(played.status, 0, played.stderr)
        let frames = try XCTUnwrap(Self.playedFrames(played.stdout), played.stdout)
        XCTAssertTrue(played.stdout.contains("on jack (1 ch, 48000 Hz;"), played.stdout)
        // The second of input resampled to 48,000 frames (not played as 44,100): the player stops
        // on the first poll after the last of them, so a few cycles more are counted.
        XCTAssertTrue((48_000..<96_000).contains(frames), "\(frames) frames: one second at 48 kHz")

        let graph = folder.appendingPathComponent("g.json").path
        try """
        {"channels": 1, "block": 64, "input": "\(input)",
         "nodes": [{"name": "a", "unit": "\(ampURI)"}, {"name": "b", "unit": "\(ampURI)"}],
         "connections": [{"from": "a", "to": "b"}, {"from": "b", "to": "output"}],
         "output": {"file": "\(folder.path)/unused.wav"}}
        """.write(toFile: graph, atomically: true, encoding: .utf8)
        let ran = try CLI.run(["run", graph, "--jack", "--seconds", "0.5"], environment: environment)
        XCTAssertEqual(ran.status, 0, ran.stderr)
        XCTAssertTrue(ran.stdout.contains("on jack (1 ch, 48000 Hz;"), ran.stdout)
        XCTAssertFalse(FileManager.default.fileExists(atPath: "\(folder.path)/unused.wav"), "--jack replaces the file head")

        let captured = try CLI.run(
            ["capture", "--jack", "--duration", "0.5", "--channels", "1", "-o", folder.path + "/in.flac"], environment: environment)
        XCTAssertEqual(captured.status, 0, captured.stderr)
        XCTAssertTrue(captured.stdout.contains("Recorded 24000 frames (1 ch, 48000 Hz)"), captured.stdout)
    }

    func testAMissingServerIsNamed() throws {
        let folder = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("in.wav").path
        try WAV.writeFloat([0, 0.5], rate: 48_000, to: input)
        let r = try CLI.run(["play", input, ampURI, "--jack"], environment: ["JACK_DEFAULT_SERVER": "auhost-no-such-server"])
        XCTAssertNotEqual(r.status, 0)
        XCTAssertTrue(r.stderr.contains("auhost-no-such-server"), r.stderr)
    }

    static func playedFrames(_ stdout: String) -> Int? {
        guard let range = stdout.range(of: "Played ") else { return nil }
        return Int(stdout[range.upperBound...].prefix { $0.isNumber })
    }
}

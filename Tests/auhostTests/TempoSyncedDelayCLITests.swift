import Foundation
import TestSupport
import XCTest

/// A tempo-synced delay from Debian's LV2 set, ZamDelay (zam-plugins 4.1), reads the
/// time:Position `--tempo` sends: with "Sync BPM" on, its echo lies a Divisor of a beat after the
/// sound — the quarter note at Divisor 3, 24,000 samples at 120 BPM and 32,000 at 90 BPM at
/// 48 kHz, exactly; without a tempo it uses its own Delaytime (160 ms, 7,680 samples).
final class TempoSyncedDelayCLITests: XCTestCase {
    let zamDelay = "urn:zamaudio:ZamDelay"
    let impulseAt = 4_800

    func echoDelay(tempo: String?) throws -> Int {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        var input = [Float](repeating: 0, count: 96_000)
        input[impulseAt] = 0.5
        try WAV.writeFloat(input, rate: 48_000, to: dir.appendingPathComponent("in.wav").path)
        let output = dir.appendingPathComponent("out.wav").path
        var arguments = ["render", "-i", dir.appendingPathComponent("in.wav").path, "-o", output, "--tail", "0", zamDelay]
        // Only the echo (Dry/Wet 1), its filter out of the way, no feedback.
        arguments += ["-p", "Sync BPM=1", "-p", "Dry/Wet=1", "-p", "LPF=20000", "-p", "Divisor=3", "-p", "Feedback=0"]
        if let tempo { arguments += ["--tempo", tempo] }
        let r = try CLI.run(arguments)
        XCTAssertEqual(r.status, 0, r.stderr)
        let out = try WAV.readFloat(output)
        let first = try XCTUnwrap(out.firstIndex { abs($0) > 1e-3 }, "an echo")  // ZamDelay adds about 1e-12 against denormals
        return first - impulseAt
    }

    func testTheEchoIsAQuarterNoteAtTheTempoSent() throws {
        guard FileManager.default.fileExists(atPath: "/usr/lib/lv2/ZamDelay.lv2") else {
            throw XCTSkip("zam-plugins is not installed (make test installs it: scripts/debian-packages.txt)")
        }
        XCTAssertEqual(try echoDelay(tempo: "120"), 24_000, "a quarter note at 120 BPM")
        XCTAssertEqual(try echoDelay(tempo: "90"), 32_000, "a quarter note at 90 BPM")
        XCTAssertEqual(try echoDelay(tempo: nil), 7_680, "no tempo: its own 160 ms")
    }
}

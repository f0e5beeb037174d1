import Foundation
import XCTest

/// `auhost render --midi` and `auhost play --midi` through the real binary, with mda Piano (LV2,
/// in the test LV2_PATH) and the mido-written fixture of MusicPlayerServicesTests.
final class MIDICLITests: XCTestCase {
    let midi = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("MusicPlayerServicesTests/Fixtures/tempo-changes.mid").path
    var home: URL!

    override func setUpWithError() throws {
        home = try CLI.temporaryDirectory()
        try """
        pcm.cli_midi_out {
            type file
            slave.pcm "null"
            file "\(home.path)/out.raw"
            format "raw"
        }
        """.write(to: home.appendingPathComponent(".asoundrc"), atomically: true, encoding: .utf8)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: home) }

    /// The file lasts 9.757 s (mido: its last note-off at 9.7568024 s); the first note starts at
    /// tick 7 at 120 BPM, 0.0072917 s = frame 350 at 48 kHz, where mda Piano's output begins.
    func testRenderMIDIWritesTheFileThroughTheInstrument() throws {
        let output = home.appendingPathComponent("piano.wav").path
        let r = try CLI.run(["render", "--midi", midi, "MDA Piano", "-o", output, "--tail", "0.5", "--block", "333"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdout.contains("(9.757 s) through MDA LV2: MDA Piano"), r.stdout)
        let interleaved = try WAV.readFloat(output)
        XCTAssertEqual(interleaved.count / 2, Int(((9.756_802_38 + 0.5) * 48_000).rounded()), "the file's length plus the tail")
        XCTAssertEqual(interleaved.firstIndex { $0 != 0 }.map { $0 / 2 }, 350)
    }

    func testPlayMIDIPlaysOnTheDevice() throws {
        let r = try CLI.run(
            ["play", "--midi", midi, "MDA Piano", "--device", "cli_midi_out"],
            environment: ["HOME": home.path, "XDG_CONFIG_HOME": home.path])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdout.contains("Played"), r.stdout)
        let bytes = [UInt8](try Data(contentsOf: home.appendingPathComponent("out.raw")))
        let samples = stride(from: 0, to: bytes.count - 3, by: 4).map { i in
            Float(bitPattern: UInt32(bytes[i]) | UInt32(bytes[i + 1]) << 8 | UInt32(bytes[i + 2]) << 16 | UInt32(bytes[i + 3]) << 24)
        }
        XCTAssertGreaterThanOrEqual(samples.count / 2, 9 * 48_000, "the whole file reached the device")
        XCTAssertEqual(samples.firstIndex { $0 != 0 }.map { $0 / 2 }, 350, "the first note at its frame on the device head too")
    }

    func testRenderMIDIRefusesAnEffectAndABrokenFile() throws {
        let output = home.appendingPathComponent("x.wav").path
        var r = try CLI.run(["render", "--midi", midi, "aufx dely AUHs", "-o", output])
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.stderr.contains("is not an instrument"), r.stderr)
        let broken = home.appendingPathComponent("broken.mid").path
        try Data([UInt8](try Data(contentsOf: URL(fileURLWithPath: midi))).prefix(40)).write(to: URL(fileURLWithPath: broken))
        r = try CLI.run(["render", "--midi", broken, "MDA Piano", "-o", output])
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.stderr.contains("is not a valid Standard MIDI File"), r.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: output), "no output is left behind")
        // A FIFO with no writer is refused before it is read (reading it would block forever).
        let fifo = home.appendingPathComponent("fifo.mid").path
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        r = try CLI.run(["render", "--midi", fifo, "MDA Piano", "-o", output])
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.stderr.contains("is not a regular file"), r.stderr)
    }
}

import Foundation
import XCTest

/// A graph file whose head is the voice-processing I/O unit ("voiceProcessing" in "output"), on
/// ALSA file PCMs: the graph plays, the processed microphone is recorded.
final class VoiceGraphCLITests: XCTestCase {
    var dir: URL!

    override func setUpWithError() throws {
        dir = try CLI.temporaryDirectory()
        try """
        pcm.vp_duplex {
            type asym
            playback.pcm { type file slave.pcm "null" file "\(dir.path)/out.raw" format "raw" }
            capture.pcm { type file slave.pcm "null" file "/dev/null" infile "\(dir.path)/in.raw" format "raw" }
        }
        """.write(to: dir.appendingPathComponent(".asoundrc"), atomically: true, encoding: .utf8)
        // Silence in any sample format, longer than the run.
        try Data(count: 48_000 * 8).write(to: dir.appendingPathComponent("in.raw"))
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: dir) }

    var environment: [String: String] { ["HOME": dir.path, "XDG_CONFIG_HOME": dir.path] }

    func graph(_ output: String) throws -> String {
        let path = dir.appendingPathComponent("g.json").path
        try """
        {
          "channels": 1,
          "seconds": 0.5,
          "nodes": [{"name": "input", "unit": "aufx dely AUHs", "parameters": {"Wet/Dry Mix": 0}}],
          "output": \(output)
        }
        """.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    func testTheGraphPlaysAndTheProcessedMicrophoneIsRecorded() throws {
        let r = try CLI.run(
            ["run", try graph(#"{"device": "vp_duplex", "voiceProcessing": {"record": "mic.wav", "agc": false}}"#)],
            environment: environment)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdout.contains("Voice processing: recorded 24000 frames of the processed microphone into"), r.stdout)
        let mic = try WAV.readFloat(dir.appendingPathComponent("mic.wav").path)
        XCTAssertEqual(mic.count, 24_000, "as many frames as the graph plays (0.5 s)")
        XCTAssertEqual(mic.map(abs).max(), 0, "a silent microphone stays silent")
        let show = try CLI.run(
            ["graph", "show", try graph(#"{"device": "vp_duplex", "voiceProcessing": {"record": "mic.wav"}}"#)], environment: environment)
        XCTAssertEqual(show.status, 0, show.stderr)
        XCTAssertTrue(show.stdout.contains("'auou vpio appl'"), show.stdout)
    }

    func testVoiceProcessingSettingsAreChecked() throws {
        let noRecord = try CLI.run(
            ["graph", "show", try graph(#"{"device": "vp_duplex", "voiceProcessing": {"agc": true}}"#)], environment: environment)
        XCTAssertEqual(noRecord.status, 1)
        XCTAssertTrue(noRecord.stderr.contains("g.json:5: \"voiceProcessing\" needs \"record\""), noRecord.stderr)
        let badType = try CLI.run(
            ["graph", "show", try graph(#"{"device": "vp_duplex", "voiceProcessing": {"record": "mic.mp9"}}"#)], environment: environment)
        XCTAssertEqual(badType.status, 1)
        XCTAssertTrue(badType.stderr.contains("cannot tell the file type from \"mic.mp9\""), badType.stderr)
        let onFile = try CLI.run(
            ["graph", "show", try graph(#"{"file": "x.wav", "voiceProcessing": {"record": "mic.wav"}}"#)], environment: environment)
        XCTAssertEqual(onFile.status, 1, "voice processing needs a device head")
    }
}

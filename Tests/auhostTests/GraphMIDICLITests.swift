import Foundation
import XCTest

/// Graph files with "midi" and "midiInputs" through the real binary: the MIDI file plays into mda
/// Piano (test LV2_PATH) exactly as `render --midi` plays it, on a file head and a device head;
/// malformed keys are reported by line.
final class GraphMIDICLITests: XCTestCase {
    let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("MusicPlayerServicesTests/Fixtures/tempo-changes.mid").path
    var dir: URL!

    override func setUpWithError() throws {
        dir = try CLI.temporaryDirectory()
        try FileManager.default.copyItem(atPath: fixture, toPath: path("song.mid"))
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: dir) }

    func path(_ name: String) -> String { dir.appendingPathComponent(name).path }

    func write(_ text: String, _ name: String = "g.json") throws -> String {
        try text.write(toFile: path(name), atomically: true, encoding: .utf8)
        return path(name)
    }

    /// The fixture lasts 9.7568024 s (mido); with render's `--tail 0.5` that is this many frames.
    let frames = Int(((9.756_802_38 + 0.5) * 48_000).rounded())

    func pianoGraph(output: String, extra: String = "") -> String {
        """
        {
          "block": 333,
          "seconds": \(Double(frames) / 48_000),
          "nodes": [{"name": "piano", "unit": "MDA Piano"}],
          "midi": {"file": "song.mid", "node": "piano"},\(extra)
          "output": \(output)
        }
        """
    }

    func testRunRendersTheMIDIFileExactlyAsRenderMIDIDoes() throws {
        var r = try CLI.run(["run", try write(pianoGraph(output: #"{"file": "graph.wav"}"#))])
        XCTAssertEqual(r.status, 0, r.stderr)
        r = try CLI.run(["render", "--midi", path("song.mid"), "MDA Piano", "-o", path("unit.wav"), "--tail", "0.5", "--block", "333"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let graph = try WAV.readFloat(path("graph.wav")), unit = try WAV.readFloat(path("unit.wav"))
        XCTAssertEqual(graph.count / 2, frames)
        // The first note (tick 7 at 120 BPM) starts on frame 350, as MIDICLITests finds for render --midi.
        XCTAssertEqual(graph.firstIndex { $0 != 0 }.map { $0 / 2 }, 350)
        XCTAssertEqual(graph.count, unit.count)
        XCTAssertTrue(
            graph == unit,
            "bit-identical to render --midi; first difference at sample \(String(describing: zip(graph, unit).enumerated().first { $0.element.0 != $0.element.1 }?.offset))"
        )
    }

    func testRunPlaysTheMIDIFileOnADeviceHead() throws {
        let graph = try write(pianoGraph(output: #"{"device": "graph_midi_out"}"#))
        let samples = try playOnFileDevice(["run", graph, "--seconds", "1"])
        XCTAssertGreaterThanOrEqual(samples.count / 2, 48_000, "the second asked for reached the device")
        // MusicPlayerStart starts the device: its first cycle is beat 0, so the note is on its frame.
        XCTAssertEqual(samples.firstIndex { $0 != 0 }.map { $0 / 2 }, 350, "the first note at its frame on the device head")
    }

    /// `play FILE --graph`: the audio file (silence here) and the graph's MIDI file play together,
    /// as long as the longer of them.
    func testPlayGraphPlaysItsMIDIFileAlongWithTheAudioFile() throws {
        try WAV.writeFloat([Float](repeating: 0, count: 4_800), rate: 48_000, to: path("silence.wav"))
        let graph = try write(pianoGraph(output: #"{"file": "unused.wav"}"#))
        let samples = try playOnFileDevice(["play", path("silence.wav"), "--graph", graph, "--device", "graph_midi_out"])
        XCTAssertGreaterThanOrEqual(samples.count / 2, Int(9.756_802_38 * 48_000), "the whole MIDI file, not the 0.1 s of audio")
        XCTAssertEqual(samples.firstIndex { $0 != 0 }.map { $0 / 2 }, 350)
    }

    /// A live input on a device head with no JACK server to answer: the input's line and the cause.
    func testAMIDIInputWithoutAJACKServerIsNamedWithItsLine() throws {
        let graph = try write(
            pianoGraph(
                output: #"{"device": "graph_midi_out"}"#, extra: "\n  \"midiInputs\": [{\"jack\": \"keyboard\", \"node\": \"piano\"}],"))
        try deviceConfiguration()
        let r = try CLI.run(
            ["run", graph, "--seconds", "1"],
            environment: ["HOME": dir.path, "XDG_CONFIG_HOME": dir.path, "JACK_DEFAULT_SERVER": "auhost-no-such-server-\(getpid())"])
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.stderr.contains("\(graph):6: MIDI input \"keyboard\": No JACK server answered"), r.stderr)
    }

    func deviceConfiguration() throws {
        try """
        pcm.graph_midi_out {
            type file
            slave.pcm "null"
            file "\(dir.path)/out.raw"
            format "raw"
        }
        """.write(to: dir.appendingPathComponent(".asoundrc"), atomically: true, encoding: .utf8)
    }

    /// Runs the CLI with an ALSA file device (raw Float32 through the null PCM) and returns what it wrote.
    func playOnFileDevice(_ arguments: [String]) throws -> [Float] {
        try deviceConfiguration()
        let r = try CLI.run(arguments, environment: ["HOME": dir.path, "XDG_CONFIG_HOME": dir.path])
        XCTAssertEqual(r.status, 0, r.stderr)
        let bytes = [UInt8](try Data(contentsOf: dir.appendingPathComponent("out.raw")))
        return stride(from: 0, to: bytes.count - 3, by: 4).map { i in
            Float(bitPattern: UInt32(bytes[i]) | UInt32(bytes[i + 1]) << 8 | UInt32(bytes[i + 2]) << 16 | UInt32(bytes[i + 3]) << 24)
        }
    }

    func testMalformedMIDIKeysAreReportedByLine() throws {
        let cases: [(String, Int, String)] = [
            (#""midi": "song.mid","#, 5, #""midi" must be {"file": "song.mid", "node": "instrument"}, not a string"#),
            (#""midi": {"file": "song.mid"},"#, 5, #""midi" needs both "file""#),
            (#""midi": {"file": "song.mid", "node": "piano", "loop": true},"#, 5, #"unknown key "loop" in "midi""#),
            (#""midi": {"file": 3, "node": "piano"},"#, 5, #""file" must be a non-empty string, not a number"#),
            (#""midi": {"file": "song.mid", "node": "violin"},"#, 5, #""node" names no node "violin"; the nodes are piano, delay"#),
            (#""midi": {"file": "song.mid", "node": "delay"},"#, 5, "node \"delay\" is AUHost: Delay ('aufx'), not an instrument"),
            (#""midiInputs": {"jack": "x", "node": "piano"},"#, 5, #""midiInputs" must be an array"#),
            (#""midiInputs": [{"jack": "x"}],"#, 5, #"a MIDI input needs both "jack""#),
            (#""midiInputs": [{"jack": "x", "node": "piano", "channel": 1}],"#, 5, #"unknown key "channel" in a MIDI input"#),
            (#""midiInputs": [{"jack": "x", "node": "piano"}],"#, 5, #""midiInputs" take live MIDI and need a device head"#),
            (#""midi": {"file": "missing.mid", "node": "piano"},"#, 5, "\"midi\": there is no MIDI file at \(path("missing.mid"))"),
            (
                #""midi": {"file": ".", "node": "piano"},"#, 5,
                "\"midi\": \(dir.path)/. is not a regular file (a FIFO, socket, device or folder)"
            ),
        ]
        for (key, line, message) in cases {
            let graph = try write(
                """
                {
                  "seconds": 1,
                  "nodes": [{"name": "piano", "unit": "MDA Piano"}, {"name": "delay", "unit": "aufx dely AUHs"}],
                  "connections": [{"from": "piano", "to": "delay"}],
                  \(key)
                  "output": {"file": "out.wav"}
                }
                """)
            let r = try CLI.run(["run", graph])
            XCTAssertEqual(r.status, 1, key)
            XCTAssertTrue(r.stderr.contains("\(graph):\(line): \(message)"), "\(key): \(r.stderr)")
            XCTAssertFalse(FileManager.default.fileExists(atPath: path("out.wav")), "\(key): no output is left behind")
        }
    }

    func testABrokenMIDIFileIsNamedWithItsLine() throws {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: fixture)))
        try Data(bytes.prefix(40)).write(to: URL(fileURLWithPath: path("song.mid")))
        let graph = try write(pianoGraph(output: #"{"file": "out.wav"}"#))
        let r = try CLI.run(["run", graph])
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.stderr.contains("\(graph):5: \"midi\": "), r.stderr)
        XCTAssertTrue(r.stderr.contains("is not a valid Standard MIDI File"), r.stderr)
    }

    func testGraphCommandsThatPlayNoMIDIRefuseTheKeys() throws {
        let graph = try write(pianoGraph(output: #"{"file": "out.wav"}"#))
        try WAV.writeFloat([Float](repeating: 0.25, count: 100), rate: 48_000, to: path("in.wav"))
        let r = try CLI.run(["render", "-i", path("in.wav"), "-o", path("x.wav"), "--graph", graph])
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.stderr.contains("\(graph):5: `auhost render --graph` plays no MIDI"), r.stderr)
        let show = try CLI.run(["graph", "show", graph])
        XCTAssertEqual(show.status, 0, show.stderr)
        XCTAssertTrue(show.stdout.contains("midi: \(path("song.mid")) plays into piano"), show.stdout)
    }
}

import Foundation
import XCTest

/// Graph files through the real binary: `graph show`, `run`, `render --graph`, and malformed files
/// reported by line.
final class GraphCLITests: XCTestCase {
    let ampURI = "http://lv2plug.in/plugins/eg-amp"
    var dir: URL!

    override func setUpWithError() throws { dir = try CLI.temporaryDirectory() }
    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: dir) }

    func path(_ name: String) -> String { dir.appendingPathComponent(name).path }

    func write(_ text: String, _ name: String = "g.json") throws -> String {
        try text.write(toFile: path(name), atomically: true, encoding: .utf8)
        return path(name)
    }

    /// Two eg-amps in a chain (one found by URI with its parameter by name, one by name with its
    /// parameter by id): every sample is the input times both gains, as the plug-in computes them.
    var twoAmps: String {
        """
        {
          "channels": 1,
          "nodes": [
            {"name": "first", "unit": "\(ampURI)", "parameters": {"Gain": -6}},
            {"name": "second", "unit": "Simple Amplifier", "parameters": {"0": -12}}
          ],
          "connections": [
            {"from": "first", "to": "second"},
            {"from": "second", "to": "output"}
          ],
          "output": {"file": "unused.wav"}
        }
        """
    }

    func testRenderThroughAGraphFileFeedsItsSourceNode() throws {
        let graph = try write(twoAmps)
        let samples = (0..<5_000).map { Float(sin(Double($0) * 0.02)) * 0.5 }
        try WAV.writeFloat(samples, rate: 48_000, to: path("in.wav"))
        let r = try CLI.run(["render", "-i", path("in.wav"), "-o", path("out.wav"), "--graph", graph, "--block", "300"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let out = try WAV.readFloat(path("out.wav"))
        XCTAssertEqual(out.count, samples.count)
        let gain = Float(pow(10.0, -6.0 / 20.0)) * Float(pow(10.0, -12.0 / 20.0))
        for i in stride(from: 0, to: samples.count, by: 37) { XCTAssertEqual(out[i], samples[i] * gain, accuracy: 1e-6, "frame \(i)") }
        XCTAssertFalse(FileManager.default.fileExists(atPath: path("unused.wav")), "-o replaces the graph's output file")
    }

    func testGraphShowPrintsTheCAShowViewOfTheBuiltGraph() throws {
        let r = try CLI.run(["graph", "show", try write(twoAmps)])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdout.contains("lv2plug.in: Simple Amplifier"), r.stdout)
        XCTAssertTrue(r.stdout.contains("node 1 bus 0 => node 2 bus 0"), r.stdout)
        XCTAssertTrue(r.stdout.contains("node 2 bus 0 => node 3 bus 0"), r.stdout)
        XCTAssertTrue(r.stdout.contains("node 3: 'auou genr AUHs', AUHost: Generic Output (head)"), r.stdout)
        XCTAssertTrue(r.stdout.contains("Open, Initialized, Stopped"), r.stdout)
        XCTAssertTrue(r.stdout.contains("input feeds: first"), r.stdout)
    }

    /// `run` with an input file and no "seconds": the input plus the delay's TailTime; a single sink
    /// goes to the head without a connection naming it; the delay at 0 % wet is the input, then silence.
    func testRunRendersToTheGraphsOutputFile() throws {
        let samples = (0..<3_000).map { Float($0 % 100) / 200 }
        try WAV.writeFloat(samples, rate: 44_100, to: path("in.wav"))
        let graph = try write(
            """
            {
              "channels": 1,
              "input": "in.wav",
              "nodes": [
                {"name": "input", "unit": "aufx dely AUHs", "parameters": {"Wet/Dry Mix": 0, "Delay Time": 0.01}},
                {"name": "amp", "unit": "\(ampURI)", "parameters": {"gain": 0}}
              ],
              "connections": [{"from": "input", "to": "amp"}],
              "output": {"file": "result.wav"}
            }
            """)
        let r = try CLI.run(["run", graph])
        XCTAssertEqual(r.status, 0, r.stderr)
        let out = try WAV.readFloat(path("result.wav"))
        XCTAssertTrue(r.stdout.contains("Rendered \(out.count) frames"), r.stdout)
        XCTAssertGreaterThan(out.count, samples.count, "the delay's tail is rendered")
        for i in stride(from: 0, to: samples.count, by: 29) { XCTAssertEqual(out[i], samples[i], accuracy: 1e-6, "frame \(i)") }
        XCTAssertEqual(out[samples.count...].map(abs).max(), 0, "0 % wet: the tail is silent")
    }

    func testMalformedGraphFilesNameTheLineAndTheProblem() throws {
        let cases: [(String, String)] = [
            (
                "{\n  \"nodes\": [\n    {\"unit\": \"aufx dely AUHs\"}\n    {\"unit\": \"x\"}\n  ]\n}",
                "g.json:4: expected \",\" or \"]\" after an array item"
            ),
            (
                "{\n  \"nodes\": [{\"unit\": \"aufx dely AUHs\"}],\n  \"colour\": 3,\n  \"output\": {\"file\": \"o.wav\"}\n}",
                "g.json:3: unknown key \"colour\""
            ),
            (
                "{\n  \"nodes\": [\n    {\"name\": \"a\",\n     \"unit\": \"no such unit at all\"}\n  ],\n  \"output\": {\"file\": \"o.wav\"}\n}",
                "g.json:3: node \"a\": No unit is called \"no such unit at all\""
            ),
            (
                "{\n  \"nodes\": [{\"name\": \"a\", \"unit\": \"aufx dely AUHs\"}],\n  \"connections\": [\n    {\"from\": \"a\", \"to\": \"b\"}\n  ],\n  \"output\": {\"file\": \"o.wav\"}\n}",
                "g.json:4: \"to\" names no node \"b\""
            ),
            ("{\n  \"sampleRate\": \"fast\",\n  \"nodes\": []\n}", "g.json:2: \"sampleRate\" must be a number, not a string"),
            (
                "{\n  \"nodes\": [{\"unit\": \"aufx dely AUHs\", \"parameters\": {\"Feedback\": 500}}],\n  \"output\": {\"file\": \"o.wav\"}\n}",
                "g.json:2: node \"node1\": Feedback = 500.0 is outside its range"
            ),
        ]
        for (text, expected) in cases {
            let r = try CLI.run(["graph", "show", try write(text)])
            XCTAssertEqual(r.status, 1, text)
            XCTAssertTrue(r.stderr.contains(expected), "expected \(expected) in: \(r.stderr)")
        }
        let missing = try CLI.run(["run", path("nothing.json")])
        XCTAssertEqual(missing.status, 1)
        XCTAssertTrue(missing.stderr.contains("There is no graph file at"), missing.stderr)
    }

    func testRenderNeedsExactlyOneOfUnitAndGraph() throws {
        let both = try CLI.run(["render", "-i", "a.wav", "-o", "b.wav", "--graph", "g.json", ampURI])
        XCTAssertEqual(both.status, 64)
        XCTAssertTrue(both.stderr.contains("Name one UNIT or one --graph FILE."), both.stderr)
    }
}

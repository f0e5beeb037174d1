import Foundation
import XCTest

/// Issue 21's graph-file findings replayed through the real binary: numbers that trapped `Int(n)`,
/// a fractional preset, 25,000 nesting levels, megabyte names, I/O units and a missing LV2 binary
/// as nodes; each is one FILE:LINE sentence and exit status 1. Also the mixer at 48 kHz.
final class HostileGraphFileCLITests: XCTestCase {
    var dir: URL!

    override func setUpWithError() throws { dir = try CLI.temporaryDirectory() }
    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: dir) }

    func path(_ name: String) -> String { dir.appendingPathComponent(name).path }

    /// Writes `text` as g.json, runs `graph show` on it and returns stderr after checking it failed
    /// with one "g.json:LINE: …" sentence.
    @discardableResult
    func refused(
        _ text: String, line: Int, _ expected: String, environment: [String: String] = [:],
        file: StaticString = #filePath, fileLine: UInt = #line
    ) throws -> String {
        try text.write(toFile: path("g.json"), atomically: true, encoding: .utf8)
        let r = try CLI.run(["graph", "show", path("g.json")], environment: environment)
        XCTAssertEqual(r.status, 1, r.stderr, file: file, line: fileLine)
        XCTAssertTrue(r.stderr.contains("g.json:\(line): "), r.stderr, file: file, line: fileLine)
        XCTAssertTrue(r.stderr.contains(expected), r.stderr, file: file, line: fileLine)
        return r.stderr
    }

    func graph(_ top: String = "", node: String = #""unit": "aufx dely AUHs""#) -> String {
        "{\(top)\n\"nodes\": [\n{\(node)}\n], \"output\": {\"file\": \"o.wav\"}}"
    }

    func testHugeAndFractionalNumbersAreRefusedWithTheirLine() throws {
        for value in ["1e19", "-1e19", "1e300", "-1e300", "9223372036854775808"] {
            try refused(graph("\"channels\": \(value),"), line: 1, "\"channels\" must be a whole number 1…64")
            try refused(graph("\"block\": \(value),"), line: 1, "\"block\" must be a whole number 1…65536")
            try refused(
                graph(node: #""unit": "aufx ipeq AUHs", "preset": \#(value)"#), line: 3,
                "\"preset\" must be a preset's name or a whole number")
        }
        try refused(graph(node: #""unit": "aufx ipeq AUHs", "preset": 1.5"#), line: 3, "not 1.5")
        try refused(graph("\"channels\": 2.5,"), line: 1, "not 2.5")
    }

    func testDeepNestingLongStringsAndBigFilesAreRefusedQuickly() throws {
        // 25,000 levels overflowed the reader's stack.
        let deep = String(repeating: "[", count: 25_000) + String(repeating: "]", count: 25_000)
        try refused("{\"nodes\":\n" + deep + "}", line: 2, "nested more than 64 deep")
        // A 900 KB unit name (a 4 MB one took over a minute): refused at its line, not echoed.
        let long = try refused(
            graph(node: "\"unit\": \"" + String(repeating: "x", count: 900_000) + "\""), line: 3, "longer than 4096 bytes")
        XCTAssertLessThan(long.utf8.count, 1_000)
        // A 3 KB unit name passes the reader: the lookup fails naming it cut short.
        let name = try refused(graph(node: "\"unit\": \"" + String(repeating: "y", count: 3_000) + "\""), line: 3, "No unit is called")
        XCTAssertLessThan(name.utf8.count, 1_000, "the name is cut short in the message")
        let big =
            "{\"nodes\": [{\"unit\": \"aufx dely AUHs\"}], \"output\": {\"file\": \"o.wav\"}}" + String(repeating: " ", count: 2 << 20)
        try big.write(toFile: path("g.json"), atomically: true, encoding: .utf8)
        let r = try CLI.run(["graph", "show", path("g.json")])
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.stderr.contains("g.json:1: the graph file is") && r.stderr.contains("at most 1048576"), r.stderr)
    }

    func testIOUnitsAsNodesAreRefusedWithTheirLine() throws {
        for unit in ["auou genr AUHs", "auou alsa AUHs"] {
            try refused(graph(node: "\"name\": \"io\", \"unit\": \"\(unit)\""), line: 3, "node \"io\":")
            try refused(graph(node: "\"name\": \"io\", \"unit\": \"\(unit)\""), line: 3, "is an I/O unit")
        }
    }

    /// An input file that is missing, a FIFO, or a hostile header: the "input" line.
    func testAGraphsInputFileErrorsNameTheInputLine() throws {
        XCTAssertEqual(mkfifo(path("fifo.wav"), 0o600), 0)
        for input in ["missing.wav", "fifo.wav"] {
            let text = "{\"nodes\": [{\"unit\": \"aufx dely AUHs\"}],\n \"input\": \"\(input)\",\n \"output\": {\"file\": \"o.wav\"}}"
            try text.write(toFile: path("g.json"), atomically: true, encoding: .utf8)
            let r = try CLI.run(["run", path("g.json")])
            XCTAssertEqual(r.status, 1)
            XCTAssertTrue(r.stderr.contains("g.json:2: \"input\": ") && r.stderr.contains(input), r.stderr)
        }
    }

    /// An LV2 bundle whose binary is missing: the node's line and the binary's path.
    func testAnLV2NodeWhoseBinaryIsMissingIsRefusedWithTheNodesLine() throws {
        let ampURI = "http://lv2plug.in/plugins/eg-amp"
        let lv2 = dir.appendingPathComponent("lv2/eg-amp.lv2")
        try FileManager.default.createDirectory(at: lv2, withIntermediateDirectories: true)
        // The bundle's data from the installed eg-amp, without amp.so.
        let installed = try XCTUnwrap(
            ["/usr/lib/lv2/eg-amp.lv2", "/usr/lib/x86_64-linux-gnu/lv2/eg-amp.lv2"]
                .first { FileManager.default.fileExists(atPath: $0 + "/manifest.ttl") }, "lv2-examples is installed")
        for ttl in ["manifest.ttl", "amp.ttl"] {
            try FileManager.default.copyItem(atPath: installed + "/" + ttl, toPath: lv2.appendingPathComponent(ttl).path)
        }
        try refused(
            graph(node: "\"name\": \"amp\", \"unit\": \"\(ampURI)\"").replacingOccurrences(
                of: "\n{", with: "\n{\"unit\": \"aufx dely AUHs\"},\n{"),
            line: 4, "node \"amp\"", environment: ["LV2_PATH": dir.appendingPathComponent("lv2").path])
    }

    /// The multichannel mixer at 48 kHz in a graph (bus 1 used to stay at 44.1 kHz): two delays
    /// into buses 0 and 1 render.
    func testTheMultichannelMixerWorksInAGraphAtAnyRate() throws {
        for rate in [48_000, 96_000, 22_050] {
            let text = """
                {"sampleRate": \(rate), "seconds": 0.1,
                 "nodes": [{"name": "a", "unit": "aufx dely AUHs"}, {"name": "b", "unit": "aufx dely AUHs"}, {"name": "mix", "unit": "aumx mcmx AUHs"}],
                 "connections": [{"from": "a", "to": "mix:0"}, {"from": "b", "to": "mix:1"}, {"from": "mix", "to": "output"}],
                 "output": {"file": "mix.wav"}}
                """
            try text.write(toFile: path("mix.json"), atomically: true, encoding: .utf8)
            let r = try CLI.run(["run", path("mix.json")])
            XCTAssertEqual(r.status, 0, "\(rate) Hz: \(r.stderr)")
            XCTAssertTrue(r.stdout.contains("Rendered \(rate / 10) frames"), r.stdout)
        }
    }

    /// Every JSON example in docs/ builds and renders (the GRAPH-FILES.md example used to give the
    /// mono eg-amp two channels). Input files an example names are made as short mono tones.
    func testEveryGraphExampleInTheDocsRuns() throws {
        let docs = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("docs")
        var examples = 0
        for name in try FileManager.default.contentsOfDirectory(atPath: docs.path) where name.hasSuffix(".md") {
            let text = try String(contentsOf: docs.appendingPathComponent(name), encoding: .utf8)
            for (i, block) in text.components(separatedBy: "```json\n").dropFirst().enumerated() {
                let json = block.components(separatedBy: "```")[0]
                let object = try XCTUnwrap(
                    JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any], "\(name) example \(i + 1)")
                if let input = object["input"] as? String {
                    try WAV.writeFloat((0..<4_800).map { Float(sin(Double($0) * 0.05)) * 0.3 }, rate: 48_000, to: path(input))
                }
                // A MIDI file an example names is the mido-written fixture of MusicPlayerServicesTests.
                if let midi = (object["midi"] as? [String: Any])?["file"] as? String {
                    try? FileManager.default.removeItem(atPath: path(midi))
                    try FileManager.default.copyItem(
                        at: docs.deletingLastPathComponent().appendingPathComponent(
                            "Tests/MusicPlayerServicesTests/Fixtures/tempo-changes.mid"),
                        to: URL(fileURLWithPath: path(midi)))
                }
                let file = path("\(name)-\(i + 1).json")
                try json.write(toFile: file, atomically: true, encoding: .utf8)
                let r = try CLI.run(["run", file, "--seconds", "0.2"])
                XCTAssertEqual(r.status, 0, "\(name) example \(i + 1): \(r.stderr)")
                examples += 1
            }
        }
        XCTAssertGreaterThan(examples, 0, "docs/ has graph examples")
    }
}

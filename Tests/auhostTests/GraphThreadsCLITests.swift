import Foundation
import XCTest

/// `"threads"` and `--threads` through the real binary: the output file is the same bit for bit
/// whatever the thread count; a bad count names its line; `bench --graph` reports node times and
/// the critical path.
final class GraphThreadsCLITests: XCTestCase {
    var dir: URL!

    override func setUpWithError() throws { dir = try CLI.temporaryDirectory() }
    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: dir) }

    func path(_ name: String) -> String { dir.appendingPathComponent(name).path }

    /// The input feeds a delay that fans out to an EQ and a second delay, mixed at the head.
    func diamond(threads: String) -> String {
        """
        {
          \(threads)
          "block": 256,
          "input": "in.wav",
          "nodes": [
            {"name": "input", "unit": "aufx dely AUHs", "parameters": {"Delay Time": 0.003, "Wet/Dry Mix": 40}},
            {"name": "eq", "unit": "aufx ipeq AUHs", "preset": "Bass Booster"},
            {"name": "echo", "unit": "aufx dely AUHs", "parameters": {"Delay Time": 0.011, "Wet/Dry Mix": 70}},
            {"name": "mix", "unit": "aumx mcmx AUHs"}
          ],
          "connections": [
            {"from": "input", "to": "eq"}, {"from": "input", "to": "echo"},
            {"from": "eq", "to": "mix:0"}, {"from": "echo", "to": "mix:1"}, {"from": "mix", "to": "output"}
          ],
          "output": {"file": "out.wav"}
        }
        """
    }

    func testRunIsBitIdenticalWhateverTheThreadCount() throws {
        let samples = (0..<20_000).map { Float(sin(Double($0) * 0.013) * 0.4 + sin(Double($0) * 0.31) * 0.1) }
        try WAV.writeFloat(samples, rate: 48_000, to: path("in.wav"))
        var outputs: [String: [Float]] = [:]
        for (label, key, option) in [
            ("serial", "\"threads\": 0,", [String]()), ("file 2", "\"threads\": 2,", []), ("--threads 4", "", ["--threads", "4"]),
            ("--threads 1 over the file's 0", "\"threads\": 0,", ["--threads", "1"]),
        ] {
            try diamond(threads: key).write(toFile: path("g.json"), atomically: true, encoding: .utf8)
            let r = try CLI.run(["run", path("g.json")] + option)
            XCTAssertEqual(r.status, 0, "\(label): \(r.stderr)")
            outputs[label] = try WAV.readFloat(path("out.wav"))
        }
        let serial = try XCTUnwrap(outputs["serial"])
        XCTAssertGreaterThan(serial.count, samples.count)
        XCTAssertGreaterThan(serial.map(abs).max() ?? 0, 0.1)
        for (label, out) in outputs { XCTAssertEqual(out.map(\.bitPattern), serial.map(\.bitPattern), label) }
    }

    func testABadThreadCountNamesItsLine() throws {
        try diamond(threads: "\"threads\": 65,").write(toFile: path("g.json"), atomically: true, encoding: .utf8)
        let r = try CLI.run(["graph", "show", path("g.json")])
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.stderr.contains("g.json:2: \"threads\" must be a whole number 0…64, not 65"), r.stderr)
        let option = try CLI.run(["run", path("g.json"), "--threads", "100"])
        XCTAssertEqual(option.status, 64)
        XCTAssertTrue(option.stderr.contains("--threads must be 0…64, not 100."), option.stderr)
    }

    func testBenchReportsNodeTimesAndTheCriticalPath() throws {
        try diamond(threads: "").write(toFile: path("g.json"), atomically: true, encoding: .utf8)
        let r = try CLI.run(["bench", "--graph", path("g.json"), "--frames", "4800", "--threads", "2"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdout.contains("per-node time (median of 200 blocks; 2 threads, renders in parallel):"), r.stdout)
        for node in ["input", "eq", "echo", "mix"] {
            XCTAssertTrue(r.stdout.contains("\n  \(node) "), "\(node) in: \(r.stdout)")
        }
        // The path starts at the input's node and ends at the mixer, through one of the branches.
        let line = try XCTUnwrap(r.stdout.split(separator: "\n").first { $0.hasPrefix("critical path: ") })
        XCTAssertTrue(
            line.hasPrefix("critical path: input → eq → mix (") || line.hasPrefix("critical path: input → echo → mix ("), String(line))
        XCTAssertTrue(line.contains("threads can make a block at most"), String(line))
    }
}

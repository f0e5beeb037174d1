import Foundation
import TestSupport
import XCTest

/// `--tempo`/`--meter` and a graph file's "tempo"/"meter" through the real binary: eg-metro
/// (lv2-examples), which clicks on every beat of the time:Position it is sent, clicks at the
/// tempo asked for; bad values are refused naming them.
final class TempoCLITests: XCTestCase {
    let metro = "http://lv2plug.in/plugins/eg-metro"
    var dir: URL!

    override func setUpWithError() throws { dir = try CLI.temporaryDirectory() }
    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: dir) }

    func path(_ name: String) -> String { dir.appendingPathComponent(name).path }

    /// eg-metro's envelope starts at 0 on the beat's sample: its first non-zero sample is the next
    /// one (or the one after, where its sine table is at 0).
    func assertClicks(_ onsets: [Int], every spacing: Int, count: Int, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(onsets.count, count, "clicks at \(onsets)", file: file, line: line)
        for (k, onset) in onsets.enumerated() {
            XCTAssertTrue((k * spacing + 1...k * spacing + 2).contains(onset), "click \(k) at \(onset)", file: file, line: line)
        }
    }

    func testRenderAtATempoClicksOnItsBeats() throws {
        try WAV.writeFloat([Float](repeating: 0, count: 100_000), rate: 48_000, to: path("in.wav"))
        let r = try CLI.run(["render", "-i", path("in.wav"), "-o", path("out.wav"), "--tempo", "90", "--tail", "0", metro])
        XCTAssertEqual(r.status, 0, r.stderr)
        let out = try WAV.readFloat(path("out.wav"))
        XCTAssertEqual(out.count, 100_000)
        assertClicks(clickOnsets(out), every: 32_000, count: 4)
        // Without a tempo the plug-in is never told the transport rolls: silence.
        let still = try CLI.run(["render", "-i", path("in.wav"), "-o", path("still.wav"), "--tail", "0", metro])
        XCTAssertEqual(still.status, 0, still.stderr)
        XCTAssertTrue(try WAV.readFloat(path("still.wav")).allSatisfy { $0 == 0 })
    }

    func testAGraphFilesTempoAndTheOptionThatOverridesIt() throws {
        let graph = """
            {
              "sampleRate": 48000, "channels": 1, "seconds": 2, "tempo": 150, "meter": "3/4",
              "nodes": [{"name": "metro", "unit": "\(metro)"}],
              "connections": [{"from": "metro", "to": "output"}],
              "output": {"file": "out.wav"}
            }
            """
        try graph.write(toFile: path("g.json"), atomically: true, encoding: .utf8)
        let r = try CLI.run(["run", path("g.json")])
        XCTAssertEqual(r.status, 0, r.stderr)
        assertClicks(clickOnsets(try WAV.readFloat(path("out.wav"))), every: 19_200, count: 5)
        let faster = try CLI.run(["run", path("g.json"), "--tempo", "240"])
        XCTAssertEqual(faster.status, 0, faster.stderr)
        assertClicks(clickOnsets(try WAV.readFloat(path("out.wav"))), every: 12_000, count: 8)
    }

    func testBadTemposAndMetersAreRefusedNamingThem() throws {
        try WAV.writeFloat([Float](repeating: 0, count: 1_000), rate: 48_000, to: path("in.wav"))
        for (options, message) in [
            (["--tempo", "0"], "--tempo must be more than 0"), (["--tempo", "120", "--meter", "3/5"], "--meter is N/D"),
            (["--meter", "3/4"], "--meter goes with a --tempo"),
        ] {
            let r = try CLI.run(["render", "-i", path("in.wav"), "-o", path("out.wav"), metro] + options)
            XCTAssertEqual(r.status, 64, "\(options)")
            XCTAssertTrue(r.stderr.contains(message), r.stderr)
        }
        let graph = """
            {
              "meter": "7/3",
              "nodes": [{"name": "metro", "unit": "\(metro)"}],
              "output": {"file": "out.wav"}
            }
            """
        try graph.write(toFile: path("g.json"), atomically: true, encoding: .utf8)
        let r = try CLI.run(["graph", "show", path("g.json")])
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.stderr.contains("g.json:2: \"meter\" is \"N/D\""), r.stderr)
    }
}

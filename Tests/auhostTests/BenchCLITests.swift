import Foundation
import XCTest

/// `auhost bench` through the real binary: the report's lines, allocations counted by glibc's
/// tracer in a child process, argument errors.
final class BenchCLITests: XCTestCase {
    func testBenchReportsTimesAndZeroAllocationsForTheBuiltInDelay() throws {
        try XCTSkipUnless(FileManager.default.fileExists(atPath: "/usr/lib/x86_64-linux-gnu/libc_malloc_debug.so.0"), "no malloc tracer")
        let r = try CLI.run(["bench", "aufx dely AUHs", "--block", "256", "--frames", "25600"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdout.contains("AUHost: Delay: 100 blocks of 256 frames at 48000 Hz"), r.stdout)
        XCTAssertNotNil(
            r.stdout.range(of: #"time per block: min [0-9.]+ µs, median [0-9.]+ µs, max [0-9.]+ µs"#, options: .regularExpression), r.stdout
        )
        XCTAssertTrue(r.stdout.contains("% of real time: "), r.stdout)
        // The built-in units render without allocating (BuiltInUnitsRender benchmark); the count must say so.
        XCTAssertTrue(r.stdout.contains("allocations per block: 0.00 (0 in 200 blocks, glibc mtrace)"), r.stdout)
    }

    /// A graph of two eg-amps pulled through its head: the LV2 path and the graph's render path allocate nothing either.
    func testBenchRunsAGraphFile() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let graph = dir.appendingPathComponent("g.json").path
        try """
        {"channels": 1, "nodes": [{"name": "a", "unit": "http://lv2plug.in/plugins/eg-amp"}, {"name": "b", "unit": "aufx dely AUHs"}],
         "connections": [{"from": "a", "to": "b"}], "output": {"file": "x.wav"}}
        """.write(toFile: graph, atomically: true, encoding: .utf8)
        let r = try CLI.run(["bench", "--graph", graph, "--frames", "5120"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdout.contains("(2 nodes): 10 blocks of 512 frames"), r.stdout)
        XCTAssertTrue(r.stdout.contains("allocations per block: 0.00"), r.stdout)
    }

    func testBenchRefusesBadArguments() throws {
        let none = try CLI.run(["bench"])
        XCTAssertEqual(none.status, 64)
        XCTAssertTrue(none.stderr.contains("Name one UNIT or one --graph FILE."), none.stderr)
        let short = try CLI.run(["bench", "aufx dely AUHs", "--block", "512", "--frames", "100"])
        XCTAssertEqual(short.status, 64)
        XCTAssertTrue(short.stderr.contains("--frames must be at least one block (512)"), short.stderr)
    }
}

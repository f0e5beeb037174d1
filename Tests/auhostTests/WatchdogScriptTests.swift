import Foundation
import XCTest

/// scripts/watchdog.sh, which runs `make test`'s `swift test`: a silent command is a hung one
/// (its stacks printed, its processes killed, status 124); anything else passes its output and
/// status through, with SIGINT at its default action (tests interrupt children of theirs).
final class WatchdogScriptTests: XCTestCase {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("scripts/watchdog.sh")

    private func watch(_ quiet: Int, _ command: String) throws -> (status: Int32, stdout: String, stderr: String) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("watchdog-test-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("out"), err = folder.appendingPathComponent("err")
        XCTAssertTrue(FileManager.default.createFile(atPath: out.path, contents: nil))
        XCTAssertTrue(FileManager.default.createFile(atPath: err.path, contents: nil))
        let process = Process()
        process.executableURL = Self.script
        process.arguments = [String(quiet), "bash", "-c", command]
        process.standardOutput = try FileHandle(forWritingTo: out)
        process.standardError = try FileHandle(forWritingTo: err)
        try process.run()
        process.waitUntilExit()
        return (process.terminationStatus, try String(contentsOf: out, encoding: .utf8), try String(contentsOf: err, encoding: .utf8))
    }

    /// A command that prints and then stays silent past the limit: status 124, the stack of the
    /// silent process printed (gdb), and nothing of it left running.
    func testASilentCommandFailsWithItsStacksAndIsKilled() throws {
        let marker = "watchdog-test-\(getpid())"
        let r = try watch(3, "echo started; exec -a \(marker) sleep 600")
        XCTAssertEqual(r.status, 124, r.stderr)
        XCTAssertTrue(r.stdout.contains("started"), r.stdout)
        XCTAssertTrue(r.stderr.contains("no output for 3 s"), r.stderr)
        XCTAssertTrue(r.stderr.contains("=== process"), r.stderr)
        XCTAssertTrue(r.stderr.contains("Thread 1"), "gdb's stack of the silent process:\n\(r.stderr)")
        let ps = Process()
        ps.executableURL = URL(fileURLWithPath: "/usr/bin/pgrep")
        ps.arguments = ["-f", marker]
        ps.standardOutput = FileHandle.nullDevice
        try ps.run()
        ps.waitUntilExit()
        XCTAssertEqual(ps.terminationStatus, 1, "the silent process is gone")
    }

    /// A command that ends by itself: its output and status pass through, and it runs with SIGINT
    /// not ignored (bit 2 of /proc's SigIgn mask clear), even when this test runs with SIGINT
    /// ignored (Process passes that on). Mutations tried: the command started in the background
    /// without job control (the first version), and without `env --default-signal=INT` in a test
    /// run started by `bash -c '… & wait'`: SigIgn has SIGINT set, fails.
    func testACommandThatEndsKeepsItsStatusAndSIGINT() throws {
        let r = try watch(30, "echo hello; grep SigIgn /proc/$$/status; exit 3")
        XCTAssertEqual(r.status, 3, r.stderr)
        XCTAssertTrue(r.stdout.hasPrefix("hello\n"), r.stdout)
        let mask = try XCTUnwrap(r.stdout.split(separator: "\n").first { $0.hasPrefix("SigIgn:") }?.split(separator: "\t").last)
        let ignored = try XCTUnwrap(UInt64(mask, radix: 16), String(mask))
        XCTAssertEqual(ignored & (1 << (UInt64(SIGINT) - 1)), 0, "SIGINT ignored: SigIgn \(mask)")
    }
}

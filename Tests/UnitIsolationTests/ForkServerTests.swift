import AUHost
import Foundation
import UnitIsolation
import XCTest

/// Children come from the host's fork server (fork_server.c): forked from one
/// `auhost-unit-host --fork-server` that has loaded the runtime once, yet each is the host's own
/// child with the environment it would have been executed with.
final class ForkServerTests: XCTestCase {
    func testAChildIsForkedByTheServerAsTheHostsOwnChild() throws {
        let rig = try IsolationRig(try makeDelay())
        let child = try processID(rig.unit)
        // An executed child's command line names its component; a forked one keeps the server's.
        XCTAssertEqual(commandLine(child).dropFirst().first, "--fork-server")
        XCTAssertEqual(parentProcess(child), getpid(), "the host waits for its children")
        XCTAssertEqual(forkServers().count, 1)
        XCTAssertTrue(try rig.render(blocks: 2, frames: 256)[0].contains { $0 != 0 }, "it renders its input")
    }

    func testAKilledChildLeavesTheServerAndAKilledServerIsReplaced() throws {
        let first = try IsolationRig(try makeDelay())
        let servers = forkServers()
        XCTAssertEqual(servers.count, 1)
        let firstChild = try processID(first.unit)
        XCTAssertEqual(kill(firstChild, SIGKILL), 0)
        _ = try first.render(blocks: 1, frames: 64)
        XCTAssertNotEqual(try restartedChild(first.unit), firstChild)
        XCTAssertEqual(forkServers(), servers, "a child's death does not touch the server")

        let server = try XCTUnwrap(servers.first)
        XCTAssertEqual(kill(server, SIGKILL), 0)
        while isAlive(server) { usleep(1_000) }
        let second = try IsolationRig(try makeDelay())
        XCTAssertEqual(commandLine(try processID(second.unit)).dropFirst().first, "--fork-server")
        XCTAssertNotEqual(forkServers(), servers, "a new server took the killed one's place")
        XCTAssertTrue(try second.render(blocks: 2, frames: 256)[0].contains { $0 != 0 })
    }

    func testAChildGetsTheEnvironmentTheHostHasWhenItIsMade() throws {
        let name = "AUHOST_FORK_SERVER_TEST_\(getpid())"
        setenv(name, "before", 1)
        defer { unsetenv(name) }
        let before = try IsolationRig(try makeDelay())
        XCTAssertTrue(environment(try processID(before.unit)).contains("\(name)=before"))
        setenv(name, "after", 1)
        let after = try IsolationRig(try makeDelay())
        XCTAssertTrue(environment(try processID(after.unit)).contains("\(name)=after"))
        XCTAssertTrue(try after.render(blocks: 1, frames: 256)[0].contains { $0 != 0 })
    }

    func testTurnedOffTheChildIsExecuted() throws {
        setenv("AUHOST_UNIT_HOST_FORK_SERVER", "0", 1)
        defer { unsetenv("AUHOST_UNIT_HOST_FORK_SERVER") }
        let rig = try IsolationRig(try makeDelay())
        let arguments = commandLine(try processID(rig.unit))
        XCTAssertEqual(arguments.count, 6, "\(arguments)")
        XCTAssertEqual(arguments.dropFirst().first, String(getpid()))
        XCTAssertTrue(try rig.render(blocks: 1, frames: 256)[0].contains { $0 != 0 })
    }

    // MARK: Helpers

    func makeDelay() throws -> AudioUnit {
        var desc = AudioComponentDescription(
            type: kAudioUnitType_Effect, subType: kAudioUnitSubType_Delay, manufacturer: kAudioUnitManufacturer_Apple)
        return try instantiate(try XCTUnwrap(AudioComponentFindNext(nil, &desc)), outOfProcess: true)
    }

    func processID(_ unit: AudioUnit) throws -> pid_t {
        var pid: UInt32 = 0
        var size: UInt32 = 4
        try AudioError.check(
            AudioUnitGetProperty(unit, kAUHostIsolatedUnitProperty_ProcessID, kAudioUnitScope_Global, 0, &pid, &size), "pid")
        return pid_t(bitPattern: pid)
    }

    func restartedChild(_ unit: AudioUnit) throws -> pid_t {
        try AudioError.check(AUHostIsolatedUnitRestart(unit), "restart")
        return try processID(unit)
    }

    /// The NUL-separated strings of /proc/PID/FILE.
    func procStrings(_ pid: pid_t, _ file: String) -> [String] {
        guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/\(file)") else { return [] }
        return data.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
    }

    func commandLine(_ pid: pid_t) -> [String] { procStrings(pid, "cmdline") }
    func environment(_ pid: pid_t) -> [String] { procStrings(pid, "environ") }

    func parentProcess(_ pid: pid_t) -> pid_t? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return nil }
        return stat[stat.index(close, offsetBy: 2)...].split(separator: " ").dropFirst().first.flatMap { pid_t($0) }
    }

    func isAlive(_ pid: pid_t) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8), let close = stat.lastIndex(of: ")") else {
            return false
        }
        return stat[stat.index(close, offsetBy: 2)] != "Z"
    }

    /// This process's live fork servers.
    func forkServers() -> [pid_t] {
        let all = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return all.compactMap { pid_t($0) }.filter { pid in
            parentProcess(pid) == getpid() && isAlive(pid)
                && (try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8)) == "auhost-forksrv\n"
        }.sorted()
    }
}

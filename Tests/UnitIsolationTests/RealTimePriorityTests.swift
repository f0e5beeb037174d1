import AUHost
import Foundation
import LV2Units
import XCTest

/// A real-time host thread does not wait on a normal-priority child: the child's render thread
/// takes the scheduling policy of the thread that renders the unit.
final class RealTimePriorityTests: XCTestCase {
    func testTheChildRendersAtTheHostThreadsRealTimePriority() throws {
        let component = try XCTUnwrap(LV2Provider.component(uri: "http://lv2plug.in/plugins/eg-amp")?.handle)
        let rig = try IsolationRig(try instantiate(component, outOfProcess: true))
        var pid: UInt32 = 0
        var size: UInt32 = 4
        XCTAssertEqual(AudioUnitGetProperty(rig.unit, kAUHostIsolatedUnitProperty_ProcessID, kAudioUnitScope_Global, 0, &pid, &size), noErr)
        XCTAssertGreaterThan(pid, 0)
        func childPolicies() -> Set<Int32> {
            let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
            return Set(tasks.compactMap { pid_t($0) }.map { sched_getscheduler($0) })
        }
        XCTAssertEqual(try rig.render(blocks: 2, frames: 512).count, 1)
        XCTAssertFalse(childPolicies().contains(SCHED_FIFO), "rendered from a normal thread: no real-time thread in the child")

        let rendered = DispatchSemaphore(value: 0)
        // Written by the thread, read after `rendered` is signalled.
        nonisolated(unsafe) var outcome = (policySet: Int32(-1), status: OSStatus(-1))
        let thread = Thread {
            var param = sched_param(sched_priority: 5)
            outcome.policySet = pthread_setschedparam(pthread_self(), SCHED_FIFO, &param)
            outcome.status = rig.renderBlock(512)
            rendered.signal()
        }
        // A fresh child answers its first cycle under the same rule: restart so that it is cold.
        XCTAssertEqual(AUHostIsolatedUnitRestart(rig.unit), noErr)
        XCTAssertEqual(AudioUnitGetProperty(rig.unit, kAUHostIsolatedUnitProperty_ProcessID, kAudioUnitScope_Global, 0, &pid, &size), noErr)
        thread.start()
        XCTAssertEqual(rendered.wait(timeout: .now() + 30), .success)
        try XCTSkipIf(outcome.policySet != 0, "this process may not use SCHED_FIFO (errno \(outcome.policySet))")
        XCTAssertEqual(outcome.status, noErr)
        XCTAssertTrue(childPolicies().contains(SCHED_FIFO), "the child's render thread runs SCHED_FIFO like the host's")
    }
}

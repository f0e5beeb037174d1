import XCTest
import Foundation
import CAUHostAtomics
import TestSupport

/// A graph notification's context, poisoned as soon as its removal returns.
struct GraphChurnContext {
    var alive: UInt64 = 1
    var inFlight: UInt64 = 0
}

nonisolated(unsafe) let lateGraphNotifyCalls: UnsafeMutablePointer<UInt64> = {
    let p = UnsafeMutablePointer<UInt64>.allocate(capacity: 1)
    p.initialize(to: 0)
    return p
}()

let graphChurnNotify: AURenderCallback = { refCon, _, _, _, _, _ in
    let c = refCon.assumingMemoryBound(to: GraphChurnContext.self)
    _ = auhost_atomic_add_u64(&c.pointee.inFlight, 1)
    if auhost_atomic_load_u64(&c.pointee.alive) == 0 { _ = auhost_atomic_add_u64(lateGraphNotifyCalls, 1) }
    _ = auhost_atomic_add_u64(&c.pointee.inFlight, UInt64.max)
    return noErr
}

/// AUGraphAddRenderNotify / AUGraphRemoveRenderNotify on a graph that is being pulled on another
/// thread: a removed notification is neither running nor called again once removal returns.
/// AUHOST_NOTIFY_CHURN_SECONDS sets the duration (default 1 s).
final class GraphRenderNotifyChurnTests: XCTestCase {
    func testRemovingANotifyFromARunningGraphLeavesNoCallBehind() throws {
        let f = try GraphFixture()
        let counter = Counter()
        var cb = counter.callback
        XCTAssertEqual(AUGraphSetNodeInputCallback(f.graph!, f.head, 0, &cb), noErr)
        XCTAssertEqual(AUGraphInitialize(f.graph!), noErr, lastMessage())
        lateGraphNotifyCalls.pointee = 0
        nonisolated(unsafe) let stop = UnsafeMutablePointer<UInt64>.allocate(capacity: 1)
        stop.initialize(to: 0)  // freed once the puller has left (a stuck one keeps reading it)
        let puller = Thread {
            while auhost_atomic_load_u64(stop) == 0 { f.pull(64) }
            auhost_atomic_store_u64(stop, 2)
        }
        puller.start()
        var recent: [UnsafeMutablePointer<GraphChurnContext>] = []
        var inFlightAfterRemoval = 0, cycles = 0
        let seconds = ProcessInfo.processInfo.environment["AUHOST_NOTIFY_CHURN_SECONDS"].flatMap(Double.init) ?? 1
        let end = Date().addingTimeInterval(seconds)
        while Date() < end {
            let c = UnsafeMutablePointer<GraphChurnContext>.allocate(capacity: 1)
            c.initialize(to: GraphChurnContext())
            XCTAssertEqual(AUGraphAddRenderNotify(f.graph!, graphChurnNotify, c), noErr)
            if cycles % 2 == 0 { sched_yield() }
            XCTAssertEqual(AUGraphRemoveRenderNotify(f.graph!, graphChurnNotify, c), noErr)
            if auhost_atomic_load_u64(&c.pointee.inFlight) != 0 { inFlightAfterRemoval += 1 }
            auhost_atomic_store_u64(&c.pointee.alive, 0)
            recent.append(c)
            if recent.count > 64 { recent.removeFirst().deallocate() }
            cycles += 1
        }
        auhost_atomic_store_u64(stop, 1)
        guard waitUntil(timeout: 60, { auhost_atomic_load_u64(stop) == 2 }) else {
            return XCTFail("the puller did not stop within 60 s (stuck in a pull or a notification)")
        }
        stop.deallocate()
        for c in recent { c.deallocate() }
        XCTAssertGreaterThan(counter.value, 0, "the graph was pulled")
        XCTAssertGreaterThan(cycles, 0)
        XCTAssertEqual(inFlightAfterRemoval, 0)
        XCTAssertEqual(lateGraphNotifyCalls.pointee, 0)
        print(
            "graph render-notify churn: \(cycles) add/remove cycles in \(seconds) s, \(counter.value) frames pulled, late calls \(lateGraphNotifyCalls.pointee)"
        )
    }
}

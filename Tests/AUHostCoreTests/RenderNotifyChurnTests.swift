import XCTest
import Foundation
import CAUHostAtomics
import TestSupport

/// What a churned notification points at: poisoned (alive = 0) as soon as its removal returns.
struct ChurnContext {
    var alive: UInt64 = 1
    var inFlight: UInt64 = 0
    var calls: UInt64 = 0
}

/// Counts calls that reached a context after its removal returned (must stay 0).
nonisolated(unsafe) let lateChurnCalls: UnsafeMutablePointer<UInt64> = {
    let p = UnsafeMutablePointer<UInt64>.allocate(capacity: 1)
    p.initialize(to: 0)
    return p
}()

let churnNotify: AURenderCallback = { refCon, _, _, _, _, _ in
    let c = refCon.assumingMemoryBound(to: ChurnContext.self)
    _ = auhost_atomic_add_u64(&c.pointee.inFlight, 1)
    if auhost_atomic_load_u64(&c.pointee.alive) == 0 { _ = auhost_atomic_add_u64(lateChurnCalls, 1) }
    _ = auhost_atomic_add_u64(&c.pointee.calls, 1)
    _ = auhost_atomic_add_u64(&c.pointee.inFlight, UInt64.max)
    return noErr
}

/// "A removed render notify is never running once AudioUnitRemoveRenderNotify returns": add/remove
/// churn on one thread while another renders without pause. Each context is poisoned right after
/// its removal returns and freed a while later (kept poisoned meanwhile, so a late call is counted
/// rather than undefined; under AddressSanitizer a call after the free is a report).
/// AUHOST_NOTIFY_CHURN_SECONDS sets the duration (default 1 s; the issue's bar is 20 s under ASan);
/// AUHOST_NOTIFY_CHURN_CYCLES instead runs that many add/remove cycles whatever the time (`make
/// tsan` runs 100,000 under ThreadSanitizer).
final class RenderNotifyChurnTests: XCTestCase {
    func testRemovedNotifyIsNeverRunningOnceRemovalReturns() throws {
        let f = try GainFixture(maxFrames: 256)
        let environment = ProcessInfo.processInfo.environment
        let cycleGoal = environment["AUHOST_NOTIFY_CHURN_CYCLES"].flatMap(Int.init)
        let seconds = cycleGoal == nil ? environment["AUHOST_NOTIFY_CHURN_SECONDS"].flatMap(Double.init) ?? 1 : .infinity
        nonisolated(unsafe) let stop = UnsafeMutablePointer<UInt64>.allocate(capacity: 1)
        stop.initialize(to: 0)  // `stop` and `rendered` are freed at the end, once the renderer has left
        lateChurnCalls.pointee = 0
        nonisolated(unsafe) let rendered = UnsafeMutablePointer<UInt64>.allocate(capacity: 1)
        rendered.initialize(to: 0)
        let renderer = Thread {
            while auhost_atomic_load_u64(stop) == 0 {
                f.render(64)
                _ = auhost_atomic_add_u64(rendered, 1)
            }
            _ = auhost_atomic_add_u64(stop, 1)
        }
        renderer.start()
        // A notification that stays throughout: the list is never empty, so removals swap real lists.
        let resident = UnsafeMutablePointer<ChurnContext>.allocate(capacity: 1)
        resident.initialize(to: ChurnContext())
        XCTAssertEqual(AudioUnitAddRenderNotify(f.unit, churnNotify, resident), noErr)

        var recent: [UnsafeMutablePointer<ChurnContext>] = []
        var cycles = 0, inFlightAfterRemoval = 0, calledAtLeastOnce = 0
        let start = Date()
        let end = start.addingTimeInterval(seconds)
        while cycleGoal.map({ cycles < $0 }) ?? (Date() < end) {
            let context = UnsafeMutablePointer<ChurnContext>.allocate(capacity: 1)
            context.initialize(to: ChurnContext())
            XCTAssertEqual(AudioUnitAddRenderNotify(f.unit, churnNotify, context), noErr)
            // Let it run a little on some cycles, remove it at once on others.
            if cycles % 2 == 0 { for _ in 0..<50 where auhost_atomic_load_u64(&context.pointee.calls) == 0 { sched_yield() } }
            XCTAssertEqual(AudioUnitRemoveRenderNotify(f.unit, churnNotify, context), noErr)
            if auhost_atomic_load_u64(&context.pointee.inFlight) != 0 { inFlightAfterRemoval += 1 }
            auhost_atomic_store_u64(&context.pointee.alive, 0)
            if context.pointee.calls > 0 { calledAtLeastOnce += 1 }
            recent.append(context)
            if recent.count > 64 { recent.removeFirst().deallocate() }
            cycles += 1
        }
        auhost_atomic_store_u64(stop, 1)
        guard waitUntil(timeout: 60, { auhost_atomic_load_u64(stop) != 1 }) else {
            // Leaves `stop`, `rendered` and the contexts allocated: the stuck renderer may still touch them.
            return XCTFail("the renderer did not stop within 60 s (stuck in a render or a notification)")
        }
        XCTAssertEqual(AudioUnitRemoveRenderNotify(f.unit, churnNotify, resident), noErr)
        for c in recent { c.deallocate() }
        XCTAssertEqual(inFlightAfterRemoval, 0, "calls still running when removal returned")
        XCTAssertEqual(lateChurnCalls.pointee, 0, "calls begun after removal returned")
        XCTAssertGreaterThan(resident.pointee.calls, 0, "the renderer ran the notifications")
        XCTAssertGreaterThan(calledAtLeastOnce, 0, "some churned notifications ran before removal")
        print(
            "render-notify churn: \(cycles) add/remove cycles in \(String(format: "%.1f", Date().timeIntervalSince(start))) s, \(rendered.pointee) renders, \(calledAtLeastOnce) churned notifies called, late calls \(lateChurnCalls.pointee)"
        )
        resident.deallocate()
        stop.deallocate()
        rendered.deallocate()
    }

    /// Removal from inside the unit's own notification would wait for itself: it is refused.
    func testRemovalFromInsideANotificationIsRefusedNotDeadlocked() throws {
        let f = try GainFixture(maxFrames: 256)
        final class Box { var unit: AudioUnit?; var status: OSStatus = 1 }
        let box = Box()
        box.unit = f.unit
        let selfRemoving: AURenderCallback = { refCon, flags, _, _, _, _ in
            let box = Unmanaged<Box>.fromOpaque(refCon).takeUnretainedValue()
            if flags.pointee.rawValue & AudioUnitRenderActionFlags.unitRenderAction_PreRender.rawValue != 0 {
                box.status = AudioUnitRemoveRenderNotify(box.unit!, selfRemovingNotify!, refCon)
            }
            return noErr
        }
        selfRemovingNotify = selfRemoving
        let refCon = Unmanaged.passUnretained(box).toOpaque()
        XCTAssertEqual(AudioUnitAddRenderNotify(f.unit, selfRemoving, refCon), noErr)
        XCTAssertEqual(f.render(64), noErr)
        XCTAssertEqual(box.status, kAudioUnitErr_CannotDoInCurrentContext)
        XCTAssertEqual(AudioUnitRemoveRenderNotify(f.unit, selfRemoving, refCon), noErr)
    }
}

nonisolated(unsafe) var selfRemovingNotify: AURenderCallback?

import XCTest
import CAUHostAtomics
import AudioUnitBase

/// The one real-time event queue: sample order, a bounded size, and many producers with one
/// consumer losing and duplicating nothing (`make tsan` runs these under ThreadSanitizer too).
final class RenderEventQueueTests: XCTestCase {
    private func offsets(_ q: UnsafeMutablePointer<RenderEventQueue>) -> [Int] {
        (0..<q.pointee.pendingCount).map { q.pointee.pending[$0].offset }
    }

    func testArrivalsAreKeptInSampleOrderStableForEqualOffsets() {
        let q = RenderEventQueue.allocate(capacity: 8)
        defer { RenderEventQueue.deallocate(q) }
        for (tag, offset) in [5, 1, 3, 1, 0].enumerated() {
            XCTAssertTrue(q.pointee.push(.midi(status: 0x90, data1: UInt8(tag), data2: 1, offset: offset)))
        }
        q.pointee.takeArrivals()
        XCTAssertEqual(offsets(q), [0, 1, 1, 3, 5])
        XCTAssertEqual((0..<5).map { q.pointee.pending[$0].data1 }, [4, 1, 3, 2, 0], "equal offsets keep push order")
        // Events consumed up to frame 2 of a 4-frame call; the rest move into the next call's numbering.
        q.pointee.carry(from: 3, past: 4)
        XCTAssertEqual(offsets(q), [-1, 1])
    }

    func testAFullQueueRefusesUntilTheConsumerTakes() {
        let q = RenderEventQueue.allocate(capacity: 8)
        defer { RenderEventQueue.deallocate(q) }
        for i in 0..<8 { XCTAssertTrue(q.pointee.push(.midi(status: 0x90, data1: 60, data2: 1, offset: i))) }
        XCTAssertFalse(q.pointee.push(.midi(status: 0x90, data1: 60, data2: 1, offset: 8)), "a ninth event does not fit")
        q.pointee.takeArrivals()
        q.pointee.keepPending(0)
        XCTAssertTrue(q.pointee.push(.midi(status: 0x80, data1: 60, data2: 0, offset: 0)))
        q.pointee.takeArrivals()
        XCTAssertEqual(q.pointee.pendingCount, 1)
        XCTAssertEqual(q.pointee.pending[0].status, 0x80)
    }

    func testFourProducersOneConsumerLoseAndRepeatNothing() {
        // Shared with the consumer thread on purpose: the queue is what is under test, and the
        // consumer's counters are read only after `done` is published.
        nonisolated(unsafe) let q = RenderEventQueue.allocate(capacity: 256)
        defer { RenderEventQueue.deallocate(q) }
        let producers = 4, perProducer = 20_000
        nonisolated(unsafe) let done = UnsafeMutablePointer<UInt64>.allocate(capacity: 1)
        done.initialize(to: 0)
        defer { done.deallocate() }
        nonisolated(unsafe) var received = Array(repeating: 0, count: producers)
        nonisolated(unsafe) var outOfOrder = 0
        let consumer = Thread {
            var total = 0
            while total < producers * perProducer {
                q.pointee.takeArrivals()
                for i in 0..<q.pointee.pendingCount {
                    // Each event carries its producer and sequence number: offset = sequence.
                    let e = q.pointee.pending[i]
                    let producer = Int(e.data1)
                    if e.offset != received[producer] { outOfOrder += 1 }
                    received[producer] = e.offset + 1
                    total += 1
                }
                q.pointee.keepPending(0)
            }
            auhost_atomic_store_u64(done, 1)
        }
        consumer.start()
        DispatchQueue.concurrentPerform(iterations: producers) { p in
            for n in 0..<perProducer {
                // Offsets rise per producer, so the sample-order insertion keeps each producer's order.
                while !q.pointee.push(.midi(status: 0x90, data1: UInt8(p), data2: 1, offset: n)) { sched_yield() }
            }
        }
        while auhost_atomic_load_u64(done) == 0 { usleep(100) }
        XCTAssertEqual(received, Array(repeating: perProducer, count: producers), "every event taken once")
        XCTAssertEqual(outOfOrder, 0, "each producer's events in its order")
    }

    func testIdleOnlyWhileNothingHasArrivedOrIsPending() {
        let q = RenderEventQueue.allocate(capacity: 8)
        defer { RenderEventQueue.deallocate(q) }
        XCTAssertTrue(q.pointee.isIdle)
        // Around the ring twice: an arrival, then a pending event, are both "not idle".
        for lap in 0..<20 {
            XCTAssertTrue(q.pointee.push(.midi(status: 0x90, data1: 60, data2: 1, offset: lap)))
            XCTAssertFalse(q.pointee.isIdle, "arrived, not taken (push \(lap))")
            q.pointee.takeArrivals()
            XCTAssertFalse(q.pointee.isIdle, "taken, still pending (push \(lap))")
            q.pointee.keepPending(0)
            XCTAssertTrue(q.pointee.isIdle, "consumed (push \(lap))")
        }
        // An event beyond this call is carried into the next one and keeps the queue busy.
        XCTAssertTrue(q.pointee.push(.midi(status: 0x90, data1: 60, data2: 1, offset: 10)))
        q.pointee.takeArrivals()
        q.pointee.carry(from: 0, past: 4)
        XCTAssertFalse(q.pointee.isIdle)
        XCTAssertEqual(offsets(q), [6])
    }

    func testAConsumerThatTakesOnlyWhenNotIdleGetsEveryEvent() {
        // The render side's short way (AUEffectBase, the LV2 unit): it takes arrivals only when the
        // queue is not idle, so an arrival must never read as idle for good.
        nonisolated(unsafe) let q = RenderEventQueue.allocate(capacity: 64)
        defer { RenderEventQueue.deallocate(q) }
        let total = 50_000
        nonisolated(unsafe) var taken = 0
        let finished = DispatchSemaphore(value: 0)
        // Both sides give up after 30 s, so that a queue stuck "idle" fails the test, not hangs it.
        let deadline = Date().addingTimeInterval(30)
        let consumer = Thread {
            while taken < total && Date() < deadline {
                if q.pointee.isIdle { continue }
                q.pointee.takeArrivals()
                taken += q.pointee.pendingCount
                q.pointee.keepPending(0)
            }
            finished.signal()
        }
        consumer.start()
        DispatchQueue.concurrentPerform(iterations: 2) { p in
            for n in 0..<total / 2 {
                while !q.pointee.push(.midi(status: 0x90, data1: UInt8(p), data2: 1, offset: n)) {
                    if Date() > deadline { return }
                    sched_yield()
                }
            }
        }
        finished.wait()
        XCTAssertEqual(taken, total)
    }
}

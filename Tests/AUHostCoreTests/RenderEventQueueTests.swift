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
}

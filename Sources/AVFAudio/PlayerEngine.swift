import AudioToolbox
import Foundation
import Synchronization

/// One scheduled buffer as the render thread sees it: written by the setup thread before it is
/// published (the ring's tail), then read by the render thread; `done` is the render thread's.
struct ScheduledItem {
    var id: UInt64 = 0
    var channels: UnsafePointer<UnsafeMutablePointer<Float>>?
    var channelCount = 0
    var frames: Int64 = 0
    /// Player sample time of the first frame.
    var start: Int64 = 0
    var loops = false
    var done = false
}

/// Everything a player node's render callback uses: a ring of scheduled buffers in (setup thread
/// → render thread), finished buffers' ids out (render thread → delivery thread), the play state
/// and the clocks. The render side (PlayerEngine+Render.swift) allocates nothing, locks nothing
/// and never waits.
final class PlayerEngine: @unchecked Sendable {
    static let capacity = 256
    /// ``capacity``, where the render thread reads it (a static needs lazy initialization).
    let slotCount = PlayerEngine.capacity
    let items: UnsafeMutablePointer<ScheduledItem>
    let head = Atomic<Int>(0)  // oldest item not yet done (render thread)
    let tail = Atomic<Int>(0)  // next free slot (setup thread)
    /// Ids of finished items (render thread → delivery thread), a ring of `finishedMask + 1`
    /// slots kept inline (a ring object would cost a reference count on the render thread).
    let finishedSlots: UnsafeMutablePointer<UInt64>
    let finishedMask = PlayerEngine.capacity * 2 - 1
    let finishedHead = Atomic<Int>(0)
    let finishedTail = Atomic<Int>(0)
    let wake: UnsafeMutablePointer<sem_t>

    // Set by setup threads.
    let playing = Atomic<Int>(0)
    /// The node sample time playback starts at after play(at:) (−1: at the next render).
    let startAtNodeSample = Atomic<Int64>(-1)
    /// Items whose id is below this are cancelled (stop, .interrupts).
    let cancelBelow = Atomic<UInt64>(0)
    /// Bumped by stop(): the render thread then puts the player's time back to 0.
    let stopGeneration = Atomic<UInt64>(0)

    // Set by the render thread, read anywhere.
    /// Frames pulled since the engine started (the node's time).
    let nodeSample = Atomic<Int64>(0)
    /// Frames played since play (the player's time).
    let playerSample = Atomic<Int64>(0)
    /// The node time of player time 0 (−1 while not playing).
    let nodeAtPlayerZero = Atomic<Int64>(-1)

    // Render-thread private.
    var stopGenerationSeen: UInt64 = 0
    var wasPlaying = false

    /// Thread: setup.
    init(wake: UnsafeMutablePointer<sem_t>) {
        items = .allocate(capacity: PlayerEngine.capacity)
        items.initialize(repeating: ScheduledItem(), count: PlayerEngine.capacity)
        finishedSlots = .allocate(capacity: PlayerEngine.capacity * 2)
        finishedSlots.initialize(repeating: 0, count: PlayerEngine.capacity * 2)
        self.wake = wake
    }

    deinit {
        items.deallocate()
        finishedSlots.deallocate()
    }

    /// The oldest finished id, if any.
    ///
    /// Thread: the delivery thread (one consumer).
    func popFinished() -> UInt64? {
        let h = finishedHead.load(ordering: .relaxed)
        if h == finishedTail.load(ordering: .acquiring) { return nil }
        let id = finishedSlots[h & finishedMask]
        finishedHead.store(h + 1, ordering: .releasing)
        return id
    }

    /// Publishes an item; false when the ring is full.
    ///
    /// Thread: setup (one at a time: the node's lock).
    func push(_ item: ScheduledItem) -> Bool {
        let t = tail.load(ordering: .relaxed)
        guard t - head.load(ordering: .acquiring) < PlayerEngine.capacity else { return false }
        items[t % PlayerEngine.capacity] = item
        tail.store(t + 1, ordering: .releasing)
        return true
    }
}

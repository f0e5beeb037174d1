import CAUHostAtomics
import AudioTypes

// The one real-time event queue: parameter changes scheduled for coming render calls, and MIDI
// for instruments. Render-thread code, self-contained (every function it calls is annotated or
// in this file); AUBase+ParameterEvents.swift fills it and applies what it holds.

/// What a queue carries: a parameter change (immediate or ramped) or a MIDI channel message, at a
/// frame relative to the start of the next render call.
public struct RenderEvent {
    public enum Kind: UInt8 { case parameter, midi }
    public var kind: Kind
    /// First frame, relative to the current render call (a ramp may have started earlier).
    public var offset: Int
    /// Parameter changes: the value slot, the ramp's length (0 for an immediate change) and ends.
    public var slot: UnsafeMutablePointer<Float>?
    public var duration: Int = 0
    public var startValue: Float = 0
    public var endValue: Float = 0
    /// MIDI: the channel message's bytes.
    public var status: UInt8 = 0
    public var data1: UInt8 = 0
    public var data2: UInt8 = 0

    /// A parameter change of `slot` from `start` over `duration` frames (0: immediate).
    ///
    /// Thread: any.
    @_noAllocation @_noLocks
    public static func parameter(
        _ slot: UnsafeMutablePointer<Float>, start: Int, duration: Int = 0, from startValue: Float, to endValue: Float
    ) -> RenderEvent {
        RenderEvent(kind: .parameter, offset: start, slot: slot, duration: duration, startValue: startValue, endValue: endValue)
    }

    /// A MIDI channel message at frame `offset`.
    ///
    /// Thread: any.
    @_noAllocation @_noLocks
    public static func midi(status: UInt8, data1: UInt8, data2: UInt8, offset: Int) -> RenderEvent {
        RenderEvent(kind: .midi, offset: offset, slot: nil, status: status, data1: data1, data2: data2)
    }
}

/// A bounded multi-producer, single-consumer queue of render events. Producers (setup threads, a
/// MIDI thread, the render thread itself) push without locking or allocating (Vyukov's bounded
/// queue: a compare-and-swap claims a cell, a per-cell sequence number publishes it). The render
/// thread drains arrivals into `pending`, kept in sample order (stable for equal offsets), consumes
/// what falls in its call, and carries the rest into the next call's numbering.
///
/// Allocated at setup with ``allocate(capacity:)`` and used through its pointer.
public struct RenderEventQueue {
    private struct Cell {
        var sequence: UInt64
        var event: RenderEvent
    }

    /// What only the consumer (the render thread) touches.
    private struct ConsumerState {
        /// The next cell to take.
        var dequeuePosition: UInt64 = 0
        var pendingCount = 0
    }

    public let capacity: Int
    private let cells: UnsafeMutablePointer<Cell>
    /// The next cell a producer claims (atomic).
    private let enqueuePosition: UnsafeMutablePointer<UInt64>
    private let consumer: UnsafeMutablePointer<ConsumerState>
    /// Events arrived and not yet consumed, in sample order (render thread only).
    public let pending: UnsafeMutablePointer<RenderEvent>
    /// How many of `pending` are in use (render thread only).
    public var pendingCount: Int {
        @_noAllocation @_noLocks get { consumer.pointee.pendingCount }
    }

    /// A queue of `capacity` events (a power of two).
    ///
    /// Thread: setup.
    public static func allocate(capacity: Int) -> UnsafeMutablePointer<RenderEventQueue> {
        precondition(capacity > 0 && capacity & (capacity - 1) == 0, "the capacity is a power of two")
        let cells = UnsafeMutablePointer<Cell>.allocate(capacity: capacity)
        for i in 0..<capacity {
            (cells + i).initialize(to: Cell(sequence: UInt64(i), event: .midi(status: 0, data1: 0, data2: 0, offset: 0)))
        }
        let enqueuePosition = UnsafeMutablePointer<UInt64>.allocate(capacity: 1)
        enqueuePosition.initialize(to: 0)
        let consumer = UnsafeMutablePointer<ConsumerState>.allocate(capacity: 1)
        consumer.initialize(to: ConsumerState())
        let queue = UnsafeMutablePointer<RenderEventQueue>.allocate(capacity: 1)
        queue.initialize(
            to: RenderEventQueue(
                capacity: capacity, cells: cells, enqueuePosition: enqueuePosition, consumer: consumer,
                pending: .allocate(capacity: capacity)))
        return queue
    }

    /// Frees a queue made by ``allocate(capacity:)``.
    ///
    /// Thread: setup.
    public static func deallocate(_ queue: UnsafeMutablePointer<RenderEventQueue>) {
        queue.pointee.cells.deallocate()
        queue.pointee.enqueuePosition.deallocate()
        queue.pointee.consumer.deallocate()
        queue.pointee.pending.deallocate()
        queue.deinitialize(count: 1)
        queue.deallocate()
    }

    private init(
        capacity: Int, cells: UnsafeMutablePointer<Cell>, enqueuePosition: UnsafeMutablePointer<UInt64>,
        consumer: UnsafeMutablePointer<ConsumerState>, pending: UnsafeMutablePointer<RenderEvent>
    ) {
        self.capacity = capacity
        self.cells = cells
        self.enqueuePosition = enqueuePosition
        self.consumer = consumer
        self.pending = pending
    }

    /// Queues an event for the next render call; false when the queue is full.
    ///
    /// Thread: any (lock-free).
    @_noAllocation @_noLocks
    public func push(_ event: RenderEvent) -> Bool {
        let mask = UInt64(capacity - 1), cells = self.cells, enqueuePosition = self.enqueuePosition
        return _unsafePerformance {
            // (AUHostAtomics' functions are single atomic instructions the checker cannot see into.)
            var position = auhost_atomic_load_u64(enqueuePosition)
            while true {
                let cell = cells + Int(position & mask)
                let difference = Int64(bitPattern: auhost_atomic_load_u64(&cell.pointee.sequence) &- position)
                if difference == 0 {
                    // The cell is free for this position: claim the position, then fill and publish it.
                    if auhost_atomic_compare_exchange_u64(enqueuePosition, &position, position + 1) {
                        cell.pointee.event = event
                        auhost_atomic_store_u64(&cell.pointee.sequence, position + 1)
                        return true
                    }
                } else if difference < 0 {
                    return false  // the consumer has not taken the cell a lap ago: full
                } else {
                    position = auhost_atomic_load_u64(enqueuePosition)
                }
            }
        }
    }

    /// Moves arrived events into `pending`, in sample order, as many as it has room for (the rest
    /// wait in the ring, where producers meanwhile find it full).
    ///
    /// Thread: render.
    @_noAllocation @_noLocks
    public func takeArrivals() {
        let mask = UInt64(capacity - 1), cells = self.cells, consumer = self.consumer
        while consumer.pointee.pendingCount < capacity {
            let position = consumer.pointee.dequeuePosition
            let cell = cells + Int(position & mask)
            let published = _unsafePerformance { auhost_atomic_load_u64(&cell.pointee.sequence) }
            guard published == position + 1 else { return }
            let event = cell.pointee.event
            _unsafePerformance { auhost_atomic_store_u64(&cell.pointee.sequence, position + UInt64(capacity)) }
            consumer.pointee.dequeuePosition = position + 1
            insertPending(event)
        }
    }

    /// Whether no event is pending and none has arrived: a render call then has one slice and
    /// nothing to apply or carry.
    ///
    /// Thread: render.
    public var isIdle: Bool {
        @_noAllocation @_noLocks get {
            guard consumer.pointee.pendingCount == 0 else { return false }
            let position = consumer.pointee.dequeuePosition
            let cell = cells + Int(position & UInt64(capacity - 1))
            return _unsafePerformance { auhost_atomic_load_u64(&cell.pointee.sequence) } != position + 1
        }
    }

    /// Inserts after every pending event with the same or an earlier offset (room checked).
    @_noAllocation @_noLocks
    private func insertPending(_ event: RenderEvent) {
        var i = consumer.pointee.pendingCount
        while i > 0 {
            if pending[i - 1].offset <= event.offset { break }
            pending[i] = pending[i - 1]
            i -= 1
        }
        pending[i] = event
        consumer.pointee.pendingCount += 1
    }

    /// Keeps the first `count` pending events (after a consumer compacted the ones it keeps to
    /// the front).
    ///
    /// Thread: render.
    @_noAllocation @_noLocks
    public func keepPending(_ count: Int) {
        consumer.pointee.pendingCount = min(count, consumer.pointee.pendingCount)
    }

    /// Moves the pending events from `first` on to the front, into the next render call's
    /// numbering (a call of `frames` frames ended); earlier ones were consumed.
    ///
    /// Thread: render.
    @_noAllocation @_noLocks
    public func carry(from first: Int, past frames: Int) {
        let count = consumer.pointee.pendingCount
        var kept = 0
        var i = first
        while i < count {
            pending[kept] = pending[i]
            pending[kept].offset -= frames
            kept += 1
            i += 1
        }
        consumer.pointee.pendingCount = kept
    }

    /// Drops every queued and pending event (reset, initialize).
    ///
    /// Thread: render, or setup while no render call runs.
    @_noAllocation @_noLocks
    public func clear() {
        repeat {
            consumer.pointee.pendingCount = 0
            takeArrivals()
        } while consumer.pointee.pendingCount > 0
    }
}

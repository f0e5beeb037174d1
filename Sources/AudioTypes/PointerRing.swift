import Synchronization

/// A bounded single-producer single-consumer queue of pointers: how buffers cross between the
/// device thread and the others without locks. Producer and consumer may be any two threads,
/// one each at a time (the owner's lock serialises the setup-side end). Audio queues and the
/// system-sound mixer use it.
public final class PointerRing: @unchecked Sendable {
    @usableFromInline let slots: UnsafeMutablePointer<UnsafeMutableRawPointer?>
    @usableFromInline let mask: Int
    @usableFromInline let head = Atomic<Int>(0)  // next to read (consumer)
    @usableFromInline let tail = Atomic<Int>(0)  // next to write (producer)

    /// Thread: setup. `capacity` is rounded up to a power of two.
    public init(capacity: Int) {
        var size = 1
        while size < capacity { size <<= 1 }
        slots = .allocate(capacity: size)
        slots.initialize(repeating: nil, count: size)
        mask = size - 1
    }

    deinit { slots.deallocate() }

    /// Adds `pointer`; false when full. Thread: the producer (render-safe: no allocation, no lock).
    @inlinable
    public func push(_ pointer: UnsafeMutableRawPointer) -> Bool {
        let t = tail.load(ordering: .relaxed)
        if t - head.load(ordering: .acquiring) > mask { return false }
        slots[t & mask] = pointer
        tail.store(t + 1, ordering: .releasing)
        return true
    }

    /// Takes the oldest pointer, if any. Thread: the consumer (render-safe).
    @inlinable
    public func pop() -> UnsafeMutableRawPointer? {
        let h = head.load(ordering: .relaxed)
        if h == tail.load(ordering: .acquiring) { return nil }
        let pointer = slots[h & mask]
        head.store(h + 1, ordering: .releasing)
        return pointer
    }

    /// Whether nothing is waiting. Thread: either end.
    public var isEmpty: Bool { head.load(ordering: .acquiring) == tail.load(ordering: .acquiring) }
}

import Synchronization

/// A single-producer single-consumer queue of variable-size messages ([UInt32 size][bytes]) in
/// preallocated memory: the hand-off between the render thread and the worker/log threads.
/// Plain pointers only, so using it involves no reference counting.
struct LV2RingBuffer {
    let storage: UnsafeMutablePointer<UInt8>
    let mask: Int
    /// [0] = total bytes written, [1] = total bytes read; both only grow.
    let positions: UnsafeMutablePointer<Atomic<Int>>

    /// A ring of at least `minimumCapacity` bytes (rounded up to a power of two).
    /// Thread: setup (non-real-time).
    static func allocate(minimumCapacity: Int) -> LV2RingBuffer {
        var capacity = 64
        while capacity < minimumCapacity { capacity <<= 1 }
        let positions = UnsafeMutablePointer<Atomic<Int>>.allocate(capacity: 2)
        (positions + 0).initialize(to: Atomic(0))
        (positions + 1).initialize(to: Atomic(0))
        let storage = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
        return LV2RingBuffer(storage: storage, mask: capacity - 1, positions: positions)
    }

    /// Frees the memory; no thread may use the ring afterwards. Thread: setup (non-real-time).
    func deallocate() {
        storage.deallocate()
        positions.deinitialize(count: 2)
        positions.deallocate()
    }

    /// Appends one message; false (and nothing written) if it does not fit.
    /// Thread: the single producer (real-time safe).
    @_noAllocation @_noLocks
    func write(_ data: UnsafeRawPointer?, size: Int) -> Bool {
        let written = positions[0].load(ordering: .relaxed)
        let read = positions[1].load(ordering: .acquiring)
        let needed = 4 + size
        guard needed <= mask + 1 - (written - read) else { return false }
        var header = UInt32(size)
        withUnsafeBytes(of: &header) { bytes in
            for i in 0..<4 { storage[(written + i) & mask] = bytes[i] }
        }
        if let data {
            let bytes = data.assumingMemoryBound(to: UInt8.self)
            for i in 0..<size { storage[(written + 4 + i) & mask] = bytes[i] }
        }
        positions[0].store(written + needed, ordering: .releasing)
        return true
    }

    /// Appends one message of `tag` (4 bytes) followed by `size` bytes of `data`; false (and
    /// nothing written) if it does not fit. Thread: the single producer (real-time safe).
    @_noAllocation @_noLocks
    func write(tag: UInt32, _ data: UnsafeRawPointer, size: Int) -> Bool {
        let written = positions[0].load(ordering: .relaxed)
        let read = positions[1].load(ordering: .acquiring)
        let needed = 8 + size
        guard needed <= mask + 1 - (written - read) else { return false }
        var header = (UInt32(4 + size), tag)
        withUnsafeBytes(of: &header) { bytes in
            for i in 0..<8 { storage[(written + i) & mask] = bytes[i] }
        }
        let bytes = data.assumingMemoryBound(to: UInt8.self)
        for i in 0..<size { storage[(written + 8 + i) & mask] = bytes[i] }
        positions[0].store(written + needed, ordering: .releasing)
        return true
    }

    /// The size of the next message, or nil when the ring is empty; it stays in the ring.
    /// Thread: the single consumer (real-time safe).
    @_noAllocation @_noLocks
    func nextSize() -> Int? {
        let read = positions[1].load(ordering: .relaxed)
        let written = positions[0].load(ordering: .acquiring)
        guard written - read >= 4 else { return nil }
        var header: UInt32 = 0
        withUnsafeMutableBytes(of: &header) { bytes in
            for i in 0..<4 { bytes[i] = storage[(read + i) & mask] }
        }
        return Int(header)
    }

    /// The first 4 bytes of the next message (a `write(tag:…)` message's tag), which stays in
    /// the ring; nil when the ring holds no message of 4 bytes or more. Thread: the single consumer.
    @_noAllocation @_noLocks
    func nextTag() -> UInt32? {
        guard let size = nextSize(), size >= 4 else { return nil }
        let read = positions[1].load(ordering: .relaxed)
        var tag: UInt32 = 0
        withUnsafeMutableBytes(of: &tag) { bytes in
            for i in 0..<4 { bytes[i] = storage[(read + 4 + i) & mask] }
        }
        return tag
    }

    /// Removes the next message into `buffer` (of `capacity` bytes) and returns its size, or -1
    /// when the ring is empty. A message larger than `capacity` is dropped and its size returned
    /// negated minus one (so the caller can tell). Thread: the single consumer (real-time safe).
    @_noAllocation @_noLocks
    func read(into buffer: UnsafeMutableRawPointer, capacity: Int) -> Int {
        let read = positions[1].load(ordering: .relaxed)
        let written = positions[0].load(ordering: .acquiring)
        guard written - read >= 4 else { return -1 }
        var header: UInt32 = 0
        withUnsafeMutableBytes(of: &header) { bytes in
            for i in 0..<4 { bytes[i] = storage[(read + i) & mask] }
        }
        let size = Int(header)
        if size <= capacity {
            let bytes = buffer.assumingMemoryBound(to: UInt8.self)
            for i in 0..<size { bytes[i] = storage[(read + 4 + i) & mask] }
        }
        positions[1].store(read + 4 + size, ordering: .releasing)
        return size <= capacity ? size : -size - 1
    }
}

import Synchronization

/// A lock-free single-producer single-consumer ring of Float32 frames, non-interleaved, with a
/// fixed capacity allocated at creation.
///
/// The producer (the render thread) calls `push`; the consumer (one other thread) calls
/// `availableFrames` and `pop`. Neither side allocates, locks or waits: the two sides share only
/// two monotonically growing frame counters (release/acquire atomics). When the ring is full,
/// `push` stores what fits and counts the rest in `overflowFrames` (those frames are lost).
/// This is a handle of raw pointers — copy it freely; the owner frees it once with `deallocate()`
/// after both sides have stopped.
public struct FrameRingBuffer: @unchecked Sendable {
    /// Channels per frame.
    public let channelCount: Int
    /// Frames the ring holds (a power of two).
    public let capacity: Int
    let mask: Int
    let samples: UnsafeMutablePointer<Float>
    /// [0] frames ever pushed, [1] frames ever popped, [2] frames dropped by overflow.
    let counters: UnsafeMutablePointer<Atomic<Int>>

    /// Allocates a ring of at least `minimumCapacity` frames (rounded up to a power of two) of
    /// `channelCount` channels. Throws `kAudio_ParamError` for counts outside 1…64 channels or
    /// 16…2^26 frames. Thread: setup (non-real-time).
    public static func allocate(channelCount: Int, minimumCapacity: Int) throws -> FrameRingBuffer {
        guard (1...64).contains(channelCount), (16...(1 << 26)).contains(minimumCapacity) else {
            throw AudioFileError(
                status: -50, path: "",
                "A frame ring needs 1…64 channels and 16…67108864 frames, not \(channelCount) × \(minimumCapacity).")
        }
        var capacity = 16
        while capacity < minimumCapacity { capacity <<= 1 }
        return FrameRingBuffer(channelCount: channelCount, capacity: capacity)
    }

    private init(channelCount: Int, capacity: Int) {
        self.channelCount = channelCount
        self.capacity = capacity
        mask = capacity - 1
        samples = .allocate(capacity: channelCount * capacity)
        samples.initialize(repeating: 0, count: channelCount * capacity)
        counters = .allocate(capacity: 3)
        for i in 0..<3 { (counters + i).initialize(to: Atomic(0)) }
    }

    /// Frees the storage. Call once, after producer and consumer have stopped.
    /// Thread: setup (non-real-time).
    public func deallocate() {
        _ = counters.deinitialize(count: 3)
        counters.deallocate()
        samples.deallocate()
    }

    /// Appends up to `frameCount` frames from `channels` (`channelCount` pointers); returns how
    /// many fitted. Frames that did not fit are added to `overflowFrames`.
    /// Thread: render (real-time) — the single producer.
    @_noAllocation @_noLocks
    public func push(_ channels: UnsafePointer<UnsafePointer<Float>>, frameCount: Int) -> Int {
        let written = counters[0].load(ordering: .relaxed)
        let read = counters[1].load(ordering: .acquiring)
        let free = capacity - (written - read)
        let n = min(max(frameCount, 0), free)
        if n < frameCount {
            counters[2].wrappingAdd(frameCount - n, ordering: .relaxed)
        }
        let start = written & mask
        let first = min(n, capacity - start)
        for c in 0..<channelCount {
            let source = channels[c], lane = samples + c * capacity
            for i in 0..<first { lane[start + i] = source[i] }
            for i in first..<n { lane[i - first] = source[i] }
        }
        counters[0].store(written + n, ordering: .releasing)
        return n
    }

    /// Frames pushed and not yet popped. Thread: any (exact on the consumer thread).
    public var availableFrames: Int {
        counters[0].load(ordering: .acquiring) - counters[1].load(ordering: .relaxed)
    }

    /// Moves up to `maximumFrames` frames into `channels` (`channelCount` buffers); returns the
    /// count. Thread: the single consumer (any non-render thread).
    public func pop(into channels: UnsafePointer<UnsafeMutablePointer<Float>>, maximumFrames: Int) -> Int {
        let read = counters[1].load(ordering: .relaxed)
        let written = counters[0].load(ordering: .acquiring)
        let n = min(written - read, max(maximumFrames, 0))
        let start = read & mask
        let first = min(n, capacity - start)
        for c in 0..<channelCount {
            let target = channels[c], lane = samples + c * capacity
            target.update(from: lane + start, count: first)
            if n > first { (target + first).update(from: lane, count: n - first) }
        }
        counters[1].store(read + n, ordering: .releasing)
        return n
    }

    /// Frames ever pushed (accepted). Thread: any.
    public var pushedFrames: Int { counters[0].load(ordering: .acquiring) }
    /// Frames ever popped. Thread: any.
    public var poppedFrames: Int { counters[1].load(ordering: .acquiring) }
    /// Frames `push` had to drop because the ring was full. Thread: any.
    public var overflowFrames: Int { counters[2].load(ordering: .relaxed) }
}

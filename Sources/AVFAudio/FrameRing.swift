import Synchronization

/// A bounded single-producer single-consumer ring of deinterleaved Float frames: how a tap's audio
/// leaves the render thread. The render thread writes (never blocking: frames that do not fit are
/// dropped and counted); the delivery thread reads.
final class FrameRing: @unchecked Sendable {
    let channels: Int
    let capacity: Int
    private let data: UnsafeMutablePointer<Float>
    private let written = Atomic<Int>(0)
    private let read = Atomic<Int>(0)
    let dropped = Atomic<Int>(0)
    /// The sample time of the first frame written (NaN until then); written once by the producer.
    let firstSampleTime = Atomic<UInt64>(Double.nan.bitPattern)

    /// Thread: setup.
    init(channels: Int, capacity: Int) {
        self.channels = channels
        self.capacity = capacity
        data = .allocate(capacity: channels * capacity)
        data.initialize(repeating: 0, count: channels * capacity)
    }

    deinit { data.deallocate() }

    /// Appends `frames` frames (one pointer per channel); drops them all when they do not fit.
    ///
    /// Thread: render (no allocation, no lock, no wait).
    @inline(__always)
    func write(_ channelData: UnsafeMutableAudioBufferListPointer, frames: Int, sampleTime: Double) {
        let w = written.load(ordering: .relaxed)
        if w == 0, firstSampleTime.load(ordering: .relaxed) == Double.nan.bitPattern {
            firstSampleTime.store(sampleTime.bitPattern, ordering: .releasing)
        }
        guard capacity - (w - read.load(ordering: .acquiring)) >= frames, channelData.count >= 1 else {
            dropped.add(frames, ordering: .relaxed)
            return
        }
        for c in 0..<channels {
            let source = channelData[min(c, channelData.count - 1)].mData?.assumingMemoryBound(to: Float.self)
            let ring = data + c * capacity
            for i in 0..<frames { ring[(w + i) % capacity] = source?[i] ?? 0 }
        }
        written.store(w + frames, ordering: .releasing)
    }

    /// Frames waiting to be read.
    ///
    /// Thread: the consumer.
    var available: Int { written.load(ordering: .acquiring) - read.load(ordering: .relaxed) }

    /// Frames read so far (the position of the next frame to read).
    ///
    /// Thread: the consumer.
    var readPosition: Int { read.load(ordering: .relaxed) }

    /// Moves `frames` frames out into one pointer per channel.
    ///
    /// Thread: the consumer.
    func read(into channelData: UnsafePointer<UnsafeMutablePointer<Float>>, frames: Int) {
        let r = read.load(ordering: .relaxed)
        for c in 0..<channels {
            let ring = data + c * capacity
            for i in 0..<frames { channelData[c][i] = ring[(r + i) % capacity] }
        }
        read.store(r + frames, ordering: .releasing)
    }
}

/// A bounded single-producer single-consumer ring of identifiers: how finished scheduled
/// buffers leave the render thread.
final class IdentifierRing: @unchecked Sendable {
    private let slots: UnsafeMutablePointer<UInt64>
    private let mask: Int
    private let head = Atomic<Int>(0)
    private let tail = Atomic<Int>(0)

    /// Thread: setup. `capacity` is rounded up to a power of two.
    init(capacity: Int) {
        var size = 1
        while size < capacity { size <<= 1 }
        slots = .allocate(capacity: size)
        slots.initialize(repeating: 0, count: size)
        mask = size - 1
    }

    deinit { slots.deallocate() }

    /// Thread: the producer (render-safe). False when full.
    @inline(__always)
    func push(_ id: UInt64) -> Bool {
        let t = tail.load(ordering: .relaxed)
        if t - head.load(ordering: .acquiring) > mask { return false }
        slots[t & mask] = id
        tail.store(t + 1, ordering: .releasing)
        return true
    }

    /// Thread: the consumer.
    func pop() -> UInt64? {
        let h = head.load(ordering: .relaxed)
        if h == tail.load(ordering: .acquiring) { return nil }
        let id = slots[h & mask]
        head.store(h + 1, ordering: .releasing)
        return id
    }
}

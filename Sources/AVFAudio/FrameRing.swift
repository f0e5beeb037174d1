import AudioToolbox
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
    @_noAllocation @_noLocks
    func write(_ list: UnsafeMutablePointer<AudioBufferList>, frames: Int, sampleTime: Double) {
        let (buffers, count) = renderBuffers(list)
        let w = written.load(ordering: .relaxed)
        if w == 0, firstSampleTime.load(ordering: .relaxed) == Double.nan.bitPattern {
            firstSampleTime.store(sampleTime.bitPattern, ordering: .releasing)
        }
        guard capacity - (w - read.load(ordering: .acquiring)) >= frames, count >= 1 else {
            dropped.add(frames, ordering: .relaxed)
            return
        }
        for c in 0..<channels {
            let source = buffers[min(c, count - 1)].mData?.assumingMemoryBound(to: Float.self)
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

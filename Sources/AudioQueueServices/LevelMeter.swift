import CAUHostAtomics
import AudioToolbox
import Foundation

/// Peak and RMS per channel of what a queue played or recorded since the meter was last read.
/// The render thread is the only writer: it accumulates privately and publishes after each cycle
/// under a sequence counter (a seqlock), so a reader on any thread gets a consistent snapshot
/// without the render thread ever waiting. Only audio from buffers counts (not the silence a
/// starving or draining queue plays).
final class LevelMeter: @unchecked Sendable {
    let channels: Int
    // Render-thread private accumulators.
    private let peak: UnsafeMutablePointer<Float>
    private let sumOfSquares: UnsafeMutablePointer<Double>
    private var count = 0
    private var resetsSeen: UInt64 = 0
    // Published: [sequence, count, resets requested, then (peak bits, sum bits) per channel].
    private let published: UnsafeMutablePointer<UInt64>

    /// Thread: setup.
    init(channels: Int) {
        self.channels = channels
        peak = .allocate(capacity: channels)
        peak.initialize(repeating: 0, count: channels)
        sumOfSquares = .allocate(capacity: channels)
        sumOfSquares.initialize(repeating: 0, count: channels)
        published = .allocate(capacity: 3 + 2 * channels)
        published.initialize(repeating: 0, count: 3 + 2 * channels)
    }

    deinit {
        peak.deallocate()
        sumOfSquares.deallocate()
        published.deallocate()
    }

    /// Adds `frames` frames of non-interleaved channels, starting at `offset` in each.
    ///
    /// Thread: render.
    @inline(__always)
    func accumulate(_ channelData: UnsafeMutableAudioBufferListPointer, offset: Int, frames: Int) {
        let resets = auhost_atomic_load_u64(published + 2)
        if resets != resetsSeen {
            resetsSeen = resets
            for c in 0..<channels {
                peak[c] = 0
                sumOfSquares[c] = 0
            }
            count = 0
        }
        for c in 0..<min(channels, channelData.count) {
            guard let samples = channelData[c].mData?.assumingMemoryBound(to: Float.self) else { continue }
            var p = peak[c], s = sumOfSquares[c]
            for i in offset..<offset + frames {
                let x = samples[i]
                p = max(p, abs(x))
                s += Double(x) * Double(x)
            }
            peak[c] = p
            sumOfSquares[c] = s
        }
        count += frames
    }

    /// Makes the accumulators visible to readers.
    ///
    /// Thread: render.
    @inline(__always)
    func publish() {
        let sequence = auhost_atomic_load_u64(published)
        auhost_atomic_store_u64(published, sequence &+ 1)  // odd: writing
        auhost_atomic_store_u64(published + 1, UInt64(count))
        for c in 0..<channels {
            auhost_atomic_store_u64(published + 3 + 2 * c, UInt64(peak[c].bitPattern))
            auhost_atomic_store_u64(published + 4 + 2 * c, sumOfSquares[c].bitPattern)
        }
        auhost_atomic_store_u64(published, sequence &+ 2)
    }

    /// The meter since the last read (linear amplitude: mAveragePower is the RMS), then starts
    /// a new measurement.
    ///
    /// Thread: setup.
    func read() -> [AudioQueueLevelMeterState] {
        var states: [AudioQueueLevelMeterState] = []
        while true {
            let before = auhost_atomic_load_u64(published)
            if before & 1 == 1 {
                sched_yield()
                continue
            }
            let frames = Double(auhost_atomic_load_u64(published + 1))
            states = (0..<channels).map { c in
                let p = Float(bitPattern: UInt32(truncatingIfNeeded: auhost_atomic_load_u64(published + 3 + 2 * c)))
                let s = Double(bitPattern: auhost_atomic_load_u64(published + 4 + 2 * c))
                return AudioQueueLevelMeterState(mAveragePower: frames > 0 ? Float((s / frames).squareRoot()) : 0, mPeakPower: p)
            }
            if auhost_atomic_load_u64(published) == before { break }
        }
        _ = auhost_atomic_add_u64(published + 2, 1)
        return states
    }

    /// Linear amplitude as dBFS, silence clipped to -120 dB.
    ///
    /// Thread: any.
    static func decibels(_ amplitude: Float) -> Float {
        amplitude > 0 ? max(-120, 20 * log10(amplitude)) : -120
    }
}

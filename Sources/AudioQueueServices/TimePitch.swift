import AudioToolbox
import AudioTypes
import DSPKernels
import Foundation
import Synchronization

/// PlayRate and Pitch for a playback queue (TimePitchStretch: SoundTouch for the tempo, a cubic
/// reader for the pitch): PlayRate changes speed keeping pitch (Spectral / TimeDomain) or with it
/// (Varispeed: the reader alone, as tape does); Pitch shifts by cents. Created with
/// kAudioQueueProperty_EnableTimePitch; the render thread feeds it the queue's frames.
final class TimePitch: @unchecked Sendable {
    let stretch: TimePitchStretch
    /// The most frames the render thread reads or feeds at once.
    static let chunkFrames = 1024
    static let maximumChannels = TimePitchStretch.maximumChannels
    // Asked for by setup threads, applied by the render thread at the start of a cycle.
    let playRateBits = Atomic<UInt32>(Float(1).bitPattern)
    let pitchBits = Atomic<UInt32>(Float(0).bitPattern)
    let algorithm = Atomic<UInt32>(kAudioQueueTimePitchAlgorithm_TimeDomain)
    let bypass = Atomic<Bool>(false)
    /// Whether the end of the queued audio was pushed through (`flushOnce`) since the last feed.
    private(set) var flushed = false

    /// Thread: setup.
    init(channels: Int, sampleRate: Double) throws {
        do {
            stretch = try TimePitchStretch(
                channels: channels, sampleRate: sampleRate, maximumFrames: Self.chunkFrames, rates: 0.5...2, pitchRatios: 0.25...4)
        } catch let error as DSPKernelError {
            throw AudioError(error.status, error.message)
        }
    }

    deinit { stretch.free() }

    /// Whether the render thread should route audio through the stretch now.
    ///
    /// Thread: render.
    var isActive: Bool { !bypass.load(ordering: .relaxed) }

    /// Applies PlayRate, Pitch and the algorithm (no allocation: SoundTouch's tempo only changes).
    ///
    /// Thread: render.
    @inline(__always)
    func followSettings() {
        let rate = Double(min(max(Float(bitPattern: playRateBits.load(ordering: .relaxed)), 0.5), 2))
        if algorithm.load(ordering: .relaxed) == kAudioQueueTimePitchAlgorithm_Varispeed {
            stretch.set(rate: rate, pitchRatio: rate)
        } else {
            let cents = Double(min(max(Float(bitPattern: pitchBits.load(ordering: .relaxed)), -2400), 2400))
            stretch.set(rate: rate, pitchRatio: exp2(cents / 1200))
        }
    }

    /// Feeds `frames` (≤ chunkFrames) frames of non-interleaved channels.
    ///
    /// Thread: render.
    @inline(__always)
    func put(_ source: UnsafeMutableAudioBufferListPointer, frames: Int) {
        stretch.put(source.unsafeMutablePointer, frames: frames)
        flushed = false
    }

    /// Pushes the last queued frames out (at the end of a Stop(false)).
    ///
    /// Thread: render.
    func flushOnce() {
        guard !flushed else { return }
        flushed = true
        stretch.flush()
    }

    /// Whether nothing fed is left to play.
    ///
    /// Thread: render.
    var isEmpty: Bool { stretch.isEmpty }

    /// Drops everything inside (Stop, Reset).
    ///
    /// Thread: setup, with no render call running.
    func clear() {
        stretch.reset()
        flushed = false
    }
}

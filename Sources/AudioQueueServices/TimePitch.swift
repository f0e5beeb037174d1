import AudioToolbox
import CSoundTouch
import Foundation
import Synchronization

/// PlayRate and Pitch for a playback queue through SoundTouch (LGPL): PlayRate changes speed
/// keeping pitch (Spectral / TimeDomain) or with it (Varispeed); Pitch shifts by cents. Created
/// with kAudioQueueProperty_EnableTimePitch; the render thread feeds it the queue's frames.
/// SoundTouch grows its FIFOs on demand, so creation runs seconds of silence through at the
/// extreme settings and clears them: its buffers then hold what any rate needs, and processing
/// on the render thread does not allocate.
final class TimePitch: @unchecked Sendable {
    let handle: UnsafeMutableRawPointer
    let channels: Int
    /// Interleaved scratch for SoundTouch (it takes and gives interleaved Float32).
    let interleaved: UnsafeMutablePointer<Float>
    static let chunkFrames = 1024
    /// SoundTouch 2.3.2 ignores more than 16 channels and its anti-alias filter asserts fewer than 16.
    static let maximumChannels = 15
    // Asked for by setup threads, applied by the render thread at the start of a cycle.
    let playRateBits = Atomic<UInt32>(Float(1).bitPattern)
    let pitchBits = Atomic<UInt32>(Float(0).bitPattern)
    let algorithm = Atomic<UInt32>(kAudioQueueTimePitchAlgorithm_TimeDomain)
    let bypass = Atomic<Bool>(false)
    private var appliedRate: Float = .nan, appliedPitch: Float = .nan, appliedAlgorithm: UInt32 = 0
    /// Whether the end of the queued audio was pushed through (soundtouch_flush) already.
    private(set) var flushed = false

    /// Thread: setup.
    init(channels: Int, sampleRate: Double) {
        handle = soundtouch_createInstance()
        self.channels = channels
        interleaved = .allocate(capacity: Self.chunkFrames * 4 * channels)
        interleaved.initialize(repeating: 0, count: Self.chunkFrames * 4 * channels)
        soundtouch_setChannels(handle, UInt32(channels))
        soundtouch_setSampleRate(handle, UInt32(sampleRate.rounded()))
        warmUp()
    }

    deinit {
        soundtouch_destroyInstance(handle)
        interleaved.deallocate()
    }

    /// Runs silence through at the extreme rates so that SoundTouch's buffers reach their
    /// largest size now, not on the render thread.
    private func warmUp() {
        for (tempo, rate, pitch) in [(Float(2), Float(1), Float(24)), (0.5, 1, -24), (1, 2, 0), (1, 0.5, 0)] {
            soundtouch_setTempo(handle, tempo)
            soundtouch_setRate(handle, rate)
            soundtouch_setPitchSemiTones(handle, pitch)
            for _ in 0..<64 {
                soundtouch_putSamples(handle, interleaved, UInt32(Self.chunkFrames))
                while soundtouch_receiveSamples(handle, interleaved, UInt32(Self.chunkFrames)) > 0 {}
            }
            soundtouch_flush(handle)
            while soundtouch_receiveSamples(handle, interleaved, UInt32(Self.chunkFrames)) > 0 {}
        }
        interleaved.update(repeating: 0, count: Self.chunkFrames * 4 * channels)
        soundtouch_clear(handle)
        soundtouch_setRate(handle, 1)
        soundtouch_setTempo(handle, 1)
        soundtouch_setPitchSemiTones(handle, 0)
    }

    /// Whether the render thread should route audio through SoundTouch now.
    ///
    /// Thread: render.
    var isActive: Bool { !bypass.load(ordering: .relaxed) }

    /// Applies changed PlayRate, Pitch or algorithm. A change of pitch, or of PlayRate under the
    /// Varispeed algorithm, allocates inside SoundTouch (5 allocations: its rate transposer designs
    /// a new anti-alias filter; scripts/soundtouch-alloc-check.sh): a known exception to the render
    /// thread's rule, until transposing moves out of SoundTouch. Tempo changes allocate nothing.
    ///
    /// Thread: render.
    @inline(__always)
    func followSettings() {
        let rate = Float(bitPattern: playRateBits.load(ordering: .relaxed))
        let pitch = Float(bitPattern: pitchBits.load(ordering: .relaxed))
        let algorithm = algorithm.load(ordering: .relaxed)
        guard rate != appliedRate || pitch != appliedPitch || algorithm != appliedAlgorithm else { return }
        appliedRate = rate
        appliedPitch = pitch
        appliedAlgorithm = algorithm
        if algorithm == kAudioQueueTimePitchAlgorithm_Varispeed {
            soundtouch_setTempo(handle, 1)
            soundtouch_setPitchSemiTones(handle, 0)
            soundtouch_setRate(handle, rate)  // speed and pitch together, as tape does
        } else {
            soundtouch_setRate(handle, 1)
            soundtouch_setTempo(handle, rate)
            soundtouch_setPitchSemiTones(handle, pitch / 100)
        }
    }

    /// Frames SoundTouch can give now.
    ///
    /// Thread: render.
    var available: Int { Int(soundtouch_numSamples(handle)) }

    /// Whether nothing is left inside SoundTouch.
    ///
    /// Thread: render.
    var isEmpty: Bool { soundtouch_numSamples(handle) == 0 && soundtouch_numUnprocessedSamples(handle) == 0 }

    /// Feeds `frames` frames of non-interleaved channels.
    ///
    /// Thread: render.
    @inline(__always)
    func put(_ source: UnsafeMutableAudioBufferListPointer, frames: Int) {
        for f in 0..<frames {
            for c in 0..<channels { interleaved[f * channels + c] = source[c].mData!.assumingMemoryBound(to: Float.self)[f] }
        }
        soundtouch_putSamples(handle, interleaved, UInt32(frames))
        flushed = false
    }

    /// Pushes the last queued frames out (at the end of a Stop(false)).
    ///
    /// Thread: render.
    func flushOnce() {
        guard !flushed else { return }
        flushed = true
        soundtouch_flush(handle)
    }

    /// Takes up to `frames` frames into `out` from `offset`; returns how many.
    ///
    /// Thread: render.
    @inline(__always)
    func receive(into out: UnsafeMutableAudioBufferListPointer, offset: Int, frames: Int) -> Int {
        var done = 0
        while done < frames {
            let want = min(frames - done, Self.chunkFrames)
            let got = Int(soundtouch_receiveSamples(handle, interleaved, UInt32(want)))
            for f in 0..<got {
                for c in 0..<min(channels, out.count) {
                    out[c].mData!.assumingMemoryBound(to: Float.self)[offset + done + f] = interleaved[f * channels + c]
                }
            }
            done += got
            if got < want { break }
        }
        return done
    }

    /// Drops everything inside (Stop, Reset).
    ///
    /// Thread: setup, with no render call running.
    func clear() {
        soundtouch_clear(handle)
        flushed = false
    }
}

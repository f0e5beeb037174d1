import AUHostCore
import CSoundTouch

/// Time-stretch and pitch-shift of non-interleaved Float32 channels through SoundTouch (LGPL), as
/// the audio queue's TimePitch uses it, for the NewTimePitch unit.
///
/// SoundTouch grows its FIFOs on demand. The unit feeds it at most `chunk` input frames per put
/// and only while fewer output frames than one slice wait (`inputFrames(toProduce:tempo:)`), so
/// the FIFOs stay within a few slices; creation runs that same feeding pattern at the four corner
/// settings (tempo 1/32 and 32, pitch ±2400 cents) and clears: afterwards processing on the render
/// thread rarely allocates (0 in most of scripts/soundtouch-alloc-check.sh's cases; up to 60 in 100
/// slices of 64 frames at rate 32 when slices vary in size), and a pitch change does (`set`). The
/// overlap (SETTING_OVERLAP_MS) is set here only: SoundTouch reallocates a buffer when it grows.
struct SoundTouchStretch {
    /// SoundTouch 2.3.2 ignores more than 16 channels and its anti-alias filter asserts fewer than 16.
    static let maximumChannels = 15
    let handle: UnsafeMutableRawPointer
    let channels: Int
    let chunk: Int
    /// Interleaved scratch for SoundTouch (it takes and gives interleaved Float32), chunk frames.
    let interleaved: UnsafeMutablePointer<Float>

    /// Thread: setup.
    init(channels: Int, sampleRate: Double, chunk: Int, overlapMilliseconds: Int) {
        handle = soundtouch_createInstance()
        self.channels = channels
        self.chunk = chunk
        interleaved = .allocate(capacity: chunk * channels)
        interleaved.initialize(repeating: 0, count: chunk * channels)
        soundtouch_setChannels(handle, UInt32(channels))
        soundtouch_setSampleRate(handle, UInt32(sampleRate.rounded()))
        _ = soundtouch_setSetting(handle, 5, Int32(overlapMilliseconds))  // SETTING_OVERLAP_MS
        warmUp()
    }

    /// Thread: setup.
    func free() {
        soundtouch_destroyInstance(handle)
        interleaved.deallocate()
    }

    /// Feeds silence the way the render thread does at the extreme settings, so that the FIFOs
    /// reach their largest size now.
    private func warmUp() {
        for (tempo, cents) in [(Float(1.0 / 32), Float(-2400)), (32, 2400), (1.0 / 32, 2400), (32, -2400), (1, 1200)] {
            set(tempo: tempo, cents: cents)
            for _ in 0..<8 {
                var attempts = 0
                while available < chunk && attempts < 64 {
                    attempts += 1
                    soundtouch_putSamples(handle, interleaved, UInt32(inputFrames(toProduce: chunk - available, tempo: tempo)))
                }
                while soundtouch_receiveSamples(handle, interleaved, UInt32(chunk)) > 0 {}
            }
        }
        interleaved.update(repeating: 0, count: chunk * channels)
        soundtouch_clear(handle)
        set(tempo: 1, cents: 0)
    }

    /// Input frames to put for `missing` more output frames at `tempo` (at least 64, at most a chunk).
    ///
    /// Thread: render.
    @_noAllocation @_noLocks
    func inputFrames(toProduce missing: Int, tempo: Float) -> Int {
        let exact = Double(missing) * Double(tempo)
        let want = _unsafePerformance { exact.rounded(.up) }
        return Int(min(max(want, 64), Double(chunk)))
    }

    /// A change of `cents` allocates inside SoundTouch (5 allocations: its rate transposer designs
    /// a new anti-alias filter; scripts/soundtouch-alloc-check.sh): a known exception to the render
    /// thread's rule, until transposing moves out of SoundTouch. Tempo changes allocate nothing.
    ///
    /// Thread: render.
    @_noAllocation @_noLocks
    func set(tempo: Float, cents: Float) {
        let h = handle
        // Opaque C calls that recompute SoundTouch's ratios (no lock; see above for allocation).
        _unsafePerformance {
            soundtouch_setTempo(h, tempo)
            soundtouch_setPitchSemiTones(h, cents / 100)
        }
    }

    /// Output frames waiting. Thread: render.
    var available: Int {
        @_noAllocation @_noLocks get {
            let h = handle
            return Int(_unsafePerformance { soundtouch_numSamples(h) })
        }
    }

    /// Feeds `frames` (≤ chunk) frames of `source`'s channels. Thread: render.
    @_noAllocation @_noLocks
    func put(_ source: UnsafeMutablePointer<AudioBufferList>, frames: Int) {
        let buffers = audioBuffers(source), n = min(frames, chunk), k = channels
        for c in 0..<min(k, Int(source.pointee.mNumberBuffers)) {
            guard let x = buffers[c].mData?.assumingMemoryBound(to: Float.self) else { continue }
            for f in 0..<n { interleaved[f * k + c] = x[f] }
        }
        let h = handle, scratch = interleaved
        // Within the warmed-up FIFO sizes: no allocation (see the type's documentation).
        _ = _unsafePerformance { soundtouch_putSamples(h, scratch, UInt32(n)) }
    }

    /// Takes up to `frames` frames into `output`'s buffers from `offset`; returns how many.
    /// Thread: render.
    @_noAllocation @_noLocks
    func receive(into output: UnsafeMutablePointer<AudioBufferList>, offset: Int, frames: Int) -> Int {
        let buffers = audioBuffers(output), k = channels, h = handle, scratch = interleaved
        var done = 0
        while done < frames {
            let want = min(frames - done, chunk)
            let got = Int(_unsafePerformance { soundtouch_receiveSamples(h, scratch, UInt32(want)) })
            for c in 0..<min(k, Int(output.pointee.mNumberBuffers)) {
                guard let y = buffers[c].mData?.assumingMemoryBound(to: Float.self) else { continue }
                for f in 0..<got { y[offset + done + f] = scratch[f * k + c] }
            }
            done += got
            if got < want { break }
        }
        return done
    }

    /// Drops everything inside. Thread: render or setup.
    @_noAllocation @_noLocks
    func clear() {
        let h = handle
        _unsafePerformance { soundtouch_clear(h) }
    }
}

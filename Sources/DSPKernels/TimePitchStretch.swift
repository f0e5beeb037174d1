import AudioTypes
import CLazyLibraries
import CSoundTouch
import Foundation
import Glibc

/// Time-stretch and pitch-shift of non-interleaved Float32 channels, for the time-pitch unit and
/// the audio queue's PlayRate and Pitch: SoundTouch (LGPL) changes the tempo only, by
/// rate ÷ pitch ratio, and a VarispeedReader reads its output at a step of the pitch ratio, which
/// shifts the pitch by that ratio and brings the speed to `rate`. At a tempo of exactly 1
/// SoundTouch is left out (and cleared): pure varispeed, and at rate 1, pitch ratio 1 the input
/// passes exactly with no latency.
///
/// Why SoundTouch does not transpose: its rate transposer designs a new anti-alias filter on every
/// pitch change (5 allocations), and a tempo change allocates nothing. SoundTouch grows its FIFOs
/// on demand, a page at a time; `init` grows them to what the render thread can need (`warmUp`),
/// a fall in tempo that would need more clears SoundTouch (`set`), and a stream's end is pushed
/// out with silence of our own (`flush`; soundtouch_flush allocates). Benchmarks:
/// BuiltInUnitsRender and AudioQueueRender count 0 allocations with the settings changing every
/// block, and in a random walk of settings and block sizes.
///
/// A handle: its state lives in memory allocated at setup, so copies share it.
public struct TimePitchStretch {
    /// SoundTouch 2.3.2 ignores more than 16 channels.
    public static let maximumChannels = 16
    public let channels: Int
    /// The most output frames per read and input frames per put.
    public let maximumFrames: Int
    let handle: UnsafeMutableRawPointer
    let reader: VarispeedReader
    /// SoundTouch takes and gives interleaved Float32: maximumFrames frames of every channel.
    let interleaved: UnsafeMutablePointer<Float>
    /// One channel taken out of `interleaved`, maximumFrames frames.
    let planar: UnsafeMutablePointer<Float>
    let state: UnsafeMutablePointer<State>

    /// The most output frames SoundTouch may make of the input it holds when the tempo falls
    /// (what the warm-up's FIFOs hold: one 64-frame feed at the slowest tempo, and a read).
    let outputBudget: Double

    struct State {
        var tempo = 1.0
        /// Input frames SoundTouch holds before it gives output, at `tempo` (its INITIAL_LATENCY).
        var latency = 0
        /// Input frames SoundTouch consumes per output sequence (its NOMINAL_INPUT_SEQUENCE).
        var sequence = 0
        /// SoundTouch's output due for what was fed since it was last cleared, and what was taken
        /// of it: a flush pads with silence up to the first and passes no more.
        var expected = 0.0
        var taken = 0
        var flushed = false
    }

    /// A stretch for rates in `rates` and pitch ratios in `pitchRatios` (the reader's FIFOs hold
    /// a read at the highest pitch ratio; the warm-up covers the tempi these ranges give). Throws
    /// `kAudioUnitErr_FailedInitialization` when SoundTouch cannot be loaded.
    ///
    /// Thread: setup.
    public init(
        channels: Int, sampleRate: Double, maximumFrames: Int, rates: ClosedRange<Double>, pitchRatios: ClosedRange<Double>,
        overlapMilliseconds: Int = 8
    ) throws {
        precondition((1...Self.maximumChannels).contains(channels) && maximumFrames > 0)
        if let reason = auhost_soundtouch_unavailable() {
            throw DSPKernelError(
                status: kAudioUnitErr_FailedInitialization,
                "Time-pitch needs SoundTouch, which cannot be loaded: \(String(cString: reason)).")
        }
        self.channels = channels
        self.maximumFrames = maximumFrames
        handle = soundtouch_createInstance()
        reader = VarispeedReader(
            channels: channels, maximumFrames: maximumFrames, maximumStep: pitchRatios.upperBound, inputRate: sampleRate)
        interleaved = .allocate(capacity: maximumFrames * channels)
        interleaved.initialize(repeating: 0, count: maximumFrames * channels)
        planar = .allocate(capacity: maximumFrames)
        planar.initialize(repeating: 0, count: maximumFrames)
        state = .allocate(capacity: 1)
        state.initialize(to: State())
        outputBudget = 64 / (rates.lowerBound / pitchRatios.upperBound) + Double(maximumFrames)
        soundtouch_setChannels(handle, UInt32(channels))
        soundtouch_setSampleRate(handle, UInt32(sampleRate.rounded()))
        _ = soundtouch_setSetting(handle, SETTING_OVERLAP_MS, Int32(overlapMilliseconds))  // grows a buffer: set here only
        _ = soundtouch_setSetting(handle, SETTING_USE_AA_FILTER, 0)  // SoundTouch's rate stays 1: nothing to alias
        warmUp(rates: rates, pitchRatios: pitchRatios)
    }

    /// Thread: setup.
    public func free() {
        soundtouch_destroyInstance(handle)
        reader.free()
        interleaved.deallocate()
        planar.deallocate()
        state.deallocate()
    }

    /// Grows SoundTouch's FIFOs to the largest sizes the render thread can need, then clears:
    /// its input one frame short of its window at the fastest tempo plus a full feed, and its
    /// output twice what a tempo fall may leave (`outputBudget`) on top of a read's worth. The puts
    /// double in size: SoundTouch grows a FIFO a page at a time, copying it, and a window fed a
    /// block at a time would be copied hundreds of times.
    private func warmUp(rates: ClosedRange<Double>, pitchRatios: ClosedRange<Double>) {
        let slowest = rates.lowerBound / pitchRatios.upperBound
        set(rate: rates.lowerBound, pitchRatio: pitchRatios.upperBound)
        let outputFrames = 2 * (outputBudget + Double(maximumFrames) * pitchRatios.upperBound)
        let slowFeed = state.pointee.latency + Int(outputFrames * slowest) + 1
        set(rate: rates.upperBound, pitchRatio: pitchRatios.lowerBound)
        let window = state.pointee.latency
        let largest = max(window, slowFeed, maximumFrames)
        // calloc: its pages stay the kernel's shared zero page, as SoundTouch only reads them.
        let silence = calloc(largest * channels, MemoryLayout<Float>.size)!.assumingMemoryBound(to: Float.self)
        defer { Glibc.free(silence) }
        func feed(_ frames: Int) {
            var left = frames, piece = maximumFrames
            while left > 0 {
                let n = min(left, piece)
                soundtouch_putSamples(handle, silence, UInt32(n))
                left -= n
                piece *= 2
            }
        }
        feed(window - 1)
        feed(maximumFrames)
        reset()
        set(rate: rates.lowerBound, pitchRatio: pitchRatios.upperBound)
        feed(slowFeed)
        reset()
        set(rate: 1, pitchRatio: 1)
    }

    /// Drops everything inside (the settings stay). Thread: setup, or render.
    @_noAllocation @_noLocks
    public func reset() {
        let step = reader.step
        clearSoundTouch()
        reader.reset()
        reader.setStep(step)
    }

    /// Empties SoundTouch's FIFOs (in place: no allocation) and forgets what was due of them.
    @_noAllocation @_noLocks
    private func clearSoundTouch() {
        let h = handle
        _unsafePerformance { soundtouch_clear(h) }
        state.pointee.expected = 0
        state.pointee.taken = 0
        state.pointee.flushed = false
    }

    /// Sets the speed (`rate`: output played `rate` times as fast) and the pitch ratio (2 is an
    /// octave up). SoundTouch's tempo changes (no allocation); leaving tempo 1 clears it, and so
    /// does a fall in tempo that would make more output of the input SoundTouch holds than its
    /// FIFOs were grown for (from tempo 128 to 1/128, its four-second window would become eight
    /// minutes): the stream then jumps over that window, as it would at the old tempo.
    ///
    /// Thread: render.
    @_noAllocation @_noLocks
    public func set(rate: Double, pitchRatio: Double) {
        reader.setStep(pitchRatio)
        let tempo = rate / pitchRatio, h = handle
        guard tempo != state.pointee.tempo else { return }
        let wasStretching = state.pointee.tempo != 1
        state.pointee.tempo = tempo
        guard tempo != 1 else {
            if wasStretching { clearSoundTouch() }
            return
        }
        // Opaque C calls that recompute and read SoundTouch's sequence lengths: no lock, no allocation.
        let (latency, sequence, held) = _unsafePerformance {
            soundtouch_setTempo(h, Float(tempo))
            return (
                Int(soundtouch_getSetting(h, SETTING_INITIAL_LATENCY)), Int(soundtouch_getSetting(h, SETTING_NOMINAL_INPUT_SEQUENCE)),
                Int(soundtouch_numUnprocessedSamples(h))
            )
        }
        state.pointee.latency = latency
        state.pointee.sequence = sequence
        if Double(held - latency) / tempo > outputBudget { clearSoundTouch() }
    }

    /// Whether SoundTouch is in the path (tempo ≠ 1). Thread: render.
    public var isStretching: Bool { @_noAllocation @_noLocks get { state.pointee.tempo != 1 } }

    /// Input frames a caller may feed for `frames` output frames before giving up (a stream that
    /// starts at tempo 128 feeds SoundTouch a few hundred thousand frames before its first output).
    ///
    /// Thread: render.
    @_noAllocation @_noLocks
    public func inputBudget(frames: Int) -> Int {
        let s = state.pointee
        return 2 * (Int(Double(frames) * s.tempo * reader.step) + s.latency + s.sequence) + 8 * maximumFrames
    }

    /// Input frames to put before `frames` (≤ maximumFrames) output frames can be read: 0 when
    /// they can be read now, else 1…maximumFrames. Moves what SoundTouch has ready to the reader.
    ///
    /// Thread: render.
    @_noAllocation @_noLocks
    public func inputFramesWanted(toProduce frames: Int) -> Int {
        var need = reader.samplesNeeded(frames: frames)
        guard need > 0 else { return 0 }
        guard isStretching else { return min(need, maximumFrames) }
        transfer(need)
        need = reader.samplesNeeded(frames: frames)
        guard need > 0 else { return 0 }
        let exact = Double(need) * state.pointee.tempo
        let wanted = min(max(Int(exact) + 1, 64), maximumFrames)
        guard state.pointee.flushed else { return wanted }
        // A stream's end: silence in place of input while output is still due (bounded by
        // SoundTouch's window and a sequence, what it holds back).
        let h = handle, scratch = interleaved
        var silence = 0
        while need > 0 && due > 0 && silence <= state.pointee.latency + state.pointee.sequence + wanted {
            for i in 0..<wanted * channels { scratch[i] = 0 }
            _ = _unsafePerformance { soundtouch_putSamples(h, scratch, UInt32(wanted)) }
            silence += wanted
            transfer(need)
            need = reader.samplesNeeded(frames: frames)
        }
        return need > 0 ? wanted : 0
    }

    /// Moves up to `samples` frames of SoundTouch's output into the reader.
    @_noAllocation @_noLocks
    private func transfer(_ samples: Int) {
        let h = handle, scratch = interleaved, k = channels
        var left = state.pointee.flushed ? min(samples, due) : samples
        while left > 0 {
            let want = min(left, maximumFrames)
            let got = Int(_unsafePerformance { soundtouch_receiveSamples(h, scratch, UInt32(want)) })
            if got == 0 { break }
            for c in 0..<k {
                for f in 0..<got { planar[f] = scratch[f * k + c] }
                reader.append(channel: c, planar, count: got)
            }
            state.pointee.taken += got
            left -= got
        }
    }

    /// Feeds `frames` (≤ maximumFrames) frames of `source`'s channels; channels it lacks are silence.
    ///
    /// Thread: render.
    @_noAllocation @_noLocks
    public func put(_ source: UnsafeMutablePointer<AudioBufferList>, frames: Int) {
        let buffers = audioBuffers(source), n = min(frames, maximumFrames), k = channels
        let given = min(k, Int(source.pointee.mNumberBuffers))
        guard isStretching else {
            for c in 0..<k {
                let x = c < given ? buffers[c].mData?.assumingMemoryBound(to: Float.self) : nil
                if let x { reader.append(channel: c, x, count: n) } else { reader.appendSilence(channel: c, count: n) }
            }
            return
        }
        for c in 0..<k {
            let x = c < given ? buffers[c].mData?.assumingMemoryBound(to: Float.self) : nil
            for f in 0..<n { interleaved[f * k + c] = x?[f] ?? 0 }
        }
        let h = handle, scratch = interleaved
        // Within the FIFO sizes the warm-up reached: no allocation.
        _ = _unsafePerformance { soundtouch_putSamples(h, scratch, UInt32(n)) }
        state.pointee.expected += Double(n) / state.pointee.tempo
        state.pointee.flushed = false
    }

    /// Marks a stream's end: from now on `inputFramesWanted` feeds SoundTouch silence itself, as
    /// much as each read needs, until the output due for what was fed has been moved on (no more:
    /// the silence's own output is dropped). soundtouch_flush does the same in one go, allocating
    /// its block of silence and holding the whole tail at once.
    ///
    /// Thread: render.
    @_noAllocation @_noLocks
    public func flush() {
        state.pointee.flushed = isStretching
    }

    /// Output SoundTouch still owes for what was fed. Thread: render.
    private var due: Int {
        @_noAllocation @_noLocks get { max(Int(state.pointee.expected + 0.5) - state.pointee.taken, 0) }
    }

    /// Output frames readable now; with `tail`, up to the last frame fed (the end of a stream).
    ///
    /// Thread: render.
    @_noAllocation @_noLocks
    public func readableFrames(tail: Bool) -> Int {
        reader.readableFrames(tail: tail)
    }

    /// Whether nothing fed is left to read. Thread: render.
    public var isEmpty: Bool {
        @_noAllocation @_noLocks get {
            let h = handle
            let inside = _unsafePerformance { soundtouch_numSamples(h) + soundtouch_numUnprocessedSamples(h) }
            let soundTouchDone = !isStretching || (state.pointee.flushed ? due == 0 : inside == 0)
            return soundTouchDone && reader.readableFrames(tail: true) == 0
        }
    }

    /// Reads `frames` (≤ maximumFrames) frames into `output`'s buffers from `offset`; frames not
    /// fed yet are silence. Every channel advances, also those `output` lacks.
    ///
    /// Thread: render.
    @_noAllocation @_noLocks
    public func read(into output: UnsafeMutablePointer<AudioBufferList>, offset: Int, frames: Int) {
        let buffers = audioBuffers(output), given = Int(output.pointee.mNumberBuffers)
        for c in 0..<channels {
            if c < given, let y = buffers[c].mData?.assumingMemoryBound(to: Float.self) {
                reader.read(channel: c, into: y + offset, frames: frames)
            } else {
                reader.read(channel: c, into: planar, frames: frames)
            }
        }
    }
}

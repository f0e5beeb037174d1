import AudioToolbox
import Foundation

/// Non-interleaved channels read at a variable step (input samples per output sample), one
/// VarispeedVoice each, kept in step. Above a step of 1 (reading faster) what is appended first
/// passes an anti-alias low pass, four 2nd-order Butterworth sections at 0.45 × input rate / step
/// (−12 dB there), so what would fold back past the output's Nyquist is removed; at or below 1
/// nothing filters. The varispeed unit reads its input this way; the time-pitch stretch reads
/// SoundTouch's output this way to shift the pitch.
///
/// A handle: its state lives in memory allocated at setup, so copies share it and every method
/// after `init` is real-time.
public struct VarispeedReader {
    public let channels: Int
    /// Largest append per call to `append(channel:_:count:)` without splitting, and the largest read.
    public let maximumFrames: Int
    let voices: UnsafeMutablePointer<VarispeedVoice>
    /// Four sections per channel (channel-major).
    let filters: UnsafeMutablePointer<BiquadFilter>
    /// One channel's filtered samples.
    let filtered: UnsafeMutablePointer<Float>
    let state: UnsafeMutablePointer<State>
    let inputRate: Double

    struct State {
        var step = 1.0
        /// The step the sections are designed for, and whether they ran since the step last rose above 1.
        var designedStep = 1.0
        var filtering = false
    }

    /// Channels whose FIFOs hold one read of `maximumFrames` output frames at `maximumStep`.
    ///
    /// Thread: setup.
    public init(channels: Int, maximumFrames: Int, maximumStep: Double, inputRate: Double) {
        self.channels = channels
        self.maximumFrames = maximumFrames
        self.inputRate = inputRate
        voices = .allocate(capacity: channels)
        for c in 0..<channels { (voices + c).initialize(to: VarispeedVoice(maximumFrames: maximumFrames, maximumStep: maximumStep)) }
        filters = .allocate(capacity: channels * 4)
        filters.initialize(repeating: BiquadFilter(), count: channels * 4)
        filtered = .allocate(capacity: maximumFrames)
        filtered.initialize(repeating: 0, count: maximumFrames)
        state = .allocate(capacity: 1)
        state.initialize(to: State())
    }

    /// Bytes `init` takes, for a unit's memory budget. Thread: any.
    public static func bytes(channels: Int, maximumFrames: Int, maximumStep: Double) -> Int {
        channels * (Int(Double(maximumFrames) * maximumStep) + maximumFrames + 16) * 4 + maximumFrames * 4
    }

    /// Thread: setup.
    public func free() {
        for c in 0..<channels { voices[c].free() }
        voices.deinitialize(count: channels)
        voices.deallocate()
        filters.deinitialize(count: channels * 4)
        filters.deallocate()
        filtered.deallocate()
        state.deallocate()
    }

    /// Back to silence, step 1. Thread: setup (or render).
    @_noAllocation @_noLocks
    public func reset() {
        for c in 0..<channels { voices[c].reset() }
        for k in 0..<channels * 4 { filters[k].reset() }
        state.pointee = State()
    }

    /// The step of the next reads; what is appended from now on is filtered for it.
    ///
    /// Thread: render.
    @_noAllocation @_noLocks
    public func setStep(_ step: Double) {
        let antiAlias = step > 1, last = state.pointee
        state.pointee.step = step
        if antiAlias && step != last.designedStep {
            state.pointee.designedStep = step
            let rate = inputRate, cutoff = 0.45 * inputRate / step
            // libm inside the design (no allocation, no lock); the cutoff lies below Nyquist.
            let design = _unsafePerformance {
                (try? BiquadCoefficients(type: .butterworthLowPass, frequency: cutoff, gain: 0, bandwidth: 1, sampleRate: rate))
                    ?? .identity
            }
            for k in 0..<channels * 4 { filters[k].coefficients = design }
        }
        if antiAlias && !last.filtering {
            for k in 0..<channels * 4 { filters[k].reset() }
        }
        state.pointee.filtering = antiAlias
    }

    /// The step in force. Thread: render.
    public var step: Double { @_noAllocation @_noLocks get { state.pointee.step } }

    /// Input samples per channel to append before `frames` output frames can be read.
    ///
    /// Thread: render.
    @_noAllocation @_noLocks
    public func samplesNeeded(frames: Int) -> Int {
        voices[0].samplesNeeded(frames: frames, step: state.pointee.step)
    }

    /// Output frames readable now (see VarispeedVoice.readableFrames). Thread: render.
    @_noAllocation @_noLocks
    public func readableFrames(tail: Bool) -> Int {
        voices[0].readableFrames(step: state.pointee.step, tail: tail)
    }

    /// Appends `count` samples to channel `c`'s FIFO, filtered when the step is above 1. Append
    /// the same count to every channel before reading.
    ///
    /// Thread: render.
    @_noAllocation @_noLocks
    public func append(channel c: Int, _ samples: UnsafePointer<Float>, count: Int) {
        guard state.pointee.filtering else { return voices[c].append(samples, count) }
        var done = 0
        while done < count {
            let n = min(count - done, maximumFrames)
            // Into scratch: the samples may be another unit's buffers.
            filters[c * 4].process(samples + done, filtered, frameCount: n)
            for k in 1..<4 { filters[c * 4 + k].process(filtered, filtered, frameCount: n) }
            voices[c].append(filtered, n)
            done += n
        }
    }

    /// Appends `count` samples of silence to channel `c` (an input without that channel).
    ///
    /// Thread: render.
    @_noAllocation @_noLocks
    public func appendSilence(channel c: Int, count: Int) {
        voices[c].appendSilence(count)
    }

    /// Reads `frames` (≤ maximumFrames) output frames of channel `c` into `output`; reads past
    /// what was appended see silence. Read every channel once per block.
    ///
    /// Thread: render.
    @_noAllocation @_noLocks
    public func read(channel c: Int, into output: UnsafeMutablePointer<Float>, frames: Int) {
        voices[c].read(into: output, frames: frames, step: state.pointee.step)
    }
}

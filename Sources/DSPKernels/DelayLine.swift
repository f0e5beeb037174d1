import Foundation
import AudioToolbox

/// A mono feedback delay (the AUDelay model): `y = dry·x + wet·d`, where `d` is the input
/// delayed by `round(delayTime × sampleRate)` frames and the line is fed `x + feedback·LP(d)`,
/// `LP` a one-pole low pass. `wet = wetDryMix / 100`, `dry = 1 − wet`.
///
/// So an impulse comes out at frame D = round(delayTime·rate) with weight `wet`, then every D
/// frames multiplied by `feedback / 100` again (with the low pass disabled). The low pass
/// `y += a·(x − y)`, `a = 1 − exp(−2π·cutoff/rate)`, is disabled (an exact pass-through) when the
/// cutoff is at or above Nyquist. A delay of 0 frames passes the input to the wet path and
/// ignores feedback. One instance per channel.
public struct DelayLine: ~Copyable {
    /// The highest rate a line is made for (AUHost's stream-format limit): with the 60 s maximum
    /// delay, a line holds at most 92 160 001 samples (369 MB).
    public static let maximumSampleRate = kAUHostMaximumSampleRate
    /// The longest delay the line can hold, in frames (fixed at creation).
    public let maximumDelayFrames: Int
    /// The sample rate the times and cutoff are converted with.
    public let sampleRate: Double
    let buffer: UnsafeMutablePointer<Float>
    let length: Int
    var writeIndex = 0
    var delayFrames = 0
    var wet: Float = 0.5
    var dry: Float = 0.5
    var feedbackGain: Float = 0
    var lowPassCoefficient: Float = 1
    var lowPassEnabled = false
    var lowPassState: Float = 0

    /// A silent line holding up to `maximumDelayTime` seconds at `sampleRate`, with
    /// 50 % mix, 1 s delay (clamped to the maximum), 50 % feedback and the low pass disabled.
    /// Throws `kAudio_ParamError` for a rate outside 0 … 1 536 000 Hz or a maximum outside 0 … 60 s.
    /// Thread: setup (non-real-time).
    public init(maximumDelayTime: Double, sampleRate: Double) throws {
        guard sampleRate > 0, sampleRate <= DelayLine.maximumSampleRate, maximumDelayTime >= 0, maximumDelayTime <= 60 else {
            throw DSPKernelError.parameter(
                "A delay line needs a sample rate of 0…\(Int(DelayLine.maximumSampleRate)) Hz and a maximum delay of 0…60 s, not \(maximumDelayTime) s at \(sampleRate) Hz."
            )
        }
        self.sampleRate = sampleRate
        maximumDelayFrames = Int((maximumDelayTime * sampleRate).rounded())
        length = maximumDelayFrames + 1
        buffer = .allocate(capacity: length)
        buffer.initialize(repeating: 0, count: length)
        setParameters(
            wetDryMix: 50, delayTime: min(1, maximumDelayTime), feedback: 50,
            lowPassCutoff: sampleRate / 2)
    }

    deinit { buffer.deallocate() }

    /// Sets every parameter: `wetDryMix` 0…100 %, `delayTime` seconds (clamped to 0…maximum),
    /// `feedback` −100…100 % (clamped), `lowPassCutoff` Hz (≥ Nyquist disables the filter;
    /// clamped below at 10 Hz). Thread: any that does not race `process` (it calls libm's exp,
    /// so call it between blocks, normally from setup or parameter handling).
    public mutating func setParameters(
        wetDryMix: Double, delayTime: Double, feedback: Double,
        lowPassCutoff: Double
    ) {
        let mix = min(max(wetDryMix, 0), 100) / 100
        wet = Float(mix)
        dry = Float(1 - mix)
        // Clamped in Double first: a huge or NaN time must not reach Int().
        let frames = (delayTime * sampleRate).rounded()
        delayFrames = frames >= 0 ? Int(min(frames, Double(maximumDelayFrames))) : 0
        feedbackGain = Float(min(max(feedback, -100), 100) / 100)
        if lowPassCutoff >= sampleRate / 2 {
            lowPassEnabled = false
            lowPassCoefficient = 1
        } else {
            lowPassEnabled = true
            lowPassCoefficient = Float(1 - exp(-2 * Double.pi * max(lowPassCutoff, 10) / sampleRate))
        }
    }

    /// The current delay in frames: round(delayTime × sampleRate), clamped. Thread: any.
    public var delayInFrames: Int { delayFrames }

    /// Clears the line and the filter state. Thread: render (real-time).
    @_noAllocation @_noLocks
    public mutating func reset() {
        for i in 0..<length { buffer[i] = 0 }
        lowPassState = 0
        writeIndex = 0
    }

    /// Processes `frameCount` samples from `input` to `output` (in place allowed).
    /// Thread: render (real-time).
    @_noAllocation @_noLocks
    public mutating func process(
        _ input: UnsafePointer<Float>, _ output: UnsafeMutablePointer<Float>,
        frameCount: Int
    ) {
        var w = writeIndex
        var state = lowPassState
        let d = delayFrames, n = length, a = lowPassCoefficient
        for i in 0..<frameCount {
            let x = input[i]
            var r = w - d
            if r < 0 { r += n }
            let delayed = d == 0 ? x : buffer[r]
            var fed = delayed
            if lowPassEnabled {
                state += a * (delayed - state)
                fed = state
            }
            buffer[w] = d == 0 ? x : x + feedbackGain * fed
            output[i] = dry * x + wet * delayed
            w += 1
            if w == n { w = 0 }
        }
        writeIndex = w
        lowPassState = abs(state) < 1e-30 ? 0 : state
    }
}

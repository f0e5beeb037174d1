import AudioToolbox
import Foundation

/// AUHost's own reverb (not Apple's sound): an 8-line feedback delay network. The input (mean of
/// the channels) feeds every line; the lines' outputs pass a one-pole absorption filter each and
/// are mixed back through an orthogonal 8 × 8 Hadamard matrix (scaled by 1/√8, so the loop is
/// lossless but for the filters). Two orthogonal sign patterns of the filtered lines give the
/// left and right wet outputs, so they are decorrelated.
///
/// Decay: a line of L frames has DC gain g₀ = 10^(−3L / (T₀·rate)) and Nyquist gain
/// gπ = 10^(−3L / (Tπ·rate)) (T₀, Tπ the decay times at 0 Hz and Nyquist), so every path round
/// the network loses 60 dB in T seconds at those two frequencies (Jot's rule), in between as the
/// one-pole filter H(z) = g₀(1 − a)/(1 − a z⁻¹), a = (g₀ − gπ)/(g₀ + gπ), falls.
/// Line lengths spread geometrically between the minimum and maximum delay times, each moved by
/// up to ±7.5 % by a generator seeded with RandomizeReflections, and kept distinct.
///
/// Storage (8 lines of 1 s at the rate) is allocated at creation; every method after `init` is
/// real-time safe (`setParameters` evaluates libm's pow).
public struct FDNReverb: ~Copyable {
    public static let lineCount = 8
    /// The longest line, seconds (kReverb2Param_MaxDelayTime's maximum).
    public static let maximumDelayTime = 1.0
    public let sampleRate: Double
    /// Frames each line's ring holds.
    let capacity: Int
    let lines: UnsafeMutablePointer<Float>
    /// Per line: length, input weight of the filter (g₀(1 − a)), pole a, filter state.
    let lengths: UnsafeMutablePointer<Int>
    let weights: UnsafeMutablePointer<Float>
    let poles: UnsafeMutablePointer<Float>
    let states: UnsafeMutablePointer<Float>
    var writeIndex = 0

    /// Bytes a reverb at `sampleRate` takes. Thread: any.
    public static func bytes(sampleRate: Double) -> Int {
        lineCount * (Int((maximumDelayTime * sampleRate).rounded(.up)) + 2) * MemoryLayout<Float>.size
    }

    /// A silent network at `sampleRate` with Reverb2's default settings. Throws for a rate outside
    /// 1 … 1 536 000 Hz. Thread: setup.
    public init(sampleRate: Double) throws {
        guard sampleRate >= 1, sampleRate <= kAUHostMaximumSampleRate else {
            throw DSPKernelError.parameter("A reverb needs a sample rate of 1…\(Int(kAUHostMaximumSampleRate)) Hz, not \(sampleRate).")
        }
        self.sampleRate = sampleRate
        capacity = Int((Self.maximumDelayTime * sampleRate).rounded(.up)) + 2
        lines = .allocate(capacity: Self.lineCount * capacity)
        lines.initialize(repeating: 0, count: Self.lineCount * capacity)
        lengths = .allocate(capacity: Self.lineCount)
        lengths.initialize(repeating: 1, count: Self.lineCount)
        weights = .allocate(capacity: Self.lineCount)
        weights.initialize(repeating: 0, count: Self.lineCount)
        poles = .allocate(capacity: Self.lineCount)
        poles.initialize(repeating: 0, count: Self.lineCount)
        states = .allocate(capacity: Self.lineCount)
        states.initialize(repeating: 0, count: Self.lineCount)
        setParameters(minimumDelay: 0.008, maximumDelay: 0.05, decayAt0Hz: 1, decayAtNyquist: 0.5, seed: 1)
    }

    deinit {
        lines.deallocate()
        lengths.deallocate()
        weights.deallocate()
        poles.deallocate()
        states.deallocate()
    }

    /// The lines' lengths in frames now. Thread: setup (tests, displays).
    public var lineLengths: [Int] { (0..<Self.lineCount).map { lengths[$0] } }

    /// Sets the network: delays in seconds (swapped if given the wrong way round, clamped to
    /// 1 frame … 1 s), decay times in seconds (at least 1 ms), seed 1…1000.
    /// Thread: render or setup (libm's pow; no allocation, no lock).
    @_noAllocation @_noLocks
    public mutating func setParameters(minimumDelay: Double, maximumDelay: Double, decayAt0Hz: Double, decayAtNyquist: Double, seed: Int) {
        let rate = sampleRate, n = 8, top = capacity - 2
        let low = max(min(minimumDelay, maximumDelay) * rate, 1), high = max(max(minimumDelay, maximumDelay) * rate, 1)
        var random = UInt32(truncatingIfNeeded: max(seed, 1)) &* 2_654_435_761 &+ 12345
        var previous = 0
        for i in 0..<n {
            let spread = low * _unsafePerformance { pow(high / low, Double(i) / Double(n - 1)) }
            random = random &* 1_664_525 &+ 1_013_904_223
            let jitter = (Double(random >> 8) / Double(1 << 24) - 0.5) * 0.15
            let moved = spread * (1 + jitter)
            var length = Int(min(max(_unsafePerformance { moved.rounded() }, 1), Double(top)))
            if length <= previous { length = min(previous + 1, top) }
            lengths[i] = length
            previous = length
        }
        let t0 = max(decayAt0Hz, 0.001), tn = max(decayAtNyquist, 0.001)
        for i in 0..<n {
            let l = Double(lengths[i])
            let g0 = _unsafePerformance { pow(10, -3 * l / (t0 * rate)) }
            let gn = _unsafePerformance { pow(10, -3 * l / (tn * rate)) }
            let a = (g0 - gn) / (g0 + gn)
            poles[i] = Float(a)
            weights[i] = Float(g0 * (1 - a))
        }
    }

    /// Clears the lines and filters. Thread: render or setup.
    @_noAllocation @_noLocks
    public mutating func reset() {
        lines.update(repeating: 0, count: 8 * capacity)
        states.update(repeating: 0, count: 8)
        writeIndex = 0
    }

    /// Runs `frames` frames of mono `input` through the network into `left` and `right` (wet only,
    /// unscaled). Thread: render.
    @_noAllocation @_noLocks
    public mutating func process(
        _ input: UnsafePointer<Float>, left: UnsafeMutablePointer<Float>, right: UnsafeMutablePointer<Float>, frames: Int
    ) {
        let cap = capacity, buf = lines
        var w = writeIndex
        let scale: Float = 0.353_553_39  // 1/√8
        for j in 0..<frames {
            for i in 0..<8 {
                var r = w - lengths[i]
                if r < 0 { r += cap }
                var y = weights[i] * buf[i * cap + r] + poles[i] * states[i]
                if abs(y) < 1e-25 { y = 0 }
                states[i] = y
            }
            let f = (states[0], states[1], states[2], states[3], states[4], states[5], states[6], states[7])
            // Two orthogonal rows of the Hadamard matrix (neither the all-ones row the input uses).
            left[j] = scale * (f.0 - f.1 + f.2 - f.3 + f.4 - f.5 + f.6 - f.7)
            right[j] = scale * (f.0 + f.1 - f.2 - f.3 + f.4 + f.5 - f.6 - f.7)
            // Fast Walsh–Hadamard transform of the eight taps, scaled to stay orthogonal.
            let a0 = f.0 + f.1, a1 = f.0 - f.1, a2 = f.2 + f.3, a3 = f.2 - f.3
            let a4 = f.4 + f.5, a5 = f.4 - f.5, a6 = f.6 + f.7, a7 = f.6 - f.7
            let b0 = a0 + a2, b1 = a1 + a3, b2 = a0 - a2, b3 = a1 - a3
            let b4 = a4 + a6, b5 = a5 + a7, b6 = a4 - a6, b7 = a5 - a7
            let x = input[j] * scale
            buf[0 * cap + w] = scale * (b0 + b4) + x
            buf[1 * cap + w] = scale * (b1 + b5) + x
            buf[2 * cap + w] = scale * (b2 + b6) + x
            buf[3 * cap + w] = scale * (b3 + b7) + x
            buf[4 * cap + w] = scale * (b0 - b4) + x
            buf[5 * cap + w] = scale * (b1 - b5) + x
            buf[6 * cap + w] = scale * (b2 - b6) + x
            buf[7 * cap + w] = scale * (b3 - b7) + x
            w += 1
            if w == cap { w = 0 }
        }
        writeIndex = w
    }
}

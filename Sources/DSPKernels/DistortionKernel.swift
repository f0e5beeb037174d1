import AudioToolbox
import Foundation

/// One channel of AUHost's distortion (what AUDistortion's parameter names say, in this order):
///
/// 1. delay: a feedback comb, line length round(Delay ms × rate) (≥ 1 frame), feedback
///    10^(−3·Delay·Decay/1000) (the repeats fall 60 dB in 1/Decay s; at most 0.99); mixed by DelayMix.
/// 2. decimation: sample-and-hold advancing by 1 − Decimation/100 per frame (at least 1/64): 0 %
///    keeps every sample, 50 % every second one (x₀ x₀ x₂ x₂ …), exactly; then Rounding: r > 0 %
///    rounds to a step of 2^−bits, bits = round(24 − 0.23·r) (100 % → 1 bit); mixed by DecimationMix.
/// 3. polynomial: Linear·x + Squared·x² + Cubic·x³, mixed by PolynomialMix.
/// 4. ring modulation: x·((1 − b)·sin 2πf₁t + b·sin 2πf₂t), b = RingModBalance/100, mixed by RingModMix.
/// 5. soft clip: tanh(g·x), g = 10^(SoftClipGain/20).
/// 6. FinalMix: (1 − m)·input + m·(the chain's output).
///
/// Each mix is (1 − m)·x + m·y, so a mix of 0 passes x exactly and one of 100 % gives y exactly.
/// The comb's line is allocated at creation (500 ms at the rate); `process` is real-time safe.
public struct DistortionKernel: ~Copyable {
    public static let maximumDelay = 0.5
    public let sampleRate: Double
    let capacity: Int
    let line: UnsafeMutablePointer<Float>
    var writeIndex = 0
    var delayFrames = 1
    var feedback: Float = 0
    var delayMix: Float = 0
    var holdStep = 1.0
    var holdPhase = 1.0
    var held: Float = 0
    var quantum: Float = 0
    var decimationMix: Float = 0
    var linear: Float = 1, squared: Float = 0, cubic: Float = 0, polynomialMix: Float = 0
    /// Oscillators as rotating phasors (cos, sin) and their per-frame rotations.
    var osc1 = (1.0, 0.0), osc2 = (1.0, 0.0)
    var rot1 = (1.0, 0.0), rot2 = (1.0, 0.0)
    var balance: Float = 0.5, ringMix: Float = 0
    var clipGain: Float = 0.5
    var finalMix: Float = 0.5
    var sinceRenormalized = 0

    /// Bytes one channel's kernel takes at `sampleRate`. Thread: any.
    public static func bytes(sampleRate: Double) -> Int { (Int((maximumDelay * sampleRate).rounded(.up)) + 2) * MemoryLayout<Float>.size }

    /// Thread: setup.
    public init(sampleRate: Double) throws {
        guard sampleRate >= 1, sampleRate <= kAUHostMaximumSampleRate else {
            throw DSPKernelError.parameter("A distortion needs a sample rate of 1…\(Int(kAUHostMaximumSampleRate)) Hz, not \(sampleRate).")
        }
        self.sampleRate = sampleRate
        capacity = Int((Self.maximumDelay * sampleRate).rounded(.up)) + 2
        line = .allocate(capacity: capacity)
        line.initialize(repeating: 0, count: capacity)
        Self.defaults.withUnsafeBufferPointer { set($0.baseAddress!) }
    }

    deinit { line.deallocate() }

    /// AUDistortion's defaults, in kDistortionParam_* order (0…15).
    public static let defaults: [Float] = [0.1, 1, 50, 50, 0, 50, 1, 0, 0, 50, 100, 100, 50, 0, -6, 50]

    /// Applies the sixteen parameters at `p` in kDistortionParam_* order (Delay ms, Decay,
    /// DelayMix %, Decimation %, Rounding %, DecimationMix %, LinearTerm, SquaredTerm, CubicTerm,
    /// PolynomialMix %, RingModFreq1 Hz, RingModFreq2 Hz, RingModBalance %, RingModMix %,
    /// SoftClipGain dB, FinalMix %); values outside their ranges are clamped where they would
    /// break the maths. Thread: render or setup (libm; no allocation, no lock).
    @_noAllocation @_noLocks
    public mutating func set(_ p: UnsafePointer<Float>) {
        let rate = sampleRate
        let delay = Double(p[0]), decay = Double(p[1])
        let exact = delay / 1000 * rate
        let frames = _unsafePerformance { exact.rounded() }
        delayFrames = Int(min(max(frames, 1), Double(capacity - 2)))
        feedback = Float(min(_unsafePerformance { pow(10, -3 * max(delay, 0) * max(decay, 0) / 1000) }, 0.99))
        delayMix = min(max(p[2], 0), 100) / 100
        holdStep = max(1 - Double(min(max(p[3], 0), 100)) / 100, 1.0 / 64)
        let r = Double(min(max(p[4], 0), 100))
        quantum = r > 0 ? Float(_unsafePerformance { pow(2, -(24 - 0.23 * r).rounded()) }) : 0
        decimationMix = min(max(p[5], 0), 100) / 100
        linear = p[6]
        squared = p[7]
        cubic = p[8]
        polynomialMix = min(max(p[9], 0), 100) / 100
        let w1 = 2 * Double.pi * Double(p[10]) / rate, w2 = 2 * Double.pi * Double(p[11]) / rate
        rot1 = _unsafePerformance { (cos(w1), sin(w1)) }
        rot2 = _unsafePerformance { (cos(w2), sin(w2)) }
        balance = min(max(p[12], 0), 100) / 100
        ringMix = min(max(p[13], 0), 100) / 100
        let gain = Double(p[14])
        clipGain = Float(_unsafePerformance { pow(10, gain / 20) })
        finalMix = min(max(p[15], 0), 100) / 100
    }

    /// Clears the comb, the hold and the oscillators' phases. Thread: render or setup.
    @_noAllocation @_noLocks
    public mutating func reset() {
        line.update(repeating: 0, count: capacity)
        writeIndex = 0
        holdPhase = 1
        held = 0
        osc1 = (1, 0)
        osc2 = (1, 0)
    }

    /// Processes `frames` samples (in place allowed). Thread: render.
    @_noAllocation @_noLocks
    public mutating func process(_ input: UnsafePointer<Float>, _ output: UnsafeMutablePointer<Float>, frames: Int) {
        let cap = capacity, d = delayFrames
        var w = writeIndex
        for j in 0..<frames {
            let x = input[j]
            // 1. Comb.
            var r = w - d
            if r < 0 { r += cap }
            let repeated = line[r]
            line[w] = x + feedback * repeated
            w += 1
            if w == cap { w = 0 }
            var y = (1 - delayMix) * x + delayMix * (1 - feedback) * repeated
            // 2. Decimation and rounding.
            if holdPhase >= 1 {
                holdPhase -= 1
                held = y
            }
            holdPhase += holdStep
            var crushed = held
            if quantum > 0 {
                let steps = crushed / quantum
                crushed = _unsafePerformance { steps.rounded() } * quantum
            }
            y = (1 - decimationMix) * y + decimationMix * crushed
            // 3. Polynomial.
            let p = linear * y + squared * y * y + cubic * y * y * y
            y = (1 - polynomialMix) * y + polynomialMix * p
            // 4. Ring modulation.
            let carrier = (1 - balance) * Float(osc1.1) + balance * Float(osc2.1)
            osc1 = (osc1.0 * rot1.0 - osc1.1 * rot1.1, osc1.0 * rot1.1 + osc1.1 * rot1.0)
            osc2 = (osc2.0 * rot2.0 - osc2.1 * rot2.1, osc2.0 * rot2.1 + osc2.1 * rot2.0)
            y = (1 - ringMix) * y + ringMix * (y * carrier)
            // 5. Soft clip; 6. final mix.
            let driven = Double(clipGain * y)
            let clipped = Float(_unsafePerformance { tanh(driven) })
            output[j] = (1 - finalMix) * x + finalMix * clipped
        }
        writeIndex = w
        sinceRenormalized += frames
        if sinceRenormalized >= 4096 {
            sinceRenormalized = 0
            let e1 = osc1.0 * osc1.0 + osc1.1 * osc1.1, e2 = osc2.0 * osc2.0 + osc2.1 * osc2.1
            // One square root each per 4096 frames (an instruction; opaque to the checker).
            let n1 = _unsafePerformance { 1 / e1.squareRoot() }, n2 = _unsafePerformance { 1 / e2.squareRoot() }
            osc1 = (osc1.0 * n1, osc1.1 * n1)
            osc2 = (osc2.0 * n2, osc2.1 * n2)
        }
    }
}

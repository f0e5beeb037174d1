import Foundation

/// The second-order filter shapes of the N-band EQ (`kAUNBandEQFilterType_*`, same raw values),
/// designed with Robert Bristow-Johnson's "Audio EQ Cookbook" formulas.
public enum BiquadFilterType: Int, CaseIterable, Sendable {
    /// Peaking (bell) filter: `gain` dB at the centre, `bandwidth` octaves wide.
    case parametric = 0
    /// Butterworth low pass (Q = 1/√2); gain and bandwidth are ignored.
    case butterworthLowPass = 1
    /// Butterworth high pass (Q = 1/√2); gain and bandwidth are ignored.
    case butterworthHighPass = 2
    /// Low pass with resonance: Q derived from `bandwidth` (narrower = more resonant).
    case resonantLowPass = 3
    /// High pass with resonance: Q derived from `bandwidth`.
    case resonantHighPass = 4
    /// Band pass with 0 dB peak gain at the centre, `bandwidth` octaves wide.
    case bandPass = 5
    /// Band stop (notch) at the centre, `bandwidth` octaves wide.
    case bandStop = 6
    /// Low shelf, slope S = 1 (steepest without overshoot), `gain` dB below the corner.
    case lowShelf = 7
    /// High shelf, slope S = 1, `gain` dB above the corner.
    case highShelf = 8
    /// Low shelf whose Q comes from `bandwidth`: Q > 1/√2 adds a resonant bump at the corner.
    case resonantLowShelf = 9
    /// High shelf whose Q comes from `bandwidth`.
    case resonantHighShelf = 10
}

/// The coefficients of one biquad, normalised so that a0 = 1:
/// H(z) = (b0 + b1 z⁻¹ + b2 z⁻²) / (1 + a1 z⁻¹ + a2 z⁻²).
public struct BiquadCoefficients: Equatable, Sendable {
    public var b0: Double, b1: Double, b2: Double, a1: Double, a2: Double

    /// The identity filter (b0 = 1, everything else 0). Thread: any.
    public static let identity = BiquadCoefficients(b0: 1, b1: 0, b2: 0, a1: 0, a2: 0)

    /// Coefficients given directly. Thread: any.
    public init(b0: Double, b1: Double, b2: Double, a1: Double, a2: Double) {
        self.b0 = b0; self.b1 = b1; self.b2 = b2; self.a1 = a1; self.a2 = a2
    }

    /// Frames until the section's ringing has fallen 60 dB: ln(1000) / −ln r for the larger pole
    /// radius r of z² + a1·z + a2 (0 for no poles; `limit` for a pole on or outside the circle).
    /// Thread: any (it calls libm).
    public func ringFrames(limit: Double) -> Double {
        let discriminant = a1 * a1 - 4 * a2
        let radius = discriminant < 0 ? a2.squareRoot() : (abs(a1) + discriminant.squareRoot()) / 2
        guard radius > 0 else { return 0 }
        guard radius < 1 else { return limit }
        return min(log(1000) / -log(radius), limit)
    }

    /// Designs `type` at `frequency` Hz for `sampleRate`, with `gain` in dB (parametric and
    /// shelves) and `bandwidth` in octaves (0.05 … 5, as the N-band EQ documents; it sets Q by
    /// Q = 1 / (2 sinh(ln 2 / 2 · bandwidth))). Throws `kAudio_ParamError` for a frequency outside
    /// (0, Nyquist), a non-positive bandwidth or rate, or a non-finite value.
    /// Thread: any (pure; it calls libm, so compute it off the render thread and pass it in).
    public init(
        type: BiquadFilterType, frequency: Double, gain: Double = 0, bandwidth: Double = 1,
        sampleRate: Double
    ) throws {
        guard sampleRate > 0, sampleRate.isFinite else {
            throw DSPKernelError.parameter("The sample rate \(sampleRate) Hz is not a positive number.")
        }
        guard frequency > 0, frequency < sampleRate / 2 else {
            throw DSPKernelError.parameter(
                "The filter frequency \(frequency) Hz must lie between 0 and the Nyquist frequency \(sampleRate / 2) Hz.")
        }
        guard bandwidth > 0, bandwidth.isFinite, gain.isFinite else {
            throw DSPKernelError.parameter(
                "The bandwidth (\(bandwidth) octaves) must be positive and the gain (\(gain) dB) finite.")
        }
        let w0 = 2 * Double.pi * frequency / sampleRate
        let cosW = cos(w0), sinW = sin(w0)
        let bandQ = 1 / (2 * sinh(log(2) / 2 * bandwidth))
        let amplitude = pow(10, gain / 40)
        var b0 = 1.0, b1 = 0.0, b2 = 0.0, a0 = 1.0, a1 = 0.0, a2 = 0.0
        func lowPass(q: Double) {
            let alpha = sinW / (2 * q)
            b0 = (1 - cosW) / 2; b1 = 1 - cosW; b2 = (1 - cosW) / 2
            a0 = 1 + alpha; a1 = -2 * cosW; a2 = 1 - alpha
        }
        func highPass(q: Double) {
            let alpha = sinW / (2 * q)
            b0 = (1 + cosW) / 2; b1 = -(1 + cosW); b2 = (1 + cosW) / 2
            a0 = 1 + alpha; a1 = -2 * cosW; a2 = 1 - alpha
        }
        // Cookbook shelves, with alpha = sin(w0) / (2Q).
        func lowShelf(q: Double) {
            let a = amplitude, alpha = sinW / (2 * q), root = 2 * a.squareRoot() * alpha
            b0 = a * ((a + 1) - (a - 1) * cosW + root)
            b1 = 2 * a * ((a - 1) - (a + 1) * cosW)
            b2 = a * ((a + 1) - (a - 1) * cosW - root)
            a0 = (a + 1) + (a - 1) * cosW + root
            a1 = -2 * ((a - 1) + (a + 1) * cosW)
            a2 = (a + 1) + (a - 1) * cosW - root
        }
        func highShelf(q: Double) {
            let a = amplitude, alpha = sinW / (2 * q), root = 2 * a.squareRoot() * alpha
            b0 = a * ((a + 1) + (a - 1) * cosW + root)
            b1 = -2 * a * ((a - 1) + (a + 1) * cosW)
            b2 = a * ((a + 1) + (a - 1) * cosW - root)
            a0 = (a + 1) - (a - 1) * cosW + root
            a1 = 2 * ((a - 1) - (a + 1) * cosW)
            a2 = (a + 1) - (a - 1) * cosW - root
        }
        // Shelf slope S = 1 expressed as Q: 1/Q² = (A + 1/A)(1/S − 1) + 2 = 2.
        let shelfQ = 1 / 2.0.squareRoot()
        switch type {
        case .parametric:
            let alpha = sinW / (2 * bandQ)
            b0 = 1 + alpha * amplitude; b1 = -2 * cosW; b2 = 1 - alpha * amplitude
            a0 = 1 + alpha / amplitude; a1 = -2 * cosW; a2 = 1 - alpha / amplitude
        case .butterworthLowPass: lowPass(q: 1 / 2.0.squareRoot())
        case .butterworthHighPass: highPass(q: 1 / 2.0.squareRoot())
        case .resonantLowPass: lowPass(q: bandQ)
        case .resonantHighPass: highPass(q: bandQ)
        case .bandPass:
            let alpha = sinW / (2 * bandQ)
            b0 = alpha; b1 = 0; b2 = -alpha
            a0 = 1 + alpha; a1 = -2 * cosW; a2 = 1 - alpha
        case .bandStop:
            let alpha = sinW / (2 * bandQ)
            b0 = 1; b1 = -2 * cosW; b2 = 1
            a0 = 1 + alpha; a1 = -2 * cosW; a2 = 1 - alpha
        case .lowShelf: lowShelf(q: shelfQ)
        case .highShelf: highShelf(q: shelfQ)
        case .resonantLowShelf: lowShelf(q: bandQ)
        case .resonantHighShelf: highShelf(q: bandQ)
        }
        self.init(b0: b0 / a0, b1: b1 / a0, b2: b2 / a0, a1: a1 / a0, a2: a2 / a0)
    }

    /// The exact magnitude |H(e^{jω})| at `frequency` Hz for `sampleRate`, from the coefficients.
    /// Thread: any (pure).
    public func magnitude(atFrequency frequency: Double, sampleRate: Double) -> Double {
        let w = 2 * Double.pi * frequency / sampleRate
        let c1 = cos(w), s1 = sin(w), c2 = cos(2 * w), s2 = sin(2 * w)
        // e^{-jw} = c1 − j s1, e^{-2jw} = c2 − j s2.
        let numRe = b0 + b1 * c1 + b2 * c2, numIm = -(b1 * s1 + b2 * s2)
        let denRe = 1 + a1 * c1 + a2 * c2, denIm = -(a1 * s1 + a2 * s2)
        return ((numRe * numRe + numIm * numIm) / (denRe * denRe + denIm * denIm)).squareRoot()
    }

    /// `magnitude(atFrequency:sampleRate:)` in decibels (20 log10). Thread: any (pure).
    public func magnitudeDecibels(atFrequency frequency: Double, sampleRate: Double) -> Double {
        20 * log10(magnitude(atFrequency: frequency, sampleRate: sampleRate))
    }
}

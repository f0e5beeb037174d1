import Foundation

/// Mono in → stereo out placement of one 3D-mixer input: azimuth, elevation, distance, gain.
///
/// - Direction: the source's lateral component p = sin(azimuth)·cos(elevation) (azimuth in
///   degrees, 0 = ahead, +90 = right, −90 = left; elevation in degrees, ±90 = straight up/down)
///   is panned with the mixer's equal-power law (θ = (p + 1)·π/4, left = cos θ, right = sin θ).
///   The right-minus-left level difference therefore rises monotonically from −90° to +90°;
///   sources behind mirror the front (no HRTF, no front/back cue), overhead sources sit centred.
/// - Distance: inverse-distance attenuation `referenceDistance / clamp(d, referenceDistance,
///   maximumDistance)` — unity within 1 m, −6.02 dB per doubling beyond, constant beyond 1000 m.
/// - Gain: `gainDecibels` (linear 10^(dB/20)) on top.
/// Gains are computed when parameters are set and applied as plain multiplies in `process`.
public struct Panner3DKernel: Sendable {
    /// Distance (m) at and inside which there is no attenuation.
    public static let referenceDistance = 1.0
    /// Distance (m) beyond which attenuation stops growing.
    public static let maximumDistance = 1000.0

    /// Current azimuth (degrees), elevation (degrees), distance (m) and gain (dB).
    public private(set) var azimuth = 0.0, elevation = 0.0, distance = 1.0, gainDecibels = 0.0
    /// The linear gains `process` applies to the left and right outputs.
    public private(set) var leftGain: Float
    /// See `leftGain`.
    public private(set) var rightGain: Float

    /// A source straight ahead at 1 m with 0 dB gain. Thread: any.
    public init() {
        let g = Self.gains(azimuth: 0, elevation: 0, distance: 1, gainDecibels: 0)
        leftGain = g.left
        rightGain = g.right
    }

    /// The documented distance curve: ref / clamp(distance, ref, max). Thread: any (pure).
    public static func distanceAttenuation(_ distance: Double) -> Double {
        referenceDistance / min(max(distance, referenceDistance), maximumDistance)
    }

    /// The (left, right) linear gains for a placement. Thread: any (pure; calls libm).
    public static func gains(
        azimuth: Double, elevation: Double, distance: Double,
        gainDecibels: Double
    ) -> (left: Float, right: Float) {
        let radians = Double.pi / 180
        let lateral = sin(azimuth * radians) * cos(min(max(elevation, -90), 90) * radians)
        let theta = (min(max(lateral, -1), 1) + 1) * Double.pi / 4
        let scale = distanceAttenuation(distance) * pow(10, gainDecibels / 20)
        return (Float(sin(Double.pi / 2 - theta) * scale), Float(sin(theta) * scale))
    }

    /// Sets the placement and recomputes the gains (non-finite values are ignored).
    /// Thread: any that does not race `process` (it calls libm).
    public mutating func setParameters(
        azimuth: Double, elevation: Double, distance: Double,
        gainDecibels: Double
    ) {
        guard azimuth.isFinite, elevation.isFinite, distance.isFinite, gainDecibels.isFinite else { return }
        self.azimuth = azimuth
        self.elevation = elevation
        self.distance = distance
        self.gainDecibels = gainDecibels
        let g = Self.gains(azimuth: azimuth, elevation: elevation, distance: distance, gainDecibels: gainDecibels)
        leftGain = g.left
        rightGain = g.right
    }

    /// Writes `input` × gains into `left` and `right` (overwriting; `accumulate` true adds instead,
    /// for summing several sources). Thread: render (real-time).
    @_noAllocation @_noLocks
    public func process(
        _ input: UnsafePointer<Float>, left: UnsafeMutablePointer<Float>,
        right: UnsafeMutablePointer<Float>, frameCount: Int, accumulate: Bool = false
    ) {
        let gl = leftGain, gr = rightGain
        if accumulate {
            for i in 0..<frameCount {
                left[i] += gl * input[i]
                right[i] += gr * input[i]
            }
        } else {
            for i in 0..<frameCount {
                let x = input[i]
                left[i] = gl * x
                right[i] = gr * x
            }
        }
    }
}

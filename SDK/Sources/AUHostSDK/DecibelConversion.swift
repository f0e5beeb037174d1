/// 10^(dB/20): a level in decibels as a linear gain, for kernels on the render thread (no C
/// library call): 2^(dB·log2(10)/20) from the exponent bits and a polynomial for the fraction,
/// relative error below 1e-4 (0.001 dB). Input clamped to ±760 dB.
///
/// Thread: any (inlinable, so a kernel marked @_noAllocation may call it).
@inlinable @inline(__always)
public func decibelsToLinear(_ db: Float) -> Float {
    let y = min(max(db, -760), 760) * 0.166_096_4  // log2(10) / 20
    let truncated = Float(Int(y))
    let whole = truncated > y ? truncated - 1 : truncated
    let f = y - whole
    let p = 1 + f * (0.693_147_2 + f * (0.240_226_5 + f * (0.055_504_1 + f * (0.009_618_1 + f * 0.001_333_6))))
    return p * Float(sign: .plus, exponent: Int(whole), significand: 1)
}

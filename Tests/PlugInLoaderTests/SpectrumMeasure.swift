import Foundation

/// Aliasing of a signal that should hold one sinusoid at DFT bin `bin` of `samples.count` and no
/// other in-band content: the power of everything except that bin and DC, relative to the bin's
/// power, in dB. Exact for bin-centred tones (Parseval: residual = total − DC − the bin).
func residualRelativeToTone(_ samples: [Float], bin: Int) -> Double {
    let n = Double(samples.count)
    var total = 0.0, mean = 0.0, re = 0.0, im = 0.0
    for (i, x) in samples.enumerated() {
        let v = Double(x)
        total += v * v
        mean += v
        let angle = 2 * Double.pi * Double(bin) * Double(i) / n
        re += v * cos(angle)
        im -= v * sin(angle)
    }
    mean /= n
    let tonePower = 2 * (re * re + im * im) / (n * n)  // amplitude² / 2
    let residual = max(total / n - mean * mean - tonePower, 1e-30)
    return 10 * log10(residual / tonePower)
}

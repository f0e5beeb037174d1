import Foundation

/// Least-squares fit of a·sin + b·cos (+ DC) at a known frequency, for measuring amplitudes and
/// the residual (everything that is not the fundamental: harmonics, noise).
public struct SineFit {
    public let amplitude: Double
    public let residualPower: Double
    public let signalPower: Double

    /// Thread: any.
    public init(_ samples: ArraySlice<Float>, frequency: Double, sampleRate: Double) {
        let w = 2 * Double.pi * frequency / sampleRate
        // Normal equations for basis (sin, cos, 1).
        var m = [[Double]](repeating: [0, 0, 0], count: 3)
        var v = [0.0, 0.0, 0.0]
        let start = samples.startIndex
        for (k, x) in samples.enumerated() {
            let n = Double(start + k)
            let basis = [sin(w * n), cos(w * n), 1.0]
            for r in 0..<3 {
                v[r] += basis[r] * Double(x)
                for c in 0..<3 { m[r][c] += basis[r] * basis[c] }
            }
        }
        let coefficients = SineFit.solve(m, v)
        amplitude = (coefficients[0] * coefficients[0] + coefficients[1] * coefficients[1]).squareRoot()
        var residual = 0.0
        for (k, x) in samples.enumerated() {
            let n = Double(start + k)
            let model = coefficients[0] * sin(w * n) + coefficients[1] * cos(w * n) + coefficients[2]
            residual += (Double(x) - model) * (Double(x) - model)
        }
        residualPower = residual / Double(samples.count)
        signalPower = amplitude * amplitude / 2
    }

    /// Gaussian elimination with partial pivoting for a 3×3 system.
    static func solve(_ matrix: [[Double]], _ vector: [Double]) -> [Double] {
        var a = matrix, b = vector
        for col in 0..<3 {
            let pivot = (col..<3).max { abs(a[$0][col]) < abs(a[$1][col]) }!
            a.swapAt(col, pivot); b.swapAt(col, pivot)
            for row in (col + 1)..<3 {
                let f = a[row][col] / a[col][col]
                for c in col..<3 { a[row][c] -= f * a[col][c] }
                b[row] -= f * b[col]
            }
        }
        var x = [0.0, 0.0, 0.0]
        for row in stride(from: 2, through: 0, by: -1) {
            var s = b[row]
            for c in (row + 1)..<3 { s -= a[row][c] * x[c] }
            x[row] = s / a[row][row]
        }
        return x
    }
}

/// `count` samples of amplitude·sin(2π f n / rate).
/// Thread: any.
public func sine(frequency: Double, sampleRate: Double, count: Int, amplitude: Double = 0.5) -> [Float] {
    (0..<count).map { Float(amplitude * sin(2 * Double.pi * frequency * Double($0) / sampleRate)) }
}

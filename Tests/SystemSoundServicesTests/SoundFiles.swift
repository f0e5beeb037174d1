import Foundation

/// 16-bit PCM sound files written by hand (not through AUHost), for the sounds under test.
enum SoundFiles {
    /// A RIFF WAVE file of interleaved little-endian samples.
    static func wav(_ samples: [Int16], channels: Int, rate: Int) -> Data {
        func le(_ value: Int, _ width: Int) -> [UInt8] { (0..<width).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }
        let data = samples.withUnsafeBytes { Array($0) }
        var bytes = Array("RIFF".utf8) + le(36 + data.count, 4) + Array("WAVE".utf8)
        bytes += Array("fmt ".utf8) + le(16, 4) + le(1, 2) + le(channels, 2) + le(rate, 4) + le(rate * channels * 2, 4)
        bytes += le(channels * 2, 2) + le(16, 2) + Array("data".utf8) + le(data.count, 4) + data
        return Data(bytes)
    }

    /// An AIFF file (big-endian samples; the rate as an 80-bit extended float).
    static func aiff(_ samples: [Int16], channels: Int, rate: Int) -> Data {
        func be(_ value: Int, _ width: Int) -> [UInt8] { (0..<width).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }
        let exponent = Int(log2(Double(rate)))
        let mantissa = UInt64(rate) << UInt64(63 - exponent)
        let extended = be(16_383 + exponent, 2) + (0..<8).reversed().map { UInt8(truncatingIfNeeded: mantissa >> UInt64(8 * $0)) }
        let frames = samples.count / channels
        let comm = Array("COMM".utf8) + be(18, 4) + be(channels, 2) + be(frames, 4) + be(16, 2) + extended
        let data = samples.flatMap { be(Int($0), 2) }
        let ssnd = Array("SSND".utf8) + be(8 + data.count, 4) + be(0, 4) + be(0, 4) + data
        return Data(Array("FORM".utf8) + be(4 + comm.count + ssnd.count, 4) + Array("AIFF".utf8) + comm + ssnd)
    }

    /// A signal of multiples of 1/32768 (exact in 16 bits and in Float32 sums of two).
    static func signal(frames: Int, channels: Int, seed: Int) -> [Int16] {
        (0..<frames * channels).map { Int16(truncatingIfNeeded: (($0 &* 7_919 &+ seed &* 104_729) % 20_001) - 10_000) }
    }
}

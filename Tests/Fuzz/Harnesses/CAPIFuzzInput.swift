/// A fuzz input read front to back: each read takes the next bytes, and reads past the end give
/// zeros (so every input, however short, is a complete program).
///
/// Thread: the one thread running the harness.
public struct CAPIFuzzInput {
    private let data: UnsafeRawBufferPointer
    private var offset = 0

    public init(_ data: UnsafeRawBufferPointer) { self.data = data }

    public var isAtEnd: Bool { offset >= data.count }

    public mutating func u8() -> UInt8 {
        guard offset < data.count else { return 0 }
        defer { offset += 1 }
        return data[offset]
    }

    public mutating func u16() -> UInt16 { UInt16(u8()) | UInt16(u8()) << 8 }
    public mutating func u32() -> UInt32 { UInt32(u16()) | UInt32(u16()) << 16 }
    public mutating func u64() -> UInt64 { UInt64(u32()) | UInt64(u32()) << 32 }

    /// A value below `bound` (0 when bound is 0).
    public mutating func below(_ bound: Int) -> Int { bound <= 0 ? 0 : Int(u32()) % bound }

    /// One of `choices`, or (selector ≥ count) a raw 32-bit value, so that both the meaningful
    /// and the absurd get tried.
    public mutating func pick(_ choices: [UInt32], rawShare: UInt8 = 32) -> UInt32 {
        let selector = u8()
        if selector < rawShare || choices.isEmpty { return u32() }
        return choices[Int(selector) % choices.count]
    }

    /// A Float that is often special (NaN, ±∞, ±FLT_MAX, 0, subnormal) and otherwise any bits.
    public mutating func float() -> Float {
        let specials: [Float] = [
            .nan, .infinity, -.infinity, .greatestFiniteMagnitude, -.greatestFiniteMagnitude,
            0, -0.0, .leastNonzeroMagnitude, 1, 0.5, -1, 100, 20_000,
        ]
        let selector = u8()
        return selector < 128 ? specials[Int(selector) % specials.count] : Float(bitPattern: u32())
    }

    /// A Double sample rate that is often special and otherwise any bits.
    public mutating func rate() -> Double {
        let specials: [Double] = [
            44_100, 48_000, 96_000, 8_000, 1, 1_536_000, 1_536_001, 0, -1, .nan, .infinity, 1e19, 9.3e18,
            1e300, .leastNonzeroMagnitude, 22_050, 768_000,
        ]
        let selector = u8()
        return selector < 200 ? specials[Int(selector) % specials.count] : Double(bitPattern: u64())
    }

    /// Copies up to `count` next bytes into `buffer` (zeros past the end).
    public mutating func fill(_ buffer: UnsafeMutableRawPointer, count: Int) {
        for i in 0..<count { buffer.storeBytes(of: u8(), toByteOffset: i, as: UInt8.self) }
    }
}

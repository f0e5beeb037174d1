import Foundation

/// Mono WAV files written and read byte by byte, so that the CLI tests see exactly what the
/// file holds (32-bit float or 16-bit integer samples).
enum WAV {
    static func writeFloat(_ samples: [Float], rate: Int, to path: String) throws {
        var payload = Data()
        for s in samples { withUnsafeBytes(of: s.bitPattern.littleEndian) { payload.append(contentsOf: $0) } }
        try write(payload, format: 3, bits: 32, rate: rate, to: path)
    }

    static func writeInt16(_ samples: [Int16], rate: Int, to path: String) throws {
        var payload = Data()
        for s in samples { withUnsafeBytes(of: s.littleEndian) { payload.append(contentsOf: $0) } }
        try write(payload, format: 1, bits: 16, rate: rate, to: path)
    }

    static func readFloat(_ path: String) throws -> [Float] {
        let data = try dataChunk(path)
        return stride(from: data.startIndex, to: data.endIndex - 3, by: 4).map { i in
            Float(bitPattern: (0..<4).reduce(UInt32(0)) { $0 | UInt32(data[i + $1]) << (8 * $1) })
        }
    }

    static func readInt16(_ path: String) throws -> [Int16] {
        let data = try dataChunk(path)
        return stride(from: data.startIndex, to: data.endIndex - 1, by: 2).map {
            Int16(bitPattern: UInt16(data[$0]) | UInt16(data[$0 + 1]) << 8)
        }
    }

    /// A canonical 44-byte header (format 1: integer PCM, 3: IEEE float) and `payload`.
    private static func write(_ payload: Data, format: Int, bits: Int, rate: Int, to path: String) throws {
        var data = Data()
        func u32(_ v: Int) { withUnsafeBytes(of: UInt32(v).littleEndian) { data.append(contentsOf: $0) } }
        func u16(_ v: Int) { withUnsafeBytes(of: UInt16(v).littleEndian) { data.append(contentsOf: $0) } }
        let bytes = bits / 8
        data.append(contentsOf: Array("RIFF".utf8)); u32(36 + payload.count); data.append(contentsOf: Array("WAVEfmt ".utf8))
        u32(16); u16(format); u16(1); u32(rate); u32(rate * bytes); u16(bytes); u16(bits)
        data.append(contentsOf: Array("data".utf8)); u32(payload.count)
        data.append(payload)
        try data.write(to: URL(fileURLWithPath: path))
    }

    /// The bytes of the file's data chunk, whatever chunks come before it.
    private static func dataChunk(_ path: String) throws -> ArraySlice<UInt8> {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        func u32(_ i: Int) -> Int { Int(bytes[i]) | Int(bytes[i + 1]) << 8 | Int(bytes[i + 2]) << 16 | Int(bytes[i + 3]) << 24 }
        var i = 12
        while i + 8 <= bytes.count {
            let id = String(decoding: bytes[i..<i + 4], as: UTF8.self), size = u32(i + 4)
            if id == "data" { return bytes[(i + 8)..<min(i + 8 + size, bytes.count)] }
            i += 8 + size + (size & 1)
        }
        throw CocoaError(.fileReadCorruptFile)
    }
}

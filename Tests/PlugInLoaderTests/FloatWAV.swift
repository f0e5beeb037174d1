import Foundation

/// Just enough of WAV for the tests: write 32-bit float interleaved files, read the "data" chunk
/// of a 32-bit float file back (chunks walked generically, so extra chunks are fine).
enum FloatWAV {
    static func write(_ channels: [[Float]], sampleRate: Int, to url: URL) throws {
        let frames = channels.first?.count ?? 0, count = channels.count
        var data = Data()
        func u32(_ v: UInt32) { withUnsafeBytes(of: v.littleEndian) { data.append(contentsOf: $0) } }
        func u16(_ v: UInt16) { withUnsafeBytes(of: v.littleEndian) { data.append(contentsOf: $0) } }
        data.append(contentsOf: Array("RIFF".utf8)); u32(UInt32(36 + frames * count * 4))
        data.append(contentsOf: Array("WAVEfmt ".utf8)); u32(16)
        u16(3); u16(UInt16(count)); u32(UInt32(sampleRate)); u32(UInt32(sampleRate * count * 4)); u16(UInt16(count * 4)); u16(32)
        data.append(contentsOf: Array("data".utf8)); u32(UInt32(frames * count * 4))
        for i in 0..<frames {
            for c in 0..<count { withUnsafeBytes(of: channels[c][i].bitPattern.littleEndian) { data.append(contentsOf: $0) } }
        }
        try data.write(to: url)
    }

    /// Per-channel samples of a 32-bit float WAV file.
    static func read(_ url: URL, channels: Int) throws -> [[Float]] {
        let bytes = [UInt8](try Data(contentsOf: url))
        func u32(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 | Int(bytes[at + 2]) << 16 | Int(bytes[at + 3]) << 24 }
        var at = 12
        while at + 8 <= bytes.count {
            let id = String(decoding: bytes[at..<at + 4], as: UTF8.self), size = u32(at + 4)
            if id == "data" {
                let samples = (0..<(size / 4)).map { Float(bitPattern: UInt32(truncatingIfNeeded: u32(at + 8 + 4 * $0))) }
                return (0..<channels).map { c in stride(from: c, to: samples.count, by: channels).map { samples[$0] } }
            }
            at += 8 + size + (size & 1)
        }
        throw CocoaError(.fileReadCorruptFile)
    }
}

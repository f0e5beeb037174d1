import Foundation

/// The samples of a 32-bit float WAV file (format tag 3, or WAVE_FORMAT_EXTENSIBLE), parsed here
/// rather than through AUHost so the check does not rely on the code under test.
func readFloatWAV(_ path: String) throws -> (channels: Int, samples: [Float]) {
    guard let data = FileManager.default.contents(atPath: path), data.count >= 12,
        data.prefix(4) == Data("RIFF".utf8)
    else { throw CheckFailure("\(path) is not a RIFF/WAVE file") }
    let bytes = [UInt8](data)
    func le(_ at: Int, _ width: Int) -> Int { (0..<width).reduce(0) { $0 | Int(bytes[at + $1]) << (8 * $1) } }
    var at = 12, channels = 0, bits = 0
    while at + 8 <= bytes.count {
        let id = String(decoding: bytes[at..<at + 4], as: UTF8.self), size = le(at + 4, 4), body = at + 8
        if id == "fmt " { channels = le(body + 2, 2); bits = le(body + 14, 2) }
        if id == "data" {
            guard bits == 32 else { throw CheckFailure("\(path) holds \(bits)-bit samples, 32-bit float expected") }
            let end = min(body + size, bytes.count)
            let samples = Array(bytes[body..<end]).withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
            return (channels, samples)
        }
        at = body + size + (size & 1)
    }
    throw CheckFailure("\(path) has no data chunk")
}

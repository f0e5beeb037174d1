/// The parts of a RIFF/WAVE file the tests check: the fmt chunk and the data chunk's bytes.
struct WAVFile {
    var formatTag = 0, channels = 0, sampleRate = 0, bitsPerSample = 0
    var data: [UInt8] = []

    init?(_ bytes: [UInt8]) {
        func le(_ at: Int, _ width: Int) -> Int {
            (0..<width).reduce(0) { $0 | Int(bytes[at + $1]) << (8 * $1) }
        }
        guard bytes.count >= 12, bytes[0..<4] == [0x52, 0x49, 0x46, 0x46], bytes[8..<12] == [0x57, 0x41, 0x56, 0x45] else { return nil }
        var at = 12
        while at + 8 <= bytes.count {
            let id = String(decoding: bytes[at..<at + 4], as: UTF8.self)
            let size = le(at + 4, 4)
            let body = at + 8
            if id == "fmt " {
                formatTag = le(body, 2); channels = le(body + 2, 2); sampleRate = le(body + 4, 4); bitsPerSample = le(body + 14, 2)
            } else if id == "data" {
                data = Array(bytes[body..<min(body + size, bytes.count)])
                return
            }
            at = body + size + (size & 1)
        }
        return nil
    }
}

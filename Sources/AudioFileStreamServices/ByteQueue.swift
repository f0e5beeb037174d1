/// The bytes handed to ParseBytes that no parser has consumed yet, with their position in the
/// stream. Parsers peek at what they need and consume it once they have acted on it, so a header
/// cut anywhere simply waits for the rest. Consumed bytes are dropped from the front lazily.
/// Thread: setup.
struct ByteQueue {
    private var storage: [UInt8] = []
    private var start = 0
    /// The stream offset of the first unconsumed byte.
    private(set) var offset: Int64 = 0

    var count: Int { storage.count - start }

    mutating func append(_ bytes: UnsafeRawBufferPointer) {
        if start > 65_536 && start > storage.count / 2 {
            storage.removeFirst(start)
            start = 0
        }
        storage.append(contentsOf: bytes)
    }

    /// The first `n` bytes, or nil while fewer are here.
    func peek(_ n: Int) -> ArraySlice<UInt8>? {
        guard n >= 0, n <= count else { return nil }
        return storage[start..<(start + n)]
    }

    /// Everything unconsumed.
    var all: ArraySlice<UInt8> { storage[start...] }

    /// The byte `index` places ahead (caller checks `count`).
    subscript(_ index: Int) -> UInt8 { storage[start + index] }

    mutating func consume(_ n: Int) {
        let n = min(max(n, 0), count)
        start += n
        offset += Int64(n)
    }

    /// Drops everything and continues at stream offset `offset` (a discontinuity).
    mutating func reset(at offset: Int64) {
        storage.removeAll(keepingCapacity: true)
        start = 0
        self.offset = offset
    }
}

/// Big- and little-endian fields of a byte slice, indexed from the slice's start.
extension ArraySlice where Element == UInt8 {
    func u8(_ i: Int) -> UInt32 { UInt32(self[startIndex + i]) }
    func be16(_ i: Int) -> UInt32 { u8(i) << 8 | u8(i + 1) }
    func be32(_ i: Int) -> UInt32 { be16(i) << 16 | be16(i + 2) }
    func be64(_ i: Int) -> UInt64 { UInt64(be32(i)) << 32 | UInt64(be32(i + 4)) }
    func le16(_ i: Int) -> UInt32 { u8(i) | u8(i + 1) << 8 }
    func le32(_ i: Int) -> UInt32 { le16(i) | le16(i + 2) << 16 }
    func fourCC(_ i: Int) -> String { String(decoding: self[(startIndex + i)..<(startIndex + i + 4)], as: UTF8.self) }
    func matches(_ text: String, at i: Int = 0) -> Bool {
        let bytes = Array(text.utf8)
        return count >= i + bytes.count && self[(startIndex + i)..<(startIndex + i + bytes.count)].elementsEqual(bytes)
    }
}

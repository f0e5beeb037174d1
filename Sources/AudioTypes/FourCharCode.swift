import AudioToolbox

/// Four-character codes ('aufx', 'dely') are how the documents spell types, subtypes,
/// manufacturers and some status codes.
public enum FourCC {
    /// The code for a four-character ASCII string ("aufx" → 0x61756678); nil when the string is
    /// not exactly four bytes of printable ASCII.
    ///
    /// Thread: any.
    public static func code(_ string: String) -> FourCharCode? {
        let bytes = Array(string.utf8)
        guard bytes.count == 4, bytes.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) else { return nil }
        return bytes.reduce(0) { ($0 << 8) | FourCharCode($1) }
    }

    /// The string for a code when all four bytes are printable ASCII, else its decimal value
    /// (status codes such as -10879 print as numbers).
    ///
    /// Thread: setup (allocates the string).
    public static func string(_ code: FourCharCode) -> String {
        let bytes = [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: code >> $0) }
        guard bytes.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) else { return String(Int32(bitPattern: code)) }
        return String(decoding: bytes, as: UTF8.self)
    }
}

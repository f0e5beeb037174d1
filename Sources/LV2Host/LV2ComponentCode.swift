/// Stable four-character codes derived from strings: FNV-1a (32-bit) over the UTF-8 bytes, read
/// as base-62 digits mapped to letters and digits. Identical on every machine and run.
public enum LV2ComponentCode {
    static let alphanumerics = Array("abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ".utf8)
    static let uppercase = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ".utf8)

    /// FNV-1a, 32-bit, over the UTF-8 bytes of `string`. Thread: any.
    public static func fnv1a(_ string: String) -> UInt32 {
        var hash: UInt32 = 0x811C_9DC5
        for byte in string.utf8 {
            hash ^= UInt32(byte)
            hash = hash &* 0x0100_0193
        }
        return hash
    }

    /// Four printable characters (letters and digits) from `hash`, as an OSType (big-endian
    /// characters, first character in the high byte). With `leadingUppercase` the first character
    /// is an upper-case letter, as Audio Unit manufacturer codes conventionally are. Thread: any.
    public static func code(hash: UInt32, leadingUppercase: Bool = false) -> UInt32 {
        var rest = hash
        var code: UInt32 = 0
        for position in 0..<4 {
            let alphabet = position == 0 && leadingUppercase ? uppercase : alphanumerics
            let digit = Int(rest % UInt32(alphabet.count))
            rest /= UInt32(alphabet.count)
            code = code << 8 | UInt32(alphabet[digit])
        }
        return code
    }

    /// The four characters of an OSType, for messages and tests. Thread: any.
    public static func string(_ code: UInt32) -> String {
        let bytes = [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: code >> UInt32($0)) }
        return String(decoding: bytes, as: UTF8.self)
    }
}

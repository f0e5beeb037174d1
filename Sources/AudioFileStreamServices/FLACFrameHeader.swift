/// A FLAC frame header (RFC 9639 §9.1), checked against the stream's STREAMINFO: sync code,
/// reserved bits, the coded number, optional block size and rate bytes, and its CRC-8.
struct FLACFrameHeader {
    let blockSize: Int
    let firstSample: Int64
    /// Bytes of the header, CRC-8 included.
    let length: Int

    init?(_ b: ArraySlice<UInt8>, _ info: FLACStreamParser.StreamInfo) {
        guard b.count >= 6, b.u8(0) == 0xFF, b.u8(1) & 0xFE == 0xF8 else { return nil }
        let variable = b.u8(1) & 1 == 1
        let blockCode = Int(b.u8(2) >> 4), rateCode = Int(b.u8(2) & 15)
        let channelCode = Int(b.u8(3) >> 4), sizeCode = Int((b.u8(3) >> 1) & 7)
        guard blockCode != 0, rateCode != 15, channelCode <= 10, sizeCode != 3, b.u8(3) & 1 == 0 else { return nil }
        // The UTF-8-style coded frame or sample number.
        let lead = b.u8(4)
        var extra = 0
        var number: Int64
        switch lead {
        case 0..<0x80: number = Int64(lead)
        case 0xC0..<0xE0: extra = 1; number = Int64(lead & 0x1F)
        case 0xE0..<0xF0: extra = 2; number = Int64(lead & 0x0F)
        case 0xF0..<0xF8: extra = 3; number = Int64(lead & 0x07)
        case 0xF8..<0xFC: extra = 4; number = Int64(lead & 0x03)
        case 0xFC..<0xFE: extra = 5; number = Int64(lead & 0x01)
        case 0xFE where variable: extra = 6; number = 0
        default: return nil
        }
        var index = 5
        guard b.count >= index + extra + 1 else { return nil }
        for _ in 0..<extra {
            let byte = b.u8(index)
            guard byte & 0xC0 == 0x80 else { return nil }
            number = number << 6 | Int64(byte & 0x3F)
            index += 1
        }
        var size: Int
        switch blockCode {
        case 1: size = 192
        case 2...5: size = 576 << (blockCode - 2)
        case 6:
            guard b.count > index else { return nil }
            size = Int(b.u8(index)) + 1; index += 1
        case 7:
            guard b.count > index + 1 else { return nil }
            size = Int(b.be16(index)) + 1; index += 2
        default: size = 256 << (blockCode - 8)
        }
        var rate = info.sampleRate
        switch rateCode {
        case 0: break
        case 12:
            guard b.count > index else { return nil }
            rate = Int(b.u8(index)) * 1000; index += 1
        case 13, 14:
            guard b.count > index + 1 else { return nil }
            rate = Int(b.be16(index)) * (rateCode == 13 ? 1 : 10); index += 2
        default: rate = [0, 88_200, 176_400, 192_000, 8_000, 16_000, 22_050, 24_000, 32_000, 44_100, 48_000, 96_000][rateCode]
        }
        guard b.count > index else { return nil }
        var crc: UInt8 = 0
        for i in 0..<index { crc = Self.crc8(crc, b[b.startIndex + i]) }
        guard crc == b[b.startIndex + index] else { return nil }
        let channels = channelCode < 8 ? channelCode + 1 : 2
        let bits = [0, 8, 12, 0, 16, 20, 24, 32][sizeCode]
        guard channels == info.channels, rate == info.sampleRate, bits == 0 || bits == info.bits, size <= info.maximumBlock else {
            return nil
        }
        blockSize = size
        firstSample = variable ? number : number * Int64(info.maximumBlock)
        length = index + 1
    }

    /// Whether `b` (fewer bytes than a header can need) may still grow into one.
    static func couldStart(_ b: ArraySlice<UInt8>) -> Bool {
        guard let first = b.first else { return true }
        guard first == 0xFF else { return false }
        return b.count < 2 || b.u8(1) & 0xFE == 0xF8
    }

    static func crc8(_ crc: UInt8, _ byte: UInt8) -> UInt8 {
        var c = crc ^ byte
        for _ in 0..<8 { c = c & 0x80 != 0 ? (c << 1) ^ 0x07 : c << 1 }
        return c
    }

    static let crc16Table: [UInt16] = (0..<256).map { i -> UInt16 in
        var c = UInt16(i) << 8
        for _ in 0..<8 { c = c & 0x8000 != 0 ? (c << 1) ^ 0x8005 : c << 1 }
        return c
    }

    static func crc16(_ crc: UInt16, _ byte: UInt8) -> UInt16 {
        (crc << 8) ^ crc16Table[Int((crc >> 8) ^ UInt16(byte))]
    }
}

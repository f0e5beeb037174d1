import AudioToolbox
import AudioTypes

/// kAudioFormatProperty_FormatInfo: an ASBD completed from what is known about its format and
/// its magic cookie (AudioFormat.h says where each field comes from).
enum FormatInfo {
    /// Thread: setup.
    static func complete(_ asbd: AudioStreamBasicDescription, cookie: [UInt8]) throws -> AudioStreamBasicDescription {
        switch asbd.mFormatID {
        case kAudioFormatLinearPCM: return try linearPCM(asbd)
        case kAudioFormatMPEGLayer3: return mp3(asbd)
        case kAudioFormatFLAC: return try flac(asbd, cookie: cookie)
        case kAudioFormatOpus: return try opus(asbd, cookie: cookie)
        case kAudioFormatVorbis: return try vorbis(asbd, cookie: cookie)
        default:
            throw AudioError(
                kAudioFormatUnsupportedDataFormatError,
                "FormatInfo: '\(FourCC.string(asbd.mFormatID))' is not a format AUHost reads or writes (lpcm, .mp3, flac, opus, vorb).")
        }
    }

    /// As Apple's FillOutASBDForLPCM: one frame per packet, whole bytes per sample.
    private static func linearPCM(_ asbd: AudioStreamBasicDescription) throws -> AudioStreamBasicDescription {
        guard asbd.mChannelsPerFrame > 0, asbd.mBitsPerChannel > 0 else {
            throw AudioError(kAudioFormatUnsupportedDataFormatError, "FormatInfo: linear PCM needs mChannelsPerFrame and mBitsPerChannel.")
        }
        var out = asbd
        let sampleBytes = (asbd.mBitsPerChannel + 7) / 8
        let nonInterleaved = asbd.mFormatFlags & kAudioFormatFlagIsNonInterleaved != 0
        let frameBytes = sampleBytes * (nonInterleaved ? 1 : asbd.mChannelsPerFrame)
        if out.mFramesPerPacket == 0 { out.mFramesPerPacket = 1 }
        if out.mBytesPerFrame == 0 { out.mBytesPerFrame = frameBytes }
        if out.mBytesPerPacket == 0 { out.mBytesPerPacket = out.mBytesPerFrame * out.mFramesPerPacket }
        if asbd.mBitsPerChannel == sampleBytes * 8, out.mBytesPerFrame == frameBytes { out.mFormatFlags |= kAudioFormatFlagIsPacked }
        return out
    }

    private static func compressed(_ asbd: AudioStreamBasicDescription) -> AudioStreamBasicDescription {
        var out = asbd
        out.mBytesPerPacket = 0
        out.mBytesPerFrame = 0
        out.mBitsPerChannel = 0
        return out
    }

    private static func mp3(_ asbd: AudioStreamBasicDescription) -> AudioStreamBasicDescription {
        var out = compressed(asbd)
        let lowSamplingRates: Set<Float64> = [8_000, 11_025, 12_000, 16_000, 22_050, 24_000]
        out.mFramesPerPacket = lowSamplingRates.contains(asbd.mSampleRate) ? 576 : 1_152
        out.mFormatFlags = 0
        return out
    }

    private static func flac(_ asbd: AudioStreamBasicDescription, cookie: [UInt8]) throws -> AudioStreamBasicDescription {
        // "fLaC", then a metadata block header (type 0 = STREAMINFO, 24-bit length 34), then STREAMINFO.
        var at = cookie.starts(with: Array("fLaC".utf8)) ? 4 : 0
        guard cookie.count >= at + 4 + 34, cookie[at] & 0x7F == 0 else {
            throw AudioError(kAudioFormatUnsupportedDataFormatError, "FormatInfo: a FLAC cookie is \"fLaC\" and the STREAMINFO block.")
        }
        at += 4
        let bits = BitReader(Array(cookie[at..<at + 34]))
        _ = bits.read(16)  // minimum block size
        let maximumBlock = bits.read(16)
        _ = bits.read(24)
        _ = bits.read(24)
        let rate = bits.read(20), channels = bits.read(3) + 1, depth = bits.read(5) + 1
        var out = compressed(asbd)
        out.mSampleRate = Float64(rate)
        out.mChannelsPerFrame = UInt32(channels)
        out.mFramesPerPacket = UInt32(maximumBlock)
        out.mFormatFlags =
            [
                16: kAppleLosslessFormatFlag_16BitSourceData, 20: kAppleLosslessFormatFlag_20BitSourceData,
                24: kAppleLosslessFormatFlag_24BitSourceData, 32: kAppleLosslessFormatFlag_32BitSourceData,
            ][depth] ?? 0
        return out
    }

    private static func opus(_ asbd: AudioStreamBasicDescription, cookie: [UInt8]) throws -> AudioStreamBasicDescription {
        guard cookie.count >= 19, cookie.starts(with: Array("OpusHead".utf8)) else {
            throw AudioError(kAudioFormatUnsupportedDataFormatError, "FormatInfo: an Opus cookie is the OpusHead packet (RFC 7845).")
        }
        var out = compressed(asbd)
        out.mSampleRate = 48_000
        out.mChannelsPerFrame = UInt32(cookie[9])
        if out.mFramesPerPacket == 0 { out.mFramesPerPacket = 960 }
        out.mFormatFlags = 0
        return out
    }

    private static func vorbis(_ asbd: AudioStreamBasicDescription, cookie: [UInt8]) throws -> AudioStreamBasicDescription {
        // Xiph lacing: packet count - 1, the first two sizes in 255-runs, then the packets.
        var at = 1
        for _ in 0..<2 {
            while at < cookie.count, cookie[at] == 255 { at += 1 }
            at += 1
        }
        guard cookie.first == 2, cookie.count >= at + 16, cookie[at] == 1, Array(cookie[at + 1..<at + 7]) == Array("vorbis".utf8) else {
            throw AudioError(
                kAudioFormatUnsupportedDataFormatError, "FormatInfo: a Vorbis cookie is the three header packets in Xiph lacing.")
        }
        let rate = (0..<4).reduce(UInt32(0)) { $0 | UInt32(cookie[at + 12 + $1]) << (8 * UInt32($1)) }
        var out = compressed(asbd)
        out.mSampleRate = Float64(rate)
        out.mChannelsPerFrame = UInt32(cookie[at + 11])
        out.mFramesPerPacket = 0
        out.mFormatFlags = 0
        return out
    }
}

/// Reads big-endian bit fields (FLAC's STREAMINFO).
private final class BitReader {
    private let bytes: [UInt8]
    private var position = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    func read(_ count: Int) -> Int {
        var value = 0
        for _ in 0..<count {
            value = value << 1 | Int(bytes[position / 8] >> (7 - UInt8(position % 8)) & 1)
            position += 1
        }
        return value
    }
}

import AudioToolbox
import AudioTypes
import CLazyLibraries

/// A decoder of one compressed format: packets in, Float32 interleaved PCM out (full scale ±1).
///
/// Decoders append to a ``DecodedPCM`` the converter owns; they are created when the converter
/// first needs them (after the magic cookie is set) and recreated when the cookie changes.
/// Thread: setup (codec libraries allocate).
protocol PacketDecoder: AnyObject {
    /// Channels of the decoded PCM.
    var channelCount: Int { get }
    /// Rate of the decoded PCM.
    var sampleRate: Double { get }
    /// Decodes one packet, appending its frames (possibly none: header packets, priming) to `pcm`.
    /// Throws an AudioError naming the codec and the cause for data it cannot decode.
    func decode(_ packet: UnsafeRawBufferPointer, into pcm: DecodedPCM) throws
    /// Forgets stream state (after a seek or discontinuity); keeps the headers.
    func reset()
}

/// The formats Audio Converter Services decodes, and how their decoders are made.
enum CompressedFormat {
    static let decodable: [AudioFormatID] = [kAudioFormatMPEGLayer3, kAudioFormatFLAC, kAudioFormatVorbis, kAudioFormatOpus]

    /// The decoder for `format` with `cookie` (may be empty). Thread: setup.
    static func makeDecoder(_ format: AudioStreamBasicDescription, cookie: [UInt8]) throws -> PacketDecoder {
        if let reason = missingLibrary(format.mFormatID) {
            throw AudioError(
                kAudioConverterErr_FormatNotSupported,
                "Decoding '\(FourCC.string(format.mFormatID))' needs a library that cannot be loaded: \(reason).")
        }
        switch format.mFormatID {
        case kAudioFormatMPEGLayer3: return try MP3PacketDecoder(format)
        case kAudioFormatFLAC: return try FLACPacketDecoder(format, cookie: cookie)
        case kAudioFormatVorbis: return try VorbisPacketDecoder(format, cookie: cookie)
        case kAudioFormatOpus: return try OpusPacketDecoder(format, cookie: cookie)
        default:
            throw AudioError(
                kAudioConverterErr_FormatNotSupported,
                "AUHost decodes MP3, FLAC, Vorbis and Opus; '\(FourCC.string(format.mFormatID))' is not one of them.")
        }
    }

    /// Why the codec's library cannot be loaded, if it cannot (it is opened here when it is not
    /// yet). Thread: setup.
    private static func missingLibrary(_ format: AudioFormatID) -> String? {
        let reason: UnsafePointer<CChar>?
        switch format {
        case kAudioFormatMPEGLayer3: reason = auhost_mpg123_unavailable()
        case kAudioFormatFLAC: reason = auhost_flac_unavailable()
        case kAudioFormatVorbis: reason = auhost_vorbis_unavailable()
        case kAudioFormatOpus: reason = auhost_opus_unavailable()
        default: return nil
        }
        return reason.map { String(cString: $0) }
    }

    /// The largest packet of `format` in bytes (a bound for buffer sizing). Thread: any.
    static func maximumPacketSize(_ format: AudioStreamBasicDescription) -> UInt32 {
        switch format.mFormatID {
        case kAudioFormatMPEGLayer3: 1_441  // layer III: 320 kbit/s at 32 kHz (or 160 at 8 kHz), padded
        case kAudioFormatFLAC: 65_535 * 8 * 4 + 64  // a verbatim block of the largest size
        case kAudioFormatOpus: 1_275 * 3 * 255  // RFC 6716 frame bound × frames × streams
        default: 65_307  // one Ogg packet of 255 full segments, as large as Vorbis packets get in practice
        }
    }
}

/// Decoded Float32 interleaved frames waiting to be converted: grows as a decoder appends,
/// emptied by the converter once it has taken them. Thread: setup.
final class DecodedPCM {
    let channelCount: Int
    private(set) var samples: UnsafeMutablePointer<Float>
    private(set) var capacityFrames: Int
    private(set) var frameCount = 0

    init(channelCount: Int) {
        self.channelCount = channelCount
        capacityFrames = 8192
        samples = .allocate(capacity: capacityFrames * channelCount)
    }

    deinit { samples.deallocate() }

    /// Room for `frames` more frames; returns where they go (call ``commit(_:)`` after writing).
    func reserve(_ frames: Int) -> UnsafeMutablePointer<Float> {
        if frameCount + frames > capacityFrames {
            let newCapacity = max(capacityFrames * 2, frameCount + frames)
            let grown = UnsafeMutablePointer<Float>.allocate(capacity: newCapacity * channelCount)
            grown.update(from: samples, count: frameCount * channelCount)
            samples.deallocate()
            samples = grown
            capacityFrames = newCapacity
        }
        return samples + frameCount * channelCount
    }

    func commit(_ frames: Int) { frameCount += frames }

    func removeAll() { frameCount = 0 }
}

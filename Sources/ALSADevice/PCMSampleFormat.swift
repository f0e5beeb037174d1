import CALSA

/// The device sample formats this layer converts to and from the canonical Float32.
public enum PCMSampleFormat: String, Sendable, CaseIterable {
    /// 16-bit signed little-endian (`S16_LE`).
    case s16LE = "S16_LE"
    /// 24-bit signed in the low bits of a 32-bit little-endian word (`S24_LE`).
    case s24LE = "S24_LE"
    /// 24-bit signed packed in 3 bytes, little-endian (`S24_3LE`).
    case s24Packed3LE = "S24_3LE"
    /// 32-bit signed little-endian (`S32_LE`).
    case s32LE = "S32_LE"
    /// 32-bit IEEE float little-endian (`FLOAT_LE`), nominal range [-1, 1].
    case float32LE = "FLOAT_LE"

    /// Bytes one sample occupies in device memory.
    /// Thread: any (render-safe).
    @inlinable public var bytesPerSample: Int {
        switch self {
        case .s16LE: return 2
        case .s24Packed3LE: return 3
        case .s24LE, .s32LE, .float32LE: return 4
        }
    }

    /// Significant bits of an integer sample (24 for both 24-bit layouts); 32 for float.
    /// Thread: any (render-safe).
    @inlinable public var significantBits: Int {
        switch self {
        case .s16LE: return 16
        case .s24LE, .s24Packed3LE: return 24
        case .s32LE, .float32LE: return 32
        }
    }

    var alsaFormat: snd_pcm_format_t {
        switch self {
        case .s16LE: return SND_PCM_FORMAT_S16_LE
        case .s24LE: return SND_PCM_FORMAT_S24_LE
        case .s24Packed3LE: return SND_PCM_FORMAT_S24_3LE
        case .s32LE: return SND_PCM_FORMAT_S32_LE
        case .float32LE: return SND_PCM_FORMAT_FLOAT_LE
        }
    }

    init?(alsaFormat: snd_pcm_format_t) {
        guard let match = PCMSampleFormat.allCases.first(where: { $0.alsaFormat == alsaFormat }) else { return nil }
        self = match
    }
}

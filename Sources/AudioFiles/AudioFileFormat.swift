import CSndFile

/// Container types AudioFiles can create (reading accepts whatever libsndfile recognises).
public enum AudioFileType: String, CaseIterable, Sendable {
    case wave = "WAVE"
    case aiff = "AIFF"
    case caf = "CAF"
    case flac = "FLAC"
    /// Ogg container (with Vorbis data).
    case ogg = "Ogg"

    var sndfileMajor: Int32 {
        switch self {
        case .wave: Int32(SF_FORMAT_WAV)
        case .aiff: Int32(SF_FORMAT_AIFF)
        case .caf: Int32(SF_FORMAT_CAF)
        case .flac: Int32(SF_FORMAT_FLAC)
        case .ogg: Int32(SF_FORMAT_OGG)
        }
    }

    init?(sndfileMajor: Int32) {
        switch sndfileMajor {
        case Int32(SF_FORMAT_WAV), Int32(SF_FORMAT_WAVEX), Int32(SF_FORMAT_RF64): self = .wave
        case Int32(SF_FORMAT_AIFF): self = .aiff
        case Int32(SF_FORMAT_CAF): self = .caf
        case Int32(SF_FORMAT_FLAC): self = .flac
        case Int32(SF_FORMAT_OGG): self = .ogg
        default: return nil
        }
    }
}

/// How samples are stored in the file (the "file data format"): PCM integers, floats, or a codec.
public enum AudioFileEncoding: Equatable, Sendable {
    case int16, int24, int32, float32, float64
    /// FLAC, lossless, at 16 or 24 bits (FLAC files only).
    case flac(bitDepth: Int)
    /// Ogg/Vorbis, lossy; quality 0 (smallest) … 1 (best) (Ogg files only).
    case vorbis(quality: Double)

    var sndfileSubtype: Int32 {
        switch self {
        case .int16: Int32(SF_FORMAT_PCM_16)
        case .int24: Int32(SF_FORMAT_PCM_24)
        case .int32: Int32(SF_FORMAT_PCM_32)
        case .float32: Int32(SF_FORMAT_FLOAT)
        case .float64: Int32(SF_FORMAT_DOUBLE)
        case .flac(let bits): bits == 24 ? Int32(SF_FORMAT_PCM_24) : bits == 16 ? Int32(SF_FORMAT_PCM_16) : -1
        case .vorbis: Int32(SF_FORMAT_VORBIS)
        }
    }

    /// Whether samples travel through libsndfile as integers (exact for PCM and FLAC).
    var isInteger: Bool {
        switch self {
        case .int16, .int24, .int32, .flac: true
        case .float32, .float64, .vorbis: false
        }
    }

    /// Bits per sample for integer encodings, 0 otherwise.
    public var integerBits: Int {
        switch self {
        case .int16: 16
        case .int24: 24
        case .int32: 32
        case .flac(let bits): bits
        default: 0
        }
    }

    init?(sndfileFormat: Int32) {
        let subtype = sndfileFormat & Int32(SF_FORMAT_SUBMASK)
        let isFLAC = sndfileFormat & Int32(SF_FORMAT_TYPEMASK) == Int32(SF_FORMAT_FLAC)
        switch subtype {
        case Int32(SF_FORMAT_PCM_16): self = isFLAC ? .flac(bitDepth: 16) : .int16
        case Int32(SF_FORMAT_PCM_24): self = isFLAC ? .flac(bitDepth: 24) : .int24
        case Int32(SF_FORMAT_PCM_32): self = .int32
        case Int32(SF_FORMAT_FLOAT): self = .float32
        case Int32(SF_FORMAT_DOUBLE): self = .float64
        case Int32(SF_FORMAT_VORBIS): self = .vorbis(quality: 0.5)  // the file does not record it
        default: return nil
        }
    }
}

/// The file's data format, an ASBD-like description: rate, channels, encoding.
public struct AudioFileDataFormat: Equatable, Sendable {
    public var sampleRate: Double
    public var channelCount: Int
    /// Nil when reading a file whose encoding AudioFiles has no name for (8-bit, ADPCM, A-law...);
    /// it is still readable as Float32.
    public var encoding: AudioFileEncoding?

    /// A description given directly. Thread: any.
    public init(sampleRate: Double, channelCount: Int, encoding: AudioFileEncoding?) {
        self.sampleRate = sampleRate
        self.channelCount = channelCount
        self.encoding = encoding
    }
}

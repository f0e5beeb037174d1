import AudioFiles
import AudioTypes

// The mapping between AudioFiles' description of a file (type, encoding) and the documented
// identities of Extended Audio File Services (AudioFileTypeID, AudioStreamBasicDescription).

/// 'flac' and 'vorb': the documented format IDs of the two codecs (CoreAudioBaseTypes.h).
let kAudioFormatFLACID: AudioFormatID = 0x666C_6163
let kAudioFormatVorbisID: AudioFormatID = 0x766F_7262

extension AudioFileType {
    /// The container for a documented AudioFileTypeID, or nil when libsndfile cannot write it.
    ///
    /// Thread: any.
    public init?(fileTypeID: AudioFileTypeID) {
        switch fileTypeID {
        case kAudioFileWAVEType, kAudioFileRF64Type: self = .wave
        case kAudioFileAIFFType, kAudioFileAIFCType: self = .aiff
        case kAudioFileCAFType: self = .caf
        case kAudioFileFLACType: self = .flac
        case kAudioFileOggType: self = .ogg
        default: return nil
        }
    }

    /// The documented AudioFileTypeID of this container.
    ///
    /// Thread: any.
    public var fileTypeID: AudioFileTypeID {
        switch self {
        case .wave: kAudioFileWAVEType
        case .aiff: kAudioFileAIFFType
        case .caf: kAudioFileCAFType
        case .flac: kAudioFileFLACType
        case .ogg: kAudioFileOggType
        }
    }
}

extension AudioFileDataFormat {
    /// The file data format as an ASBD: packed interleaved PCM (big-endian in AIFF, as the
    /// container stores it), or the codec's format ID with the bit depth of its source.
    ///
    /// Thread: any.
    public func streamDescription(type: AudioFileType?) -> AudioStreamBasicDescription {
        let channels = UInt32(channelCount)
        func pcm(_ bytes: UInt32, float: Bool) -> AudioStreamBasicDescription {
            var flags: AudioFormatFlags = kAudioFormatFlagIsPacked | (float ? kAudioFormatFlagIsFloat : kAudioFormatFlagIsSignedInteger)
            if type == .aiff { flags |= kAudioFormatFlagIsBigEndian }
            return AudioStreamBasicDescription(
                mSampleRate: sampleRate, mFormatID: kAudioFormatLinearPCM, mFormatFlags: flags,
                mBytesPerPacket: bytes * channels, mFramesPerPacket: 1, mBytesPerFrame: bytes * channels,
                mChannelsPerFrame: channels, mBitsPerChannel: bytes * 8, mReserved: 0)
        }
        switch encoding {
        case .int16: return pcm(2, float: false)
        case .int24: return pcm(3, float: false)
        case .int32: return pcm(4, float: false)
        case .float32, nil: return pcm(4, float: true)
        case .float64: return pcm(8, float: true)
        case .flac(let bits):
            return AudioStreamBasicDescription(
                mSampleRate: sampleRate, mFormatID: kAudioFormatFLACID, mFormatFlags: bits == 24 ? 3 : 1,
                mBytesPerPacket: 0, mFramesPerPacket: 0, mBytesPerFrame: 0,
                mChannelsPerFrame: channels, mBitsPerChannel: UInt32(bits), mReserved: 0)
        case .vorbis:
            return AudioStreamBasicDescription(
                mSampleRate: sampleRate, mFormatID: kAudioFormatVorbisID, mFormatFlags: 0,
                mBytesPerPacket: 0, mFramesPerPacket: 0, mBytesPerFrame: 0,
                mChannelsPerFrame: channels, mBitsPerChannel: 0, mReserved: 0)
        }
    }

    /// The data format an ASBD asks a new file to hold. Throws kExtAudioFileError_InvalidDataFormat
    /// (naming `path`) for layouts no file here can hold.
    ///
    /// Thread: any.
    public init(_ d: AudioStreamBasicDescription, path: String) throws {
        let encoding: AudioFileEncoding
        let isFloat = d.mFormatFlags & kAudioFormatFlagIsFloat != 0
        switch (d.mFormatID, isFloat, d.mBitsPerChannel) {
        case (kAudioFormatLinearPCM, true, 32): encoding = .float32
        case (kAudioFormatLinearPCM, true, 64): encoding = .float64
        case (kAudioFormatLinearPCM, false, 16): encoding = .int16
        case (kAudioFormatLinearPCM, false, 24): encoding = .int24
        case (kAudioFormatLinearPCM, false, 32): encoding = .int32
        case (kAudioFormatFLACID, _, let bits): encoding = .flac(bitDepth: bits == 24 || d.mFormatFlags == 3 ? 24 : 16)
        case (kAudioFormatVorbisID, _, _): encoding = .vorbis(quality: 0.5)
        default:
            throw AudioError(
                kExtAudioFileError_InvalidDataFormat,
                "Cannot create \(path) holding \(d): files hold 16/24/32-bit integer or 32/64-bit float PCM, FLAC or Vorbis.")
        }
        guard d.mChannelsPerFrame >= 1, d.mSampleRate > 0 else {
            throw AudioError(
                kExtAudioFileError_InvalidDataFormat,
                "Cannot create \(path) with \(d.mChannelsPerFrame) channels at \(d.mSampleRate) Hz.")
        }
        self.init(sampleRate: d.mSampleRate, channelCount: Int(d.mChannelsPerFrame), encoding: encoding)
    }
}

extension AudioError {
    /// The same failure as an AudioError (status and the sentence naming the path).
    ///
    /// Thread: any.
    public init(_ error: AudioFileError) {
        self.init(error.status, error.message)
    }
}

/// Runs a file operation, turning AudioFileError into AudioError (which the C API reports).
func rethrowingAudioError<T>(_ body: () throws -> T) throws -> T {
    do { return try body() } catch let error as AudioFileError { throw AudioError(error) }
}

import AudioToolbox

/// A linear-PCM sample layout the format converter reads and writes, from or to an
/// AudioStreamBasicDescription.
///
/// Scaling to and from Float32 (full scale ±1.0): integers of n bits divide by 2^(n−1)
/// (int16 by 32768, int24 by 8388608, int32 by 2147483648), so −1.0 is the most negative
/// integer and values round to nearest on the way back, clamped to the integer range; 8.24 fixed
/// point divides by 2^24 (range −128 … 128); floats are copied (float64 rounds to Float32).
public struct SampleFormat: Equatable, Sendable {
    /// How one sample is stored.
    public enum Encoding: Equatable, Sendable {
        case int16
        /// 24-bit integer in 3 bytes.
        case int24Packed
        /// 24-bit integer in 4 bytes: in the high 3 bytes (`alignedHigh`, low byte 0) or the low 3
        /// (sign-extended into the top byte).
        case int24In32(alignedHigh: Bool)
        case int32
        case float32
        case float64
        /// 8.24 signed fixed point in 4 bytes (`kAudioFormatFlagsAudioUnitFixed824`).
        case fixed8_24

        /// Bytes one sample occupies.
        public var bytesPerSample: Int {
            switch self {
            case .int16: 2
            case .int24Packed: 3
            case .int24In32, .int32, .float32, .fixed8_24: 4
            case .float64: 8
            }
        }
    }

    public var encoding: Encoding
    public var channelCount: Int
    /// One buffer holding all channels frame by frame (true) or one buffer per channel (false).
    public var isInterleaved: Bool
    public var isBigEndian: Bool

    /// A layout given directly. Thread: any.
    public init(encoding: Encoding, channelCount: Int, isInterleaved: Bool, isBigEndian: Bool = false) {
        self.encoding = encoding
        self.channelCount = channelCount
        self.isInterleaved = isInterleaved
        self.isBigEndian = isBigEndian
    }

    /// The layout an ASBD describes. Throws `kAudioUnitErr_FormatNotSupported` for anything but
    /// linear PCM in the encodings above (e.g. 8-bit, unsigned, compressed, a fraction other
    /// than 0 or 24 bits) and `kAudio_ParamError` for 0 or more than 256 channels or byte
    /// counts that contradict the bit depth. Thread: any.
    public init(_ description: AudioStreamBasicDescription) throws {
        let flags = description.mFormatFlags
        let channels = Int(description.mChannelsPerFrame)
        guard description.mFormatID == kAudioFormatLinearPCM else {
            throw DSPKernelError.format(
                "Only linear PCM can be converted sample by sample; this format is '\(Self.fourCC(description.mFormatID))'.")
        }
        guard (1...256).contains(channels) else {
            throw DSPKernelError.parameter("A stream format needs 1…256 channels, not \(channels).")
        }
        let nonInterleaved = flags & kAudioFormatFlagIsNonInterleaved != 0
        let isFloat = flags & kAudioFormatFlagIsFloat != 0
        let isSigned = flags & kAudioFormatFlagIsSignedInteger != 0
        let fraction = (flags & kLinearPCMFormatFlagsSampleFractionMask) >> kLinearPCMFormatFlagsSampleFractionShift
        let bits = Int(description.mBitsPerChannel)
        let bytesPerFrame = Int(description.mBytesPerFrame)
        let sampleBytes = nonInterleaved ? bytesPerFrame : (channels > 0 ? bytesPerFrame / channels : 0)
        let encoding: Encoding
        switch (isFloat, isSigned, bits, sampleBytes, fraction) {
        case (true, _, 32, 4, 0): encoding = .float32
        case (true, _, 64, 8, 0): encoding = .float64
        case (false, true, 16, 2, 0): encoding = .int16
        case (false, true, 24, 3, 0): encoding = .int24Packed
        case (false, true, 24, 4, 0): encoding = .int24In32(alignedHigh: flags & kAudioFormatFlagIsAlignedHigh != 0)
        case (false, true, 32, 4, 0): encoding = .int32
        case (false, true, 32, 4, 24): encoding = .fixed8_24
        default:
            throw DSPKernelError.format(
                "Unsupported PCM layout: \(bits) bits in \(sampleBytes) bytes per sample, \(isFloat ? "float" : isSigned ? "signed integer" : "unsigned integer"), \(fraction) fraction bits. Use 16/24/32-bit signed integers, 8.24 fixed point or 32/64-bit floats."
            )
        }
        if !nonInterleaved && bytesPerFrame != sampleBytes * channels {
            throw DSPKernelError.parameter("mBytesPerFrame \(bytesPerFrame) is not a whole number of \(channels) samples.")
        }
        self.init(
            encoding: encoding, channelCount: channels, isInterleaved: !nonInterleaved,
            isBigEndian: flags & kAudioFormatFlagIsBigEndian != 0)
    }

    /// The ASBD for this layout at `sampleRate` (packed; one frame per packet). Thread: any.
    public func streamDescription(sampleRate: Double) -> AudioStreamBasicDescription {
        var flags: AudioFormatFlags = kAudioFormatFlagIsPacked
        var bits = UInt32(encoding.bytesPerSample * 8)
        switch encoding {
        case .float32, .float64: flags |= kAudioFormatFlagIsFloat
        case .int16, .int32: flags |= kAudioFormatFlagIsSignedInteger
        case .int24Packed: flags |= kAudioFormatFlagIsSignedInteger
        case .int24In32(let high):
            flags = kAudioFormatFlagIsSignedInteger | (high ? kAudioFormatFlagIsAlignedHigh : 0)
            bits = 24
        case .fixed8_24: flags |= kAudioFormatFlagIsSignedInteger | (24 << kLinearPCMFormatFlagsSampleFractionShift)
        }
        if isBigEndian { flags |= kAudioFormatFlagIsBigEndian }
        if !isInterleaved { flags |= kAudioFormatFlagIsNonInterleaved }
        let frameBytes = UInt32(encoding.bytesPerSample * (isInterleaved ? channelCount : 1))
        return AudioStreamBasicDescription(
            mSampleRate: sampleRate, mFormatID: kAudioFormatLinearPCM, mFormatFlags: flags,
            mBytesPerPacket: frameBytes, mFramesPerPacket: 1, mBytesPerFrame: frameBytes,
            mChannelsPerFrame: UInt32(channelCount), mBitsPerChannel: bits, mReserved: 0)
    }

    /// Buffers of this layout: 1 when interleaved, one per channel otherwise.
    public var bufferCount: Int { isInterleaved ? 1 : channelCount }

    static func fourCC(_ code: UInt32) -> String {
        String(decoding: withUnsafeBytes(of: code.bigEndian, Array.init), as: UTF8.self)
    }
}

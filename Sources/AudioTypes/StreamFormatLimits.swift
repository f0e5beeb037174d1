import AudioToolbox

/// The bounds every stream format is checked against where it enters AUHost (AudioUnitSetProperty
/// of StreamFormat or SampleRate, for every unit): one place, so that no unit or DSP kernel ever
/// sees a rate or size nobody could mean. Allocations sized by a format (delay lines, resampler
/// buffers, bus buffers) are bounded through these numbers.
public enum StreamFormatLimits {
    /// 1 Hz … 1 536 000 Hz (kAUHostMinimumSampleRate…kAUHostMaximumSampleRate in
    /// AudioUnitProperties.h, the one definition): every real device and file rate (8 kHz telephony to 768 kHz DACs and
    /// 1 536 kHz DXD/DSD-as-PCM) with headroom; a rate outside is refused with
    /// kAudioUnitErr_FormatNotSupported (StreamFormat) or kAudioUnitErr_InvalidPropertyValue
    /// (SampleRate).
    public static let sampleRates: ClosedRange<Double> = kAUHostMinimumSampleRate...kAUHostMaximumSampleRate
    /// Channels per frame: 1 … 1024.
    public static let maximumChannels: UInt32 = 1024
    /// Bits per channel of linear PCM: 1 … 64 (a sample takes at most 8 bytes).
    public static let maximumBitsPerChannel: UInt32 = 64
}

extension AudioStreamBasicDescription {
    /// Why this format cannot cross the API boundary, as a sentence, or nil when it can: linear
    /// PCM, one frame per packet, a rate inside ``StreamFormatLimits/sampleRates``, 1…1024
    /// channels, 1…64 bits, and byte counts that agree with them (a packet is a frame; a frame
    /// holds every channel of its buffer and at most 8 bytes per sample of it).
    ///
    /// Thread: any.
    public var boundaryProblem: String? {
        if let problem = Self.sampleRateProblem(mSampleRate) { return problem }
        guard mFormatID == kAudioFormatLinearPCM else {
            return "Format \(FourCC.string(mFormatID)) is not linear PCM; audio units take linear PCM only."
        }
        let limits = StreamFormatLimits.self
        guard mChannelsPerFrame >= 1, mChannelsPerFrame <= limits.maximumChannels else {
            return "\(mChannelsPerFrame) channels is outside 1…\(limits.maximumChannels)."
        }
        guard mBitsPerChannel >= 1, mBitsPerChannel <= limits.maximumBitsPerChannel else {
            return "\(mBitsPerChannel) bits per channel is outside 1…\(limits.maximumBitsPerChannel)."
        }
        guard mFramesPerPacket == 1 else { return "Linear PCM has 1 frame per packet, not \(mFramesPerPacket)." }
        guard mBytesPerPacket == mBytesPerFrame else {
            return "Bytes per packet (\(mBytesPerPacket)) must equal bytes per frame (\(mBytesPerFrame)) for linear PCM."
        }
        let sampleBytes = (mBitsPerChannel + 7) / 8
        let minimum = sampleBytes * channelsPerBuffer, maximum = 8 * channelsPerBuffer
        guard mBytesPerFrame >= minimum, mBytesPerFrame <= maximum else {
            return
                "\(mBytesPerFrame) bytes per frame does not fit \(channelsPerBuffer) channel(s) per buffer of \(mBitsPerChannel)-bit samples (\(minimum)…\(maximum) bytes)."
        }
        return nil
    }

    /// Why `rate` is not a sample rate AUHost takes, or nil.
    ///
    /// Thread: any.
    public static func sampleRateProblem(_ rate: Double) -> String? {
        let range = StreamFormatLimits.sampleRates
        guard rate.isFinite, range.contains(rate) else {
            return "Sample rate \(rate) Hz is outside \(String(format0: range.lowerBound))…\(String(format0: range.upperBound)) Hz."
        }
        return nil
    }
}

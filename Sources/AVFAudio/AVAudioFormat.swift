import AudioTypes
import AudioToolbox
import Foundation

/// An audio format (Apple's AVAudioFormat): an AudioStreamBasicDescription, with the common
/// formats named and an optional channel layout. The standard format is 32-bit float,
/// deinterleaved, at any rate. Compressed formats (MP3, FLAC, Opus, Vorbis … any format ID) are
/// `.otherFormat` and may carry the codec's magic cookie.
///
/// Thread: any (immutable, but for ``magicCookie``: set it before sharing the format).
public final class AVAudioFormat: Equatable, Hashable, CustomStringConvertible {
    private let description_: UnsafeMutablePointer<AudioStreamBasicDescription>
    public let channelLayout: AVAudioChannelLayout?

    /// The codec's magic cookie (a decoder's setup data: FLAC's STREAMINFO, the OpusHead packet,
    /// Vorbis's header packets), as AudioFileStream's kAudioFileStreamProperty_MagicCookieData
    /// gives it; nil for PCM and for formats without one. An ``AVAudioConverter`` made from this
    /// format hands it to its decoder. Not part of `==`.
    ///
    /// Thread: setup (set it before handing the format to a converter or another thread).
    public var magicCookie: Data?

    /// A format from a stream description, linear PCM or compressed (nil when it describes no
    /// channels or no rate).
    ///
    /// Thread: any.
    public init?(streamDescription asbd: UnsafePointer<AudioStreamBasicDescription>) {
        guard asbd.pointee.mChannelsPerFrame > 0, asbd.pointee.mSampleRate > 0 else { return nil }
        description_ = .allocate(capacity: 1)
        description_.initialize(to: asbd.pointee)
        channelLayout = nil
    }

    /// Thread: any.
    public init?(streamDescription asbd: UnsafePointer<AudioStreamBasicDescription>, channelLayout: AVAudioChannelLayout?) {
        guard asbd.pointee.mChannelsPerFrame > 0, asbd.pointee.mSampleRate > 0 else { return nil }
        if let channelLayout, channelLayout.channelCount != asbd.pointee.mChannelsPerFrame { return nil }
        description_ = .allocate(capacity: 1)
        description_.initialize(to: asbd.pointee)
        self.channelLayout = channelLayout
    }

    /// A PCM format of a common sample type (nil for `.otherFormat`, no channels or no rate).
    ///
    /// Thread: any.
    public convenience init?(
        commonFormat format: AVAudioCommonFormat, sampleRate: Double, channels: AVAudioChannelCount, interleaved: Bool
    ) {
        guard let asbd = AVAudioFormat.pcm(format, sampleRate: sampleRate, channels: channels, interleaved: interleaved) else {
            return nil
        }
        var d = asbd
        self.init(streamDescription: &d)
    }

    /// Thread: any.
    public convenience init(
        commonFormat format: AVAudioCommonFormat, sampleRate: Double, interleaved: Bool, channelLayout layout: AVAudioChannelLayout
    ) {
        var d = AVAudioFormat.pcm(format, sampleRate: sampleRate, channels: layout.channelCount, interleaved: interleaved)!
        self.init(streamDescription: &d, channelLayout: layout)!
    }

    /// 32-bit float, deinterleaved (nil without channels or rate).
    ///
    /// Thread: any.
    public convenience init?(standardFormatWithSampleRate sampleRate: Double, channels: AVAudioChannelCount) {
        self.init(commonFormat: .pcmFormatFloat32, sampleRate: sampleRate, channels: channels, interleaved: false)
    }

    /// Thread: any.
    public convenience init(standardFormatWithSampleRate sampleRate: Double, channelLayout layout: AVAudioChannelLayout) {
        self.init(commonFormat: .pcmFormatFloat32, sampleRate: sampleRate, interleaved: false, channelLayout: layout)
    }

    /// A format from a settings dictionary: linear PCM (AVFormatIDKey absent or
    /// kAudioFormatLinearPCM, AVSampleRateKey, AVNumberOfChannelsKey, AVLinearPCMBitDepthKey,
    /// AVLinearPCMIsFloatKey, AVLinearPCMIsBigEndianKey, AVLinearPCMIsNonInterleaved), or one of
    /// the formats Audio Converter Services decodes (AVFormatIDKey kAudioFormatMPEGLayer3,
    /// kAudioFormatFLAC with an optional AVEncoderBitDepthHintKey, kAudioFormatOpus at 48 kHz,
    /// kAudioFormatVorbis) with AVSampleRateKey and AVNumberOfChannelsKey; nil otherwise.
    ///
    /// Thread: any.
    public convenience init?(settings: [String: Any]) {
        guard var d = AVAudioFormat.streamDescription(settings: settings) ?? AVAudioFormat.compressedDescription(settings: settings)
        else { return nil }
        self.init(streamDescription: &d)
    }

    deinit { description_.deallocate() }

    static func pcm(_ format: AVAudioCommonFormat, sampleRate: Double, channels: AVAudioChannelCount, interleaved: Bool)
        -> AudioStreamBasicDescription?
    {
        let bytes: UInt32
        var flags: AudioFormatFlags = kAudioFormatFlagsNativeEndian | kAudioFormatFlagIsPacked
        switch format {
        case .pcmFormatFloat32: (bytes, flags) = (4, flags | kAudioFormatFlagIsFloat)
        case .pcmFormatFloat64: (bytes, flags) = (8, flags | kAudioFormatFlagIsFloat)
        case .pcmFormatInt16: (bytes, flags) = (2, flags | kAudioFormatFlagIsSignedInteger)
        case .pcmFormatInt32: (bytes, flags) = (4, flags | kAudioFormatFlagIsSignedInteger)
        case .otherFormat: return nil
        }
        // Past the engine's channel bound a frame's byte count could overflow.
        guard channels > 0, channels <= StreamFormatLimits.maximumChannels, sampleRate > 0, sampleRate.isFinite else { return nil }
        if !interleaved || channels == 1 { flags |= interleaved ? 0 : kAudioFormatFlagIsNonInterleaved }
        let frameBytes = interleaved ? bytes * channels : bytes
        return AudioStreamBasicDescription(
            mSampleRate: sampleRate, mFormatID: kAudioFormatLinearPCM, mFormatFlags: flags, mBytesPerPacket: frameBytes,
            mFramesPerPacket: 1, mBytesPerFrame: frameBytes, mChannelsPerFrame: channels, mBitsPerChannel: bytes * 8, mReserved: 0)
    }

    /// A settings value as a number (Double, Float, Int, UInt32 or NSNumber).
    static func number(_ settings: [String: Any], _ key: String) -> Double? {
        switch settings[key] {
        case let v as Double: return v
        case let v as Float: return Double(v)
        case let v as Int: return Double(v)
        case let v as UInt32: return Double(v)
        case let v as NSNumber: return v.doubleValue
        default: return nil
        }
    }

    /// The linear PCM stream description the settings give (nil for any other format ID).
    static func streamDescription(settings: [String: Any]) -> AudioStreamBasicDescription? {
        func number(_ key: String) -> Double? { AVAudioFormat.number(settings, key) }
        func flag(_ key: String) -> Bool? {
            if let b = settings[key] as? Bool { return b }
            return number(key).map { $0 != 0 }
        }
        let formatID = number(AVFormatIDKey).map { AudioFormatID(exactly: $0) ?? 0 } ?? kAudioFormatLinearPCM
        // A caller's numbers are converted only when exact and in range: UInt32(_:) traps otherwise.
        guard formatID == kAudioFormatLinearPCM, let rate = number(AVSampleRateKey), rate.isFinite, rate > 0,
            let c = number(AVNumberOfChannelsKey).flatMap({ UInt32(exactly: $0) }), c >= 1, c <= StreamFormatLimits.maximumChannels
        else { return nil }
        let isFloat = flag(AVLinearPCMIsFloatKey) ?? false
        guard let bits = UInt32(exactly: number(AVLinearPCMBitDepthKey) ?? (isFloat ? 32 : 16)),
            isFloat ? (bits == 32 || bits == 64) : [8, 16, 24, 32].contains(bits)
        else { return nil }
        let nonInterleaved = flag(AVLinearPCMIsNonInterleaved) ?? false
        var flags: AudioFormatFlags = kAudioFormatFlagIsPacked | (isFloat ? kAudioFormatFlagIsFloat : kAudioFormatFlagIsSignedInteger)
        if flag(AVLinearPCMIsBigEndianKey) ?? false { flags |= kAudioFormatFlagIsBigEndian }
        if nonInterleaved { flags |= kAudioFormatFlagIsNonInterleaved }
        let frameBytes = nonInterleaved ? bits / 8 : bits / 8 * c
        return AudioStreamBasicDescription(
            mSampleRate: rate, mFormatID: kAudioFormatLinearPCM, mFormatFlags: flags, mBytesPerPacket: frameBytes,
            mFramesPerPacket: 1, mBytesPerFrame: frameBytes, mChannelsPerFrame: c, mBitsPerChannel: bits, mReserved: 0)
    }

    /// The compressed stream description the settings give, filled in as
    /// kAudioFormatProperty_FormatInfo fills one without a cookie: no bytes per packet or frame,
    /// MP3's 1152 frames a packet (576 below 32 kHz), FLAC's 4096 (its bit depth in the flags from
    /// AVEncoderBitDepthHintKey), Opus's 960 (48 kHz only), Vorbis's variable packets (0).
    static func compressedDescription(settings: [String: Any]) -> AudioStreamBasicDescription? {
        guard let id = number(settings, AVFormatIDKey).flatMap({ AudioFormatID(exactly: $0) }),
            let rate = number(settings, AVSampleRateKey),
            let channels = number(settings, AVNumberOfChannelsKey), rate.isFinite, rate > 0, rate <= 1_536_000, channels >= 1,
            channels <= 255
        else { return nil }
        var d = AudioStreamBasicDescription(
            mSampleRate: rate, mFormatID: id, mFormatFlags: 0, mBytesPerPacket: 0, mFramesPerPacket: 0,
            mBytesPerFrame: 0, mChannelsPerFrame: UInt32(channels), mBitsPerChannel: 0, mReserved: 0)
        switch d.mFormatID {
        case kAudioFormatMPEGLayer3:
            guard channels <= 2 else { return nil }
            d.mFramesPerPacket = rate < 32_000 ? 576 : 1_152
        case kAudioFormatFLAC:
            guard channels <= 8 else { return nil }
            d.mFramesPerPacket = 4_096
            if let bits = number(settings, AVEncoderBitDepthHintKey) {
                let flags: [Double: AudioFormatFlags] = [
                    16: kAppleLosslessFormatFlag_16BitSourceData, 20: kAppleLosslessFormatFlag_20BitSourceData,
                    24: kAppleLosslessFormatFlag_24BitSourceData, 32: kAppleLosslessFormatFlag_32BitSourceData,
                ]
                guard let flag = flags[bits] else { return nil }
                d.mFormatFlags = flag
            }
        case kAudioFormatOpus:
            guard rate == 48_000 else { return nil }
            d.mFramesPerPacket = 960
        case kAudioFormatVorbis: break
        default: return nil
        }
        return d
    }

    /// Thread: any.
    public var streamDescription: UnsafePointer<AudioStreamBasicDescription> { UnsafePointer(description_) }
    /// Thread: any.
    public var sampleRate: Double { description_.pointee.mSampleRate }
    /// Thread: any.
    public var channelCount: AVAudioChannelCount { description_.pointee.mChannelsPerFrame }
    /// Thread: any.
    public var isInterleaved: Bool {
        description_.pointee.mChannelsPerFrame > 1 && description_.pointee.mFormatFlags & kAudioFormatFlagIsNonInterleaved == 0
    }

    /// Thread: any.
    public var commonFormat: AVAudioCommonFormat {
        let d = description_.pointee
        guard d.mFormatID == kAudioFormatLinearPCM, d.mFormatFlags & kAudioFormatFlagIsBigEndian == 0 else { return .otherFormat }
        let isFloat = d.mFormatFlags & kAudioFormatFlagIsFloat != 0
        switch (isFloat, d.mBitsPerChannel) {
        case (true, 32): return .pcmFormatFloat32
        case (true, 64): return .pcmFormatFloat64
        case (false, 16) where d.mFormatFlags & kAudioFormatFlagIsSignedInteger != 0: return .pcmFormatInt16
        case (false, 32) where d.mFormatFlags & kAudioFormatFlagIsSignedInteger != 0: return .pcmFormatInt32
        default: return .otherFormat
        }
    }

    /// Whether this is the standard format (32-bit float, deinterleaved).
    ///
    /// Thread: any.
    public var isStandard: Bool { commonFormat == .pcmFormatFloat32 && !isInterleaved }

    /// The format as a settings dictionary: for a compressed format its ID, rate and channel count
    /// (and FLAC's AVEncoderBitDepthHintKey when the flags give a bit depth).
    ///
    /// Thread: any.
    public var settings: [String: Any] {
        let d = description_.pointee
        guard d.mFormatID == kAudioFormatLinearPCM else {
            var settings: [String: Any] = [
                AVFormatIDKey: Int(d.mFormatID), AVSampleRateKey: d.mSampleRate, AVNumberOfChannelsKey: Int(d.mChannelsPerFrame),
            ]
            let depths: [AudioFormatFlags: Int] = [1: 16, 2: 20, 3: 24, 4: 32]
            if d.mFormatID == kAudioFormatFLAC, let bits = depths[d.mFormatFlags] { settings[AVEncoderBitDepthHintKey] = bits }
            return settings
        }
        return [
            AVFormatIDKey: Int(d.mFormatID), AVSampleRateKey: d.mSampleRate, AVNumberOfChannelsKey: Int(d.mChannelsPerFrame),
            AVLinearPCMBitDepthKey: Int(d.mBitsPerChannel), AVLinearPCMIsFloatKey: d.mFormatFlags & kAudioFormatFlagIsFloat != 0,
            AVLinearPCMIsBigEndianKey: d.mFormatFlags & kAudioFormatFlagIsBigEndian != 0,
            AVLinearPCMIsNonInterleaved: d.mFormatFlags & kAudioFormatFlagIsNonInterleaved != 0,
        ]
    }

    /// Thread: any.
    public static func == (a: AVAudioFormat, b: AVAudioFormat) -> Bool {
        let x = a.description_.pointee, y = b.description_.pointee
        return x.mSampleRate == y.mSampleRate && x.mFormatID == y.mFormatID && x.mChannelsPerFrame == y.mChannelsPerFrame
            && x.mBitsPerChannel == y.mBitsPerChannel && x.mBytesPerFrame == y.mBytesPerFrame
            && (x.mFormatID == kAudioFormatLinearPCM
                || (x.mFramesPerPacket == y.mFramesPerPacket && x.mBytesPerPacket == y.mBytesPerPacket))
            && a.isInterleaved == b.isInterleaved
            && (x.mFormatFlags & ~kAudioFormatFlagIsNonInterleaved) == (y.mFormatFlags & ~kAudioFormatFlagIsNonInterleaved)
            && a.channelLayout == b.channelLayout
    }

    /// Thread: any.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(sampleRate)
        hasher.combine(channelCount)
        hasher.combine(commonFormat)
    }

    /// Thread: any.
    public var description: String {
        let kind: String
        switch commonFormat {
        case .pcmFormatFloat32: kind = "Float32"
        case .pcmFormatFloat64: kind = "Float64"
        case .pcmFormatInt16: kind = "Int16"
        case .pcmFormatInt32: kind = "Int32"
        case .otherFormat:
            let id = description_.pointee.mFormatID
            let code = String(decoding: (0..<4).map { UInt8(truncatingIfNeeded: id >> (24 - 8 * $0)) }, as: UTF8.self)
            kind = id == kAudioFormatLinearPCM ? "other PCM" : "'\(code)'"
        }
        let layout = description_.pointee.mFormatID != kAudioFormatLinearPCM ? "" : isInterleaved ? ", interleaved" : ", deinterleaved"
        return "<AVAudioFormat: \(channelCount) ch, \(sampleRate) Hz, \(kind)\(layout)>"
    }
}

import AudioToolbox

extension AudioStreamBasicDescription {
    /// The canonical format every AUHost unit renders in: Float32, native endian, packed,
    /// non-interleaved (one buffer per channel).
    ///
    /// Thread: any.
    public static func canonical(sampleRate: Double, channels: UInt32) -> AudioStreamBasicDescription {
        AudioStreamBasicDescription(
            mSampleRate: sampleRate, mFormatID: kAudioFormatLinearPCM,
            mFormatFlags: kAudioFormatFlagsAudioUnitCanonical,
            mBytesPerPacket: 4, mFramesPerPacket: 1, mBytesPerFrame: 4,
            mChannelsPerFrame: channels, mBitsPerChannel: 32, mReserved: 0)
    }

    /// Linear PCM with the given sample type, interleaved or not.
    ///
    /// Thread: any.
    public static func linearPCM(
        sampleRate: Double, channels: UInt32, bitsPerChannel: UInt32,
        isFloat: Bool, interleaved: Bool,
        bigEndian: Bool = false
    ) -> AudioStreamBasicDescription {
        var flags: AudioFormatFlags = kAudioFormatFlagIsPacked
        flags |= isFloat ? kAudioFormatFlagIsFloat : kAudioFormatFlagIsSignedInteger
        if !interleaved { flags |= kAudioFormatFlagIsNonInterleaved }
        if bigEndian { flags |= kAudioFormatFlagIsBigEndian }
        let sampleBytes = (bitsPerChannel + 7) / 8
        let frameBytes = interleaved ? sampleBytes * channels : sampleBytes
        return AudioStreamBasicDescription(
            mSampleRate: sampleRate, mFormatID: kAudioFormatLinearPCM, mFormatFlags: flags,
            mBytesPerPacket: frameBytes, mFramesPerPacket: 1, mBytesPerFrame: frameBytes,
            mChannelsPerFrame: channels, mBitsPerChannel: bitsPerChannel, mReserved: 0)
    }

    /// Whether each channel has its own buffer.
    public var isNonInterleaved: Bool { mFormatFlags & kAudioFormatFlagIsNonInterleaved != 0 }

    /// Whether this is the canonical Float32 non-interleaved linear PCM (any rate and channel count).
    public var isCanonical: Bool {
        mFormatID == kAudioFormatLinearPCM && mFormatFlags & kAudioFormatFlagIsFloat != 0
            && mFormatFlags & kAudioFormatFlagIsBigEndian == 0 && isNonInterleaved
            && mBitsPerChannel == 32 && mBytesPerFrame == 4 && mFramesPerPacket == 1
    }

    /// How many AudioBuffers a buffer list in this format has.
    public var bufferCount: UInt32 { isNonInterleaved ? mChannelsPerFrame : 1 }

    /// Channels per AudioBuffer.
    public var channelsPerBuffer: UInt32 { isNonInterleaved ? 1 : mChannelsPerFrame }

    /// Whether the fields are self-consistent linear PCM (what a unit can check before accepting
    /// it): a positive rate and channel count, and byte counts that agree with the bit depth.
    ///
    /// Thread: any.
    public var isValidLinearPCM: Bool {
        guard mFormatID == kAudioFormatLinearPCM, mSampleRate > 0, mSampleRate.isFinite,
            mChannelsPerFrame > 0, mFramesPerPacket == 1, mBitsPerChannel > 0
        else { return false }
        let sampleBytes = (mBitsPerChannel + 7) / 8
        let minimumFrameBytes = sampleBytes * channelsPerBuffer
        return mBytesPerFrame >= minimumFrameBytes && mBytesPerPacket == mBytesPerFrame
    }

    /// The field dump of listing 2-8 of the hosting guide ("printASBD"), one field a line.
    ///
    /// Thread: setup.
    public var fieldDump: String {
        func row(_ label: String, _ value: String) -> String {
            label.padding(toLength: 21, withPad: " ", startingAt: 0)
                + String(repeating: " ", count: max(0, 10 - value.count)) + value
        }
        return [
            row("  Sample Rate:", String(format0: mSampleRate)),
            row("  Format ID:", FourCC.string(mFormatID)),
            row("  Format Flags:", String(mFormatFlags, radix: 16, uppercase: true)),
            row("  Bytes per Packet:", String(mBytesPerPacket)),
            row("  Frames per Packet:", String(mFramesPerPacket)),
            row("  Bytes per Frame:", String(mBytesPerFrame)),
            row("  Channels per Frame:", String(mChannelsPerFrame)),
            row("  Bits per Channel:", String(mBitsPerChannel)),
        ].joined(separator: "\n")
    }
}

extension String {
    /// "%.0f" without Foundation, for any value: whole numbers below 2^53 print as integers,
    /// larger or non-finite ones in Swift's shortest form ("1e+19", "nan"), so printing a hostile
    /// format never traps.
    ///
    /// Thread: any.
    public init(format0 value: Double) {
        if value.isFinite, abs(value) < 9_007_199_254_740_992 {
            self = String(Int64(value.rounded()))
        } else {
            self = String(value)
        }
    }
}

extension AudioStreamBasicDescription: @retroactive Equatable {
    public static func == (a: Self, b: Self) -> Bool {
        a.mSampleRate == b.mSampleRate && a.mFormatID == b.mFormatID && a.mFormatFlags == b.mFormatFlags
            && a.mBytesPerPacket == b.mBytesPerPacket && a.mFramesPerPacket == b.mFramesPerPacket
            && a.mBytesPerFrame == b.mBytesPerFrame && a.mChannelsPerFrame == b.mChannelsPerFrame
            && a.mBitsPerChannel == b.mBitsPerChannel
    }
}

extension AudioStreamBasicDescription: @retroactive CustomStringConvertible {
    /// One line, in the spirit of CAStreamBasicDescription: "2 ch, 44100 Hz, lpcm (0x29) 32-bit
    /// little-endian float, deinterleaved".
    public var description: String {
        var parts = [
            "\(mChannelsPerFrame) ch", "\(String(format0: mSampleRate)) Hz",
            "\(FourCC.string(mFormatID)) (0x\(String(mFormatFlags, radix: 16)))",
        ]
        if mFormatID == kAudioFormatLinearPCM {
            let fraction = (mFormatFlags & kLinearPCMFormatFlagsSampleFractionMask) >> kLinearPCMFormatFlagsSampleFractionShift
            let kind =
                mFormatFlags & kAudioFormatFlagIsFloat != 0
                ? "float"
                : fraction > 0 ? "\(Int64(mBitsPerChannel) - Int64(fraction)).\(fraction) fixed point" : "signed integer"
            let endian = mFormatFlags & kAudioFormatFlagIsBigEndian != 0 ? "big-endian" : "little-endian"
            parts.append("\(mBitsPerChannel)-bit \(endian) \(kind)")
            parts.append(isNonInterleaved ? "deinterleaved" : "interleaved")
        }
        return parts.joined(separator: ", ")
    }
}

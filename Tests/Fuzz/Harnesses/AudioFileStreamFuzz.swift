import AudioConverterServices
import AudioFileStreamServices
import AudioToolbox
import AudioTypes

/// Audio File Stream Services on mutated and truncated streams, differentially: the input is
/// parsed in one piece and again cut into chunks (sizes drawn from the input's first byte), and
/// both must agree exactly — the same packets, properties and notifications, or the same
/// documented error. Then up to `maximumPackets` packets go through AudioConverter (with the
/// stream's cookie), so the decoders see the same hostile packets a streaming player would.
public enum AudioFileStreamFuzz {
    /// Packets decoded per input at most (decoding is slow next to parsing).
    public static let maximumPackets = 32

    /// The statuses a parse may end with.
    static let documented: Set<OSStatus> = [
        kAudioFileStreamError_UnsupportedFileType, kAudioFileStreamError_UnsupportedDataFormat,
        kAudioFileStreamError_InvalidFile, kAudioFileStreamError_NotOptimized,
    ]

    struct Outcome: Equatable {
        var notifications: [AudioFileStreamPropertyID] = []
        var bytes: [UInt8] = []
        var sizes: [UInt32] = []
        var frames: [UInt32] = []
        var pcmPackets = 0
        var properties = StreamProperties()
        var status: OSStatus = noErr
    }

    /// Thread: any (one call at a time).
    public static func run(_ data: UnsafeRawBufferPointer) {
        let whole = parse(data, cuts: [])
        var seed = UInt64(data.first ?? 0) &* 0x9E37_79B9_7F4A_7C15 | 1
        var cuts: [Int] = []
        var position = 0
        while position < data.count {
            seed ^= seed << 13; seed ^= seed >> 7; seed ^= seed << 17
            position += 1 + Int(seed % UInt64(1 << (seed >> 60 & 15)))  // 1 byte … 32 KiB, small ones often
            cuts.append(min(position, data.count))
        }
        let chunked = parse(data, cuts: cuts)
        precondition(whole == chunked, "chunking changed the result: \(whole.status) vs \(chunked.status)")
        decode(whole)
        parseWithSeeks(data)
    }

    static func parse(_ data: UnsafeRawBufferPointer, cuts: [Int]) -> Outcome {
        let parser = AudioFileStreamParser()
        var outcome = Outcome()
        parser.onProperty = { outcome.notifications.append($0) }
        parser.onPackets = { bytes, count, descriptions in
            outcome.bytes += bytes
            if let descriptions {
                for i in 0..<count {
                    let d = descriptions[i]
                    precondition(
                        d.mStartOffset >= 0 && Int(d.mStartOffset) + Int(d.mDataByteSize) <= bytes.count,
                        "a packet description outside its data")
                    outcome.sizes.append(d.mDataByteSize)
                    outcome.frames.append(d.mVariableFramesInPacket)
                }
            } else {
                outcome.pcmPackets += count
            }
        }
        do {
            var start = 0
            for cut in cuts + [data.count] where cut > start {
                try parser.parse(UnsafeRawBufferPointer(rebasing: data[start..<cut]))
                start = cut
            }
            try parser.parse(UnsafeRawBufferPointer(start: nil, count: 0))
        } catch let error as AudioError {
            precondition(documented.contains(error.status), "undocumented status \(error.status): \(error.message)")
            precondition(!error.message.isEmpty)
            outcome.status = error.status
        } catch {
            preconditionFailure("a non-AudioError: \(error)")
        }
        outcome.properties = parser.properties
        return outcome
    }

    /// Decodes the first packets to interleaved Float32, as a player would.
    static func decode(_ outcome: Outcome) {
        guard let format = outcome.properties.dataFormat, format.mFormatID != kAudioFormatLinearPCM, !outcome.sizes.isEmpty else { return }
        let channels = format.mChannelsPerFrame
        let output = AudioStreamBasicDescription(
            mSampleRate: format.mSampleRate, mFormatID: kAudioFormatLinearPCM, mFormatFlags: kAudioFormatFlagsNativeFloatPacked,
            mBytesPerPacket: 4 * channels, mFramesPerPacket: 1, mBytesPerFrame: 4 * channels, mChannelsPerFrame: channels,
            mBitsPerChannel: 32, mReserved: 0)
        guard let session = try? AudioConverterSession(input: format, output: output) else { return }
        if let cookie = outcome.properties.magicCookie {
            cookie.withUnsafeBytes { bytes in
                _ = try? session.setCookieForFuzzing(bytes)
            }
        }
        let packets = Array(zip(outcome.sizes, outcome.sizes.indices).prefix(maximumPackets))
        var offsets: [Int] = []
        var offset = 0
        for size in outcome.sizes { offsets.append(offset); offset += Int(size) }
        outcome.bytes.withUnsafeBytes { all in
            for (size, index) in packets {
                let packet = UnsafeRawBufferPointer(rebasing: all[offsets[index]..<(offsets[index] + Int(size))])
                if (try? session.decodeForFuzzing(packet)) == nil { return }
            }
        }
    }
}

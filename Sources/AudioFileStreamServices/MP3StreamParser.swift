import AudioTypes
import AudioToolbox

/// An MPEG audio layer III frame header (ISO 11172-3 / 13818-3, and MPEG 2.5).
struct MP3FrameHeader: Equatable {
    /// 1 (MPEG-1), 2 (MPEG-2) or 25 (MPEG-2.5).
    let version: Int
    let sampleRate: Int
    let bitRate: Int
    let channels: Int
    let length: Int

    var framesPerPacket: Int { version == 1 ? 1152 : 576 }

    /// Frames of one stream share version, rate and channel count.
    func continues(_ other: MP3FrameHeader) -> Bool {
        version == other.version && sampleRate == other.sampleRate && channels == other.channels
    }

    /// The largest layer III frame: 320 kbit/s at 32 kHz (MPEG-1) or 160 kbit/s at 8 kHz (MPEG-2.5), padded.
    static let upperBound = 1_441

    init?(_ b: ArraySlice<UInt8>) {
        guard b.count >= 4 else { return nil }
        let b0 = b.u8(0), b1 = b.u8(1), b2 = b.u8(2), b3 = b.u8(3)
        guard b0 == 0xFF, b1 & 0xE0 == 0xE0 else { return nil }
        let versionBits = (b1 >> 3) & 3, layerBits = (b1 >> 1) & 3
        guard versionBits != 1, layerBits == 1 else { return nil }  // reserved version; layer III only
        let bitrateIndex = Int(b2 >> 4), rateIndex = Int((b2 >> 2) & 3)
        guard bitrateIndex != 0, bitrateIndex != 15, rateIndex != 3, b3 & 3 != 2 else { return nil }
        version = versionBits == 3 ? 1 : versionBits == 2 ? 2 : 25
        let rates = [44_100, 48_000, 32_000]
        sampleRate = rates[rateIndex] / (version == 1 ? 1 : version == 2 ? 2 : 4)
        let mpeg1 = [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320]
        let mpeg2 = [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160]
        bitRate = (version == 1 ? mpeg1 : mpeg2)[bitrateIndex] * 1000
        channels = b3 >> 6 == 3 ? 1 : 2
        let padding = Int((b2 >> 1) & 1)
        length = (version == 1 ? 144 : 72) * bitRate / sampleRate + padding
    }
}

/// MP3: ID3v2 tags skipped, then layer III frames, one packet each. The first frame (and the
/// first after lost sync) counts only when the next frame's header follows it and matches, so
/// stray sync bytes in tags or garbage are not taken for audio; later frames need only a header
/// that continues the stream. Every decision waits for the bytes it needs, so the result does
/// not depend on how the stream is cut.
final class MP3StreamParser: ContainerParser {
    var stream: MP3FrameHeader?
    var synced = false
    var skipping: Int64 = 0
    /// Bytes searched for sync without finding a frame (bounded: a stream of garbage is not MP3).
    var searched = 0
    static let maximumSearch = 1 << 20

    func parse(_ queue: inout ByteQueue, _ parser: AudioFileStreamParser) throws {
        while true {
            if skipping > 0 {
                guard MP3StreamParser.skipBytes(&skipping, &queue) else { return }
            }
            guard let head = queue.peek(min(queue.count, 10)), head.count >= 4 else { return }
            if head.matches("ID3") {
                guard head.count == 10 else { return }
                // Syncsafe size (7 bits a byte), plus the header and an optional footer.
                let size =
                    Int64(head.u8(6) & 0x7F) << 21 | Int64(head.u8(7) & 0x7F) << 14 | Int64(head.u8(8) & 0x7F) << 7
                    | Int64(head.u8(9) & 0x7F)
                skipping = size + 10 + (head.u8(5) & 0x10 != 0 ? 10 : 0)
                continue
            }
            if synced, let header = MP3FrameHeader(head), stream.map(header.continues) ?? false {
                guard let frame = queue.peek(header.length) else { return }
                parser.packet(frame)
                queue.consume(header.length)
                continue
            }
            // Search: a header whose frame is followed by a matching header.
            synced = false
            if let header = MP3FrameHeader(head), stream.map(header.continues) ?? true {
                guard let both = queue.peek(header.length + 4) else { return }
                if let next = MP3FrameHeader(both.suffix(4)), next.continues(header) {
                    if stream == nil { try start(header, queue.offset, parser) }
                    synced = true
                    searched = 0
                    continue
                }
            }
            queue.consume(1)
            searched += 1
            if stream == nil && searched > Self.maximumSearch {
                throw invalidFile("No MP3 frame found in the first \(Self.maximumSearch) bytes of the stream.")
            }
        }
    }

    static func skipBytes(_ remaining: inout Int64, _ queue: inout ByteQueue) -> Bool { skip(&remaining, &queue) }

    private func start(_ header: MP3FrameHeader, _ offset: Int64, _ parser: AudioFileStreamParser) throws {
        stream = header
        let format = AudioStreamBasicDescription(
            mSampleRate: Double(header.sampleRate), mFormatID: kAudioFormatMPEGLayer3, mFormatFlags: 0, mBytesPerPacket: 0,
            mFramesPerPacket: UInt32(header.framesPerPacket), mBytesPerFrame: 0, mChannelsPerFrame: UInt32(header.channels),
            mBitsPerChannel: 0, mReserved: 0)
        parser.publish(\.dataFormat, format, kAudioFileStreamProperty_DataFormat)
        parser.publish(\.dataOffset, offset, kAudioFileStreamProperty_DataOffset)
        parser.publish(\.bitRate, UInt32(header.bitRate), kAudioFileStreamProperty_BitRate)
        parser.publish(\.packetSizeUpperBound, UInt32(MP3FrameHeader.upperBound), kAudioFileStreamProperty_PacketSizeUpperBound)
        parser.becomeReady()
    }

    func discontinuity(_ parser: AudioFileStreamParser) {
        synced = false
        skipping = 0
    }

    func seek(toPacket packet: Int64, _ parser: AudioFileStreamParser) throws -> (offset: Int64, estimated: Bool) {
        // Estimated from the bit rate seen so far (or the first frame's).
        let props = parser.properties
        let average =
            props.packetsSeen > 0
            ? Double(props.bytesSeen) / Double(props.packetsSeen)
            : Double(stream.map { $0.length } ?? MP3FrameHeader.upperBound)
        return (try SeekOffset.estimated(packet: packet, averageBytes: average), true)
    }
}

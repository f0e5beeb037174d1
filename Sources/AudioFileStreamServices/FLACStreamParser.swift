import AudioTypes
import AudioToolbox

/// Native FLAC: "fLaC", metadata blocks (STREAMINFO first; the rest skipped unheld), then frames.
/// A frame has no length field: it ends where its CRC-16 closes and either the next frame's
/// header (with a valid CRC-8) begins, or STREAMINFO's sample count says it is the last and the
/// bytes end there or a tag follows, or the stream ends (ParseBytes with 0 bytes).
final class FLACStreamParser: ContainerParser {
    enum State { case magic, blockHeader, streamInfo(Int, last: Bool), skipping(Int64, last: Bool), frames }
    var state = State.magic
    var info: StreamInfo?
    /// The frame being scanned: bytes looked at so far and their running CRC-16.
    var scanned = 0
    var crc: UInt16 = 0
    var searched = 0
    static let maximumFrame = 4 << 20

    struct StreamInfo {
        let minimumBlock: Int, maximumBlock: Int, maximumFrame: Int
        let sampleRate: Int, channels: Int, bits: Int
        let totalSamples: Int64
    }

    func parse(_ queue: inout ByteQueue, _ stream: AudioFileStreamParser) throws {
        while true {
            switch state {
            case .magic:
                guard queue.peek(4) != nil else { return }
                queue.consume(4)
                state = .blockHeader
            case .blockHeader:
                guard let header = queue.peek(4) else { return }
                let last = header.u8(0) & 0x80 != 0, type = header.u8(0) & 0x7F
                let length = Int(header.u8(1) << 16 | header.u8(2) << 8 | header.u8(3))
                queue.consume(4)
                if info == nil {
                    guard type == 0, length == 34 else {
                        throw invalidFile("The FLAC stream does not start with a 34-byte STREAMINFO block.")
                    }
                    state = .streamInfo(length, last: last)
                } else {
                    guard type != 127 else { throw invalidFile("FLAC metadata block type 127 is invalid.") }
                    state = .skipping(Int64(length), last: last)
                }
            case .streamInfo(let length, let last):
                guard let block = queue.peek(length) else { return }
                try streamInfo(block, stream)
                queue.consume(length)
                state = last ? .frames : .blockHeader
                if last { startFrames(queue.offset, stream) }
            case .skipping(var remaining, let last):
                guard skip(&remaining, &queue) else {
                    state = .skipping(remaining, last: last)
                    return
                }
                state = last ? .frames : .blockHeader
                if last { startFrames(queue.offset, stream) }
            case .frames:
                try frames(&queue, stream, endOfStream: false)
                return
            }
        }
    }

    func end(_ queue: inout ByteQueue, _ stream: AudioFileStreamParser) throws {
        if case .frames = state { try frames(&queue, stream, endOfStream: true) }
    }

    private func streamInfo(_ b: ArraySlice<UInt8>, _ stream: AudioFileStreamParser) throws {
        let packed = b.be64(10)
        let rate = Int(packed >> 44), channels = Int((packed >> 41) & 7) + 1, bits = Int((packed >> 36) & 31) + 1
        let total = Int64(packed & 0xF_FFFF_FFFF)
        let parsed = StreamInfo(
            minimumBlock: Int(b.be16(0)), maximumBlock: Int(b.be16(2)), maximumFrame: Int(b.u8(7) << 16 | b.u8(8) << 8 | b.u8(9)),
            sampleRate: rate, channels: channels, bits: bits, totalSamples: total)
        guard rate > 0, rate <= 1_048_575, parsed.minimumBlock >= 16, parsed.maximumBlock >= parsed.minimumBlock else {
            throw invalidFile("The FLAC STREAMINFO gives \(rate) Hz and blocks of \(parsed.minimumBlock)…\(parsed.maximumBlock) samples.")
        }
        info = parsed
        let bitFlags: [Int: UInt32] = [16: 1, 20: 2, 24: 3, 32: 4]
        let format = AudioStreamBasicDescription(
            mSampleRate: Double(rate), mFormatID: kAudioFormatFLAC, mFormatFlags: bitFlags[bits] ?? 0, mBytesPerPacket: 0,
            mFramesPerPacket: parsed.minimumBlock == parsed.maximumBlock ? UInt32(parsed.maximumBlock) : 0, mBytesPerFrame: 0,
            mChannelsPerFrame: UInt32(channels), mBitsPerChannel: UInt32(bits), mReserved: 0)
        stream.publish(\.dataFormat, format, kAudioFileStreamProperty_DataFormat)
        var block = Array(b)
        block.insert(contentsOf: [0x80, 0, 0, 34], at: 0)
        stream.publish(\.magicCookie, Array("fLaC".utf8) + block, kAudioFileStreamProperty_MagicCookieData)
        if total > 0 && parsed.minimumBlock == parsed.maximumBlock {
            let count = (total + Int64(parsed.maximumBlock) - 1) / Int64(parsed.maximumBlock)
            stream.publish(\.audioDataPacketCount, UInt64(count), kAudioFileStreamProperty_AudioDataPacketCount)
        }
        let bound = parsed.maximumFrame > 0 ? parsed.maximumFrame : min(Self.maximumFrame, parsed.maximumBlock * channels * 4 + 64)
        stream.publish(\.packetSizeUpperBound, UInt32(bound), kAudioFileStreamProperty_PacketSizeUpperBound)
    }

    private func startFrames(_ offset: Int64, _ stream: AudioFileStreamParser) {
        stream.publish(\.dataOffset, offset, kAudioFileStreamProperty_DataOffset)
        stream.becomeReady()
    }

    /// Delivers every frame whose end the queued bytes decide. The scan of a frame resumes
    /// where the previous call stopped (`scanned` bytes, running CRC `crc`), so each byte is
    /// looked at once however the stream is cut.
    private func frames(_ queue: inout ByteQueue, _ stream: AudioFileStreamParser, endOfStream: Bool) throws {
        guard let info else { return }
        while true {
            // At a frame start: a valid header, or search on.
            let head = queue.peek(min(queue.count, 16))!
            guard let header = FLACFrameHeader(head, info) else {
                if head.isEmpty || (head.count < 16 && FLACFrameHeader.couldStart(head) && !endOfStream) { return }
                queue.consume(1)
                scanned = 0; crc = 0
                searched += 1
                if searched > Self.maximumFrame { throw invalidFile("No FLAC frame found in \(Self.maximumFrame) bytes.") }
                continue
            }
            searched = 0
            let all = queue.all
            let isLast = info.totalSamples > 0 && header.firstSample + Int64(header.blockSize) >= info.totalSamples
            var end: Int?
            var position = scanned  // crc is the CRC-16 of the frame's first `position` bytes
            while true {
                if crc == 0 && position > header.length + 2 {
                    let rest = all[(all.startIndex + position)...].prefix(16)
                    // The last frame ends where the bytes do or a tag begins: a CRC that comes out
                    // 0 by chance inside it (once in 65,536 bytes) is followed by more frame bytes.
                    if isLast && (rest.isEmpty || FLACStreamParser.startsTag(rest)) { end = position; break }
                    if FLACFrameHeader(rest, info) != nil { end = position; break }
                    if rest.count < 16 && FLACFrameHeader.couldStart(rest) && !endOfStream { break }
                }
                guard position < all.count else { break }
                crc = FLACFrameHeader.crc16(crc, all[all.startIndex + position])
                position += 1
            }
            if end == nil && endOfStream && crc == 0 && position == all.count && position > header.length + 2 { end = position }
            guard let frameEnd = end else {
                scanned = position
                if scanned > Self.maximumFrame { throw invalidFile("A FLAC frame runs past \(Self.maximumFrame) bytes without ending.") }
                if endOfStream {
                    // What is left at the end is no whole frame.
                    queue.consume(queue.count)
                    scanned = 0; crc = 0
                }
                return
            }
            stream.packet(all.prefix(frameEnd), frames: UInt32(header.blockSize))
            queue.consume(frameEnd)
            scanned = 0; crc = 0
        }
    }

    /// Whether bytes after the last frame begin a tag (ID3v1 "TAG", ID3v2 "ID3", "APETAGEX").
    static func startsTag(_ bytes: ArraySlice<UInt8>) -> Bool {
        [Array("TAG".utf8), Array("ID3".utf8), Array("APETAGEX".utf8)].contains { bytes.starts(with: $0) }
    }

    func discontinuity(_ stream: AudioFileStreamParser) {
        scanned = 0; crc = 0
    }

    func seek(toPacket packet: Int64, _ stream: AudioFileStreamParser) throws -> (offset: Int64, estimated: Bool) {
        let props = stream.properties
        let average = props.packetsSeen > 0 ? Double(props.bytesSeen) / Double(props.packetsSeen) : Double(info?.maximumFrame ?? 4096)
        return (try SeekOffset.estimated(packet: packet, averageBytes: average), true)
    }
}

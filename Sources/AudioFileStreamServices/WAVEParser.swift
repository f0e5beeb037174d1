import AudioTypes
import AudioToolbox

/// RIFF WAVE: the `fmt ` chunk (PCM, IEEE float, WAVE_FORMAT_EXTENSIBLE of either), then the
/// `data` chunk's frames; other chunks are skipped without being held. Little-endian, chunks
/// padded to even sizes.
final class WAVEParser: ContainerParser {
    enum State { case riff, chunkHeader, format(Int), data, skipping(Int64) }
    var state = State.riff
    var data: FixedPacketData?
    var format: AudioStreamBasicDescription?
    /// A pad byte follows an odd-sized data chunk.
    var padAfterData = false

    func parse(_ queue: inout ByteQueue, _ stream: AudioFileStreamParser) throws {
        while true {
            switch state {
            case .riff:
                guard queue.peek(12) != nil else { return }
                queue.consume(12)
                state = .chunkHeader
            case .chunkHeader:
                guard let header = queue.peek(8) else { return }
                let id = header.fourCC(0), size = Int64(header.le32(4))
                queue.consume(8)
                switch id {
                case "fmt ":
                    guard (16...4096).contains(size) else { throw invalidFile("The WAVE fmt chunk is \(size) bytes (16…4096 expected).") }
                    state = .format(Int(size))
                case "data":
                    guard let format else { throw invalidFile("The WAVE data chunk comes before its fmt chunk.") }
                    // 0xFFFFFFFF (and 0, from writers that never went back) mean "to the end".
                    let known = size != 0xFFFF_FFFF && size != 0
                    stream.publish(\.dataOffset, queue.offset, kAudioFileStreamProperty_DataOffset)
                    if known {
                        stream.publish(\.audioDataByteCount, UInt64(size), kAudioFileStreamProperty_AudioDataByteCount)
                        stream.publish(
                            \.audioDataPacketCount, UInt64(size) / UInt64(format.mBytesPerFrame),
                            kAudioFileStreamProperty_AudioDataPacketCount)
                    }
                    data = FixedPacketData(bytesPerPacket: Int(format.mBytesPerFrame), size: known ? size : nil, isPCM: true)
                    padAfterData = size & 1 == 1
                    stream.becomeReady()
                    state = .data
                default:
                    state = .skipping(size + (size & 1))
                }
            case .format(let size):
                guard let chunk = queue.peek(size) else { return }
                let parsed = try Self.format(chunk)
                queue.consume(size)
                state = .skipping(Int64(size & 1))
                format = parsed
                stream.publish(\.dataFormat, parsed, kAudioFileStreamProperty_DataFormat)
                stream.publish(\.packetSizeUpperBound, parsed.mBytesPerFrame, kAudioFileStreamProperty_PacketSizeUpperBound)
                stream.publish(
                    \.bitRate, UInt32(min(parsed.mSampleRate * Double(parsed.mBytesPerFrame) * 8, Double(UInt32.max))),
                    kAudioFileStreamProperty_BitRate)
            case .data:
                guard data!.deliver(&queue, stream) else { return }
                state = padAfterData ? .skipping(1) : .chunkHeader
            case .skipping(var remaining):
                let done = skip(&remaining, &queue)
                state = done ? .chunkHeader : .skipping(remaining)
                if !done { return }
            }
        }
    }

    static func format(_ chunk: ArraySlice<UInt8>) throws -> AudioStreamBasicDescription {
        var tag = chunk.le16(0)
        let channels = chunk.le16(2), rate = Double(chunk.le32(4)), blockAlign = chunk.le16(12), bits = chunk.le16(14)
        if tag == 0xFFFE {
            guard chunk.count >= 40 else {
                throw invalidFile("The WAVE_FORMAT_EXTENSIBLE fmt chunk is \(chunk.count) bytes; 40 are needed.")
            }
            tag = chunk.le16(24)  // the sub-format GUID starts with the format tag
        }
        guard tag == 1 || tag == 3 else {
            throw unsupportedData("WAVE format tag \(tag) is not PCM (1) or IEEE float (3); compressed WAVE is not streamed.")
        }
        try checkPCM(rate: rate, channels: channels, bits: bits, bytesPerFrame: blockAlign, "WAVE")
        guard tag == 1 || bits == 32 || bits == 64 else { throw invalidFile("WAVE float samples of \(bits) bits (32 or 64 expected).") }
        return linearPCMFormat(rate: rate, channels: channels, bits: bits, bytesPerFrame: blockAlign, isFloat: tag == 3, bigEndian: false)
    }

    func discontinuity(_ stream: AudioFileStreamParser) {}

    func seek(toPacket packet: Int64, _ stream: AudioFileStreamParser) throws -> (offset: Int64, estimated: Bool) {
        guard data != nil else { throw AudioError(kAudioFileStreamError_DataUnavailable, "The WAVE data chunk has not been reached.") }
        state = .data
        return (try data!.seek(toPacket: packet), false)
    }
}

import AudioTypes
import AudioToolbox
import Foundation

/// AIFF and AIFC: the COMM chunk (channels, frames, bits, the 80-bit extended rate; for AIFC the
/// compression type: NONE/twos, sowt, fl32/FL32, fl64/FL64), then the SSND chunk's frames after
/// its offset field. Big-endian, chunks padded to even sizes.
final class AIFFParser: ContainerParser {
    enum State { case form, chunkHeader, common(Int), soundHeader(Int64), data, skipping(Int64) }
    let isAIFC: Bool
    var state = State.form
    var data: FixedPacketData?
    var format: AudioStreamBasicDescription?
    var frameCount: UInt32 = 0
    var padAfterData = false

    init(isAIFC: Bool) { self.isAIFC = isAIFC }

    func parse(_ queue: inout ByteQueue, _ stream: AudioFileStreamParser) throws {
        while true {
            switch state {
            case .form:
                guard queue.peek(12) != nil else { return }
                queue.consume(12)
                state = .chunkHeader
            case .chunkHeader:
                guard let header = queue.peek(8) else { return }
                let id = header.fourCC(0), size = Int64(header.be32(4))
                queue.consume(8)
                switch id {
                case "COMM":
                    guard (18...4096).contains(size) else { throw invalidFile("The AIFF COMM chunk is \(size) bytes (18…4096 expected).") }
                    state = .common(Int(size))
                case "SSND":
                    guard format != nil else { throw invalidFile("The AIFF SSND chunk comes before its COMM chunk.") }
                    guard size >= 8 else { throw invalidFile("The AIFF SSND chunk is \(size) bytes; its header alone is 8.") }
                    state = .soundHeader(size)
                default:
                    state = .skipping(size + (size & 1))
                }
            case .common(let size):
                guard let chunk = queue.peek(size) else { return }
                let parsed = try common(chunk)
                queue.consume(size)
                state = .skipping(Int64(size & 1))
                format = parsed
                stream.publish(\.dataFormat, parsed, kAudioFileStreamProperty_DataFormat)
                stream.publish(\.packetSizeUpperBound, parsed.mBytesPerFrame, kAudioFileStreamProperty_PacketSizeUpperBound)
                stream.publish(
                    \.bitRate, UInt32(min(parsed.mSampleRate * Double(parsed.mBytesPerFrame) * 8, Double(UInt32.max))),
                    kAudioFileStreamProperty_BitRate)
            case .soundHeader(let size):
                guard let header = queue.peek(8) else { return }
                let offset = Int64(header.be32(0))
                queue.consume(8)
                guard offset <= size - 8 else { throw invalidFile("The AIFF SSND offset \(offset) lies beyond its \(size)-byte chunk.") }
                let bytes = size - 8 - offset
                let frameBytes = Int64(format!.mBytesPerFrame)
                stream.publish(\.dataOffset, queue.offset + offset, kAudioFileStreamProperty_DataOffset)
                stream.publish(\.audioDataByteCount, UInt64(bytes), kAudioFileStreamProperty_AudioDataByteCount)
                stream.publish(
                    \.audioDataPacketCount, UInt64(min(Int64(frameCount), bytes / frameBytes)),
                    kAudioFileStreamProperty_AudioDataPacketCount)
                data = FixedPacketData(bytesPerPacket: Int(frameBytes), size: bytes, isPCM: true)
                padAfterData = size & 1 == 1
                stream.becomeReady()
                var lead = offset
                // The block-alignment offset is usually 0; skip it before the frames.
                if !skip(&lead, &queue) { state = .skipping(lead); leadBeforeData = true; return }
                state = .data
            case .data:
                guard data!.deliver(&queue, stream) else { return }
                state = .skipping(padAfterData ? 1 : 0)
            case .skipping(var remaining):
                let done = skip(&remaining, &queue)
                if !done {
                    state = .skipping(remaining)
                    return
                }
                state = leadBeforeData ? .data : .chunkHeader
                leadBeforeData = false
            }
        }
    }

    var leadBeforeData = false

    func common(_ chunk: ArraySlice<UInt8>) throws -> AudioStreamBasicDescription {
        let channels = chunk.be16(0), bits = chunk.be16(6)
        frameCount = chunk.be32(2)
        let rate = Self.extended(chunk, at: 8)
        var isFloat = false, bigEndian = true
        var sampleBits = bits
        if isAIFC {
            guard chunk.count >= 22 else { throw invalidFile("The AIFC COMM chunk has no compression type.") }
            switch chunk.fourCC(18) {
            case "NONE", "twos": break
            case "sowt": bigEndian = false
            case "fl32", "FL32": isFloat = true; sampleBits = 32
            case "fl64", "FL64": isFloat = true; sampleBits = 64
            case let other: throw unsupportedData("AIFC compression '\(other)' is not streamed (NONE, twos, sowt, fl32, fl64 are).")
            }
        }
        let bytesPerFrame = channels * ((sampleBits + 7) / 8)
        try checkPCM(rate: rate, channels: channels, bits: sampleBits, bytesPerFrame: bytesPerFrame, "AIFF")
        return linearPCMFormat(
            rate: rate, channels: channels, bits: sampleBits, bytesPerFrame: bytesPerFrame, isFloat: isFloat, bigEndian: bigEndian)
    }

    /// An IEEE 754 80-bit extended float (AIFF's sample rate).
    static func extended(_ bytes: ArraySlice<UInt8>, at i: Int) -> Double {
        let exponent = Int(bytes.be16(i) & 0x7FFF)
        let mantissa = bytes.be64(i + 2)
        guard exponent != 0 || mantissa != 0 else { return 0 }
        guard exponent != 0x7FFF else { return .infinity }
        let value = Double(mantissa) * pow(2, Double(exponent - 16_383 - 63))
        return bytes.u8(i) & 0x80 != 0 ? -value : value
    }

    func discontinuity(_ stream: AudioFileStreamParser) {}

    func seek(toPacket packet: Int64, _ stream: AudioFileStreamParser) throws -> (offset: Int64, estimated: Bool) {
        guard data != nil else { throw AudioError(kAudioFileStreamError_DataUnavailable, "The AIFF SSND chunk has not been reached.") }
        state = .data
        return (try data!.seek(toPacket: packet), false)
    }
}

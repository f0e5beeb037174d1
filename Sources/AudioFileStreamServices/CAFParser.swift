import AudioTypes
import AudioToolbox

/// Core Audio Format: `desc` (the ASBD, big-endian), `kuki` (magic cookie), `pakt` (packet
/// sizes of variable-size formats), then `data` (an edit count, then packets; size −1 runs to
/// the end). Variable-size packets need the packet table before the data
/// (kAudioFileStreamError_NotOptimized otherwise, as Apple's parser says).
final class CAFParser: ContainerParser {
    enum State { case header, chunkHeader, held(String, Int), dataHeader(Int64), fixedData, variableData, skipping(Int64), finished }
    var state = State.header
    var format: AudioStreamBasicDescription?
    var fixed: FixedPacketData?
    /// Variable-size packets: sizes (and frames, when they vary) from `pakt`, and the next one.
    var packetSizes: [Int] = []
    var packetFrames: [UInt32] = []
    var nextPacket = 0
    var variableEnd: Int64?
    var variablePosition: Int64 = 0

    func parse(_ queue: inout ByteQueue, _ stream: AudioFileStreamParser) throws {
        while true {
            switch state {
            case .header:
                guard let header = queue.peek(8) else { return }
                guard header.be16(4) == 1 else { throw unsupportedData("CAF version \(header.be16(4)) (1 expected).") }
                queue.consume(8)
                state = .chunkHeader
            case .chunkHeader:
                guard let header = queue.peek(12) else { return }
                let id = header.fourCC(0), size = Int64(bitPattern: header.be64(4))
                queue.consume(12)
                switch id {
                case "desc", "kuki", "pakt":
                    guard (0...Int64(AudioFileStreamParser.maximumHeldBytes)).contains(size), id != "desc" || size == 32 else {
                        throw invalidFile("The CAF '\(id)' chunk is \(size) bytes (desc is 32, others at most 16 MiB).")
                    }
                    state = .held(id, Int(size))
                case "data":
                    guard format != nil else { throw invalidFile("The CAF data chunk comes before its desc chunk.") }
                    guard size == -1 || size >= 4 else {
                        throw invalidFile("The CAF data chunk is \(size) bytes; its edit count alone is 4.")
                    }
                    state = .dataHeader(size)
                default:
                    guard size >= 0 else { throw invalidFile("The CAF '\(id)' chunk has size \(size).") }
                    state = .skipping(size)
                }
            case .held(let id, let size):
                guard let chunk = queue.peek(size) else { return }
                switch id {
                case "desc": try description(chunk, stream)
                case "kuki": stream.publish(\.magicCookie, Array(chunk), kAudioFileStreamProperty_MagicCookieData)
                default: try packetTable(chunk, stream)
                }
                queue.consume(size)
                state = .chunkHeader
            case .dataHeader(let size):
                guard queue.peek(4) != nil else { return }
                queue.consume(4)
                let format = format!
                let bytes: Int64? = size == -1 ? nil : size - 4
                stream.publish(\.dataOffset, queue.offset, kAudioFileStreamProperty_DataOffset)
                if let bytes { stream.publish(\.audioDataByteCount, UInt64(bytes), kAudioFileStreamProperty_AudioDataByteCount) }
                if format.mBytesPerPacket > 0 {
                    if let bytes {
                        stream.publish(
                            \.audioDataPacketCount, UInt64(bytes) / UInt64(format.mBytesPerPacket),
                            kAudioFileStreamProperty_AudioDataPacketCount)
                    }
                    fixed = FixedPacketData(
                        bytesPerPacket: Int(format.mBytesPerPacket), size: bytes, isPCM: format.mFormatID == kAudioFormatLinearPCM)
                    state = .fixedData
                } else {
                    guard !packetSizes.isEmpty || stream.properties.audioDataPacketCount == 0 else {
                        throw AudioError(
                            kAudioFileStreamError_NotOptimized,
                            "This CAF file's packets vary in size and its packet table does not come before the audio data, so it cannot be streamed."
                        )
                    }
                    variableEnd = bytes
                    state = .variableData
                }
                stream.becomeReady()
            case .fixedData:
                guard fixed!.deliver(&queue, stream) else { return }
                state = .chunkHeader
            case .variableData:
                while nextPacket < packetSizes.count, let bytes = queue.peek(packetSizes[nextPacket]) {
                    stream.packet(bytes, frames: packetFrames.isEmpty ? 0 : packetFrames[nextPacket])
                    queue.consume(bytes.count)
                    variablePosition += Int64(bytes.count)
                    nextPacket += 1
                }
                guard nextPacket == packetSizes.count else { return }
                state = variableEnd.map { .skipping($0 - variablePosition) } ?? .finished
            case .skipping(var remaining):
                guard skip(&remaining, &queue) else {
                    state = .skipping(remaining)
                    return
                }
                state = .chunkHeader
            case .finished:
                queue.consume(queue.count)
                return
            }
        }
    }

    private func description(_ chunk: ArraySlice<UInt8>, _ stream: AudioFileStreamParser) throws {
        let rate = Double(bitPattern: chunk.be64(0))
        let id = chunk.be32(8), cafFlags = chunk.be32(12)
        let bytesPerPacket = chunk.be32(16), framesPerPacket = chunk.be32(20), channels = chunk.be32(24), bits = chunk.be32(28)
        var asbd: AudioStreamBasicDescription
        if id == kAudioFormatLinearPCM {
            guard framesPerPacket == 1 else { throw invalidFile("CAF linear PCM with \(framesPerPacket) frames per packet (1 expected).") }
            try checkPCM(rate: rate, channels: channels, bits: bits, bytesPerFrame: bytesPerPacket, "CAF")
            // CAF's own flags: 1 = float, 2 = little-endian.
            asbd = linearPCMFormat(
                rate: rate, channels: channels, bits: bits, bytesPerFrame: bytesPerPacket,
                isFloat: cafFlags & 1 != 0, bigEndian: cafFlags & 2 == 0)
        } else {
            guard rate.isFinite, rate > 0, rate <= 1_536_000, (1...1024).contains(channels) else {
                throw invalidFile("The CAF desc chunk gives \(rate) Hz and \(channels) channels.")
            }
            asbd = AudioStreamBasicDescription(
                mSampleRate: rate, mFormatID: id, mFormatFlags: cafFlags, mBytesPerPacket: bytesPerPacket,
                mFramesPerPacket: framesPerPacket, mBytesPerFrame: 0, mChannelsPerFrame: channels, mBitsPerChannel: bits, mReserved: 0)
        }
        format = asbd
        stream.publish(\.dataFormat, asbd, kAudioFileStreamProperty_DataFormat)
        if bytesPerPacket > 0 {
            stream.publish(\.packetSizeUpperBound, bytesPerPacket, kAudioFileStreamProperty_PacketSizeUpperBound)
        }
    }

    /// `pakt`: packet count, valid frames, priming and remainder frames, then a variable-length
    /// integer per packet for its size (when sizes vary) and its frames (when frames vary).
    private func packetTable(_ chunk: ArraySlice<UInt8>, _ stream: AudioFileStreamParser) throws {
        guard chunk.count >= 24, let format else { throw invalidFile("The CAF pakt chunk is \(chunk.count) bytes or precedes desc.") }
        let count = Int64(bitPattern: chunk.be64(0))
        guard count >= 0, count <= Int64(chunk.count) else {
            throw invalidFile("The CAF packet table claims \(count) packets in \(chunk.count) bytes.")
        }
        var index = chunk.startIndex + 24
        func varint() throws -> UInt64 {
            var value: UInt64 = 0
            for _ in 0..<10 {
                guard index < chunk.endIndex else { throw invalidFile("The CAF packet table ends inside an entry.") }
                let byte = chunk[index]; index += 1
                value = value << 7 | UInt64(byte & 0x7F)
                if byte & 0x80 == 0 { return value }
            }
            throw invalidFile("The CAF packet table has an entry longer than 10 bytes.")
        }
        var sizes: [Int] = [], frames: [UInt32] = []
        var largest = 0
        for _ in 0..<count {
            if format.mBytesPerPacket == 0 {
                let size = try varint()
                guard size <= UInt64(AudioFileStreamParser.maximumHeldBytes) else {
                    throw invalidFile("A CAF packet of \(size) bytes is beyond 16 MiB.")
                }
                sizes.append(Int(size)); largest = max(largest, Int(size))
            }
            if format.mFramesPerPacket == 0 { frames.append(UInt32(truncatingIfNeeded: try varint())) }
        }
        packetSizes = sizes
        packetFrames = frames
        stream.publish(\.audioDataPacketCount, UInt64(count), kAudioFileStreamProperty_AudioDataPacketCount)
        if format.mBytesPerPacket == 0 {
            stream.publish(\.packetSizeUpperBound, UInt32(largest), kAudioFileStreamProperty_PacketSizeUpperBound)
        }
    }

    func discontinuity(_ stream: AudioFileStreamParser) {}

    func seek(toPacket packet: Int64, _ stream: AudioFileStreamParser) throws -> (offset: Int64, estimated: Bool) {
        if fixed != nil {
            state = .fixedData
            return (try fixed!.seek(toPacket: packet), false)
        }
        guard packet <= Int64(packetSizes.count) else {
            throw AudioError(kAudioFileStreamError_InvalidPacketOffset, "Packet \(packet) is past the packet table's \(packetSizes.count).")
        }
        nextPacket = Int(packet)
        variablePosition = packetSizes.prefix(Int(packet)).reduce(0) { $0 + Int64($1) }
        state = .variableData
        return (variablePosition, false)
    }
}

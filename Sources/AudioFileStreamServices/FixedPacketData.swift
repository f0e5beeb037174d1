import AudioTypes
import AudioToolbox

/// The audio data of a container whose packets are fixed-size (PCM frames, or fixed-size
/// compressed packets): delivered in whole packets as they arrive, up to the data's end when its
/// size is known. Thread: setup.
struct FixedPacketData {
    let bytesPerPacket: Int
    /// Bytes of audio data from its start (nil: it runs to the end of the stream).
    let size: Int64?
    /// Bytes of it delivered or skipped so far.
    var position: Int64 = 0
    /// PCM packets go out without descriptions; other fixed-size packets with them.
    let isPCM: Bool

    /// Delivers the whole packets queued; true once the data is done (its size reached).
    mutating func deliver(_ queue: inout ByteQueue, _ stream: AudioFileStreamParser) -> Bool {
        let left = size.map { $0 - position } ?? Int64.max
        let usable = Int(min(Int64(queue.count), left))
        let packets = usable / bytesPerPacket
        if packets > 0, let bytes = queue.peek(packets * bytesPerPacket) {
            if isPCM {
                stream.pcmPackets(bytes, count: packets)
            } else {
                for p in 0..<packets {
                    stream.packet(bytes[(bytes.startIndex + p * bytesPerPacket)..<(bytes.startIndex + (p + 1) * bytesPerPacket)])
                }
            }
            queue.consume(packets * bytesPerPacket)
            position += Int64(packets * bytesPerPacket)
        }
        guard let size else { return false }
        if size - position < Int64(bytesPerPacket) {
            // A partial packet at the end is not audio: skip it as it arrives.
            let tail = Int(min(Int64(queue.count), size - position))
            queue.consume(tail)
            position += Int64(tail)
            return position == size
        }
        return false
    }

    /// Where packet `packet` starts (exact: packets are one size).
    mutating func seek(toPacket packet: Int64) throws -> Int64 {
        position = try SeekOffset.exact(packet: packet, bytesPerPacket: Int64(bytesPerPacket))
        return position
    }
}

/// Linear PCM in a container: the ASBD from its fields.
func linearPCMFormat(
    rate: Double, channels: UInt32, bits: UInt32, bytesPerFrame: UInt32, isFloat: Bool, bigEndian: Bool
) -> AudioStreamBasicDescription {
    var flags: AudioFormatFlags = isFloat ? kAudioFormatFlagIsFloat : (bits > 8 ? kAudioFormatFlagIsSignedInteger : 0)
    if bigEndian { flags |= kAudioFormatFlagIsBigEndian }
    let sampleBytes = channels > 0 ? bytesPerFrame / channels : 0
    if sampleBytes * 8 == bits { flags |= kAudioFormatFlagIsPacked } else { flags |= kAudioFormatFlagIsAlignedHigh }
    return AudioStreamBasicDescription(
        mSampleRate: rate, mFormatID: kAudioFormatLinearPCM, mFormatFlags: flags, mBytesPerPacket: bytesPerFrame,
        mFramesPerPacket: 1, mBytesPerFrame: bytesPerFrame, mChannelsPerFrame: channels, mBitsPerChannel: bits, mReserved: 0)
}

/// Checks PCM fields every container shares: the ASBD must describe whole samples.
func checkPCM(rate: Double, channels: UInt32, bits: UInt32, bytesPerFrame: UInt32, _ container: String) throws {
    guard rate.isFinite, rate >= 1, rate <= 1_536_000 else {
        throw invalidFile("The \(container) header gives a sample rate of \(rate) Hz.")
    }
    guard (1...1024).contains(channels) else { throw invalidFile("The \(container) header gives \(channels) channels.") }
    guard (1...64).contains(bits), bytesPerFrame >= channels * ((bits + 7) / 8), bytesPerFrame <= channels * 8 else {
        throw invalidFile("The \(container) header gives \(bits)-bit samples in \(bytesPerFrame)-byte frames of \(channels) channels.")
    }
}

import AudioToolbox
import AudioTypes
import CCodecs

/// Vorbis packets through libvorbis. The cookie holds the three header packets in Xiph lacing
/// (see ``XiphLacing``); each audio packet then goes through synthesis and block-in, and every
/// frame libvorbis releases is interleaved into the output.
final class VorbisPacketDecoder: PacketDecoder {
    let channelCount: Int
    let sampleRate: Double
    private let info: UnsafeMutablePointer<vorbis_info>
    private let comment: UnsafeMutablePointer<vorbis_comment>
    private let dsp: UnsafeMutablePointer<vorbis_dsp_state>
    private let block: UnsafeMutablePointer<vorbis_block>
    private var packetNumber: Int64 = 3

    init(_ format: AudioStreamBasicDescription, cookie: [UInt8]) throws {
        let info = UnsafeMutablePointer<vorbis_info>.allocate(capacity: 1)
        let comment = UnsafeMutablePointer<vorbis_comment>.allocate(capacity: 1)
        let dsp = UnsafeMutablePointer<vorbis_dsp_state>.allocate(capacity: 1)
        let block = UnsafeMutablePointer<vorbis_block>.allocate(capacity: 1)
        vorbis_info_init(info)
        vorbis_comment_init(comment)
        var ready = false
        defer {
            if !ready {
                vorbis_comment_clear(comment); vorbis_info_clear(info)
                info.deallocate(); comment.deallocate(); dsp.deallocate(); block.deallocate()
            }
        }
        guard let headers = XiphLacing.split(cookie), headers.count == 3 else {
            throw AudioError(
                kAudioConverterErr_FormatNotSupported,
                "Decoding Vorbis needs its three header packets as the magic cookie (Xiph-laced); this cookie has \(cookie.isEmpty ? "nothing" : "\(cookie.count) bytes that are not three laced packets")."
            )
        }
        for (index, header) in headers.enumerated() {
            var bytes = header
            let status = bytes.withUnsafeMutableBufferPointer { buffer -> Int32 in
                var packet = ogg_packet(
                    packet: buffer.baseAddress, bytes: buffer.count, b_o_s: index == 0 ? 1 : 0, e_o_s: 0,
                    granulepos: 0, packetno: Int64(index))
                return vorbis_synthesis_headerin(info, comment, &packet)
            }
            guard status == 0 else {
                throw AudioError(
                    kAudioConverterErr_FormatNotSupported,
                    "libvorbis refused Vorbis header packet \(index + 1) of the magic cookie (error \(status)).")
            }
        }
        let channelCount = Int(info.pointee.channels)
        let sampleRate = Double(info.pointee.rate)
        guard channelCount == Int(format.mChannelsPerFrame), sampleRate == format.mSampleRate else {
            throw AudioError(
                kAudioConverterErr_FormatNotSupported,
                "The Vorbis headers describe \(sampleRate) Hz, \(channelCount) channels; the source format says \(format.mSampleRate) Hz, \(format.mChannelsPerFrame) channels."
            )
        }
        guard vorbis_synthesis_init(dsp, info) == 0 else {
            throw AudioError(kAudioConverterErr_UnspecifiedError, "libvorbis could not start a decoder.")
        }
        vorbis_block_init(dsp, block)
        ready = true
        self.channelCount = channelCount
        self.sampleRate = sampleRate
        self.info = info; self.comment = comment; self.dsp = dsp; self.block = block
    }

    deinit {
        vorbis_block_clear(block)
        vorbis_dsp_clear(dsp)
        vorbis_comment_clear(comment)
        vorbis_info_clear(info)
        info.deallocate(); comment.deallocate(); dsp.deallocate(); block.deallocate()
    }

    func decode(_ packet: UnsafeRawBufferPointer, into pcm: DecodedPCM) throws {
        guard let base = packet.baseAddress, packet.count > 0 else { return }
        var op = ogg_packet(
            packet: UnsafeMutablePointer(mutating: base.assumingMemoryBound(to: UInt8.self)), bytes: packet.count,
            b_o_s: 0, e_o_s: 0, granulepos: -1, packetno: packetNumber)
        packetNumber += 1
        let status = vorbis_synthesis(block, &op)
        guard status == 0 else {
            throw AudioError(
                kAudioConverterErr_UnspecifiedError,
                "libvorbis could not decode a Vorbis packet of \(packet.count) bytes (error \(status)).")
        }
        _ = vorbis_synthesis_blockin(dsp, block)
        var channels: UnsafeMutablePointer<UnsafeMutablePointer<Float>?>?
        while true {
            let frames = Int(vorbis_synthesis_pcmout(dsp, &channels))
            guard frames > 0, let channels else { break }
            let out = pcm.reserve(frames)
            for c in 0..<channelCount {
                guard let lane = channels[c] else { continue }
                for i in 0..<frames { out[i * channelCount + c] = lane[i] }
            }
            pcm.commit(frames)
            _ = vorbis_synthesis_read(dsp, Int32(frames))
        }
    }

    func reset() { _ = vorbis_synthesis_restart(dsp) }
}

/// Xiph lacing of several packets into one buffer, as Matroska stores Vorbis headers: a byte
/// holding the packet count − 1, then each packet's size but the last as a run of 255s and a final
/// byte below 255, then the packets back to back.
public enum XiphLacing {
    /// The packets laced into one buffer. Thread: any.
    public static func join(_ packets: [[UInt8]]) -> [UInt8] {
        var out: [UInt8] = [UInt8(packets.count - 1)]
        for packet in packets.dropLast() {
            var size = packet.count
            while size >= 255 { out.append(255); size -= 255 }
            out.append(UInt8(size))
        }
        for packet in packets { out += packet }
        return out
    }

    /// The packets of a laced buffer, or nil when it is not one (sizes beyond its end). Thread: any.
    public static func split(_ data: [UInt8]) -> [[UInt8]]? {
        guard let first = data.first else { return nil }
        let count = Int(first) + 1
        var sizes: [Int] = []
        var index = 1
        for _ in 0..<(count - 1) {
            var size = 0
            while true {
                guard index < data.count else { return nil }
                let byte = Int(data[index]); index += 1
                size += byte
                if byte < 255 { break }
            }
            sizes.append(size)
        }
        let used = sizes.reduce(0, +)
        guard used <= data.count - index else { return nil }
        sizes.append(data.count - index - used)
        var packets: [[UInt8]] = []
        for size in sizes {
            packets.append(Array(data[index..<(index + size)]))
            index += size
        }
        return packets
    }
}

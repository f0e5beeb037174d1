import AudioTypes
import AudioConverterServices
import AudioToolbox
import CCodecs

/// Ogg Vorbis and Ogg Opus through libogg: pages are found and checked (CRC) by ogg_sync,
/// packets reassembled by ogg_stream. The first logical stream whose first packet is a Vorbis or
/// Opus identification header is read; other streams are ignored. Header packets become the
/// magic cookie (Vorbis: all three, Xiph-laced; Opus: OpusHead, OpusTags skipped); every other
/// packet is an audio packet, with its frame count (libopus / libvorbis count them).
final class OggStreamParser: ContainerParser {
    enum Codec { case vorbis, opus }
    private let sync = UnsafeMutablePointer<ogg_sync_state>.allocate(capacity: 1)
    private let stream = UnsafeMutablePointer<ogg_stream_state>.allocate(capacity: 1)
    private var streamOpen = false
    private var serial: Int32 = 0
    private var codec: Codec?
    private var headers: [[UInt8]] = []
    private var headersDone = false
    /// Stream offset of the next byte ogg_sync has not placed in a page yet.
    private var pageOffset: Int64 = 0
    /// Vorbis: the info the headers fill, for each packet's block size.
    private let vorbisInfo = UnsafeMutablePointer<vorbis_info>.allocate(capacity: 1)
    private let vorbisComment = UnsafeMutablePointer<vorbis_comment>.allocate(capacity: 1)
    private var previousBlock = 0
    /// Opus: the channel count from OpusHead.
    private var channels = 0

    init() {
        ogg_sync_init(sync)
        vorbis_info_init(vorbisInfo)
        vorbis_comment_init(vorbisComment)
    }

    deinit {
        ogg_sync_clear(sync)
        if streamOpen { ogg_stream_clear(stream) }
        vorbis_comment_clear(vorbisComment)
        vorbis_info_clear(vorbisInfo)
        sync.deallocate(); stream.deallocate(); vorbisInfo.deallocate(); vorbisComment.deallocate()
    }

    func parse(_ queue: inout ByteQueue, _ parser: AudioFileStreamParser) throws {
        // libogg holds the bytes from here on (it keeps only the unfinished page).
        let bytes = queue.all
        if !bytes.isEmpty {
            guard let buffer = ogg_sync_buffer(sync, bytes.count) else {
                throw invalidFile("libogg could not take \(bytes.count) more bytes.")
            }
            bytes.withUnsafeBufferPointer { UnsafeMutableRawPointer(buffer).copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
            ogg_sync_wrote(sync, bytes.count)
            queue.consume(bytes.count)
        }
        var page = ogg_page()
        while true {
            let result = ogg_sync_pageseek(sync, &page)
            if result == 0 { break }
            if result < 0 {
                pageOffset += Int64(-result)
                continue
            }
            let start = pageOffset
            pageOffset += Int64(result)
            try take(&page, start: start, parser)
        }
        // An unfinished page waits in libogg; one that would pass 16 MiB is no Ogg page (65307 at most).
        if Int(sync.pointee.fill - sync.pointee.returned) > AudioFileStreamParser.maximumHeldBytes {
            throw invalidFile("The Ogg stream has more than 16 MiB without a page.")
        }
    }

    private func take(_ page: inout ogg_page, start: Int64, _ parser: AudioFileStreamParser) throws {
        let pageSerial = ogg_page_serialno(&page)
        if !streamOpen {
            // Wait for a beginning-of-stream page carrying Vorbis or Opus.
            guard ogg_page_bos(&page) != 0 else { return }
            let body = UnsafeRawBufferPointer(start: page.body, count: page.body_len)
            if body.starts(with: [0x01] + Array("vorbis".utf8)) {
                codec = .vorbis
            } else if body.starts(with: Array("OpusHead".utf8)) {
                codec = .opus
            } else {
                return
            }
            ogg_stream_init(stream, pageSerial)
            streamOpen = true
            serial = pageSerial
        }
        guard pageSerial == serial else { return }
        guard ogg_stream_pagein(stream, &page) == 0 else { return }
        if stream.pointee.body_fill > AudioFileStreamParser.maximumHeldBytes {
            throw invalidFile("An Ogg packet runs past 16 MiB.")
        }
        var packet = ogg_packet()
        while true {
            let result = ogg_stream_packetout(stream, &packet)
            if result == 0 { break }
            if result < 0 { continue }  // a hole (lost pages): the next whole packet follows
            let bytes = Array(UnsafeRawBufferPointer(start: packet.packet, count: packet.bytes))
            if headersDone {
                parser.packet(bytes[...], frames: frames(&packet))
            } else {
                try header(bytes, &packet, parser)
                if headersDone {
                    // Audio starts on the page after the last header.
                    parser.publish(\.dataOffset, pageOffsetAfter(start, page), kAudioFileStreamProperty_DataOffset)
                    parser.becomeReady()
                }
            }
        }
    }

    private func pageOffsetAfter(_ start: Int64, _ page: ogg_page) -> Int64 {
        start + Int64(page.header_len + page.body_len)
    }

    private func header(_ bytes: [UInt8], _ packet: inout ogg_packet, _ parser: AudioFileStreamParser) throws {
        headers.append(bytes)
        switch codec! {
        case .vorbis:
            guard vorbis_synthesis_headerin(vorbisInfo, vorbisComment, &packet) == 0 else {
                throw unsupportedData("Vorbis header packet \(headers.count) is not valid (libvorbis refused it).")
            }
            guard headers.count == 3 else { return }
            let info = vorbisInfo.pointee
            guard info.channels > 0, info.rate > 0 else {
                throw invalidFile("The Vorbis headers give \(info.channels) channels at \(info.rate) Hz.")
            }
            let format = AudioStreamBasicDescription(
                mSampleRate: Double(info.rate), mFormatID: kAudioFormatVorbis, mFormatFlags: 0, mBytesPerPacket: 0,
                mFramesPerPacket: 0, mBytesPerFrame: 0, mChannelsPerFrame: UInt32(info.channels), mBitsPerChannel: 0, mReserved: 0)
            parser.publish(\.dataFormat, format, kAudioFileStreamProperty_DataFormat)
            parser.publish(\.magicCookie, XiphLacing.join(headers), kAudioFileStreamProperty_MagicCookieData)
            if info.bitrate_nominal > 0 {
                parser.publish(\.bitRate, UInt32(clamping: info.bitrate_nominal), kAudioFileStreamProperty_BitRate)
            }
            headersDone = true
        case .opus:
            if headers.count == 1 {
                guard bytes.count >= 19, bytes[8] & 0xF0 == 0, bytes[9] > 0 else {
                    throw unsupportedData(
                        "The OpusHead packet (\(bytes.count) bytes) is not one this parser reads (version 0.x, 1…255 channels).")
                }
                channels = Int(bytes[9])
                return
            }
            // The second packet is OpusTags; audio follows.
            let format = AudioStreamBasicDescription(
                mSampleRate: 48_000, mFormatID: kAudioFormatOpus, mFormatFlags: 0, mBytesPerPacket: 0,
                mFramesPerPacket: 0, mBytesPerFrame: 0, mChannelsPerFrame: UInt32(channels), mBitsPerChannel: 0, mReserved: 0)
            parser.publish(\.dataFormat, format, kAudioFileStreamProperty_DataFormat)
            parser.publish(\.magicCookie, headers[0], kAudioFileStreamProperty_MagicCookieData)
            // RFC 6716: 1275 bytes a frame, 120 ms a packet.
            parser.publish(\.packetSizeUpperBound, UInt32(1_275 * 3 * max(channels, 1)), kAudioFileStreamProperty_PacketSizeUpperBound)
            headersDone = true
        }
    }

    /// Frames one audio packet decodes to (0 when libvorbis/libopus cannot tell).
    private func frames(_ packet: inout ogg_packet) -> UInt32 {
        switch codec! {
        case .opus:
            let n = opus_packet_get_nb_samples(packet.packet, Int32(packet.bytes), 48_000)
            return n > 0 ? UInt32(n) : 0
        case .vorbis:
            let block = Int(vorbis_packet_blocksize(vorbisInfo, &packet))
            guard block > 0 else { return 0 }
            defer { previousBlock = block }
            return previousBlock == 0 ? 0 : UInt32(previousBlock / 4 + block / 4)
        }
    }

    func discontinuity(_ parser: AudioFileStreamParser) {
        ogg_sync_reset(sync)
        if streamOpen { ogg_stream_reset(stream) }
        previousBlock = 0
    }

    func seek(toPacket packet: Int64, _ parser: AudioFileStreamParser) throws -> (offset: Int64, estimated: Bool) {
        let props = parser.properties
        let average = props.packetsSeen > 0 ? Double(props.bytesSeen) / Double(props.packetsSeen) : 256
        let offset = try SeekOffset.estimated(packet: packet, averageBytes: average)
        let (page, overflow) = (props.dataOffset ?? 0).addingReportingOverflow(offset)
        guard !overflow else { throw SeekOffset.tooFar(packet) }
        pageOffset = page
        return (offset, true)
    }
}

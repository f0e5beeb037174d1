import AudioToolbox
import AudioTypes
import CCodecs

/// FLAC frames through libFLAC's stream decoder. The decoder reads from the bytes handed to it:
/// first the cookie ("fLaC" + STREAMINFO, its last-block flag forced so nothing more is read),
/// then one packet (one FLAC frame) per ``decode(_:into:)``. Samples are scaled by 2^(bits − 1),
/// so 16- and 24-bit sources are exact in Float32 and come back bit for bit as integers.
final class FLACPacketDecoder: PacketDecoder {
    let channelCount: Int
    let sampleRate: Double
    private let decoder: UnsafeMutablePointer<FLAC__StreamDecoder>
    /// The bytes the read callback serves, and how far it has got.
    fileprivate var input: UnsafeRawBufferPointer = UnsafeRawBufferPointer(start: nil, count: 0)
    fileprivate var inputOffset = 0
    fileprivate var output: DecodedPCM?
    fileprivate var failure: String?
    private let streamInfo: [UInt8]

    init(_ format: AudioStreamBasicDescription, cookie: [UInt8]) throws {
        channelCount = Int(format.mChannelsPerFrame)
        sampleRate = format.mSampleRate
        guard (1...8).contains(channelCount) else {
            throw AudioError(kAudioConverterErr_FormatNotSupported, "FLAC carries 1…8 channels, not \(channelCount).")
        }
        streamInfo = try Self.streamInfo(cookie: cookie, format: format)
        guard let d = FLAC__stream_decoder_new() else {
            throw AudioError(kAudioConverterErr_UnspecifiedError, "libFLAC could not create a decoder.")
        }
        decoder = d
        let me = Unmanaged.passUnretained(self).toOpaque()
        let status = FLAC__stream_decoder_init_stream(d, flacRead, nil, nil, nil, nil, flacWrite, nil, flacError, me)
        // Every stored property is set: a throw from here runs deinit, which deletes the decoder
        // (deleting it here too would free it twice, as the MP3 decoder did).
        guard status == FLAC__STREAM_DECODER_INIT_STATUS_OK else {
            throw AudioError(kAudioConverterErr_UnspecifiedError, "libFLAC could not start a decoder (status \(status.rawValue)).")
        }
        try readHeader()
    }

    deinit {
        FLAC__stream_decoder_finish(decoder)
        FLAC__stream_decoder_delete(decoder)
    }

    /// "fLaC" + the STREAMINFO block from the cookie, or one made from the format when there is
    /// no cookie (frames carry their own sample size and rate in practice; the bit depth comes
    /// from the AudioFormatFlags of Apple's lossless formats: 1 = 16, 2 = 20, 3 = 24, 4 = 32 bits).
    static func streamInfo(cookie: [UInt8], format: AudioStreamBasicDescription) throws -> [UInt8] {
        if !cookie.isEmpty {
            // Accept the cookie with or without the "fLaC" marker.
            var body = cookie
            if body.starts(with: Array("fLaC".utf8)) { body.removeFirst(4) }
            guard body.count >= 38, body[0] & 0x7F == 0, (Int(body[1]) << 16 | Int(body[2]) << 8 | Int(body[3])) == 34 else {
                throw AudioError(
                    kAudioConverterErr_FormatNotSupported,
                    "The FLAC magic cookie must be \"fLaC\" followed by the STREAMINFO block (38 bytes); this one is \(cookie.count) bytes without one."
                )
            }
            body[0] |= 0x80  // the last metadata block: the decoder then reads frames
            return Array("fLaC".utf8) + body.prefix(38)
        }
        let bits: UInt32 = [1: 16, 2: 20, 3: 24, 4: 32][format.mFormatFlags] ?? (format.mBitsPerChannel > 0 ? format.mBitsPerChannel : 16)
        let rate = UInt32(format.mSampleRate)
        var block: [UInt8] = [0x80, 0, 0, 34, 0x00, 0x10, 0xFF, 0xFF, 0, 0, 0, 0, 0, 0]
        // 20 bits rate, 3 bits channels − 1, 5 bits bits − 1, 36 bits total samples (0: unknown).
        let channels = UInt32(format.mChannelsPerFrame - 1)
        let packed = UInt64(rate) << 44 | UInt64(channels) << 41 | UInt64(bits - 1) << 36
        for i in 0..<8 { block.append(UInt8(truncatingIfNeeded: packed >> UInt64(56 - 8 * i))) }
        block += [UInt8](repeating: 0, count: 16)  // MD5 unknown
        return Array("fLaC".utf8) + block
    }

    private func readHeader() throws {
        try streamInfo.withUnsafeBytes { bytes in
            try feed(bytes) { FLAC__stream_decoder_process_until_end_of_metadata(decoder) }
        }
    }

    /// Serves `bytes` to the read callback while `step` runs; turns libFLAC's complaints into errors.
    private func feed(_ bytes: UnsafeRawBufferPointer, _ step: () -> FLAC__bool) throws {
        input = bytes
        inputOffset = 0
        failure = nil
        let ok = step()
        input = UnsafeRawBufferPointer(start: nil, count: 0)
        // A packet that ended mid-frame leaves the decoder at end of stream: start it afresh.
        if FLAC__stream_decoder_get_state(decoder) == FLAC__STREAM_DECODER_END_OF_STREAM {
            _ = FLAC__stream_decoder_flush(decoder)
            failure = failure ?? "the packet ended inside a frame"
        }
        if ok == 0 || failure != nil {
            let reason = failure ?? "decoder state \(FLAC__stream_decoder_get_state(decoder).rawValue)"
            _ = FLAC__stream_decoder_flush(decoder)
            throw AudioError(
                kAudioConverterErr_UnspecifiedError, "libFLAC could not decode a FLAC packet of \(bytes.count) bytes: \(reason).")
        }
    }

    func decode(_ packet: UnsafeRawBufferPointer, into pcm: DecodedPCM) throws {
        guard packet.count > 0 else { return }
        output = pcm
        defer { output = nil }
        try feed(packet) { FLAC__stream_decoder_process_single(decoder) }
    }

    func reset() { _ = FLAC__stream_decoder_flush(decoder) }

    fileprivate func write(_ frame: UnsafePointer<FLAC__Frame>, _ buffers: UnsafePointer<UnsafePointer<FLAC__int32>?>) -> Bool {
        let header = frame.pointee.header
        guard Int(header.channels) == channelCount, let pcm = output else {
            failure = "a frame of \(header.channels) channels in a stream of \(channelCount)"
            return false
        }
        let frames = Int(header.blocksize)
        let scale = 1 / Float(1 << (Int(header.bits_per_sample) - 1))
        let out = pcm.reserve(frames)
        for c in 0..<channelCount {
            guard let lane = buffers[c] else { return false }
            for i in 0..<frames { out[i * channelCount + c] = Float(lane[i]) * scale }
        }
        pcm.commit(frames)
        return true
    }
}

private func decoderObject(_ client: UnsafeMutableRawPointer?) -> FLACPacketDecoder {
    Unmanaged<FLACPacketDecoder>.fromOpaque(client!).takeUnretainedValue()
}

private let flacRead: FLAC__StreamDecoderReadCallback = { _, buffer, bytes, client in
    let me = decoderObject(client)
    let available = me.input.count - me.inputOffset
    guard let buffer, let bytes, available > 0, let base = me.input.baseAddress else {
        bytes?.pointee = 0
        return FLAC__STREAM_DECODER_READ_STATUS_END_OF_STREAM
    }
    let n = min(available, bytes.pointee)
    UnsafeMutableRawPointer(buffer).copyMemory(from: base + me.inputOffset, byteCount: n)
    me.inputOffset += n
    bytes.pointee = n
    return FLAC__STREAM_DECODER_READ_STATUS_CONTINUE
}

private let flacWrite: FLAC__StreamDecoderWriteCallback = { _, frame, buffers, client in
    guard let frame, let buffers else { return FLAC__STREAM_DECODER_WRITE_STATUS_ABORT }
    return decoderObject(client).write(frame, buffers)
        ? FLAC__STREAM_DECODER_WRITE_STATUS_CONTINUE : FLAC__STREAM_DECODER_WRITE_STATUS_ABORT
}

private let flacError: FLAC__StreamDecoderErrorCallback = { _, status, client in
    let me = decoderObject(client)
    let reasons = ["lost sync", "bad frame header", "frame CRC mismatch", "unparseable stream", "bad metadata"]
    me.failure = me.failure ?? (Int(status.rawValue) < reasons.count ? reasons[Int(status.rawValue)] : "libFLAC error \(status.rawValue)")
}

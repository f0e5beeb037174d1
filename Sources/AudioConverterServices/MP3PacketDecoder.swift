import AudioToolbox
import AudioTypes
import CCodecs

/// MPEG audio (layer III, and the layers I/II libmpg123 also reads) through libmpg123's feed
/// interface: each packet is fed and every frame it completes is decoded to Float32 (libmpg123's
/// own float output, so the samples are exactly what libmpg123 produces). Gapless trimming from a
/// LAME/Xing header is libmpg123's default and stays on.
final class MP3PacketDecoder: PacketDecoder {
    let channelCount: Int
    let sampleRate: Double
    private let handle: OpaquePointer

    init(_ format: AudioStreamBasicDescription) throws {
        guard (1...2).contains(format.mChannelsPerFrame) else {
            throw AudioError(kAudioConverterErr_FormatNotSupported, "MP3 carries 1 or 2 channels, not \(format.mChannelsPerFrame).")
        }
        channelCount = Int(format.mChannelsPerFrame)
        sampleRate = format.mSampleRate
        var error: Int32 = 0
        guard let h = mpg123_new(nil, &error) else {
            throw AudioError(kAudioConverterErr_UnspecifiedError, "libmpg123 could not create a decoder (error \(error)).")
        }
        handle = h
        _ = mpg123_param2(h, Int32(MPG123_ADD_FLAGS.rawValue), Int(MPG123_QUIET.rawValue), 0)
        _ = mpg123_format_none(h)
        let mode = channelCount == 1 ? MPG123_MONO : MPG123_STEREO
        let status = mpg123_format(h, Int(sampleRate), Int32(mode.rawValue), Int32(MPG123_ENC_FLOAT_32.rawValue))
        // Every stored property is set: a throw from here runs deinit, which deletes the handle
        // (deleting it here too freed it twice: found by the AudioConverter harness).
        guard status == MPG123_OK.rawValue, mpg123_open_feed(h) == MPG123_OK.rawValue else {
            throw AudioError(
                kAudioConverterErr_FormatNotSupported,
                "libmpg123 cannot decode \(sampleRate) Hz, \(channelCount) channels to Float32.")
        }
    }

    deinit { mpg123_delete(handle) }

    func decode(_ packet: UnsafeRawBufferPointer, into pcm: DecodedPCM) throws {
        guard let base = packet.baseAddress, packet.count > 0 else { return }
        guard mpg123_feed(handle, base.assumingMemoryBound(to: UInt8.self), packet.count) == MPG123_OK.rawValue else {
            throw AudioError(kAudioConverterErr_UnspecifiedError, "libmpg123 refused a packet of \(packet.count) bytes.")
        }
        while true {
            var frameNumber: off_t = 0
            var audio: UnsafeMutablePointer<UInt8>?
            var bytes = 0
            let result = mpg123_decode_frame(handle, &frameNumber, &audio, &bytes)
            switch result {
            case MPG123_NEW_FORMAT.rawValue:
                var rate = 0, channels: Int32 = 0, encoding: Int32 = 0
                _ = mpg123_getformat(handle, &rate, &channels, &encoding)
                guard Int(channels) == channelCount, Double(rate) == sampleRate else {
                    throw AudioError(
                        kAudioConverterErr_FormatNotSupported,
                        "The MP3 stream changed to \(rate) Hz, \(channels) channels; the converter was made for \(sampleRate) Hz, \(channelCount) channels."
                    )
                }
                continue
            case MPG123_OK.rawValue:
                let frames = bytes / (4 * channelCount)
                if frames > 0, let audio {
                    pcm.reserve(frames).update(
                        from: UnsafeRawPointer(audio).assumingMemoryBound(to: Float.self), count: frames * channelCount)
                    pcm.commit(frames)
                }
            case MPG123_NEED_MORE.rawValue, MPG123_DONE.rawValue:
                return
            default:
                let reason = String(cString: mpg123_plain_strerror(result))
                throw AudioError(kAudioConverterErr_UnspecifiedError, "libmpg123 could not decode an MP3 packet: \(reason).")
            }
        }
    }

    func reset() {
        // Reopening the feed forgets buffered bytes and the bit reservoir, as a seek must.
        _ = mpg123_close(handle)
        _ = mpg123_open_feed(handle)
    }
}

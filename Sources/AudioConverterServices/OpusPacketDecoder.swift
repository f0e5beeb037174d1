import AudioToolbox
import AudioTypes
import CCodecs
import Foundation

/// Opus packets through libopus's multistream decoder (which also covers the plain mono and
/// stereo streams of channel mapping family 0), always at 48 kHz. The cookie is the OpusHead
/// packet (RFC 7845 §5.1): channel count, pre-skip (dropped from the start of the output, and
/// again after a reset), output gain (applied) and the channel mapping.
final class OpusPacketDecoder: PacketDecoder {
    let channelCount: Int
    let sampleRate = 48_000.0
    private var decoder: OpaquePointer
    private let layout: (streams: Int32, coupled: Int32, mapping: [UInt8])
    private var skipLeft: Int
    private let gain: Float
    /// The longest Opus packet: 120 ms at 48 kHz.
    private static let maximumFrames = 5_760
    private let scratch: UnsafeMutablePointer<Float>

    init(_ format: AudioStreamBasicDescription, cookie: [UInt8]) throws {
        var channels = Int(format.mChannelsPerFrame)
        var streams = 1, coupled = channels == 2 ? 1 : 0
        var mapping: [UInt8] = [0, 1]
        var skip = 0, gainQ8 = 0
        if !cookie.isEmpty {
            guard cookie.count >= 19, cookie.starts(with: Array("OpusHead".utf8)), cookie[8] & 0xF0 == 0 else {
                throw AudioError(
                    kAudioConverterErr_FormatNotSupported,
                    "The Opus magic cookie must be an OpusHead packet (RFC 7845); this one (\(cookie.count) bytes) is not.")
            }
            channels = Int(cookie[9])
            skip = Int(cookie[10]) | Int(cookie[11]) << 8
            gainQ8 = Int(Int16(bitPattern: UInt16(cookie[16]) | UInt16(cookie[17]) << 8))
            if cookie[18] != 0 {
                guard cookie.count >= 21 + channels else {
                    throw AudioError(kAudioConverterErr_FormatNotSupported, "The OpusHead cookie's channel mapping table is cut short.")
                }
                streams = Int(cookie[19]); coupled = Int(cookie[20])
                mapping = Array(cookie[21..<(21 + channels)])
            } else {
                guard (1...2).contains(channels) else {
                    throw AudioError(
                        kAudioConverterErr_FormatNotSupported, "Opus mapping family 0 carries 1 or 2 channels, not \(channels).")
                }
                coupled = channels == 2 ? 1 : 0
            }
        }
        guard channels == Int(format.mChannelsPerFrame), (1...255).contains(channels) else {
            throw AudioError(
                kAudioConverterErr_FormatNotSupported,
                "The Opus stream has \(channels) channels; the source format says \(format.mChannelsPerFrame).")
        }
        guard format.mSampleRate == 48_000 else {
            throw AudioError(
                kAudioConverterErr_FormatNotSupported, "Opus decodes at 48000 Hz; the source format says \(format.mSampleRate) Hz.")
        }
        var error: Int32 = 0
        let made = mapping.withUnsafeBufferPointer {
            opus_multistream_decoder_create(48_000, Int32(channels), Int32(streams), Int32(coupled), $0.baseAddress!, &error)
        }
        guard let made, error == OPUS_OK else {
            throw AudioError(
                kAudioConverterErr_FormatNotSupported,
                "libopus refused the stream layout (\(channels) channels, \(streams) streams, \(coupled) coupled): \(String(cString: opus_strerror(error)))."
            )
        }
        decoder = made
        layout = (Int32(streams), Int32(coupled), mapping)
        channelCount = channels
        skipLeft = skip
        gain = Float(pow(10, Double(gainQ8) / (20 * 256)))
        scratch = .allocate(capacity: Self.maximumFrames * channels)
    }

    deinit {
        opus_multistream_decoder_destroy(decoder)
        scratch.deallocate()
    }

    func decode(_ packet: UnsafeRawBufferPointer, into pcm: DecodedPCM) throws {
        guard let base = packet.baseAddress, packet.count > 0 else { return }
        let frames = Int(
            opus_multistream_decode_float(
                decoder, base.assumingMemoryBound(to: UInt8.self), Int32(packet.count), scratch, Int32(Self.maximumFrames), 0))
        guard frames >= 0 else {
            throw AudioError(
                kAudioConverterErr_UnspecifiedError,
                "libopus could not decode an Opus packet of \(packet.count) bytes: \(String(cString: opus_strerror(Int32(frames)))).")
        }
        let skip = min(skipLeft, frames)
        skipLeft -= skip
        let kept = frames - skip
        guard kept > 0 else { return }
        let out = pcm.reserve(kept)
        let source = scratch + skip * channelCount
        for i in 0..<(kept * channelCount) { out[i] = source[i] * gain }
        pcm.commit(kept)
    }

    func reset() {
        // OPUS_RESET_STATE is a variadic ctl Swift cannot call: a new decoder is the same state.
        var error: Int32 = 0
        let fresh = layout.mapping.withUnsafeBufferPointer {
            opus_multistream_decoder_create(48_000, Int32(channelCount), layout.streams, layout.coupled, $0.baseAddress!, &error)
        }
        if let fresh {
            opus_multistream_decoder_destroy(decoder)
            decoder = fresh
        }
        // After a seek the packets continue mid-stream: no pre-skip again.
        skipLeft = 0
    }
}

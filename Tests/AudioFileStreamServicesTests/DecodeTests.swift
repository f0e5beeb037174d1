import AudioConverterServices
import AudioFileStreamServices
import AudioToolbox
import CodecTestSupport
import AudioTypes
import CCodecs
import XCTest

/// Compressed streams decoded to PCM: AudioFileStream's packets and cookie into AudioConverter,
/// as a streaming player does. Lossless and libmpg123 output must match exactly; lossy codecs
/// within stated tolerances of the source signal.
final class DecodeTests: XCTestCase {
    func testFLACDecodesBitExactlyToTheSourcePCM() throws {
        let source = StreamFixtures.wavData(try StreamFixtures.file("wav16"))
        let decoded = try decode("flac", to: pcmFormat(44_100, bits: 16, float: false))
        XCTAssertEqual(decoded.count, source.count)
        XCTAssertTrue(decoded == source, "16-bit FLAC decodes to the WAV's own samples")

        let source24 = StreamFixtures.wavData(try StreamFixtures.file("wav24"))
        let decoded24 = try decode("flac24", to: pcmFormat(48_000, bits: 24, float: false))
        XCTAssertEqual(decoded24.count, source24.count)
        XCTAssertTrue(decoded24 == source24, "24-bit FLAC decodes to the WAV's own samples")
    }

    func testMP3DecodesToExactlyWhatLibmpg123Gives() throws {
        let file = try StreamFixtures.file("mp3")
        let decoded = try decode("mp3", to: pcmFormat(44_100, bits: 32, float: true)).reinterpretedFloats()
        let reference = try mpg123Decode(file)
        XCTAssertGreaterThan(reference.count, 44_100 * 2 - 2_304)
        XCTAssertEqual(decoded.count, reference.count)
        XCTAssertTrue(decoded.elementsEqual(reference) { $0.bitPattern == $1.bitPattern }, "sample for sample, bit for bit")
    }

    func testVorbisAndOpusDecodeToTheSourceSinesWithinLossyTolerances() throws {
        for (name, rate) in [("ogg-vorbis", 44_100.0), ("ogg-opus", 48_000.0)] {
            let samples = try decode(name, to: pcmFormat(rate, bits: 32, float: true)).reinterpretedFloats()
            let frames = samples.count / 2
            // The source is 1 s; Vorbis gives it exactly (granule positions are not applied here,
            // so within a block), Opus after its pre-skip within a packet.
            XCTAssertEqual(Double(frames), rate, accuracy: name == "ogg-vorbis" ? 2_048 : 960, name)
            let left = stride(from: 0, to: samples.count, by: 2).map { samples[$0] }
            let right = stride(from: 1, to: samples.count, by: 2).map { samples[$0] }
            let middle = Int(rate * 0.1)..<Int(rate * 0.9)
            for (lane, frequency) in [(left, 441.0), (right, 1000.0)] {
                let fit = SineFit(lane[middle], frequency: frequency, sampleRate: rate)
                let snr = 10 * log10(fit.signalPower / fit.residualPower)
                print("\(name) \(frequency) Hz: amplitude \(fit.amplitude), signal to residual \(snr) dB")
                XCTAssertEqual(fit.amplitude, 0.5, accuracy: 0.01, name)
                XCTAssertGreaterThan(snr, 30, "\(name): lossy, but the sine comes through")
            }
        }
    }

    func testAResetAfterASeekDecodesFromTheNewPacket() throws {
        // Decode packets 10… of the FLAC stream after decoding 0…4 and a reset: the samples are
        // the source's from frame 10 × 4096 on.
        let record = try parse(try StreamFixtures.file("flac"))
        let format = try XCTUnwrap(record.properties.dataFormat)
        let out = pcmFormat(44_100, bits: 16, float: false)
        let converter = try makeConverter(format, out)
        defer { AudioConverterDispose(converter) }
        var cookie = try XCTUnwrap(record.properties.magicCookie)
        XCTAssertEqual(AudioConverterSetProperty(converter, kAudioConverterDecompressionMagicCookie, UInt32(cookie.count), &cookie), noErr)
        let ranges = packetRanges(record)
        _ = drain(converter, ConverterSource(bytes: record.bytes, packets: Array(ranges[0..<5])), output: out)
        XCTAssertEqual(AudioConverterReset(converter), noErr)
        let rest = drain(converter, ConverterSource(bytes: record.bytes, packets: Array(ranges[10...]), packetsPerCall: 3), output: out)
        let source = StreamFixtures.wavData(try StreamFixtures.file("wav16"))
        XCTAssertTrue(rest == Array(source[(10 * 4_096 * 4)...]))
    }

    func testACorruptPacketIsAnErrorNamingTheCodec() throws {
        let record = try parse(try StreamFixtures.file("flac"))
        let format = try XCTUnwrap(record.properties.dataFormat)
        let converter = try makeConverter(format, pcmFormat(44_100, bits: 16, float: false))
        defer { AudioConverterDispose(converter) }
        var cookie = try XCTUnwrap(record.properties.magicCookie)
        XCTAssertEqual(AudioConverterSetProperty(converter, kAudioConverterDecompressionMagicCookie, UInt32(cookie.count), &cookie), noErr)
        var bytes = record.bytes
        let ranges = packetRanges(record)
        bytes[ranges[0].lowerBound + 100] ^= 0xFF
        let source = ConverterSource(bytes: bytes, packets: Array(ranges.prefix(2)))
        var buffer = [UInt8](repeating: 0, count: 4_096 * 4)
        var frames: UInt32 = 4_096
        let status = buffer.withUnsafeMutableBytes { raw -> OSStatus in
            var list = AudioBufferList(
                mNumberBuffers: 1, mBuffers: AudioBuffer(mNumberChannels: 2, mDataByteSize: UInt32(raw.count), mData: raw.baseAddress))
            return AudioConverterFillComplexBuffer(
                converter, converterSourceProc, Unmanaged.passUnretained(source).toOpaque(), &frames, &list, nil)
        }
        XCTAssertEqual(status, kAudioConverterErr_UnspecifiedError)
        let message = LastErrorMessage.current ?? ""
        XCTAssertTrue(message.contains("FLAC"), message)
    }

    // MARK: Helpers

    func pcmFormat(_ rate: Double, bits: UInt32, float: Bool) -> AudioStreamBasicDescription {
        pcm(rate, 2, bits: bits, float: float)
    }

    func packetRanges(_ record: StreamRecord) -> [Range<Int>] {
        var start = 0
        return record.packetSizes.map { size in
            defer { start += Int(size) }
            return start..<(start + Int(size))
        }
    }

    /// Parses fixture `name` and decodes all its packets to `output` through AudioConverter.
    func decode(_ name: String, to output: AudioStreamBasicDescription) throws -> [UInt8] {
        let record = try parse(try StreamFixtures.file(name))
        let format = try XCTUnwrap(record.properties.dataFormat)
        let converter = try makeConverter(format, output)
        defer { AudioConverterDispose(converter) }
        if var cookie = record.properties.magicCookie {
            XCTAssertEqual(
                AudioConverterSetProperty(converter, kAudioConverterDecompressionMagicCookie, UInt32(cookie.count), &cookie), noErr)
        }
        return drain(
            converter, ConverterSource(bytes: record.bytes, packets: packetRanges(record), packetsPerCall: 4), output: output,
            request: 3_000)
    }

    /// The whole file through libmpg123 itself (feed mode, Float32 output, default gapless handling).
    func mpg123Decode(_ file: [UInt8]) throws -> [Float] {
        var error: Int32 = 0
        let handle = try XCTUnwrap(mpg123_new(nil, &error))
        defer { mpg123_delete(handle) }
        _ = mpg123_format_none(handle)
        _ = mpg123_format(handle, 44_100, Int32(MPG123_STEREO.rawValue), Int32(MPG123_ENC_FLOAT_32.rawValue))
        XCTAssertEqual(mpg123_open_feed(handle), MPG123_OK.rawValue)
        _ = file.withUnsafeBufferPointer { mpg123_feed(handle, $0.baseAddress, $0.count) }
        var out: [Float] = []
        while true {
            var number: off_t = 0
            var audio: UnsafeMutablePointer<UInt8>?
            var bytes = 0
            let result = mpg123_decode_frame(handle, &number, &audio, &bytes)
            if result == MPG123_NEW_FORMAT.rawValue { continue }
            guard result == MPG123_OK.rawValue else { break }
            if let audio, bytes > 0 {
                out += UnsafeBufferPointer(start: UnsafeRawPointer(audio).assumingMemoryBound(to: Float.self), count: bytes / 4)
            }
        }
        return out
    }
}

extension Array where Element == UInt8 {
    func reinterpretedFloats() -> [Float] { withUnsafeBytes { Array<Float>($0.bindMemory(to: Float.self)) } }
}

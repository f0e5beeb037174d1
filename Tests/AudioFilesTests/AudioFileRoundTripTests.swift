import XCTest
import AudioToolbox
@testable import AudioFiles

final class AudioFileRoundTripTests: XCTestCase {
    var directory = ""
    override func setUpWithError() throws { directory = try makeTemporaryDirectory() }
    override func tearDownWithError() throws { try? FileManager.default.removeItem(atPath: directory) }

    /// Two channels of `frames` samples on the grid of `bits` (exactly representable there),
    /// covering both full-scale ends.
    func testSignal(frames: Int, bits: Int) -> [[Float]] {
        let steps = Float(1 << min(bits - 1, 23))
        let left = (0..<frames).map { n -> Float in
            let v = Float((n * 7919) % Int(2 * steps)) - steps
            return v / steps
        }
        let right = (0..<frames).map { n -> Float in (Float(n % 200) - 100) / steps }
        return [left, right]
    }

    func roundTrip(_ type: AudioFileType, _ encoding: AudioFileEncoding, bits: Int, rate: Double = 48_000) throws -> (
        [[Float]], [[Float]], AudioFile
    ) {
        let path = "\(directory)/rt-\(type.rawValue)-\(encoding).\(type == .ogg ? "ogg" : type.rawValue.lowercased())"
        let signal = testSignal(frames: 10_000, bits: bits)
        let writer = try AudioFile.create(
            writingAt: path, type: type,
            format: AudioFileDataFormat(sampleRate: rate, channelCount: 2, encoding: encoding))
        try writer.write([Array(signal[0][..<3_000]), Array(signal[1][..<3_000])])
        try writer.write([Array(signal[0][3_000...]), Array(signal[1][3_000...])])
        XCTAssertEqual(writer.frameCount, 10_000)
        try writer.close()
        let reader = try AudioFile.open(readingAt: path)
        XCTAssertEqual(reader.fileType, type)
        XCTAssertEqual(reader.channelCount, 2)
        XCTAssertEqual(reader.sampleRate, rate)
        return (signal, try reader.read(frames: 20_000), reader)
    }

    func testPCMAndFloatFormatsRoundTripBitExactly() throws {
        let cases: [(AudioFileType, AudioFileEncoding, Int)] = [
            (.wave, .int16, 16), (.wave, .int24, 24), (.wave, .int32, 24), (.wave, .float32, 24), (.wave, .float64, 24),
            (.aiff, .int16, 16), (.aiff, .int24, 24), (.aiff, .int32, 24), (.aiff, .float32, 24),
            (.caf, .int16, 16), (.caf, .int24, 24), (.caf, .float32, 24), (.caf, .float64, 24),
            (.flac, .flac(bitDepth: 16), 16), (.flac, .flac(bitDepth: 24), 24),
        ]
        for (type, encoding, bits) in cases {
            let (written, read, reader) = try roundTrip(type, encoding, bits: bits)
            XCTAssertEqual(reader.frameCount, 10_000, "\(type) \(encoding)")
            XCTAssertEqual(reader.dataFormat.encoding, encoding, "\(type) \(encoding)")
            XCTAssertEqual(read, written, "\(type) \(encoding) is not bit-exact")
        }
    }

    func testVorbisRoundTripsWithinTolerance() throws {
        // A 1 kHz tone: Vorbis at quality 0.8 keeps it within 0.5 dB and the error 30 dB down.
        let path = "\(directory)/tone.ogg"
        let rate = 44_100.0, frames = 44_100
        let tone = (0..<frames).map { Float(0.5 * sin(2 * Double.pi * 1_000 * Double($0) / rate)) }
        let writer = try AudioFile.create(
            writingAt: path, type: .ogg,
            format: AudioFileDataFormat(sampleRate: rate, channelCount: 1, encoding: .vorbis(quality: 0.8)))
        try writer.write([tone])
        try writer.close()
        let reader = try AudioFile.open(readingAt: path)
        XCTAssertEqual(reader.fileType, .ogg)
        XCTAssertEqual(reader.frameCount, Int64(frames))
        let back = try reader.read(frames: frames)[0]
        XCTAssertEqual(back.count, frames)
        var error = 0.0, power = 0.0
        for n in 4_410..<(frames - 4_410) {
            error += Double(back[n] - tone[n]) * Double(back[n] - tone[n])
            power += Double(tone[n]) * Double(tone[n])
        }
        let snr = 10 * log10(power / error)
        print("Vorbis q0.8 1 kHz tone: SNR \(snr) dB")
        XCTAssertGreaterThan(snr, 30)
    }

    func testSeekTellAndPartialReads() throws {
        let (written, _, reader) = try roundTrip(.wave, .int16, bits: 16)
        try reader.seek(toFrame: 9_990)
        XCTAssertEqual(try reader.tell(), 9_990)
        let tail = try reader.read(frames: 100)
        XCTAssertEqual(tail[0], Array(written[0][9_990...]))
        XCTAssertEqual(try reader.read(frames: 100)[0].count, 0)
        try reader.seek(toFrame: 0)
        XCTAssertEqual(try reader.read(frames: 3)[1], Array(written[1][..<3]))
        assertAudioFileError(kAudioFilePositionError, path: reader.path) { try reader.seek(toFrame: 20_000) }
        try reader.close()
        assertAudioFileError(kAudioFileNotOpenError, path: reader.path) { _ = try reader.read(frames: 1) }
    }

    func testWritingRoundsToTheFileDepthAndClamps() throws {
        let path = "\(directory)/clamp.wav"
        let writer = try AudioFile.create(
            writingAt: path, type: .wave,
            format: AudioFileDataFormat(sampleRate: 8_000, channelCount: 1, encoding: .int16))
        try writer.write([[1.5, -2, 0.6 / 32768, -0.4 / 32768, 1]])
        try writer.close()
        let back = try AudioFile.open(readingAt: path).read(frames: 5)[0]
        XCTAssertEqual(back, [32767 / 32768, -1, 1 / 32768, 0, 32767 / 32768])
    }
}

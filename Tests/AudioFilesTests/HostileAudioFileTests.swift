import XCTest
import AudioToolbox
@testable import AudioFiles

/// Issue 21's file findings at the library boundary: headers outside `AudioFileLimits` and
/// non-regular files are refused with their documented status; an Ogg stream whose length is
/// unknown reads to its real end.
final class HostileAudioFileTests: XCTestCase {
    var directory = ""
    override func setUpWithError() throws { directory = try makeTemporaryDirectory() }
    override func tearDownWithError() throws { try? FileManager.default.removeItem(atPath: directory) }

    /// A mono float WAV of silence whose header says `rate`.
    func writeWAV(rate: UInt32, channels: UInt16 = 1, at path: String) throws {
        var data = Data()
        func u32(_ v: UInt32) { withUnsafeBytes(of: v.littleEndian) { data.append(contentsOf: $0) } }
        func u16(_ v: UInt16) { withUnsafeBytes(of: v.littleEndian) { data.append(contentsOf: $0) } }
        let frames = 100, bytes = frames * Int(channels) * 4
        data.append(contentsOf: Array("RIFF".utf8)); u32(UInt32(36 + bytes)); data.append(contentsOf: Array("WAVEfmt ".utf8))
        u32(16); u16(3); u16(channels); u32(rate); u32(rate &* 4 &* UInt32(channels)); u16(4 * channels); u16(32)
        data.append(contentsOf: Array("data".utf8)); u32(UInt32(bytes)); data.append(Data(count: bytes))
        try data.write(to: URL(fileURLWithPath: path))
    }

    func status(of body: () throws -> Void) -> OSStatus? {
        do { try body(); return nil } catch let e as AudioFileError { return e.status } catch { return nil }
    }

    func testHeaderRatesOutsideTheLimitsAreRefusedAsInvalidFiles() throws {
        let path = "\(directory)/r.wav"
        for rate: UInt32 in [2_000_000_000, 1_000_000_000, 400_000_000, UInt32(kAUHostMaximumSampleRate) + 1] {
            try writeWAV(rate: rate, at: path)
            XCTAssertEqual(status { _ = try AudioFile.open(readingAt: path) }, kAudioFileInvalidFileError, "\(rate) Hz")
        }
        for rate: UInt32 in [1, 8_000, 768_000, UInt32(kAUHostMaximumSampleRate)] {
            try writeWAV(rate: rate, at: path)
            let file = try AudioFile.open(readingAt: path)
            XCTAssertEqual(file.sampleRate, Double(rate))
            XCTAssertTrue(file.isLengthKnown)
            XCTAssertEqual(file.frameCount, 100)
        }
        XCTAssertTrue(AudioFileLimits.accepts(sampleRate: 768_000))
        XCTAssertFalse(AudioFileLimits.accepts(sampleRate: .nan))
        XCTAssertFalse(AudioFileLimits.accepts(sampleRate: .infinity))
        XCTAssertFalse(AudioFileLimits.accepts(sampleRate: 0.5))
    }

    func testAFIFOIsRefusedWithoutOpeningIt() throws {
        let path = "\(directory)/fifo"
        XCTAssertEqual(mkfifo(path, 0o600), 0)
        // No writer: opening it for reading would block for ever.
        XCTAssertEqual(status { _ = try AudioFile.open(readingAt: path) }, kAudioFileUnsupportedFileTypeError)
    }

    /// Written Ogg streams read back whole (automatic header updates corrupted them), and a cut
    /// one declares an unknown length but reads to where it was cut.
    func testAnOggStreamCutShortReadsToItsRealEnd() throws {
        let path = "\(directory)/noise.ogg"
        let frames = 96_000
        var seed: UInt32 = 7
        let noise = (0..<frames).map { _ -> Float in
            seed = seed &* 1_664_525 &+ 1_013_904_223; return Float(Int32(bitPattern: seed)) / 4.3e9
        }
        let writer = try AudioFile.create(
            writingAt: path, type: .ogg, format: AudioFileDataFormat(sampleRate: 48_000, channelCount: 1, encoding: .vorbis(quality: 0.5)),
            updatesHeaderAfterEachWrite: true)
        try writer.write([noise])
        try writer.close()
        let whole = try AudioFile.open(readingAt: path)
        XCTAssertEqual(whole.frameCount, Int64(frames))
        XCTAssertEqual(try whole.read(frames: frames * 2)[0].count, frames)

        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        try data.prefix(data.count * 2 / 3).write(to: URL(fileURLWithPath: "\(directory)/cut.ogg"))
        let cut = try AudioFile.open(readingAt: "\(directory)/cut.ogg")
        XCTAssertFalse(cut.isLengthKnown, "libsndfile declares \(cut.frameCount) frames")
        let read = try cut.read(frames: frames * 2)[0].count
        XCTAssertTrue(read > frames / 3 && read < frames, "\(read) frames")
    }
}

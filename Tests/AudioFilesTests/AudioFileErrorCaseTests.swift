import XCTest
import AudioToolbox
@testable import AudioFiles

final class AudioFileErrorCaseTests: XCTestCase {
    var directory = ""
    override func setUpWithError() throws { directory = try makeTemporaryDirectory() }
    override func tearDownWithError() throws { try? FileManager.default.removeItem(atPath: directory) }

    func writeValidWAV(_ path: String, frames: Int = 1_000) throws {
        let file = try AudioFile.create(
            writingAt: path, type: .wave,
            format: AudioFileDataFormat(sampleRate: 44_100, channelCount: 2, encoding: .int16))
        try file.write([[Float](repeating: 0.25, count: frames), [Float](repeating: -0.25, count: frames)])
        try file.close()
    }

    func testMissingFileIsFileNotFound() {
        let path = "\(directory)/nothing-here.wav"
        assertAudioFileError(OSStatus(kAudio_FileNotFoundError), path: path) { _ = try AudioFile.open(readingAt: path) }
    }

    func testWrongMagicIsUnsupportedFileType() throws {
        let path = "\(directory)/not-audio.wav"
        try Data((0..<4_096).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }).write(to: URL(fileURLWithPath: path))
        assertAudioFileError(kAudioFileUnsupportedFileTypeError, path: path) { _ = try AudioFile.open(readingAt: path) }
    }

    func testTruncatedHeaderIsInvalidFile() throws {
        let good = "\(directory)/good.wav", cut = "\(directory)/cut.wav"
        try writeValidWAV(good)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: good))
        try bytes.prefix(30).write(to: URL(fileURLWithPath: cut))  // RIFF/WAVE magic, half a fmt chunk
        assertAudioFileError(kAudioFileInvalidFileError, path: cut) { _ = try AudioFile.open(readingAt: cut) }
    }

    func testUnsupportedCodecIsUnsupportedDataFormat() throws {
        // A well-formed CAF whose 'desc' chunk says AAC, a codec libsndfile does not decode.
        let path = "\(directory)/aac.caf"
        var bytes = Data("caff".utf8) + bigEndian(UInt16(1)) + bigEndian(UInt16(0))
        bytes += Data("desc".utf8) + bigEndian(UInt64(32))
        bytes += bigEndian(Double(44_100).bitPattern) + Data("aac ".utf8)
        for field: UInt32 in [0, 0, 1_024, 2, 0] { bytes += bigEndian(field) }  // flags, bytes/packet, frames/packet, channels, bits
        bytes += Data("data".utf8) + bigEndian(UInt64(404)) + Data(count: 404)
        try bytes.write(to: URL(fileURLWithPath: path))
        assertAudioFileError(kAudioFileUnsupportedDataFormatError, path: path) { _ = try AudioFile.open(readingAt: path) }
    }

    func bigEndian<T: FixedWidthInteger>(_ value: T) -> Data {
        withUnsafeBytes(of: value.bigEndian) { Data($0) }
    }

    func testUnwritablePathsAndImpossibleFormats() throws {
        let format = AudioFileDataFormat(sampleRate: 48_000, channelCount: 1, encoding: .int16)
        let missingDirectory = "\(directory)/no/such/dir/x.wav"
        assertAudioFileError(OSStatus(kAudio_FileNotFoundError), path: missingDirectory) {
            _ = try AudioFile.create(writingAt: missingDirectory, type: .wave, format: format)
        }
        // sysfs refuses new files even to root (EACCES), so this holds whoever runs the tests.
        let refused = "/sys/auhost-test.wav"
        assertAudioFileError(kAudioFilePermissionsError, path: refused) {
            _ = try AudioFile.create(writingAt: refused, type: .wave, format: format)
        }
        let vorbisInWAV = "\(directory)/v.wav"
        assertAudioFileError(kAudioFileUnsupportedDataFormatError, path: vorbisInWAV) {
            _ = try AudioFile.create(
                writingAt: vorbisInWAV, type: .wave,
                format: AudioFileDataFormat(sampleRate: 48_000, channelCount: 1, encoding: .vorbis(quality: 0.5)))
        }
        let flac32 = "\(directory)/x.flac"
        assertAudioFileError(kAudioFileUnsupportedDataFormatError, path: flac32) {
            _ = try AudioFile.create(
                writingAt: flac32, type: .flac,
                format: AudioFileDataFormat(sampleRate: 48_000, channelCount: 1, encoding: .flac(bitDepth: 32)))
        }
        let reader = "\(directory)/r.wav"
        try writeValidWAV(reader)
        let opened = try AudioFile.open(readingAt: reader)
        assertAudioFileError(kAudioFilePermissionsError, path: reader) { try opened.write([[0]]) }
    }
}

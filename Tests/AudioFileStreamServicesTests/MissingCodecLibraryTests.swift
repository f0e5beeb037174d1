import AudioConverterServices
import AudioFileStreamServices
import AudioToolbox
import AudioTypes
import CodecTestSupport
import DSPKernels
import Foundation
import SignalTestSupport
import XCTest

/// The codec and DSP libraries are opened on first use (CLazyLibraries). On a machine without
/// one, whatever needs it fails with its documented status and a message naming the library, and
/// the process goes on; a call into the missing library would stop it. A library is tried once a
/// process, so the check runs in a child started with them taken as missing.
final class MissingCodecLibraryTests: XCTestCase {
    static let sonames = [
        "libsoxr.so.0", "libSoundTouchDll.so.1", "libmpg123.so.0", "libFLAC.so.12", "libogg.so.0", "libvorbis.so.0", "libopus.so.0",
    ]
    static let childSwitch = "AUHOST_MISSING_CODEC_LIBRARY_CHILD"

    func testEveryUserOfAMissingCodecOrDSPLibraryFailsNamingIt() throws {
        let child = try runTestInChildProcess(
            "AudioFileStreamServicesTests.MissingCodecLibraryTests/testWithoutTheLibraries",
            environment: ["AUHOST_SIMULATE_MISSING_LIBRARIES": Self.sonames.joined(separator: ","), Self.childSwitch: "1"])
        XCTAssertEqual(child.status, 0, child.output)
        XCTAssertTrue(child.output.contains("Executed 1 test, with 0 failures"), child.output)
        XCTAssertFalse(child.output.contains("skipped"), child.output)
    }

    /// Runs in the child of the test above (skipped in the suite itself).
    func testWithoutTheLibraries() throws {
        try XCTSkipUnless(ProcessInfo.processInfo.environment[Self.childSwitch] == "1", "runs in a child process of the test above")
        let float = pcm(44_100, 2, bits: 32, float: true)

        // A converter makes its decoder and rate converter when it first needs them: asking for
        // the prime info does.
        var resampled = float
        resampled.mSampleRate = 48_000
        let conversions: [(AudioFormatID, UInt32, String)] = [
            (kAudioFormatMPEGLayer3, 1_152, "libmpg123.so.0"), (kAudioFormatFLAC, 4_096, "libFLAC.so.12"),
            (kAudioFormatVorbis, 0, "libvorbis.so.0"), (kAudioFormatOpus, 960, "libopus.so.0"), (kAudioFormatLinearPCM, 1, "libsoxr.so.0"),
        ]
        for (id, framesPerPacket, soname) in conversions {
            var input = id == kAudioFormatLinearPCM ? float : AudioStreamBasicDescription()
            input.mSampleRate = id == kAudioFormatOpus ? 48_000 : 44_100
            input.mFormatID = id
            input.mFramesPerPacket = framesPerPacket
            input.mChannelsPerFrame = 2
            let converter = try makeConverter(input, id == kAudioFormatLinearPCM ? resampled : float)
            defer { AudioConverterDispose(converter) }
            var prime = AudioConverterPrimeInfo()
            var size = UInt32(MemoryLayout<AudioConverterPrimeInfo>.size)
            let status = AudioConverterGetProperty(converter, kAudioConverterPrimeInfo, &size, &prime)
            XCTAssertEqual(status, kAudioConverterErr_FormatNotSupported, soname)
            XCTAssertTrue(LastErrorMessage.current?.contains(soname) == true, "\(soname): \(LastErrorMessage.current ?? "no message")")
        }

        XCTAssertThrowsError(
            try TimePitchStretch(channels: 2, sampleRate: 44_100, maximumFrames: 512, rates: 0.5...2, pitchRatios: 0.5...2)
        ) {
            let error = $0 as? DSPKernelError
            XCTAssertEqual(error?.status, kAudioUnitErr_FailedInitialization)
            XCTAssertTrue(error?.message.contains("libSoundTouchDll.so.1") == true, "\($0)")
        }

        // An Ogg stream is recognised, then refused: its parser needs libogg and libvorbis.
        let ogg = Array("OggS".utf8) + [UInt8](repeating: 0, count: 60)
        XCTAssertThrowsError(try parse(ogg)) {
            let error = $0 as? AudioError
            XCTAssertEqual(error?.status, kAudioFileStreamError_UnsupportedFileType)
            XCTAssertTrue(error?.message.contains("libogg.so.0") == true, "\($0)")
        }

        // Without the libraries the rest still works: a WAVE stream parses.
        XCTAssertEqual(try parse(try StreamFixtures.file("wav16")).properties.dataFormat?.mFormatID, kAudioFormatLinearPCM)
    }
}

import AUHost
import Foundation
import XCTest

/// Audio File Services' packet and byte calls over linear PCM files, as the Audio Queue patterns
/// use them.
final class AudioFilePacketTests: XCTestCase {
    override func setUp() { _ = AudioQueueTestEnvironment.directory }

    private func url(_ name: String) -> CFURL {
        let path = AudioQueueTestEnvironment.path(name)
        return CFURLCreateFromFileSystemRepresentation(nil, path, CFIndex(strlen(path)), false)!
    }

    /// Written by packets (in chunks), read back by packets, by the older ReadPackets and by
    /// bytes at an odd offset: the same samples, in the byte order DataFormat states (big-endian
    /// for AIFF), with the documented properties.
    func testPacketsAndBytesRoundTripExactlyInWAVAndAIFF() throws {
        let frames = 10_000
        let samples = testSamples(frames * 2)
        for (type, bigEndian) in [(kAudioFileWAVEType, false), (kAudioFileAIFFType, true)] {
            var format = int16Format(channels: 2)
            if bigEndian { format.mFormatFlags |= kAudioFormatFlagIsBigEndian }
            let stored = bigEndian ? samples.map { $0.bigEndian } : samples
            let name = "packets-\(FourCC.string(type)).audio"
            var file: AudioFileID?
            XCTAssertEqual(AudioFileCreateWithURL(url(name), type, &format, .eraseFile, &file), noErr, lastErrorMessage)
            let writer = try XCTUnwrap(file)
            var packet: Int64 = 0
            try stored.withUnsafeBytes { raw in
                while packet < frames {
                    var count = UInt32(min(3_000, frames - Int(packet)))
                    XCTAssertEqual(
                        AudioFileWritePackets(writer, false, count * 4, nil, packet, &count, raw.baseAddress! + Int(packet) * 4), noErr,
                        lastErrorMessage)
                    packet += Int64(count)
                }
                var count = UInt32(1)
                XCTAssertEqual(
                    AudioFileWritePackets(writer, false, 4, nil, 5, &count, raw.baseAddress!), kAudioFileInvalidPacketOffsetError)
                _ = try XCTUnwrap(raw.baseAddress)
            }
            var channelLayout = AudioChannelLayout()
            var layoutSize = UInt32(MemoryLayout<AudioChannelLayout>.size)
            XCTAssertEqual(AudioFileGetProperty(writer, kAudioFilePropertyChannelLayout, &layoutSize, &channelLayout), noErr)
            XCTAssertEqual(channelLayout.mChannelLayoutTag, kAudioChannelLayoutTag_Stereo)
            XCTAssertEqual(AudioFileClose(writer), noErr)

            var opened: AudioFileID?
            XCTAssertEqual(AudioFileOpenURL(url(name), .readPermission, 0, &opened), noErr, lastErrorMessage)
            let reader = try XCTUnwrap(opened)
            defer { AudioFileClose(reader) }
            var dataFormat = AudioStreamBasicDescription()
            var size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
            XCTAssertEqual(AudioFileGetProperty(reader, kAudioFilePropertyDataFormat, &size, &dataFormat), noErr)
            XCTAssertEqual(dataFormat.mFormatFlags & kAudioFormatFlagIsBigEndian != 0, bigEndian)
            var upperBound: UInt32 = 0, maximum: UInt32 = 0, count: UInt64 = 0, byteCount: UInt64 = 0
            size = 4
            XCTAssertEqual(AudioFileGetProperty(reader, kAudioFilePropertyPacketSizeUpperBound, &size, &upperBound), noErr)
            XCTAssertEqual(AudioFileGetProperty(reader, kAudioFilePropertyMaximumPacketSize, &size, &maximum), noErr)
            size = 8
            XCTAssertEqual(AudioFileGetProperty(reader, kAudioFilePropertyAudioDataPacketCount, &size, &count), noErr)
            XCTAssertEqual(AudioFileGetProperty(reader, kAudioFilePropertyAudioDataByteCount, &size, &byteCount), noErr)
            XCTAssertEqual([upperBound, maximum], [4, 4])
            XCTAssertEqual([count, byteCount], [UInt64(frames), UInt64(frames * 4)])
            var cookieSize = UInt32(99), writable = UInt32(0)
            XCTAssertEqual(AudioFileGetPropertyInfo(reader, kAudioFilePropertyMagicCookieData, &cookieSize, &writable), noErr)
            XCTAssertEqual(cookieSize, 0, "PCM has no magic cookie")

            // ReadPacketData: the byte limit bounds the packets.
            var back = [Int16](repeating: 0, count: frames * 2)
            var bytes = UInt32(1_001 * 4 + 3), packets = UInt32(5_000)
            XCTAssertEqual(AudioFileReadPacketData(reader, false, &bytes, nil, 0, &packets, &back), noErr)
            XCTAssertEqual([packets, bytes], [1_001, 1_001 * 4])
            var rest = UInt32(frames), restBytes = UInt32(frames * 4)
            XCTAssertEqual(AudioFileReadPacketData(reader, false, &restBytes, nil, 1_001, &rest, &back[1_001 * 2]), noErr)
            XCTAssertEqual(rest, UInt32(frames - 1_001), "reads stop at the end")
            XCTAssertTrue(back == stored, "ReadPacketData changed samples (\(FourCC.string(type)))")
            var none = UInt32(10), noneBytes = UInt32(40)
            XCTAssertEqual(AudioFileReadPacketData(reader, false, &noneBytes, nil, Int64(frames), &none, &back), noErr)
            XCTAssertEqual([none, noneBytes], [0, 0], "0 packets at the end")

            // ReadPackets (no byte limit) and ReadBytes at an odd offset.
            var older = [Int16](repeating: 0, count: 200)
            var olderBytes = UInt32(0), olderPackets = UInt32(100)
            XCTAssertEqual(AudioFileReadPackets(reader, false, &olderBytes, nil, 500, &olderPackets, &older), noErr)
            XCTAssertEqual([olderPackets, olderBytes], [100, 400])
            XCTAssertTrue(older == Array(stored[1_000..<1_200]))
            var raw = [UInt8](repeating: 0, count: 7)
            var rawCount = UInt32(7)
            XCTAssertEqual(AudioFileReadBytes(reader, false, 4_001, &rawCount, &raw), noErr)
            let expectedBytes = stored.withUnsafeBytes { Array($0[4_001..<4_008]) }
            XCTAssertEqual(raw, expectedBytes)
            rawCount = 7
            XCTAssertEqual(AudioFileReadBytes(reader, false, Int64(frames * 4), &rawCount, &raw), kAudioFileEndOfFileError)
            XCTAssertEqual(rawCount, 0)
        }
    }

    /// Misuse names the file and answers the documented codes.
    func testMisuseAnswersDocumentedErrors() throws {
        var format = int16Format(channels: 1)
        var file: AudioFileID?
        XCTAssertEqual(AudioFileCreateWithURL(url("exists.wav"), kAudioFileWAVEType, &format, .eraseFile, &file), noErr)
        XCTAssertEqual(AudioFileClose(file!), noErr)
        XCTAssertEqual(AudioFileCreateWithURL(url("exists.wav"), kAudioFileWAVEType, &format, [], &file), kAudioFilePermissionsError)
        XCTAssertTrue(lastErrorMessage.contains("exists.wav"), lastErrorMessage)
        var mp3 = format
        mp3.mFormatID = kAudioFormatMPEGLayer3
        XCTAssertEqual(
            AudioFileCreateWithURL(url("x.wav"), kAudioFileWAVEType, &mp3, .eraseFile, &file), kAudioFileUnsupportedDataFormatError)
        var opened: AudioFileID?
        XCTAssertEqual(AudioFileOpenURL(url("exists.wav"), .readPermission, 0, &opened), noErr)
        var count = UInt32(1)
        var sample: Int16 = 0
        XCTAssertEqual(AudioFileWritePackets(opened!, false, 2, nil, 0, &count, &sample), kAudioFilePermissionsError)
        var bogus: UInt32 = 0
        XCTAssertEqual(AudioFileSetProperty(opened!, kAudioFilePropertyDataFormat, 4, &bogus), kAudioFileOperationNotSupportedError)
        XCTAssertEqual(AudioFileClose(opened!), noErr)
    }
}

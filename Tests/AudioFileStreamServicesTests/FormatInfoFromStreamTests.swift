import AudioToolbox
import XCTest

/// The cookies AudioFileStream hands out for real files (made by lame, flac, oggenc and opusenc)
/// give, through AudioFormatGetProperty(FormatInfo), the rate, channels and packet size the stream
/// itself reports, and FLAC's flags the source bit depth.
final class FormatInfoFromStreamTests: XCTestCase {
    func testFormatInfoFromStreamCookiesMatchesTheStream() throws {
        let expectedFlags: [String: AudioFormatFlags] = [
            "flac": kAppleLosslessFormatFlag_16BitSourceData, "flac24": kAppleLosslessFormatFlag_24BitSourceData,
        ]
        for name in ["mp3", "flac", "flac24", "ogg-vorbis", "ogg-opus"] {
            let record = try parse(try StreamFixtures.file(name))
            let stream = try XCTUnwrap(record.properties.dataFormat, name)
            let cookie = record.properties.magicCookie ?? []
            var info = AudioStreamBasicDescription()
            info.mFormatID = stream.mFormatID
            info.mSampleRate = name == "mp3" ? stream.mSampleRate : 0  // MP3 has no cookie: rate and channels are the caller's
            info.mChannelsPerFrame = name == "mp3" ? stream.mChannelsPerFrame : 0
            var size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
            let status = cookie.withUnsafeBytes {
                AudioFormatGetProperty(
                    kAudioFormatProperty_FormatInfo, UInt32(cookie.count), cookie.isEmpty ? nil : $0.baseAddress, &size, &info)
            }
            XCTAssertEqual(status, noErr, name)
            XCTAssertEqual(info.mSampleRate, stream.mSampleRate, name)
            XCTAssertEqual(info.mChannelsPerFrame, stream.mChannelsPerFrame, name)
            XCTAssertEqual(info.mBytesPerPacket, 0, name)
            if name == "mp3" || name.hasPrefix("flac") { XCTAssertEqual(info.mFramesPerPacket, stream.mFramesPerPacket, name) }
            XCTAssertEqual(info.mFormatFlags, expectedFlags[name] ?? 0, name)
        }
    }
}

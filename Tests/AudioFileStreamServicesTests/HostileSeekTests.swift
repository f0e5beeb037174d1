import AudioFileStreamServices
import AudioToolbox
import AudioTypes
import XCTest

/// AudioFileStreamSeek with packet offsets whose byte offset does not fit an SInt64 (issue 27):
/// kAudioFileStreamError_InvalidPacketOffset, where the MP3 and Ogg parsers trapped converting the
/// Double estimate to Int64 before the fix (and fixed-size packets overflowed the multiplication).
final class HostileSeekTests: XCTestCase {
    let hostile: [Int64] = [Int64.max, Int64.max - 1, Int64.max / 2, 1 << 62, (1 << 62) + 1]

    func testSeeksPastTheByteRangeAreInvalidPacketOffset() throws {
        for name in ["mp3", "ogg-vorbis", "ogg-opus", "flac", "caf-unknown-length"] {
            let file = name == "caf-unknown-length" ? try cafWithUnknownLength() : try StreamFixtures.file(name)
            let parser = AudioFileStreamParser()
            // Part of the stream, so its packet count is not known and does not bound the seek
            // (FLAC's STREAMINFO gives it: there the count refuses the same offsets first).
            try file.withUnsafeBytes { try parser.parse(UnsafeRawBufferPointer(rebasing: $0[0..<min(20_000, file.count)])) }
            XCTAssertTrue(parser.properties.readyToProducePackets, name)
            if name != "flac" { XCTAssertNil(parser.properties.audioDataPacketCount, name) }
            for packet in hostile {
                XCTAssertThrowsError(try parser.seek(toPacket: packet), "\(name) packet \(packet)") { error in
                    XCTAssertEqual((error as? AudioError)?.status, kAudioFileStreamError_InvalidPacketOffset, "\(name) packet \(packet)")
                    XCTAssertTrue((error as? AudioError)?.message.contains("\(packet)") ?? false, "\(error)")
                }
            }
            // A reachable packet still seeks.
            XCTAssertGreaterThan(try parser.seek(toPacket: 3).offset, 0, name)
        }
    }

    /// The CAF fixture with its data chunk's size set to -1 (a stream whose length is not known).
    private func cafWithUnknownLength() throws -> [UInt8] {
        var file = try StreamFixtures.file("caf")
        var i = 8
        while i + 12 <= file.count {
            let size = file[(i + 4)..<(i + 12)].reduce(0) { $0 << 8 | Int($1) }
            if file[i..<(i + 4)].elementsEqual("data".utf8) {
                for k in (i + 4)..<(i + 12) { file[k] = 0xFF }
                return file
            }
            i += 12 + size
        }
        throw XCTSkip("no data chunk in the CAF fixture")
    }
}

/// PacketToFrame / FrameToPacket with a caller's negative or huge numbers (issue 27, found reading
/// the C boundary): kAudioFileStreamError_InvalidPacketOffset; before the fix a negative mFrame
/// trapped in UInt32(_:) and mPacket × 1152 overflowed.
final class HostileTranslationTests: XCTestCase {
    func testTranslationsOfNegativeOrHugeNumbersAreInvalidPacketOffset() throws {
        let file = try StreamFixtures.file("mp3")
        let parser = AudioFileStreamParser()
        try file.withUnsafeBytes { try parser.parse(UnsafeRawBufferPointer(rebasing: $0[0..<min(8_000, file.count)])) }
        let cases: [(AudioFileStreamPropertyID, AudioFramePacketTranslation)] = [
            (kAudioFileStreamProperty_FrameToPacket, AudioFramePacketTranslation(mFrame: -1, mPacket: 0, mFrameOffsetInPacket: 0)),
            (kAudioFileStreamProperty_FrameToPacket, AudioFramePacketTranslation(mFrame: Int64.min, mPacket: 0, mFrameOffsetInPacket: 0)),
            (
                kAudioFileStreamProperty_PacketToFrame,
                AudioFramePacketTranslation(mFrame: 0, mPacket: Int64.max / 2, mFrameOffsetInPacket: 0)
            ),
            (kAudioFileStreamProperty_PacketToFrame, AudioFramePacketTranslation(mFrame: 0, mPacket: -5, mFrameOffsetInPacket: 0)),
        ]
        for (property, given) in cases {
            var value = given
            XCTAssertThrowsError(try parser.translate(property, &value), "\(given)") { error in
                XCTAssertEqual((error as? AudioError)?.status, kAudioFileStreamError_InvalidPacketOffset, "\(given)")
            }
        }
        var frame = AudioFramePacketTranslation(mFrame: 1_152 * 3 + 5, mPacket: 0, mFrameOffsetInPacket: 0)
        try parser.translate(kAudioFileStreamProperty_FrameToPacket, &frame)
        XCTAssertEqual(frame.mPacket, 3)
        XCTAssertEqual(frame.mFrameOffsetInPacket, 5)
        var packet = AudioFramePacketTranslation(mFrame: 0, mPacket: 7, mFrameOffsetInPacket: 0)
        try parser.translate(kAudioFileStreamProperty_PacketToFrame, &packet)
        XCTAssertEqual(packet.mFrame, 7 * 1_152)
    }
}

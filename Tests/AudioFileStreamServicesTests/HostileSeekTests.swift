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

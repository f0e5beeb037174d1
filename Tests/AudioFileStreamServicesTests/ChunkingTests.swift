import AudioFileStreamServices
import AudioToolbox
import XCTest

/// The bar: every supported format, fed in 1,000 random chunkings (1 byte to 64 KiB), yields the
/// same packets and properties as the file parsed in one piece.
final class ChunkingTests: XCTestCase {
    func testEveryFormatGivesTheSamePacketsAndPropertiesHoweverItIsCut() throws {
        for name in StreamFixtures.all {
            let file = try StreamFixtures.file(name)
            let whole = try parse(file)
            XCTAssertTrue(whole.properties.readyToProducePackets, name)
            XCTAssertGreaterThanOrEqual(
                whole.packetSizes.count + whole.pcmPackets, 9, "\(name): the audio comes out as packets (flac24, the fewest, has 9 frames)")
            var rng = SplitMix64(state: UInt64(name.hashValue.magnitude))
            var mismatches = 0
            for round in 0..<1_000 {
                let cuts = randomCuts(length: file.count, using: &rng)
                let record = try parse(file, cuts: cuts)
                if record != whole {
                    mismatches += 1
                    if mismatches == 1 {
                        XCTFail(
                            "\(name), round \(round): cut at \(cuts.prefix(20))… gives \(record.packetSizes.count + record.pcmPackets) packets, \(record.notifications.map { String(format: "%08x", $0) }); whole: \(whole.packetSizes.count + whole.pcmPackets), \(whole.notifications.map { String(format: "%08x", $0) })"
                        )
                    }
                }
            }
            XCTAssertEqual(mismatches, 0, name)
            // Byte-at-a-time too (the extreme cut).
            XCTAssertEqual(try parse(file, cuts: Array(1..<file.count)), whole, "\(name) one byte at a time")
        }
    }
}

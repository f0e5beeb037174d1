import LV2Host
import XCTest

/// lv2ContainsNonFinite (a vector loop whose width the loader picks) must find every NaN and
/// infinity wherever it falls in the vectors or the tail, and flag nothing else, however large.
final class LV2NonFiniteScanTests: XCTestCase {
    private func scan(_ samples: [Float]) -> Bool {
        samples.withUnsafeBufferPointer { lv2ContainsNonFinite($0.baseAddress!, count: $0.count) }
    }

    func testEveryPositionOfEveryNonFiniteValueIsFound() {
        // 100 frames: three whole 32-sample vectors and a 4-sample tail.
        for value in [Float.nan, -Float.nan, .signalingNaN, .infinity, -.infinity] {
            for position in 0..<100 {
                var samples = (0..<100).map { Float($0 % 7) * 0.1 - 0.3 }
                samples[position] = value
                XCTAssertTrue(scan(samples), "\(value) at \(position)")
            }
        }
    }

    func testEveryNonFiniteBitPatternAtTheEdgesIsFoundAndNoFiniteOne() {
        // Both sides of each boundary the scan's integer tests draw, with and without the sign bit.
        let nonFinite: [UInt32] = [0x7F80_0000, 0x7F80_0001, 0x7FC0_0000, 0x7FFF_FFFF, 0xFF80_0000, 0xFF80_0001, 0xFFFF_FFFF]
        let finite: [UInt32] = [0x7F7F_FFFF, 0xFF7F_FFFF, 0x8000_0000, 0x8000_0001, 0x0000_0001, 0x0080_0000]
        for bits in nonFinite {
            var samples = [Float](repeating: 0.5, count: 67)
            samples[bits % 2 == 0 ? 33 : 66] = Float(bitPattern: bits)
            XCTAssertTrue(scan(samples), String(bits, radix: 16))
        }
        XCTAssertFalse(scan((0..<67).map { Float(bitPattern: finite[$0 % finite.count]) }))
    }

    func testOppositeInfinitiesAndCancellingSumsAreFound() {
        var samples = [Float](repeating: 0, count: 64)
        samples[3] = .infinity
        samples[35] = -.infinity
        XCTAssertTrue(scan(samples), "inf and -inf in the same lane")
        samples[35] = 0
        samples[4] = -.infinity
        XCTAssertTrue(scan(samples), "inf and -inf in different lanes")
    }

    func testFiniteSamplesAreNeverFlagged() {
        XCTAssertFalse(scan((0..<512).map { Float($0) / 512 - 0.5 }))
        XCTAssertFalse(scan([Float](repeating: .greatestFiniteMagnitude, count: 512)), "the largest finite value is not infinite")
        XCTAssertFalse(scan([Float](repeating: -.greatestFiniteMagnitude, count: 37)))
        XCTAssertFalse(scan([.leastNonzeroMagnitude, -0.0, 0]))
        var nan = Float.nan
        XCTAssertFalse(lv2ContainsNonFinite(&nan, count: 0), "no samples to scan")
    }

    func testOnlyTheFirstCountSamplesAreScanned() {
        var samples = [Float](repeating: 0.25, count: 96)
        samples[64] = .nan
        samples.withUnsafeBufferPointer {
            XCTAssertFalse(lv2ContainsNonFinite($0.baseAddress!, count: 64))
            XCTAssertTrue(lv2ContainsNonFinite($0.baseAddress!, count: 65))
        }
    }
}

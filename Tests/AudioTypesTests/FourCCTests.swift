import XCTest
import AudioTypes

final class FourCCTests: XCTestCase {
    func testRoundTrip() {
        XCTAssertEqual(FourCC.code("aufx"), kAudioUnitType_Effect)
        XCTAssertEqual(FourCC.string(kAudioUnitType_Effect), "aufx")
        XCTAssertNil(FourCC.code("toolong"))
        XCTAssertEqual(FourCC.string(UInt32(bitPattern: kAudioUnitErr_InvalidProperty)), "-10879")
    }
}

import XCTest
import TestSupport

/// AudioUnitInstance.property(_:scope:element:as:) as Swift callers write it.
final class PropertyReadTests: XCTestCase {
    override func setUp() { registerTestUnits() }

    /// `let n: UInt32 = (try? unit.property(…)) ?? 0` type-checks with T = UInt32? as well as
    /// T = UInt32, and the compiler picks UInt32?: the read wrote 4 bytes of a 5-byte Optional and
    /// the tag byte was whatever the heap held (1 means nil), so the answer was 0 now and then
    /// (auhost validate saw no input bus in about 1 run of 100: it depends on heap addresses).
    /// Here the heap is made unlucky on purpose: the small-block caches are drained so that the
    /// next 5-byte block comes fresh from malloc proper, which M_PERTURB fills with 0xFE ^ 0xFF = 1.
    func testTheOptionalInferenceReadsTheValue() throws {
        let unit = try AudioUnitInstance(TestGainUnit.description)
        for scope in [kAudioUnitScope_Input, kAudioUnitScope_Output] {
            let held = (0..<512).map { _ in UnsafeMutableRawPointer.allocate(byteCount: 5, alignment: 4) }
            XCTAssertEqual(glibcMallopt(mPerturb, 0xFE), 1)
            let count: UInt32 = (try? unit.property(kAudioUnitProperty_ElementCount, scope: scope)) ?? 0
            _ = glibcMallopt(mPerturb, 0)
            held.forEach { $0.deallocate() }
            XCTAssertEqual(count, 1, "ElementCount of scope \(scope)")
        }
    }

    /// A value of another size than the type asked for is an error, not a half-filled value.
    func testAValueOfAnotherSizeIsRefused() throws {
        let unit = try AudioUnitInstance(TestGainUnit.description)
        XCTAssertThrowsError(try unit.property(kAudioUnitProperty_ElementCount, scope: kAudioUnitScope_Input, as: UInt64.self)) {
            XCTAssertEqual(($0 as? AudioError)?.status, kAudio_ParamError)
            XCTAssertTrue("\($0)".contains("4 bytes"), "\($0)")
        }
        XCTAssertEqual(try unit.property(kAudioUnitProperty_ElementCount, scope: kAudioUnitScope_Input, as: UInt32.self), 1)
    }
}

/// glibc's mallopt (malloc.h, which the Glibc module does not bring in) and its M_PERTURB.
@_silgen_name("mallopt") private func glibcMallopt(_ parameter: Int32, _ value: Int32) -> Int32
private let mPerturb: Int32 = -6

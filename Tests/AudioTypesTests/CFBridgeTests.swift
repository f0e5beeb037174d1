import XCTest
import AudioTypes

final class CFBridgeTests: XCTestCase {
    func testStringsRoundTripThroughRealCoreFoundation() {
        let made = CFStringCreateWithCString(nil, "héllo", CFStringBuiltInEncodings.UTF8.rawValue)!
        XCTAssertEqual(String(cfString: made), "héllo")
        XCTAssertEqual(CFStringGetLength(made), 5)
        let bridged = CFBridge.string("Delay").takeRetainedValue()
        var buffer = [CChar](repeating: 0, count: 16)
        XCTAssertEqual(CFStringGetCString(bridged, &buffer, 16, CFStringBuiltInEncodings.UTF8.rawValue), 1)
        XCTAssertEqual(String(cString: buffer), "Delay")
    }

    func testConstantStringsAreInterned() {
        let a = AUHostConstantString("name")!.takeUnretainedValue()
        let b = AUHostConstantString("name")!.takeUnretainedValue()
        XCTAssertTrue(a === b)
        XCTAssertEqual(String(cfString: a), "name")
    }

    func testClassInfoDictionaryBecomesAnXMLPropertyList() throws {
        let state: PropertyListValue = .dictionary([
            "type": .integer(Int64(kAudioUnitType_Effect)), "name": .string("Untitled"), "data": .data([1, 2, 3]),
        ])
        let dict = CFBridge.propertyList(state)
        let data = CFPropertyListCreateData(nil, dict.takeUnretainedValue(), .xmlFormat_v1_0, 0, nil)!.takeRetainedValue()
        let bytes = Array(UnsafeBufferPointer(start: CFDataGetBytePtr(data), count: CFDataGetLength(data)))
        XCTAssertTrue(String(decoding: bytes, as: UTF8.self).contains("<key>name</key>"))
        let back = CFPropertyListCreateWithData(nil, data, 0, nil, nil)!.takeRetainedValue()
        XCTAssertEqual(CFBridge.value(back), state)
        dict.release()
    }
}

import LV2Units
import XCTest

/// The host's reading of the child's lines (LV2UIMessage), which LV2PluginUI applies and the
/// UIMessages fuzz harness feeds anything: the words as ui_host_child.h spells them, and garbage
/// read as nothing rather than as a port.
final class LV2UIMessageTests: XCTestCase {
    func testTheProtocolsLinesAreReadAsTheyAreSpelled() {
        XCTAssertEqual(LV2UIMessage(line: "p 3 0.5"), .value(port: 3, value: 0.5))
        XCTAssertEqual(LV2UIMessage(line: "t 3 1"), .gesture(port: 3, begin: true))
        XCTAssertEqual(LV2UIMessage(line: "t 3 0"), .gesture(port: 3, begin: false))
        XCTAssertEqual(LV2UIMessage(line: "a 4 <urn:a> <urn:b> \"1\" ."), .atom(port: "4", text: "<urn:a> <urn:b> \"1\" ."))
        XCTAssertEqual(LV2UIMessage(line: "window 41943047"), .window(41_943_047))
        XCTAssertEqual(LV2UIMessage(line: "error no-display cannot open :9"), .error(kind: "no-display", text: "cannot open :9"))
        XCTAssertEqual(LV2UIMessage(line: "ready"), .ready)
        XCTAssertEqual(LV2UIMessage(line: "closed"), .closed)
        XCTAssertEqual(LV2UIMessage(line: "shot ok"), .shot(ok: true))
        XCTAssertEqual(LV2UIMessage(line: "shot failed"), .shot(ok: false))
    }

    func testGarbageNamesNoPort() {
        for line in ["p 4294967296 1", "p -1 1", "p 3", "p 3 1 2", "p 3 x", "t x 1", "", " ", "pp 3 1", "window", "shot"] {
            let message = LV2UIMessage(line: line)
            XCTAssertTrue([.other, .window(0)].contains(message), "\(line): \(message)")
        }
        XCTAssertEqual(LV2UIMessage(line: "a 3"), .malformedAtom)
        XCTAssertEqual(LV2UIMessage(line: "a "), .malformedAtom)
        XCTAssertEqual(LV2UIMessage(line: "window zz"), .window(0))
    }
}

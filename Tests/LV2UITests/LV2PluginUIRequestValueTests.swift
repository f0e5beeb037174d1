import AudioTypes
import Foundation
import LV2Units
import TestSupport
import XCTest

/// ui:requestValue (issue 30) with the request fixture (Fixtures/ui_fixture_atom.c): a click left
/// of x = 100 asks the host for the plug-in's #level (a patch:writable Float, so the output is
/// the input times the level only if the host's answer reached the plug-in), right of it for a
/// key the plug-in does not declare. A refused request makes the UI write 1 + status / 4 to its
/// `seen` control port; a granted one shows there when the plug-in's patch:Set reply arrives.
final class LV2PluginUIRequestValueTests: XCTestCase {
    static let seen: AudioUnitParameterID = 4
    static let level = "urn:auhost:fixture:ui-atom#level"

    func makeUnit() throws -> AudioUnitInstance { try makeFixtureUnit("urn:auhost:fixture:ui-request") }

    func testTheHostsAnswerReachesThePlugInAndItsReplyTheUI() throws {
        let display = try XvfbDisplay.shared()
        let unit = try makeUnit()
        XCTAssertEqual(try renderConstantInput(unit, 0.5), Array(repeating: 0.5, count: 256), "the level does not start at 1")
        var asked: [String] = []
        let ui = try unit.openLV2UI(display: display.name) { key, type in
            asked.append(key + " " + type)
            return "0.75"
        }
        defer { ui.close() }

        try display.click(window: ui.window, x: 50, y: 30)
        var output: [Float] = []
        XCTAssertTrue(
            try idle(ui) {
                output = (try? renderConstantInput(unit, 0.5)) ?? []
                return output.first != 0.5
            }, "the requested value did not reach the plug-in")
        XCTAssertEqual(Set(output), [0.375], "every sample is the input 0.5 at level 0.75")
        // No type from the UI: the parameter's range names it.
        XCTAssertEqual(asked, [Self.level + " http://lv2plug.in/ns/ext/atom#Float"])
        XCTAssertEqual(try unit.parameter(kLV2UnitPatchParameterBase), 0.75)
        XCTAssertTrue(try idle(ui) { (try? unit.parameter(Self.seen)) == 0.75 }, "the plug-in's reply did not reach the UI")

        // A key the plug-in does not declare: unknown, said to the UI at once, the host not asked.
        try display.click(window: ui.window, x: 150, y: 30)
        XCTAssertTrue(try idle(ui) { (try? unit.parameter(Self.seen)) == 1.5 }, "the UI was not told the key is unknown")
        XCTAssertEqual(asked.count, 1)
        XCTAssertEqual(ui.unansweredRequests, 0)
    }

    /// Opened without anyone to ask, the UI is told requests are unsupported (so that it can fall
    /// back on a dialog of its own), and nothing changes.
    func testWithoutAHandlerTheUIIsToldRequestsAreUnsupported() throws {
        let display = try XvfbDisplay.shared()
        let unit = try makeUnit()
        let ui = try unit.openLV2UI(display: display.name)
        defer { ui.close() }
        try display.click(window: ui.window, x: 50, y: 30)
        XCTAssertTrue(try idle(ui) { (try? unit.parameter(Self.seen)) == 1.75 }, "the UI was not told requests are unsupported")
        XCTAssertEqual(try renderConstantInput(unit, 0.5), Array(repeating: 0.5, count: 256))
    }

    /// A handler that declines (the user cancelled) and one whose answer is no number for a Float
    /// parameter: both are counted, and the level stays.
    func testDeclinedAndUnreadableAnswersChangeNothing() throws {
        let display = try XvfbDisplay.shared()
        let unit = try makeUnit()
        var answers: [String?] = [nil, "loud"]
        let ui = try unit.openLV2UI(display: display.name) { _, _ in answers.removeFirst() }
        defer { ui.close() }
        for _ in 0..<2 {
            let before = ui.unansweredRequests
            try display.click(window: ui.window, x: 50, y: 30)
            XCTAssertTrue(try idle(ui) { ui.unansweredRequests == before + 1 }, "the request did not arrive")
        }
        XCTAssertEqual(try renderConstantInput(unit, 0.5), Array(repeating: 0.5, count: 256))
        XCTAssertEqual(try unit.parameter(kLV2UnitPatchParameterBase), 1)
    }
}

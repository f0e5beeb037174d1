import AUHost
import LV2Units
import TestSupport
import XCTest

/// A UI that needs the plug-in's instance (instance-access, data-access) runs in the process of
/// a unit out of process, beside the plug-in. The fixture's #needs-instance bar shows the gain
/// the plug-in's last run applied, read through the instance at each idle and never from port
/// events, so what it draws can only have come from the instance.
final class LV2PluginUIBesidePluginTests: XCTestCase {
    let gain = LV2PluginUITests.gain, instanceUI = LV2PluginUITests.instanceUI

    func makeIsolatedUnit() throws -> AudioUnitInstance {
        let component = try XCTUnwrap(LV2PluginUITests.fixtures.component(uri: "urn:auhost:fixture:ui-gain"))
        let unit = try AudioUnitInstance(component, outOfProcess: true)
        try unit.initialize()
        return unit
    }

    func bar(_ display: XvfbDisplay, _ ui: LV2PluginUI) -> Int {
        LV2PluginUITests.barPixels((try? display.screenshot(window: ui.window)) ?? [])
    }

    func testTheUIShowsWhatThePluginInstanceHolds() throws {
        let display = try XvfbDisplay.shared()
        let unit = try makeIsolatedUnit()
        var supported: DarwinBoolean = false
        XCTAssertEqual(AUHostLV2UICopyInfo(unit.handle, UInt32(instanceUI), nil, nil, &supported), noErr)
        XCTAssertTrue(supported.boolValue, "a unit out of process can show a UI that needs its instance")
        try unit.setParameter(gain, 0.1)
        XCTAssertEqual(try LV2PluginUITests.renderConstant(unit), 0.1, accuracy: 1e-7)
        let ui = try unit.openLV2UI(index: instanceUI, display: display.name)
        defer { ui.close() }
        XCTAssertTrue(try idle(ui) { bar(display, ui) == 20 * 60 }, "the UI does not show the gain the plug-in ran with (0.1)")

        // The port holds 0.9 now, but the plug-in has not run with it: the instance still says 0.1.
        try unit.setParameter(gain, 0.9)
        for _ in 0..<10 {
            XCTAssertEqual(try ui.idle(), .open)
            usleep(30_000)
        }
        XCTAssertEqual(bar(display, ui), 20 * 60, "the UI drew a gain the plug-in has not run with")
        XCTAssertEqual(try LV2PluginUITests.renderConstant(unit), 0.9, accuracy: 1e-7)
        XCTAssertTrue(try idle(ui) { bar(display, ui) == 180 * 60 }, "the UI does not follow the instance (0.9)")

        // Its controls still go through the host: a click at x = 150 sets 0.75.
        try display.click(window: ui.window, x: 150, y: 30)
        XCTAssertTrue(try idle(ui) { (try? unit.parameter(gain)) == 0.75 }, "the click did not reach the parameter")
    }

    func testUninitializeClosesTheUIBeforeThePluginGoes() throws {
        let display = try XvfbDisplay.shared()
        let unit = try makeIsolatedUnit()
        let ui = try unit.openLV2UI(index: instanceUI, display: display.name)
        XCTAssertEqual(try ui.idle(), .open)
        XCTAssertThrowsError(try unit.openLV2UI(index: instanceUI, display: display.name)) { error in
            XCTAssertEqual((error as? AudioError)?.status, kAUHostLV2UIErr_LoadFailed, "\(error)")
            XCTAssertTrue("\(error)".contains("Another UI"), "\(error)")
        }
        try unit.uninitialize()
        XCTAssertTrue(try idle(ui) { (try? ui.idle()) == .closed }, "the UI outlived the plug-in's instance")
        XCTAssertThrowsError(try unit.openLV2UI(index: instanceUI, display: display.name)) { error in
            XCTAssertEqual((error as? AudioError)?.status, kAudioUnitErr_Uninitialized, "\(error)")
        }
        try unit.initialize()
        let again = try unit.openLV2UI(index: instanceUI, display: display.name)
        defer { again.close() }
        XCTAssertEqual(try again.idle(), .open)
    }

    func testAUICrashingBesideThePluginFaultsTheUnitWhichRestarts() throws {
        let display = try XvfbDisplay.shared()
        let unit = try makeIsolatedUnit()
        try unit.setParameter(gain, 0.25)
        let ui = try unit.openLV2UI(index: instanceUI, display: display.name)
        try display.click(window: ui.window, x: 20, y: 20, button: 3)
        XCTAssertThrowsError(try idle(ui) { false }) { error in
            XCTAssertEqual((error as? AudioError)?.status, kAUHostLV2UIErr_Crashed, "\(error)")
            XCTAssertTrue("\(error)".contains("signal 11"), "\(error)")
            XCTAssertTrue("\(error)".contains("unit's process"), "\(error)")
        }
        XCTAssertEqual(try ui.idle(), .closed)
        XCTAssertEqual(try LV2PluginUITests.renderConstant(unit), 0, "a unit whose process died outputs silence")
        XCTAssertEqual(AUHostIsolatedUnitRestart(unit.handle), noErr, LastErrorMessage.current ?? "")
        XCTAssertEqual(try LV2PluginUITests.renderConstant(unit), 0.25, accuracy: 1e-7, "the restarted unit lost its gain")
        let again = try unit.openLV2UI(index: instanceUI, display: display.name)
        defer { again.close() }
        XCTAssertTrue(try idle(again) { bar(display, again) == 50 * 60 }, "the reopened UI does not show the instance's 0.25")
    }
}

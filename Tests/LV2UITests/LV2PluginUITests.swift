import ALSATestSupport
import Foundation
import LV2Host
import LV2Units
import TestSupport
import XCTest

/// LV2 plug-in UIs through suil in the auhost-ui-host child, on a private Xvfb: the fixture
/// (Tests/LV2UITests/Fixtures) is a gain whose X11 UI draws the gain as a bar and sets it where
/// clicked, the same UI that segfaults when clicked, the bar as an external UI and as a Gtk2 UI, and
/// UIs that cannot open.
final class LV2PluginUITests: XCTestCase {
    // lilv lists UIs by URI: #crash, #external, #gtk, #gtk3, #needs-instance, #x11
    static let x11UI = 5, crashUI = 0, externalUI = 1, gtkUI = 2, gtk3UI = 3, instanceUI = 4
    static let gain: AudioUnitParameterID = 2

    /// The fixture bundle's folder (scripts/build-lv2-ui-fixtures.sh), built once per run.
    static let fixtureDirectory: String = {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("lv2ui-fixtures-\(getpid())").path
        let process = Process()
        process.executableURL = root.appendingPathComponent("scripts/build-lv2-ui-fixtures.sh")
        process.arguments = [output]
        process.standardOutput = FileHandle.nullDevice
        try! process.run()
        process.waitUntilExit()
        precondition(process.terminationStatus == 0, "building the LV2 UI fixtures failed")
        return output
    }()

    static let fixtures: LV2Provider = {
        let provider = LV2Provider(lv2Path: fixtureDirectory)
        ComponentRegistry.shared.install(provider)
        return provider
    }()

    func makeUnit() throws -> AudioUnitInstance { try makeFixtureUnit("urn:auhost:fixture:ui-gain") }

    func testListsTheUIsAndTheirKinds() throws {
        let unit = try makeUnit()
        let uis = unit.lv2UIs
        XCTAssertEqual(
            uis.map(\.uri), ["#crash", "#external", "#gtk", "#gtk3", "#needs-instance", "#x11"].map { "urn:auhost:fixture:ui-gain" + $0 })
        XCTAssertEqual(uis.map(\.kindName), ["X11UI", "Widget", "GtkUI", "Gtk3UI", "X11UI", "X11UI"])
        XCTAssertEqual(uis.map(\.isSupported), [true, true, true, false, false, true])

        var count: UInt32 = 0
        XCTAssertEqual(AUHostLV2UIGetCount(unit.handle, &count), noErr)
        XCTAssertEqual(count, 6)
        var uri: Unmanaged<CFString>?, kind: Unmanaged<CFString>?
        var supported: DarwinBoolean = true
        XCTAssertEqual(AUHostLV2UICopyInfo(unit.handle, UInt32(Self.gtk3UI), &uri, &kind, &supported), noErr)
        XCTAssertEqual(String(cfString: kind?.takeRetainedValue()), "http://lv2plug.in/ns/extensions/ui#Gtk3UI")
        XCTAssertEqual(String(cfString: uri?.takeRetainedValue()), "urn:auhost:fixture:ui-gain#gtk3")
        XCTAssertFalse(supported.boolValue)
        XCTAssertEqual(AUHostLV2UICopyInfo(unit.handle, 6, nil, nil, nil), kAUHostLV2UIErr_UnknownUI)
    }

    func testAClickOnTheUISetsTheParameterWithAGesture() throws {
        let display = try XvfbDisplay.shared()
        let unit = try makeUnit()
        let ui = try unit.openLV2UI(index: Self.x11UI, display: display.name)
        defer { ui.close() }
        var events: [LV2PluginUI.Event] = []
        ui.onEvent = { events.append($0) }
        let pixels = try display.screenshot(window: ui.window)
        XCTAssertGreaterThan(Set(pixels).count, 1, "the UI drew nothing (a uniform window)")

        // The bar is 200 pixels wide: a click at x = 150 means a gain of 0.75.
        try display.click(window: ui.window, x: 150, y: 30)
        XCTAssertTrue(try idle(ui) { (try? unit.parameter(Self.gain)) == 0.75 }, "the click did not reach the parameter")
        XCTAssertEqual(events, [.beginGesture(Self.gain), .valueChange(Self.gain, 0.75), .endGesture(Self.gain)])
    }

    /// The same bar as a Gtk2 widget, in the child's Gtk2 window: it draws, follows the host and
    /// takes a click (assertBarUI), and the host process still loads no toolkit.
    func testAGtk2UIShowsTakesClicksAndFollowsTheHost() throws {
        let display = try XvfbDisplay.shared()
        let (unit, ui) = try assertBarUI(Self.gtkUI, on: display, kind: "Gtk2")
        defer { withExtendedLifetime(unit) { ui.close() } }
        let maps = try String(contentsOfFile: "/proc/self/maps", encoding: .utf8)
        XCTAssertFalse(maps.contains("libgtk"), "Gtk is loaded in the host process")
    }

    /// The bar as an external UI (kx:Widget): the child finds the top-level it made, which draws,
    /// follows the host and takes a click (assertBarUI), and destroying it is `.closed`.
    func testAnExternalUIRunsInItsOwnWindow() throws {
        let display = try XvfbDisplay.shared()
        let (unit, ui) = try assertBarUI(Self.externalUI, on: display, kind: "external")
        defer { withExtendedLifetime(unit) { ui.close() } }
        try display.close(window: ui.window)
        XCTAssertTrue(try idle(ui) { (try? ui.idle()) == .closed }, "closing the external UI's window did not close it")
    }

    /// Opens the fixture's bar UI `index` with the gain at 0.1 and checks what every kind of it
    /// must do: a 20-pixel bar, 180 pixels after SetParameter 0.9, and a click at x = 150 setting
    /// 0.75 with begin/value/end gesture events. Returns the unit and its open UI.
    func assertBarUI(_ index: Int, on display: XvfbDisplay, kind: String, line: UInt = #line) throws -> (AudioUnitInstance, LV2PluginUI) {
        let unit = try makeUnit()
        try unit.setParameter(Self.gain, 0.1)
        let ui = try unit.openLV2UI(index: index, display: display.name)
        XCTAssertNotEqual(ui.window, 0, "the \(kind) UI's window was not found", line: line)
        var events: [LV2PluginUI.Event] = []
        ui.onEvent = { events.append($0) }
        func bar() -> Int { Self.barPixels((try? display.screenshot(window: ui.window)) ?? []) }
        XCTAssertTrue(try idle(ui) { bar() == 20 * 60 }, "the \(kind) UI does not show the gain 0.1 as a 20-pixel bar", line: line)
        try unit.setParameter(Self.gain, 0.9)
        XCTAssertTrue(try idle(ui) { bar() == 180 * 60 }, "the \(kind) UI does not follow the host's gain", line: line)
        try display.click(window: ui.window, x: 150, y: 30)
        XCTAssertTrue(try idle(ui) { (try? unit.parameter(Self.gain)) == 0.75 }, "the click did not reach the parameter", line: line)
        XCTAssertEqual(events, [.beginGesture(Self.gain), .valueChange(Self.gain, 0.75), .endGesture(Self.gain)], line: line)
        return (unit, ui)
    }

    func testTheHostProcessLoadsNeitherSuilNorAToolkit() throws {
        let display = try XvfbDisplay.shared()
        let unit = try makeUnit()
        let ui = try unit.openLV2UI(index: Self.x11UI, display: display.name)
        defer { ui.close() }
        XCTAssertEqual(try ui.idle(), .open)
        let maps = try String(contentsOfFile: "/proc/self/maps", encoding: .utf8)
        for library in ["libsuil", "libgtk", "libQt5", "ui_fixture_x11.so"] {
            XCTAssertFalse(maps.contains(library), "\(library) is loaded in the host process")
        }
    }

    func testAHostParameterChangeReachesTheUI() throws {
        let display = try XvfbDisplay.shared()
        let unit = try makeUnit()
        try unit.setParameter(Self.gain, 0.1)
        let ui = try unit.openLV2UI(index: Self.x11UI, display: display.name)
        defer { ui.close() }
        var before: [UInt8] = []
        XCTAssertTrue(
            try idle(ui) {
                before = (try? display.screenshot(window: ui.window)) ?? []; return Set(before).count > 1
            })

        try unit.setParameter(Self.gain, 0.9)
        var after: [UInt8] = []
        XCTAssertTrue(
            try idle(ui) {
                after = (try? display.screenshot(window: ui.window)) ?? []
                return !after.isEmpty && after != before
            }, "the UI still shows the old gain")
        // The bar grew: more of the window has the bar's colour than before.
        XCTAssertGreaterThan(Self.barPixels(after), Self.barPixels(before))
    }

    func testTheUIOfAUnitOutOfProcessDrivesTheIsolatedUnit() throws {
        let display = try XvfbDisplay.shared()
        let component = try XCTUnwrap(Self.fixtures.component(uri: "urn:auhost:fixture:ui-gain"))
        let unit = try AudioUnitInstance(component, outOfProcess: true)
        try unit.initialize()
        XCTAssertEqual(unit.lv2UIs.count, 6)
        let ui = try unit.openLV2UI(index: Self.x11UI, display: display.name)
        defer { ui.close() }
        try display.click(window: ui.window, x: 150, y: 30)
        XCTAssertTrue(try idle(ui) { (try? unit.parameter(Self.gain)) == 0.75 }, "the click did not reach the isolated unit")
        XCTAssertEqual(try Self.renderConstant(unit), 0.75, "the isolated unit does not render with the UI's gain")
    }

    func testAFactoryPresetChosenByTheHostReachesTheUI() throws {
        let display = try XvfbDisplay.shared()
        let unit = try makeUnit()
        let ui = try unit.openLV2UI(index: Self.x11UI, display: display.name)
        defer { ui.close() }
        var preset = AUPreset(presetNumber: 0, presetName: nil)
        XCTAssertEqual(
            AudioUnitSetProperty(
                unit.handle, kAudioUnitProperty_PresentPreset, kAudioUnitScope_Global, 0, &preset, UInt32(MemoryLayout<AUPreset>.size)),
            noErr)
        XCTAssertEqual(try unit.parameter(Self.gain), 1)
        // "Full" sets the gain to 1: the whole 200x60 window becomes bar.
        XCTAssertTrue(
            try idle(ui) { Self.barPixels((try? display.screenshot(window: ui.window)) ?? []) == 200 * 60 },
            "the UI does not show the preset's gain")
    }

    func testACrashingUIIsReportedTheUnitKeepsRenderingAndTheUICanBeReopened() throws {
        let display = try XvfbDisplay.shared()
        let unit = try makeUnit()
        try unit.setParameter(Self.gain, 0.5)
        let ui = try unit.openLV2UI(index: Self.crashUI, display: display.name)
        try display.click(window: ui.window, x: 20, y: 20)
        XCTAssertThrowsError(try idle(ui) { false }) { error in
            XCTAssertEqual((error as? AudioError)?.status, kAUHostLV2UIErr_Crashed)
            XCTAssertTrue("\(error)".contains("signal 11"), "\(error)")
        }
        XCTAssertEqual(try ui.idle(), .closed)
        XCTAssertEqual(try Self.renderConstant(unit), 0.5, "the unit stopped rendering")

        let again = try unit.openLV2UI(index: Self.crashUI, display: display.name)
        defer { again.close() }
        XCTAssertEqual(try again.idle(), .open)
        XCTAssertGreaterThan(Set(try display.screenshot(window: again.window)).count, 1)
    }

    func testUIsThatCannotOpenSayWhy() throws {
        let unit = try makeUnit()
        XCTAssertThrowsError(try unit.openLV2UI(index: Self.gtk3UI, display: ":0")) { error in
            XCTAssertEqual((error as? AudioError)?.status, kAUHostLV2UIErr_UnsupportedKind, "\(error)")
            XCTAssertTrue("\(error)".contains("Gtk3UI"), "\(error)")
        }
        XCTAssertThrowsError(try unit.openLV2UI(index: Self.instanceUI, display: ":0")) { error in
            XCTAssertEqual((error as? AudioError)?.status, kAUHostLV2UIErr_NeedsInstanceAccess, "\(error)")
            XCTAssertTrue("\(error)".contains("-access") && "\(error)".contains("out of process"), "\(error)")
        }
        // A display nobody serves (the highest number X allows), for each kind of window.
        for index in [Self.x11UI, Self.gtkUI, Self.externalUI] {
            XCTAssertThrowsError(try unit.openLV2UI(index: index, display: ":65535")) { error in
                XCTAssertEqual((error as? AudioError)?.status, kAUHostLV2UIErr_NoDisplay, "UI \(index): \(error)")
            }
        }
        XCTAssertThrowsError(try unit.openLV2UI(index: 7)) { error in
            XCTAssertEqual((error as? AudioError)?.status, kAUHostLV2UIErr_UnknownUI)
        }
        var ui: OpaquePointer?
        XCTAssertEqual(AUHostLV2UIOpen(unit.handle, 7, 0, nil, &ui), kAUHostLV2UIErr_UnknownUI)
        XCTAssertNil(ui)
    }

    func testAUIEmbeddedInAParentWindowLivesThereAndTakesClicks() throws {
        let display = try XvfbDisplay.shared()
        let host = try makeUnit()
        let parent = try host.openLV2UI(index: Self.x11UI, display: display.name)
        defer { parent.close() }
        // Any X11 window can be the parent; here, another UI's top-level window.
        let unit = try makeUnit()
        let ui = try unit.openLV2UI(index: Self.x11UI, parentWindow: parent.window, display: display.name)
        defer { ui.close() }
        XCTAssertNotEqual(ui.window, parent.window)
        XCTAssertTrue(try display.tree(of: parent.window).contains(String(format: "0x%lx", ui.window)), "the UI is not inside its parent")

        try display.click(window: ui.window, x: 50, y: 30)
        XCTAssertTrue(try idle(ui) { (try? unit.parameter(Self.gain)) == 0.25 }, "the click did not reach the embedded UI's unit")
        XCTAssertEqual(try host.parameter(Self.gain), 0.5, "the click reached the parent's unit")
    }

    func testClosingTheWindowEndsAuhostUICleanly() throws {
        let display = try XvfbDisplay.shared()
        let (status, text) = try runAuhost(
            ["ui", "urn:auhost:fixture:ui-gain", "--ui", "urn:auhost:fixture:ui-gain#x11", "--display", display.name]
        ) { window in
            try display.click(window: window, x: 150, y: 30)
            try display.close(window: window)
        }
        XCTAssertEqual(status, 0, text)
        XCTAssertTrue(text.contains("parameter 2 = 0.75"), text)
        XCTAssertTrue(text.contains("The UI was closed."), text)
    }

    /// `auhost play FILE UNIT --ui` on a paced device (JACK's dummy backend): the first UI AUHost
    /// can show (the fixture's #crash, which is not clicked) shows while the file plays, and
    /// closing the window stops playback there, long before the file's 60 s, with exit status 0.
    func testPlayWithTheUIStopsWhenItsWindowIsClosed() throws {
        let display = try XvfbDisplay.shared()
        let server = try DummyJACKServer.ready(name: "auhost-ui-play-test", periodFrames: 256)
        defer { server.interrupt() }
        let input = FileManager.default.temporaryDirectory.appendingPathComponent("lv2ui-play-\(getpid()).wav").path
        defer { unlink(input) }
        let sox = Process()
        sox.executableURL = URL(fileURLWithPath: "/usr/bin/sox")
        sox.arguments = ["-n", "-r", "48000", "-c", "1", "-b", "16", input, "synth", "60", "sine", "440"]
        try sox.run()
        sox.waitUntilExit()
        XCTAssertEqual(sox.terminationStatus, 0, "sox could not write the input")
        let (status, text) = try runAuhost(
            ["play", input, "urn:auhost:fixture:ui-gain", "--ui", "--jack", "--display", display.name],
            environment: ["JACK_DEFAULT_SERVER": "auhost-ui-play-test"]
        ) { window in
            try display.close(window: window)
        }
        XCTAssertEqual(status, 0, text)
        XCTAssertTrue(text.contains("Showing urn:auhost:fixture:ui-gain#crash (X11UI) of node input in window 0x"), text)
        XCTAssertTrue(text.contains("The UI was closed; playback stopped there."), text)
        let played = try XCTUnwrap(text.range(of: "Played ").map { Int(text[$0.upperBound...].prefix { $0.isNumber }) } ?? nil, text)
        XCTAssertLessThan(played, 60 * 48_000, "playback went on after the window was closed")
    }

    func testRunRefusesAUIForAGraphThatRendersIntoAFile() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lv2ui-run-\(getpid())").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try """
        {"channels": 1, "seconds": 1, "nodes": [{"name": "gain", "unit": "urn:auhost:fixture:ui-gain"}],
         "connections": [{"from": "gain", "to": "output"}], "output": {"file": "\(folder)/out.wav"}}
        """.write(toFile: folder + "/g.json", atomically: true, encoding: .utf8)
        let (status, text) = try runAuhost(["run", folder + "/g.json", "--ui", "gain"], showsWindow: false)
        XCTAssertNotEqual(status, 0)
        XCTAssertTrue(text.contains("renders into a file"), text)
    }

    /// Runs the auhost binary over the fixture bundle; when `showsWindow`, waits for its
    /// "… window 0x…" line and hands the window to `whileShowing`. Its status and output
    /// (standard output and error).
    func runAuhost(
        _ arguments: [String], environment extra: [String: String] = [:], showsWindow: Bool = true,
        whileShowing: (UInt64) throws -> Void = { _ in }
    ) throws -> (status: Int32, text: String) {
        let process = Process()
        let output = Pipe()
        process.executableURL = URL(fileURLWithPath: LV2UIChildPath.beside("auhost"))
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["LV2_PATH"] = Self.fixtureDirectory
        environment["XDG_CACHE_HOME"] = FileManager.default.temporaryDirectory.appendingPathComponent("lv2ui-cache-\(getpid())").path
        process.environment = environment.merging(extra) { $1 }
        process.standardOutput = output
        process.standardError = output
        try process.run()
        // A stuck command fails the test instead of hanging it (a deadline, not a timing).
        let watchdog = DispatchWorkItem { [process] in if process.isRunning { process.terminate() } }
        DispatchQueue.global().asyncAfter(deadline: .now() + 60, execute: watchdog)
        defer { watchdog.cancel() }
        var text = ""
        while showsWindow && !(text.contains("window 0x") && text.hasSuffix("\n")) {
            let data = output.fileHandleForReading.availableData
            if data.isEmpty { break }
            text += String(decoding: data, as: UTF8.self)
        }
        if showsWindow, let word = text.split(separator: " ").last(where: { $0.hasPrefix("0x") }) {
            let hex = word.dropFirst(2).trimmingCharacters(in: .punctuationCharacters.union(.whitespacesAndNewlines))
            try whileShowing(try XCTUnwrap(UInt64(hex, radix: 16)))
        } else if showsWindow {
            XCTFail("auhost ended before showing the UI: \(text)")
        }
        process.waitUntilExit()
        text += String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        return (process.terminationStatus, text)
    }

    func testAScreenshotIsTheWindowAsAPPM() throws {
        let display = try XvfbDisplay.shared()
        let unit = try makeUnit()
        try unit.setParameter(Self.gain, 0.25)
        let ui = try unit.openLV2UI(index: Self.x11UI, display: display.name)
        defer { ui.close() }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("lv2ui-shot-\(getpid()).ppm").path
        defer { unlink(path) }
        XCTAssertTrue(
            try idle(ui) {
                (try? ui.screenshot(to: path)) != nil && Self.barPixels(Self.ppmPixels(path)) == 50 * 60
            }, "the screenshot does not show a quarter-filled bar")
        XCTAssertEqual(Self.ppmPixels(path).count, 200 * 60 * 3)
        XCTAssertThrowsError(try ui.screenshot(to: "/nonexistent/folder/shot.ppm"))
    }

    /// The RGB bytes after a binary PPM's "P6\nW H\n255\n" header.
    static func ppmPixels(_ path: String) -> [UInt8] {
        guard let data = FileManager.default.contents(atPath: path) else { return [] }
        var newlines = 0
        guard
            let start = data.firstIndex(where: { byte in
                if byte == 10 { newlines += 1 }
                return newlines == 3
            })
        else { return [] }
        return [UInt8](data[(start + 1)...])
    }

    func testTheCAPIOpensIdlesAndCloses() throws {
        let display = try XvfbDisplay.shared()
        let unit = try makeUnit()
        var ui: OpaquePointer?
        XCTAssertEqual(AUHostLV2UIOpen(unit.handle, UInt32(Self.x11UI), 0, display.name, &ui), noErr)
        var window: UInt64 = 0
        XCTAssertEqual(AUHostLV2UIGetWindow(try XCTUnwrap(ui), &window), noErr)
        XCTAssertNotEqual(window, 0)
        XCTAssertEqual(AUHostLV2UIResize(ui!, 300, 80), noErr)
        XCTAssertEqual(AUHostLV2UIIdle(ui!), noErr)
        XCTAssertEqual(AUHostLV2UIClose(ui!), noErr)
    }

    /// Pixels in the bar's green (the fixture draws 0x20c040 on 0x303030).
    static func barPixels(_ rgb: [UInt8]) -> Int {
        stride(from: 0, to: rgb.count - 2, by: 3).filter { rgb[$0 + 1] > 0x90 && rgb[$0] < 0x60 }.count
    }

    /// Renders 256 frames of constant 1 through the unit; the first output sample.
    static func renderConstant(_ unit: AudioUnitInstance) throws -> Float { try renderConstantInput(unit, 1)[0] }
}

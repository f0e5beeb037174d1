import Foundation
import LV2Host
import LV2Units
import TestSupport
import XCTest

/// Atoms between an LV2 UI and its plug-in (issue 30), with the atom fixture
/// (Fixtures/ui_fixture_atom.c): a level the plug-in takes only as a patch:Set on its atom input,
/// answered with level + 0.5 on its atom output, and a UI that sends the level when clicked and
/// writes the answer it receives to the `seen` control port. So the output changes only if the
/// UI's atom reached the plug-in, and `seen` changes only if the plug-in's atom reached the UI.
final class LV2PluginUIAtomTests: XCTestCase {
    // lilv lists UIs by URI: #atom, #hostile
    static let atomUI = 0, hostileUI = 1
    static let seen: AudioUnitParameterID = 4

    func makeUnit() throws -> AudioUnitInstance { try makeFixtureUnit("urn:auhost:fixture:ui-atom") }

    /// The unit in a child of its own (AUHostIsolation.h): atoms cross to the plug-in's rings there.
    func makeUnitOutOfProcess() throws -> AudioUnitInstance {
        let unit = try AudioUnitInstance(
            try XCTUnwrap(LV2PluginUITests.fixtures.component(uri: "urn:auhost:fixture:ui-atom")), outOfProcess: true)
        try unit.initialize()
        return unit
    }

    func testTheUIsAtomSetsThePlugInsLevelAndThePlugInsAnswerReachesTheUI() throws {
        try checkRoundTrip(try makeUnit())
    }

    func testAtomsCrossToAUnitOutOfProcessAndBack() throws {
        try checkRoundTrip(try makeUnitOutOfProcess())
    }

    private func checkRoundTrip(_ unit: AudioUnitInstance) throws {
        let display = try XvfbDisplay.shared()
        XCTAssertEqual(try Self.render(unit), Array(repeating: 0.5, count: 256), "the level does not start at 1")
        let ui = try unit.openLV2UI(index: Self.atomUI, display: display.name)
        defer { ui.close() }

        // A click at x = 50 of 200: patch:Set #level 0.25, which only an atom input takes.
        try display.click(window: ui.window, x: 50, y: 30)
        let output = try renderUntilTheLevelMoves(unit, ui)
        XCTAssertEqual(output.count, 256)
        XCTAssertEqual(Set(output), [0.125], "every sample is the input 0.5 at level 0.25")
        // The plug-in answered 0.75 on its atom output; the UI wrote what it received to `seen`.
        XCTAssertTrue(
            try idle(ui) { (try? unit.parameter(Self.seen)) == 0.75 },
            "the plug-in's atom did not reach the UI (dropped: \(ui.droppedAtoms))")
        XCTAssertEqual(ui.droppedAtoms.toPlugin, 0)
        XCTAssertEqual(ui.droppedAtoms.toUI, 0)
    }

    /// The unit's child killed while its UI is open: the atom in flight is lost and counted, the UI
    /// stays open, and once the unit restarts its new child carries the UI's atoms both ways again.
    func testAtomsCrossAgainAfterTheUnitsChildIsRestarted() throws {
        let display = try XvfbDisplay.shared()
        let unit = try makeUnitOutOfProcess()
        let ui = try unit.openLV2UI(index: Self.atomUI, display: display.name)
        defer { ui.close() }
        var pid: UInt32 = 0
        var size = UInt32(4)
        XCTAssertEqual(
            AudioUnitGetProperty(unit.handle, kAUHostIsolatedUnitProperty_ProcessID, kAudioUnitScope_Global, 0, &pid, &size), noErr)
        kill(pid_t(bitPattern: pid), SIGKILL)
        try display.click(window: ui.window, x: 50, y: 30)
        XCTAssertTrue(try idle(ui) { ui.droppedAtoms.toPlugin > 0 }, "the atom lost with the child is not counted")
        XCTAssertEqual(try ui.idle(), .open)

        XCTAssertEqual(AUHostIsolatedUnitRestart(unit.handle), noErr)
        // A click at x = 100 of 200: level 0.5, answered with 1.0.
        try display.click(window: ui.window, x: 100, y: 30)
        XCTAssertEqual(Set(try renderUntilTheLevelMoves(unit, ui)), [0.25], "every sample is the input 0.5 at level 0.5")
        XCTAssertTrue(try idle(ui) { (try? unit.parameter(Self.seen)) == 1.0 }, "the restarted child's answer did not reach the UI")
    }

    /// Idles the UI and renders until the output leaves 0.5 (the level 1 it starts at): the UI's
    /// atom reached the plug-in. Returns the last output.
    private func renderUntilTheLevelMoves(_ unit: AudioUnitInstance, _ ui: LV2PluginUI) throws -> [Float] {
        var output: [Float] = []
        XCTAssertTrue(
            try idle(ui) {
                output = (try? Self.render(unit)) ?? []
                return output.first != 0.5
            }, "the UI's atom did not reach the plug-in")
        return output
    }

    /// The UI asks for the level (patch:Get) from its instantiate, before the child says `ready`:
    /// that atom is kept until the rings are taken, and the answer (1 + 0.5) reaches the UI.
    func testAnAtomTheUIWritesWhileOpeningIsDelivered() throws {
        try checkAtomWhileOpening(try makeUnit())
    }

    func testAnAtomTheUIWritesWhileOpeningReachesAUnitOutOfProcess() throws {
        try checkAtomWhileOpening(try makeUnitOutOfProcess())
    }

    private func checkAtomWhileOpening(_ unit: AudioUnitInstance) throws {
        let display = try XvfbDisplay.shared()
        let ui = try unit.openLV2UI(index: Self.atomUI, display: display.name)
        defer { ui.close() }
        XCTAssertTrue(
            try idle(ui) {
                _ = try? Self.render(unit)
                return (try? unit.parameter(Self.seen)) == 1.5
            }, "the UI's patch:Get from its instantiate was lost")
        XCTAssertEqual(ui.droppedAtoms.toPlugin, 0)
    }

    /// Before its good atom the hostile UI writes a 40000-byte chunk (larger than the plug-in's
    /// 32 KiB input buffer: dropped on the render thread and counted, not left blocking the ring),
    /// an atom to a control port (refused by the host and counted), one whose buffer is larger than
    /// the atom and one with atom:atomTransfer (both refused by the child, which never sends them):
    /// only the good one takes effect.
    func testAtomsAHostileUIWritesAreRefusedAndCounted() throws {
        let display = try XvfbDisplay.shared()
        let unit = try makeUnit()
        let ui = try unit.openLV2UI(index: Self.hostileUI, display: display.name)
        defer { ui.close() }
        try display.click(window: ui.window, x: 100, y: 30)
        var output: [Float] = []
        XCTAssertTrue(
            try idle(ui) {
                output = (try? Self.render(unit)) ?? []
                return output.first != 0.5
            }, "the UI's good atom did not reach the plug-in")
        XCTAssertEqual(output.count, 256)
        XCTAssertEqual(Set(output), [0.25], "every sample is the input 0.5 at level 0.5")
        XCTAssertTrue(try idle(ui) { (try? unit.parameter(Self.seen)) == 1 }, "the plug-in's atom did not reach the UI")
        XCTAssertEqual(ui.droppedAtoms.toPlugin, 2, "the chunk and the atom for the control port were not both dropped")
        XCTAssertEqual(try ui.idle(), .open)
    }

    /// The child survives what no host sends: atom lines that hold no atom, for ports that do not
    /// exist, and a line longer than any message; it still answers afterwards.
    func testTheChildSurvivesGarbageAtomLines() throws {
        let display = try XvfbDisplay.shared()
        let process = Process()
        let toChild = Pipe(), fromChild = Pipe()
        process.executableURL = URL(fileURLWithPath: LV2UIChildPath.beside("auhost-ui-host"))
        let bundle = LV2PluginUITests.fixtureDirectory + "/auhost-ui.lv2/"
        process.arguments = [
            "urn:auhost:fixture:ui-atom", "urn:auhost:fixture:ui-atom#atom", "http://lv2plug.in/ns/extensions/ui#X11UI", bundle,
            bundle + "ui_fixture_atom.so", "0", "garbage",
        ]
        var environment = ProcessInfo.processInfo.environment
        environment["DISPLAY"] = display.name
        process.environment = environment
        process.standardInput = toChild
        process.standardOutput = fromChild
        process.standardError = FileHandle.nullDevice
        try process.run()
        var received = ""
        func awaitText(_ text: String) -> Bool {
            waitUntil(poll: 10_000) {
                received += String(decoding: fromChild.fileHandleForReading.availableData, as: UTF8.self)
                return received.contains(text)
            }
        }
        XCTAssertTrue(awaitText("ready\n"), received)
        let shot = FileManager.default.temporaryDirectory.appendingPathComponent("atom-garbage-\(getpid()).ppm").path
        defer { try? FileManager.default.removeItem(atPath: shot) }
        let garbage = [
            "a", "a 3", "a 3 ", "a 3 \\", "a 3 \\q", "a 3 not turtle at all", "a 3 <urn:auhost:ui> <urn:auhost:ui#atom> [ a",
            "a 4294967295 <urn:auhost:ui> <urn:auhost:ui#atom> \"1.5\"^^<http://www.w3.org/2001/XMLSchema#float> .",
            "a 3 <urn:auhost:ui> <urn:auhost:ui#atom> \"1.5\"^^<http://www.w3.org/2001/XMLSchema#float> .",
            "a 3 " + String(repeating: "x", count: 1_200_000),
            "shot \(shot)",
        ]
        // A child that died on the garbage must fail this test, not end the test process.
        signal(SIGPIPE, SIG_IGN)
        XCTAssertNoThrow(try toChild.fileHandleForWriting.write(contentsOf: Data((garbage.joined(separator: "\n") + "\n").utf8)))
        XCTAssertTrue(awaitText("shot ok\n"), "the child stopped answering after garbage: \(received)")
        try? toChild.fileHandleForWriting.write(contentsOf: Data("quit\n".utf8))
        process.waitUntilExit()
        XCTAssertEqual(process.terminationReason, .exit)
        XCTAssertEqual(process.terminationStatus, 0)
    }

    /// lv2-examples' eg-sampler and its Gtk UI, where atoms are the whole conversation: the UI asks
    /// (patch:Get) and the plug-in answers with its sample's path and the waveform's peaks, which
    /// the UI draws above its buttons. Without atoms the top of the window stays empty. Skipped
    /// when eg-sampler is not in LV2_PATH (scripts/test-lv2-path.sh puts it there).
    func testTheSamplersGtkUIDrawsTheWaveformThePlugInSends() throws {
        guard let component = LV2Provider.component(uri: "http://lv2plug.in/plugins/eg-sampler") else {
            throw XCTSkip("eg-sampler is not in LV2_PATH (\(ProcessInfo.processInfo.environment["LV2_PATH"] ?? ""))")
        }
        let display = try XvfbDisplay.shared()
        let unit = try AudioUnitInstance(component)
        try unit.initialize()
        let ui = try unit.openLV2UI(index: 0, display: display.name)
        defer { ui.close() }
        var rgb: [UInt8] = []
        let storage = AudioBufferStorage(format: .canonical(sampleRate: 44_100, channels: 1), capacity: 256)
        var time = AudioTimeStamp()
        time.mFlags = .sampleTimeValid
        XCTAssertTrue(
            try idle(ui) {
                storage.prepare(frames: 256)
                var flags: AudioUnitRenderActionFlags = []
                _ = AudioUnitRender(unit.handle, &flags, &time, 0, 256, storage.list)
                time.mSampleTime += 256
                rgb = (try? display.screenshot(window: ui.window)) ?? []
                return Self.darkPixels(rgb.prefix(rgb.count / 4 / 3 * 3)) > 0
            }, "the sampler's UI drew no waveform in the top quarter of its window")
        XCTAssertEqual(ui.droppedAtoms.toPlugin, 0)
    }

    /// Pixels darker than the Gtk theme's grey (the waveform is drawn in black).
    static func darkPixels(_ rgb: ArraySlice<UInt8>) -> Int {
        stride(from: rgb.startIndex, to: rgb.endIndex - 2, by: 3).filter { rgb[$0] < 0x40 && rgb[$0 + 1] < 0x40 && rgb[$0 + 2] < 0x40 }
            .count
    }

    /// Renders 256 frames of constant 0.5 through the unit.
    static func render(_ unit: AudioUnitInstance) throws -> [Float] { try renderConstantInput(unit, 0.5) }
}

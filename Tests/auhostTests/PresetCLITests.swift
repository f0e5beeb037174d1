import Foundation
import XCTest

/// `auhost preset save`: an LV2 unit's settings saved as an LV2 preset bundle that lv2info lists
/// and that renders, loaded back here, exactly as the settings it was saved from.
final class PresetCLITests: XCTestCase {
    let amp = "http://lv2plug.in/plugins/eg-amp"
    var dir: URL!

    override func setUpWithError() throws { dir = try CLI.temporaryDirectory() }
    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: dir) }

    func path(_ name: String) -> String { dir.appendingPathComponent(name).path }

    /// The test run's LV2_PATH with the presets' folder in front.
    var environment: [String: String] {
        ["LV2_PATH": path("presets") + ":" + (ProcessInfo.processInfo.environment["LV2_PATH"] ?? "/usr/lib/lv2")]
    }

    func render(_ options: [String], to output: String) throws -> [Float] {
        let r = try CLI.run(["render", "-i", path("in.wav"), "-o", path(output)] + options + [amp], environment: environment)
        XCTAssertEqual(r.status, 0, r.stderr)
        return try WAV.readFloat(path(output))
    }

    func testASavedPresetIsListedByLv2infoAndRendersAsItsSettings() throws {
        try WAV.writeFloat((0..<4_800).map { Float(sin(Double($0) * 0.02)) * 0.5 }, rate: 48_000, to: path("in.wav"))
        let saved = try CLI.run(["preset", "save", amp, "Quiet Room", "-p", "gain=-12", "--into", path("presets")])
        XCTAssertEqual(saved.status, 0, saved.stderr)
        XCTAssertTrue(saved.stdout.contains("Simple_Amplifier_Quiet_Room.preset.lv2"), saved.stdout)
        let info = Process()
        info.executableURL = URL(fileURLWithPath: "/usr/bin/lv2info")
        info.arguments = [amp]
        info.environment = environment
        let pipe = Pipe()
        info.standardOutput = pipe
        try info.run()
        let listing = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        info.waitUntilExit()
        XCTAssertTrue(listing.contains("Quiet Room") || listing.contains("Quiet_Room"), "lv2info does not list the preset:\n\(listing)")

        let byPreset = try render(["--preset", "Quiet Room"], to: "preset.wav")
        let byParameter = try render(["-p", "gain=-12"], to: "parameter.wav")
        let plain = try render([], to: "plain.wav")
        XCTAssertEqual(byPreset.map(\.bitPattern), byParameter.map(\.bitPattern), "the preset renders as gain -12 dB")
        XCTAssertNotEqual(byPreset, plain)

        // Saving under the same name replaces it.
        let again = try CLI.run(["preset", "save", amp, "Quiet Room", "-p", "gain=-6", "--into", path("presets")])
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertEqual(
            try render(["--preset", "Quiet Room"], to: "preset2.wav").map(\.bitPattern),
            try render(["-p", "gain=-6"], to: "parameter2.wav").map(\.bitPattern))
    }

    func testOnlyLV2UnitsSavePresets() throws {
        let r = try CLI.run(["preset", "save", "aufx dely AUHs", "Mine", "--into", path("presets")])
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.stderr.contains("LV2 unit"), r.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: path("presets")))
    }
}

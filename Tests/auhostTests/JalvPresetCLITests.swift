import ALSATestSupport
import Foundation
import TestSupport
import XCTest

/// A preset saved by `auhost preset save` loads in jalv (lv2's reference host), headless on
/// jackd's dummy backend: `jalv -l PRESET.ttl` restores it and jalv prints the control it set.
/// (jalv 1.6.6's console `preset URI` command cannot take a URI with a dot, a bug of that
/// version fixed later, so the file is loaded as a state.)
final class JalvPresetCLITests: XCTestCase {
    let amp = "http://lv2plug.in/plugins/eg-amp"

    func testJalvLoadsTheSavedPreset() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/jalv") else { throw XCTSkip("jalv is not installed") }
        let server = try DummyJACKServer.ready(name: "auhost-jalv-preset-test", periodFrames: 64)
        defer { server.interrupt() }
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let saved = try CLI.run(["preset", "save", amp, "Quiet", "-p", "gain=-12", "--into", dir.path])
        XCTAssertEqual(saved.status, 0, saved.stderr)

        let jalv = Process()
        jalv.executableURL = URL(fileURLWithPath: "/usr/bin/jalv")
        jalv.arguments = ["-l", dir.path + "/Simple_Amplifier_Quiet.preset.lv2/Quiet.ttl", amp]
        var environment = ProcessInfo.processInfo.environment
        environment["LV2_PATH"] = dir.path + ":" + (environment["LV2_PATH"] ?? "/usr/lib/lv2")
        environment["JACK_DEFAULT_SERVER"] = "auhost-jalv-preset-test"
        jalv.environment = environment
        // jalv prints its controls once the state is loaded, then its console meets the end of
        // its input and quits; it prints through a buffer flushed at exit.
        jalv.standardInput = FileHandle.nullDevice
        let output = Pipe()
        jalv.standardOutput = output
        jalv.standardError = output
        try jalv.run()
        let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        jalv.waitUntilExit()
        XCTAssertTrue(printed.contains("gain = -12.000000"), "jalv did not report gain -12 from the preset:\n\(printed)")
    }
}

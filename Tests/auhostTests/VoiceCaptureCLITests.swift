import Foundation
import XCTest

/// `auhost capture --voice-processing` through the real binary, from ALSA's `file` plugin.
final class VoiceCaptureCLITests: XCTestCase {
    var home: URL!

    override func setUpWithError() throws {
        home = try CLI.temporaryDirectory()
        try """
        pcm.cli_raw_in {
            type file
            slave.pcm "null"
            file "/dev/null"
            infile "\(home.path)/in.raw"
            format "raw"
        }
        """.write(to: home.appendingPathComponent(".asoundrc"), atomically: true, encoding: .utf8)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: home) }

    var environment: [String: String] { ["HOME": home.path, "XDG_CONFIG_HOME": home.path] }

    /// A steady 440 Hz tone on a DC offset of 0.3 — to voice processing, stationary noise: the
    /// high-pass filter removes the offset, noise suppression takes the tone down by more than
    /// 10 dB within half a second, and the recording is as long as asked.
    func testVoiceProcessingCaptureRemovesTheOffsetAndSuppressesASteadyTone() throws {
        let tone = (0..<96_000).map { Float(0.2 * sin(2 * Double.pi * 440 * Double($0) / 48_000)) }
        var data = Data()
        for s in tone.map({ $0 + 0.3 }) { withUnsafeBytes(of: s.bitPattern.littleEndian) { data.append(contentsOf: $0) } }
        try data.write(to: home.appendingPathComponent("in.raw"))
        let output = home.appendingPathComponent("voice.wav").path
        let r = try CLI.run(
            ["capture", "-o", output, "--device", "cli_raw_in", "--duration", "1", "--channels", "1", "--voice-processing", "--no-agc"],
            environment: environment)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdout.contains("Voice processing: noise suppression, high-pass and echo cancellation"), r.stdout)
        XCTAssertTrue(r.stdout.contains("Recorded 48000 frames (1 ch, 48000 Hz)"), r.stdout)
        let recorded = try WAV.readFloat(output)
        XCTAssertEqual(recorded.count, 48_000)
        let tail = Array(recorded[24_000...])
        let mean = tail.reduce(0, +) / Float(tail.count)
        XCTAssertLessThan(abs(mean), 0.01, "the high-pass filter removes the 0.3 offset")
        let rms = (tail.map { $0 * $0 }.reduce(0, +) / Float(tail.count)).squareRoot()
        XCTAssertLessThan(
            rms, Float(0.2 / 2.0.squareRoot() * 0.316), "noise suppression takes the steady tone (RMS 0.141) down by more than 10 dB")
        XCTAssertGreaterThan(rms, 0, "the recording is not silence")
    }

    func testVoiceProcessingOptionsAreChecked() throws {
        try Data().write(to: home.appendingPathComponent("in.raw"))
        let out = home.appendingPathComponent("x.wav").path
        let noAGC = try CLI.run(["capture", "-o", out, "--device", "cli_raw_in", "--no-agc"], environment: environment)
        XCTAssertEqual(noAGC.status, 64, "--no-agc without --voice-processing is a usage error")
        XCTAssertTrue(noAGC.stderr.contains("--no-agc goes with --voice-processing"), noAGC.stderr)
        let channels = try CLI.run(
            ["capture", "-o", out, "--device", "cli_raw_in", "--voice-processing", "--channels", "4"], environment: environment)
        XCTAssertEqual(channels.status, 64)
        XCTAssertTrue(channels.stderr.contains("1 or 2 channels"), channels.stderr)
        let rate = try CLI.run(
            ["capture", "-o", out, "--device", "cli_raw_in", "--voice-processing", "--rate", "22050"], environment: environment)
        XCTAssertEqual(rate.status, 64)
        XCTAssertTrue(rate.stderr.contains("divisible by 100"), rate.stderr)
    }
}

import Foundation
import XCTest

/// `auhost capture` through the real binary: from ALSA's `file` plugin (a raw infile over `null`)
/// for exact content, and from the paced `jack` PCM (JACK's dummy backend) for Ctrl-C.
final class CaptureCLITests: XCTestCase {
    let ampURI = "http://lv2plug.in/plugins/eg-amp"
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
        pcm.cli_jack_in {
            type jack
            capture_ports { 0 system:capture_1 }
        }
        """.write(to: home.appendingPathComponent(".asoundrc"), atomically: true, encoding: .utf8)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: home) }

    var environment: [String: String] { ["HOME": home.path, "XDG_CONFIG_HOME": home.path] }

    /// Writes `samples` as the device's raw FLOAT_LE capture data (mono).
    func writeInfile(_ samples: [Float]) throws {
        var data = Data()
        for s in samples { withUnsafeBytes(of: s.bitPattern.littleEndian) { data.append(contentsOf: $0) } }
        try data.write(to: home.appendingPathComponent("in.raw"))
    }

    /// 0.25 s through eg-amp at -6 dB: exactly that many frames, each the captured sample times the gain.
    func testCaptureThroughAUnitWritesTheDurationAsked() throws {
        let samples = (0..<48_000).map { Float($0 % 100) / 200 }
        try writeInfile(samples)
        let output = home.appendingPathComponent("rec.wav").path
        let r = try CLI.run(
            ["capture", "-o", output, "--device", "cli_raw_in", "--duration", "0.25", "--channels", "1", ampURI, "-p", "x"],
            environment: environment)
        // -p is not a capture option: the parser refuses it before any device opens.
        XCTAssertEqual(r.status, 64, r.stderr)
        let ok = try CLI.run(
            ["capture", "-o", output, "--device", "cli_raw_in", "--duration", "0.25", "--channels", "1", ampURI],
            environment: environment)
        XCTAssertEqual(ok.status, 0, ok.stderr)
        XCTAssertTrue(ok.stdout.contains("Recorded 12000 frames (1 ch, 48000 Hz)"), ok.stdout)
        let recorded = try WAV.readFloat(output)
        XCTAssertEqual(recorded.count, 12_000)
        for i in 0..<recorded.count where abs(recorded[i] - samples[i]) > 1e-6 {
            return XCTFail("frame \(i): \(recorded[i]) is not \(samples[i]) (eg-amp at its default 0 dB)")
        }
    }

    func testCaptureRefusesAUnitThatCannotTakeTheChannels() throws {
        try writeInfile([0, 0])
        let r = try CLI.run(
            ["capture", "-o", home.appendingPathComponent("r.wav").path, "--device", "cli_raw_in", "--duration", "0.1", ampURI],
            environment: environment)
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.stderr.contains("Simple Amplifier does not take 2 channels at 48000 Hz"), r.stderr)
    }

    /// Ctrl-C on a paced device: the command says so, exits 0 and leaves a WAV whose header
    /// matches its length (the dummy backend captures silence).
    func testCtrlCFinishesAValidFile() throws {
        guard let jackd = ["/usr/bin/jackd", "/usr/local/bin/jackd"].first(where: { FileManager.default.isExecutableFile(atPath: $0) })
        else {
            throw XCTSkip("jackd is not installed (apt-get install jackd2)")
        }
        let serverName = "auhost-capture-test-\(getpid())"
        let server = Process()
        server.executableURL = URL(fileURLWithPath: jackd)
        server.arguments = ["--no-realtime", "-n", serverName, "-d", "dummy", "-r", "48000", "-p", "256"]
        server.standardOutput = FileHandle.nullDevice
        server.standardError = FileHandle.nullDevice
        try server.run()
        defer { if server.isRunning { kill(server.processIdentifier, SIGKILL); server.waitUntilExit() } }
        usleep(500_000)

        let output = home.appendingPathComponent("ctrlc.wav").path
        let capture = Process()
        capture.executableURL = CLI.binary
        capture.arguments = ["capture", "-o", output, "--device", "cli_jack_in", "--channels", "1"]
        capture.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
            .merging(["JACK_DEFAULT_SERVER": serverName, "JACK_NO_START_SERVER": "1"]) { $1 }
        let out = Pipe()
        capture.standardOutput = out
        capture.standardError = FileHandle.nullDevice
        try capture.run()
        // Wait (at most 20 s) for "Recording…" (the handler is installed by then), record a little, then Ctrl-C.
        nonisolated(unsafe) let collected = NSMutableData()  // under `lock`
        let lock = NSLock(), done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            while case let chunk = out.fileHandleForReading.availableData, !chunk.isEmpty {
                lock.lock(); collected.append(chunk); lock.unlock()
            }
            done.signal()
        }
        func textSoFar() -> String { lock.lock(); defer { lock.unlock() }; return String(decoding: collected as Data, as: UTF8.self) }
        let deadline = Date().addingTimeInterval(20)
        while !textSoFar().contains("Recording from") && Date() < deadline && capture.isRunning { usleep(20_000) }
        usleep(400_000)
        kill(capture.processIdentifier, SIGINT)
        if done.wait(timeout: .now() + 20) == .timedOut {
            kill(capture.processIdentifier, SIGKILL); XCTFail("capture did not stop on Ctrl-C")
        }
        capture.waitUntilExit()
        let seen = Data(textSoFar().utf8)
        let text = String(decoding: seen, as: UTF8.self)
        XCTAssertEqual(capture.terminationStatus, 0, text)
        XCTAssertTrue(text.contains("(stopped by Ctrl-C)"), text)
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: output)))
        func u32(_ i: Int) -> Int { Int(bytes[i]) | Int(bytes[i + 1]) << 8 | Int(bytes[i + 2]) << 16 | Int(bytes[i + 3]) << 24 }
        XCTAssertEqual(u32(4) + 8, bytes.count, "the RIFF size covers the file")
        let recorded = try WAV.readFloat(output)
        XCTAssertGreaterThan(recorded.count, 0)
        XCTAssertEqual(recorded.map(abs).max(), 0, "the dummy backend captures silence")
    }
}

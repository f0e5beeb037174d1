import Foundation
import TestSupport
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
        guard try jackServerRuns(serverName, jackd: jackd) else { return XCTFail("jackd \(serverName) did not come up within 30 s") }

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
        nonisolated(unsafe) let collected = NSMutableData()
        let lock = NSLock(), done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            while case let chunk = out.fileHandleForReading.availableData, !chunk.isEmpty {
                lock.lock(); collected.append(chunk); lock.unlock()
            }
            done.signal()
        }
        func textSoFar() -> String { lock.lock(); defer { lock.unlock() }; return String(decoding: collected as Data, as: UTF8.self) }
        _ = waitUntil(timeout: 20, poll: 20_000) { textSoFar().contains("Recording from") || !capture.isRunning }
        guard textSoFar().contains("Recording from") else {
            if capture.isRunning { kill(capture.processIdentifier, SIGKILL) }
            capture.waitUntilExit()
            return XCTFail("capture did not start recording within 20 s:\n\(textSoFar())")
        }
        // Ctrl-C once frames have reached the file, so that there is something to keep. Until then
        // it is staged beside the target as ".ctrlc.wav.auhost-PID.partial.wav" (StagedOutput).
        func stagedSampleBytes() -> Int {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: home.path)) ?? []
            return names.filter { $0.hasPrefix(".ctrlc.wav.") }.map { wavSampleBytes(home.appendingPathComponent($0).path) }.max() ?? 0
        }
        if !waitUntil(timeout: 20, poll: 20_000, { stagedSampleBytes() > 0 }) {
            XCTFail("no frames reached the staged \(output) within 20 s of \"Recording from\"")
        }
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

    /// Whether JACK server `name` takes clients within 30 s, as jack_wait (installed with jackd) sees it.
    func jackServerRuns(_ name: String, jackd: String) throws -> Bool {
        let jackWait = URL(fileURLWithPath: jackd).deletingLastPathComponent().appendingPathComponent("jack_wait")
        try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: jackWait.path), "jack_wait is not installed beside jackd")
        return waitUntil(timeout: 30, poll: 100_000) {
            let check = Process()
            check.executableURL = jackWait
            check.arguments = ["-s", name, "-c"]  // prints "running" or "not running"
            check.environment = ProcessInfo.processInfo.environment.merging(["JACK_NO_START_SERVER": "1"]) { $1 }
            let out = Pipe()
            check.standardOutput = out
            check.standardError = FileHandle.nullDevice
            guard (try? check.run()) != nil else { return false }
            let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            check.waitUntilExit()
            return text.hasPrefix("running")
        }
    }

    /// The bytes of samples the WAV at `path` holds so far (0 before its 'data' chunk has any).
    func wavSampleBytes(_ path: String) -> Int {
        guard let data = FileManager.default.contents(atPath: path) else { return 0 }
        let bytes = [UInt8](data)
        var offset = 12
        while offset + 8 <= bytes.count {
            if bytes[offset..<offset + 4].elementsEqual("data".utf8) { return bytes.count - offset - 8 }
            let size = Int(bytes[offset + 4]) | Int(bytes[offset + 5]) << 8 | Int(bytes[offset + 6]) << 16 | Int(bytes[offset + 7]) << 24
            offset += 8 + size + (size & 1)
        }
        return 0
    }
}

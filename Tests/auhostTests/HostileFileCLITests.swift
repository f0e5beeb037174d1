import Foundation
import XCTest

/// Issue 21's file findings replayed through the real binary: an output that is the input, a
/// killed or failing render over an existing file, a truncated Ogg stream (Int64.max frames),
/// header rates of 400 MHz…2 GHz, a FIFO as input. Each ends with an error or a right result
/// within the time limit, and no input or existing output changes.
final class HostileFileCLITests: XCTestCase {
    let ampURI = "http://lv2plug.in/plugins/eg-amp"
    var dir: URL!

    override func setUpWithError() throws { dir = try CLI.temporaryDirectory() }
    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: dir) }

    func path(_ name: String) -> String { dir.appendingPathComponent(name).path }

    func contents(_ name: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path(name))) }

    /// Files left in the test folder other than `expected` (a stray ".partial" would show here).
    func strayFiles(besides expected: Set<String>) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { !expected.contains($0) && !$0.hasPrefix(".std") }
    }

    /// Runs auhost and kills it (by its pid) after `seconds`: the test then fails, as a hang.
    func run(_ arguments: [String], seconds: Double = 60) throws -> CLI.Result {
        let process = Process()
        process.executableURL = CLI.binary
        process.arguments = arguments
        let outFile = path(".stdout-\(UUID().uuidString)"), errFile = path(".stderr-\(UUID().uuidString)")
        XCTAssertTrue(FileManager.default.createFile(atPath: outFile, contents: nil))
        XCTAssertTrue(FileManager.default.createFile(atPath: errFile, contents: nil))
        defer { try? FileManager.default.removeItem(atPath: outFile); try? FileManager.default.removeItem(atPath: errFile) }
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: outFile))
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: errFile))
        try process.run()
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning && Date() < deadline { usleep(10_000) }
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            XCTFail("auhost \(arguments.joined(separator: " ")) ran for more than \(seconds) s")
        }
        process.waitUntilExit()
        return CLI.Result(
            status: process.terminationStatus, stdout: try String(contentsOfFile: outFile, encoding: .utf8),
            stderr: try String(contentsOfFile: errFile, encoding: .utf8))
    }

    // MARK: - Nothing a user asked to keep is lost

    func testRenderRefusesAnOutputThatIsTheInputHoweverNamed() throws {
        try WAV.writeFloat((0..<4_800).map { Float($0 % 100) / 100 }, rate: 48_000, to: path("x.wav"))
        let before = try contents("x.wav")
        try FileManager.default.createSymbolicLink(atPath: path("link.wav"), withDestinationPath: "x.wav")
        try FileManager.default.linkItem(atPath: path("x.wav"), toPath: path("hard.wav"))
        let cwd = FileManager.default.currentDirectoryPath
        XCTAssertTrue(FileManager.default.changeCurrentDirectoryPath(dir.path))
        defer { _ = FileManager.default.changeCurrentDirectoryPath(cwd) }
        for (input, output) in [
            ("x.wav", "x.wav"), ("x.wav", "./x.wav"), ("link.wav", "x.wav"), ("x.wav", "link.wav"), ("hard.wav", "x.wav"),
        ] {
            for extra in [["aufx dely AUHs"], ["--graph", "/nonexistent.json"]] {
                let r = try CLI.run(["render", "-i", input, "-o", output] + extra)
                XCTAssertNotEqual(r.status, 0, "\(input) → \(output)")
                XCTAssertTrue(r.stderr.contains("is the input"), r.stderr)
                XCTAssertEqual(try contents("x.wav"), before, "\(input) → \(output) changed the input")
            }
        }
        XCTAssertEqual(try strayFiles(besides: ["x.wav", "link.wav", "hard.wav"]), [])
    }

    func testRunRefusesAGraphWhoseOutputIsItsInput() throws {
        try WAV.writeFloat([0.25, 0.5], rate: 48_000, to: path("x.wav"))
        let before = try contents("x.wav")
        let graph = #"{"input": "x.wav", "nodes": [{"unit": "aufx dely AUHs"}], "output": {"file": "./x.wav"}}"#
        try graph.write(toFile: path("g.json"), atomically: true, encoding: .utf8)
        let r = try CLI.run(["run", path("g.json")])
        XCTAssertNotEqual(r.status, 0)
        XCTAssertTrue(r.stderr.contains("g.json:1:") && r.stderr.contains("is the input"), r.stderr)
        XCTAssertEqual(try contents("x.wav"), before)
    }

    /// A render killed by SIGTERM (or SIGKILL) mid-way leaves the file that stood at the output as
    /// it was; SIGTERM also removes the partial file.
    func testAKilledRenderLeavesTheExistingOutputAsItWas() throws {
        try WAV.writeFloat((0..<48_000).map { Float($0 % 480) / 480 }, rate: 48_000, to: path("in.wav"))
        try WAV.writeFloat([1, 2, 3], rate: 48_000, to: path("out.wav"))
        let before = try contents("out.wav")
        for signal in [SIGTERM, SIGKILL] {
            let process = Process()
            process.executableURL = CLI.binary
            // An hour of tail: far longer than the test waits.
            process.arguments = ["render", "-i", path("in.wav"), "-o", path("out.wav"), "aufx dely AUHs", "--tail", "3600"]
            process.standardOutput = FileHandle.nullDevice
            try process.run()
            // Kill it once the partial output has data in it.
            let deadline = Date().addingTimeInterval(30)
            var started = false
            while Date() < deadline && !started {
                let partial = try strayFiles(besides: ["in.wav", "out.wav"]).first { $0.hasPrefix(".out.wav.auhost-") }
                if let partial, let size = try? FileManager.default.attributesOfItem(atPath: path(partial))[.size] as? Int, size > 1_000_000
                {
                    started = true
                } else {
                    usleep(20_000)
                }
            }
            XCTAssertTrue(started, "the render wrote its partial file")
            kill(process.processIdentifier, signal)
            process.waitUntilExit()
            XCTAssertEqual(process.terminationReason, .uncaughtSignal)
            XCTAssertEqual(try contents("out.wav"), before, "signal \(signal) changed the existing output")
            if signal == SIGTERM { XCTAssertEqual(try strayFiles(besides: ["in.wav", "out.wav"]), [], "SIGTERM removes the partial file") }
        }
    }

    /// A render whose writes fail (here: the file size limit, as a full disk would) leaves the
    /// existing output as it was.
    func testAFailingRenderLeavesTheExistingOutputAsItWas() throws {
        try WAV.writeFloat((0..<48_000).map { Float($0 % 480) / 480 }, rate: 48_000, to: path("in.wav"))
        try WAV.writeFloat([1, 2, 3], rate: 48_000, to: path("out.wav"))
        let before = try contents("out.wav")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        // ulimit -f counts 1024-byte blocks: 100 KB is reached long before 10 s of tail is written.
        process.arguments = [
            "-c", "ulimit -f 100; exec \"$0\" render -i \"$1\" -o \"$2\" 'aufx dely AUHs' --tail 10",
            CLI.binary.path, path("in.wav"), path("out.wav"),
        ]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        XCTAssertFalse(process.terminationReason == .exit && process.terminationStatus == 0, "the render cannot succeed")
        XCTAssertEqual(try contents("out.wav"), before)
    }

    // MARK: - Lengths and rates from headers

    /// A truncated Ogg Vorbis stream declares Int64.max frames: it is read to its real end through
    /// a unit with a tail, one without, a graph and `run`, and each output is as long as what was
    /// really there plus the tail asked for.
    func testATruncatedOggStreamIsReadToItsRealEnd() throws {
        let frames = 5 * 48_000
        // Noise (a fixed LCG): Vorbis spends many pages on it, so a cut leaves whole pages to decode.
        var seed: UInt32 = 1
        let noise = (0..<frames).map { _ -> Float in
            seed = seed &* 1_664_525 &+ 1_013_904_223; return Float(Int32(bitPattern: seed)) / 4.3e9
        }
        try WAV.writeFloat(noise, rate: 48_000, to: path("in.wav"))
        let encode = try run(["render", "-i", path("in.wav"), "-o", path("full.ogg"), ampURI, "--tail", "0"])
        XCTAssertEqual(encode.status, 0, encode.stderr)
        // The whole stream reads back (libsndfile's automatic header updates used to corrupt Ogg).
        let whole = try run(["render", "-i", path("full.ogg"), "-o", path("whole.wav"), ampURI, "--tail", "0"])
        XCTAssertEqual(whole.status, 0, whole.stderr)
        XCTAssertEqual(try WAV.readFloat(path("whole.wav")).count, frames)

        let data = try contents("full.ogg")
        try data.prefix(data.count * 2 / 3).write(to: URL(fileURLWithPath: path("cut.ogg")))
        let noTail = try run(["render", "-i", path("cut.ogg"), "-o", path("a.wav"), ampURI])
        XCTAssertEqual(noTail.status, 0, noTail.stderr)
        let real = try WAV.readFloat(path("a.wav")).count
        XCTAssertTrue(real > 0 && real < frames, "\(real) frames of a stream cut at two thirds")

        let tail = try run(["render", "-i", path("cut.ogg"), "-o", path("b.wav"), "aufx dely AUHs", "--tail", "0.5"])
        XCTAssertEqual(tail.status, 0, tail.stderr)
        XCTAssertEqual(try WAV.readFloat(path("b.wav")).count, real + 24_000)
        let ownTail = try run(["render", "-i", path("cut.ogg"), "-o", path("c.wav"), "aufx dely AUHs"])
        XCTAssertEqual(ownTail.status, 0, ownTail.stderr)

        let graph = #"{"nodes": [{"unit": "\#(ampURI)"}], "output": {"file": "g.wav"}, "input": "cut.ogg"}"#
        try graph.write(toFile: path("g.json"), atomically: true, encoding: .utf8)
        let viaGraph = try run(["render", "-i", path("cut.ogg"), "-o", path("d.wav"), "--graph", path("g.json"), "--tail", "0"])
        XCTAssertEqual(viaGraph.status, 0, viaGraph.stderr)
        XCTAssertEqual(try WAV.readFloat(path("d.wav")).count, real)
        let viaRun = try run(["run", path("g.json")])
        XCTAssertEqual(viaRun.status, 0, viaRun.stderr)
        XCTAssertEqual(try WAV.readFloat(path("g.wav")).count, real)
    }

    /// WAV headers claiming 2 GHz (a 16 GB delay line), 1 GHz and 400 MHz (a tail of 4.4e9 frames)
    /// are refused at once, naming the file and the accepted range.
    func testHeaderSampleRatesOutsideTheStatedRangeAreRefused() throws {
        for rate in [2_000_000_000, 1_000_000_000, 400_000_000, 0] {
            try Self.writeWAVHeader(rate: UInt32(rate), frames: 1_000, to: path("r.wav"))
            for unit in ["aufx dely AUHs", ampURI] {
                let r = try run(["render", "-i", path("r.wav"), "-o", path("o.wav"), unit], seconds: 10)
                XCTAssertNotEqual(r.status, 0, "\(rate) Hz through \(unit)")
                if rate > 0 {
                    XCTAssertTrue(
                        r.stderr.contains("r.wav declares 1 channels at \(rate) Hz") && r.stderr.contains("1…1536000 Hz"), r.stderr)
                }
            }
            let g = try run(["render", "-i", path("r.wav"), "-o", path("o.wav"), "--graph", try graphFile()], seconds: 10)
            XCTAssertNotEqual(g.status, 0)
            XCTAssertTrue(g.stderr.contains("r.wav"), g.stderr)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: path("o.wav")))
        // The top of the range is accepted.
        try Self.writeWAVHeader(rate: 768_000, frames: 1_000, to: path("r.wav"))
        let ok = try run(["render", "-i", path("r.wav"), "-o", path("o.wav"), "aufx dely AUHs", "--tail", "0"])
        XCTAssertEqual(ok.status, 0, ok.stderr)
        XCTAssertEqual(try WAV.readFloat(path("o.wav")).count, 1_000)
    }

    func testAFIFOWithNoWriterIsRefusedAtOnce() throws {
        XCTAssertEqual(mkfifo(path("fifo"), 0o600), 0)
        for extra in [["aufx dely AUHs"], ["--graph", try graphFile()]] {
            let r = try run(["render", "-i", path("fifo"), "-o", path("o.wav")] + extra, seconds: 10)
            XCTAssertNotEqual(r.status, 0)
            XCTAssertTrue(r.stderr.contains("fifo is not a regular file"), r.stderr)
        }
    }

    func graphFile() throws -> String {
        try #"{"nodes": [{"unit": "aufx dely AUHs"}], "output": {"file": "unused.wav"}}"#.write(
            toFile: path("g.json"), atomically: true, encoding: .utf8)
        return path("g.json")
    }

    /// A mono float WAV of silence whose header says `rate` (byte rate wrapped as a hostile file would).
    static func writeWAVHeader(rate: UInt32, frames: Int, to path: String) throws {
        var data = Data()
        func u32(_ v: UInt32) { withUnsafeBytes(of: v.littleEndian) { data.append(contentsOf: $0) } }
        func u16(_ v: UInt16) { withUnsafeBytes(of: v.littleEndian) { data.append(contentsOf: $0) } }
        data.append(contentsOf: Array("RIFF".utf8)); u32(UInt32(36 + frames * 4)); data.append(contentsOf: Array("WAVEfmt ".utf8))
        u32(16); u16(3); u16(1); u32(rate); u32(rate &* 4); u16(4); u16(32)
        data.append(contentsOf: Array("data".utf8)); u32(UInt32(frames * 4))
        data.append(Data(count: frames * 4))
        try data.write(to: URL(fileURLWithPath: path))
    }
}

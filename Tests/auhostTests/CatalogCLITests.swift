import Foundation
import XCTest

/// The LV2 catalog as a user meets it: broken bundles on LV2_PATH (issue 21), the cache and its
/// laziness (issue 13). Each test has its own LV2_PATH and XDG_CACHE_HOME.
final class CatalogCLITests: XCTestCase {
    var folder: URL!
    var environment: [String: String] = [:]
    var hostile: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("LV2HostTests/Fixtures/hostile").path
    }

    override func setUpWithError() throws {
        folder = try CLI.temporaryDirectory()
        let lv2 = folder.appendingPathComponent("lv2").path
        try FileManager.default.createDirectory(atPath: lv2, withIntermediateDirectories: true)
        // The broken bundles sort first on the path.
        for name in ["auhost-index-huge.lv2", "auhost-index-negative.lv2", "auhost-not-elf.lv2"] {
            try FileManager.default.copyItem(atPath: hostile + "/" + name, toPath: lv2 + "/" + name)
        }
        try FileManager.default.createSymbolicLink(atPath: lv2 + "/eg-amp.lv2", withDestinationPath: "/usr/lib/lv2/eg-amp.lv2")
        environment = ["LV2_PATH": lv2, "XDG_CACHE_HOME": folder.appendingPathComponent("cache").path]
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: folder) }

    var cacheFolder: String { folder.appendingPathComponent("cache/auhost").path }

    func testBrokenBundlesAreSkippedAloneWithOneWarningEach() throws {
        for _ in 0..<2 {  // cold, then from the cache
            let r = try CLI.run(["list"], environment: environment)
            XCTAssertEqual(r.status, 0, r.stderr)
            XCTAssertTrue(r.stdout.contains("http://lv2plug.in/plugins/eg-amp"), r.stdout)
            XCTAssertTrue(r.stdout.contains("aufx dely AUHs"), r.stdout)
            XCTAssertFalse(r.stdout.contains("index-huge") || r.stdout.contains("index-negative"), r.stdout)
            let warnings = r.stderr.split(separator: "\n").filter { $0.contains("skipping plug-in") }
            XCTAssertEqual(warnings.count, 2, r.stderr)
            XCTAssertTrue(warnings.contains { $0.contains("auhost-index-huge.lv2") }, r.stderr)
            XCTAssertTrue(warnings.contains { $0.contains("auhost-index-negative.lv2") }, r.stderr)
        }
    }

    /// Finding a built-in unit (AudioComponentFindNext through a triple) never reads the LV2
    /// catalog: no cache is written, and the broken bundles are never looked at.
    func testFindingABuiltInUnitDoesNotReadLV2() throws {
        let r = try CLI.run(["info", "aufx dely AUHs"], environment: environment)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdout.contains("AUHost: Delay"), r.stdout)
        XCTAssertFalse(r.stderr.contains("skipping"), r.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: cacheFolder), "the LV2 catalog was built")
    }

    /// LV2_PATH=lv2 (a folder of the working directory): lilv turns each folder into a file URI,
    /// and given a relative one it crashes (`LV2_PATH=lv2 lv2ls` is a segmentation fault); the host
    /// gives it the absolute folder. Listed cold and from the cache, shown, and rendered through.
    func testARelativeLV2PathIsTakenFromTheWorkingDirectory() throws {
        let relative = environment.merging(["LV2_PATH": "lv2"]) { $1 }
        for _ in 0..<2 {
            let r = try CLI.run(["list"], environment: relative, in: folder)
            XCTAssertEqual(r.status, 0, r.stderr)
            XCTAssertTrue(r.stdout.contains("http://lv2plug.in/plugins/eg-amp"), r.stdout)
        }
        let info = try CLI.run(["info", "http://lv2plug.in/plugins/eg-amp"], environment: relative, in: folder)
        XCTAssertEqual(info.status, 0, info.stderr)
        XCTAssertTrue(info.stdout.contains("Simple Amplifier"), info.stdout)
        let samples = (0..<4_800).map { Float(($0 % 100) - 50) / 64 }
        try WAV.writeFloat(samples, rate: 48_000, to: folder.appendingPathComponent("in.wav").path)
        let render = try CLI.run(
            ["render", "-i", "in.wav", "-o", "out.wav", "-p", "gain=-6", "http://lv2plug.in/plugins/eg-amp"], environment: relative,
            in: folder)
        XCTAssertEqual(render.status, 0, render.stderr)
        let out = try WAV.readFloat(folder.appendingPathComponent("out.wav").path)
        let gain = Float(pow(10.0, -6.0 / 20.0))
        XCTAssertEqual(out.count, samples.count)
        XCTAssertEqual(zip(out, samples).map { abs($0 - $1 * gain) }.max() ?? 1, 0, accuracy: 1e-6)
    }

    func testListRefreshRebuildsTheCache() throws {
        XCTAssertEqual(try CLI.run(["list"], environment: environment).status, 0)
        // The LADSPA catalog's cache lives beside it (ladspa-catalog-…).
        let files = try FileManager.default.contentsOfDirectory(atPath: cacheFolder).filter { $0.hasPrefix("lv2-catalog-") }
        XCTAssertEqual(files.count, 1, "\(files)")
        let cache = cacheFolder + "/" + files[0]
        try "auhost-lv2-catalog 2\nbundle\tbroken\n".write(toFile: cache, atomically: false, encoding: .utf8)
        let damaged = try CLI.run(["list"], environment: environment)
        XCTAssertEqual(damaged.status, 0, damaged.stderr)
        XCTAssertTrue(damaged.stdout.contains("eg-amp"), "a damaged cache is rebuilt, not trusted")
        var info = stat()
        stat(cache, &info)
        let before = info.st_mtim
        usleep(20_000)
        let refreshed = try CLI.run(["list", "--refresh"], environment: environment)
        XCTAssertEqual(refreshed.status, 0, refreshed.stderr)
        XCTAssertEqual(refreshed.stdout, damaged.stdout)
        stat(cache, &info)
        XCTAssertTrue(info.st_mtim.tv_sec != before.tv_sec || info.st_mtim.tv_nsec != before.tv_nsec, "--refresh rewrites the cache")
    }

    /// An LV2 binary that is not ELF: the error carries the dynamic loader's reason.
    func testNonELFBinaryFailsWithTheLoadersReason() throws {
        let r = try CLI.run(["info", "urn:auhost:hostile:not-elf"], environment: environment)
        XCTAssertEqual(r.status, 0, "info reads data only and runs no plug-in code: \(r.stderr)")
        XCTAssertTrue(r.stdout.contains("Binary is not ELF"), r.stdout)
        let rendered = try renderThroughNotELF()
        XCTAssertNotEqual(rendered.status, 0)
        XCTAssertTrue(rendered.stderr.contains("does not load") && rendered.stderr.contains("file too short"), rendered.stderr)
    }

    /// A malformed SDK manifest is skipped and reported once on standard error, naming the file;
    /// everything else is listed and the command succeeds.
    func testMalformedSDKManifestIsReportedOnce() throws {
        let plugins = folder.appendingPathComponent("plugins")
        try FileManager.default.createDirectory(at: plugins, withIntermediateDirectories: true)
        let manifest = plugins.appendingPathComponent("Broken.auplugin.json").path
        try "{ \"abiVersion\": 1, \"binary\": ".write(toFile: manifest, atomically: false, encoding: .utf8)
        var environment = self.environment
        environment["AUHOST_PLUGIN_PATH"] = plugins.path
        let r = try CLI.run(["list"], environment: environment)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdout.contains("aufx dely AUHs"), r.stdout)
        let lines = r.stderr.split(separator: "\n").filter { $0.contains(manifest) }
        XCTAssertEqual(lines.count, 1, r.stderr)
        XCTAssertTrue(lines.first?.contains("not valid JSON") ?? false, r.stderr)
    }

    /// `info` reads data only: a plug-in that crashes when instantiated is described, not run.
    func testInfoRunsNoPluginCode() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let fixtures = folder.appendingPathComponent("fixtures").path
        let build = Process()
        build.executableURL = root.appendingPathComponent("scripts/build-lv2-fixtures.sh")
        build.arguments = [fixtures]
        build.standardOutput = FileHandle.nullDevice
        try build.run()
        build.waitUntilExit()
        XCTAssertEqual(build.terminationStatus, 0)
        var environment = self.environment
        environment["LV2_PATH"] = fixtures
        let r = try CLI.run(["info", "urn:auhost:fixture:crash-instantiate"], environment: environment)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdout.contains("Crash in instantiate"), r.stdout)
        XCTAssertTrue(r.stdout.contains("input 0:"), r.stdout)
    }

    /// swh Decimator's `fs` (parameter 1, an lv2:sampleRate port) through `render -p` at 48 kHz: 48000 is its
    /// maximum there (it was refused while the unit kept 44.1 kHz bounds), 48001 is refused with
    /// kAudioUnitErr_InvalidParameterValue, and `info` at the default rate shows 44.1 kHz bounds.
    func testSampleRatePortRangeFollowsTheFileRate() throws {
        let input = try writeSilence(rate: 48_000)
        let output = folder.appendingPathComponent("decimated.wav").path
        let uri = "http://plugin.org.uk/swh-plugins/decimator"
        let system = ["XDG_CACHE_HOME": environment["XDG_CACHE_HOME"]!]  // the suite's LV2_PATH
        let ok = try CLI.run(["render", "-i", input, "-o", output, "-p", "1=48000", uri], environment: system)
        XCTAssertEqual(ok.status, 0, ok.stderr)
        let refused = try CLI.run(["render", "-i", input, "-o", output, "-p", "1=48001", uri], environment: system)
        XCTAssertNotEqual(refused.status, 0)
        XCTAssertTrue(refused.stderr.contains("-66743"), refused.stderr)
        let info = try CLI.run(["info", uri], environment: system)
        XCTAssertTrue(info.stdout.contains("… 44100.0] default 44100.0"), info.stdout)
    }

    func writeSilence(rate: UInt32) throws -> String {
        let input = folder.appendingPathComponent("silence-\(rate).wav").path
        var data = Data()
        func append<T: FixedWidthInteger>(_ value: T) { withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) } }
        data.append(contentsOf: Array("RIFF".utf8)); append(UInt32(36 + 400))
        data.append(contentsOf: Array("WAVEfmt ".utf8)); append(UInt32(16)); append(UInt16(3)); append(UInt16(1))
        append(rate); append(rate * 4); append(UInt16(4)); append(UInt16(32))
        data.append(contentsOf: Array("data".utf8)); append(UInt32(400))
        data.append(Data(count: 400))
        try data.write(to: URL(fileURLWithPath: input))
        return input
    }

    func renderThroughNotELF() throws -> CLI.Result {
        let input = folder.appendingPathComponent("silence.wav").path
        var data = Data()
        func append<T: FixedWidthInteger>(_ value: T) { withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) } }
        data.append(contentsOf: Array("RIFF".utf8)); append(UInt32(36 + 400))
        data.append(contentsOf: Array("WAVEfmt ".utf8)); append(UInt32(16)); append(UInt16(3)); append(UInt16(1))
        append(UInt32(48_000)); append(UInt32(192_000)); append(UInt16(4)); append(UInt16(32))
        data.append(contentsOf: Array("data".utf8)); append(UInt32(400))
        data.append(Data(count: 400))
        try data.write(to: URL(fileURLWithPath: input))
        return try CLI.run(
            ["render", "-i", input, "-o", folder.appendingPathComponent("out.wav").path, "urn:auhost:hostile:not-elf"],
            environment: environment)
    }
}

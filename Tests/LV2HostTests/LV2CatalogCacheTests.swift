import Foundation
import LV2Host
import XCTest

/// The persistent catalog (issue 13): what the cache gives equals what lilv gives, a bundle added,
/// removed or changed is seen by the next lookup, a damaged cache is rebuilt, concurrent builders
/// leave a valid cache. Each test uses its own LV2_PATH (copies of Debian bundles) and cache file.
final class LV2CatalogCacheTests: XCTestCase {
    var folder = ""
    var cacheFile = ""

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("lv2-catalog-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder + "/lv2", withIntermediateDirectories: true)
        cacheFile = folder + "/cache/lv2-catalog.txt"
        for bundle in ["eg-amp.lv2", "eg-fifths.lv2", "eg-metro.lv2"] { try copyBundle(bundle) }
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(atPath: folder) }

    var path: LV2SearchPath { LV2SearchPath(lv2Path: folder + "/lv2") }

    func copyBundle(_ name: String) throws {
        try FileManager.default.copyItem(atPath: "/usr/lib/lv2/" + name, toPath: folder + "/lv2/" + name)
    }

    func load(refresh: Bool = false) -> (LV2CatalogSnapshot, [String]) {
        var warnings: [String] = []
        let snapshot = LV2CatalogStore.load(path: path, refresh: refresh, cacheFile: cacheFile) { warnings.append($0) }
        return (snapshot, warnings)
    }

    /// Codes, names and types from the cache equal the catalog of a fully loaded lilv world.
    func testCachedCatalogEqualsLilvCatalog() throws {
        let direct = LV2ComponentCatalog(world: LV2World(lv2Path: folder + "/lv2")).entries
        let (cold, _) = load()
        XCTAssertEqual(cold.bundlesRead, 3)
        XCTAssertEqual(cold.catalog.entries, direct)
        let (warm, _) = load()
        XCTAssertEqual(warm.bundlesRead, 0, "a warm cache reads no bundle")
        XCTAssertEqual(warm.catalog.entries, direct)
        XCTAssertEqual(warm.plugins["http://lv2plug.in/plugins/eg-amp"]?.plugin.summary.controlInputs, 1)
        XCTAssertEqual(warm.records.map(\.path), cold.records.map(\.path))
    }

    func testAddedRemovedAndTouchedBundlesAreSeenByTheNextLookup() throws {
        _ = load()
        try copyBundle("eg-sampler.lv2")
        let (added, _) = load()
        XCTAssertEqual(added.bundlesRead, 1, "only the new bundle is read")
        XCTAssertNotNil(added.catalog.entry(uri: "http://lv2plug.in/plugins/eg-sampler"))

        try FileManager.default.removeItem(atPath: folder + "/lv2/eg-fifths.lv2")
        let (removed, _) = load()
        XCTAssertEqual(removed.bundlesRead, 0)
        XCTAssertNil(removed.catalog.entry(uri: "http://lv2plug.in/plugins/eg-fifths"))

        // Rename the plug-in in its data: same size class of change a package upgrade makes.
        let ttl = folder + "/lv2/eg-amp.lv2/amp.ttl"
        let text = try String(contentsOfFile: ttl, encoding: .utf8)
        XCTAssertTrue(text.contains("\"Simple Amplifier\""))
        try text.replacingOccurrences(of: "\"Simple Amplifier\"", with: "\"Renamed Amplifier\"")
            .write(toFile: ttl, atomically: false, encoding: .utf8)
        let (touched, _) = load()
        XCTAssertEqual(touched.bundlesRead, 1, "only the changed bundle is read")
        XCTAssertEqual(touched.catalog.entry(uri: "http://lv2plug.in/plugins/eg-amp")?.name, "Renamed Amplifier")
        XCTAssertEqual(touched.catalog.entries, LV2ComponentCatalog(world: LV2World(lv2Path: folder + "/lv2")).entries)

        // Only the modification time changes: the bundle is read again too.
        let (before, _) = load()
        XCTAssertEqual(before.bundlesRead, 0)
        var times = [timespec(tv_sec: 1_000_000, tv_nsec: 0), timespec(tv_sec: 1_000_000, tv_nsec: 0)]
        XCTAssertEqual(utimensat(AT_FDCWD, folder + "/lv2/eg-metro.lv2/manifest.ttl", &times, 0), 0)
        XCTAssertEqual(load().0.bundlesRead, 1)
    }

    /// What the fingerprint sees: every name, and the size and time of every file lilv could
    /// read; not a shared library rewritten in place (the catalog reads nothing from it).
    func testFingerprintCoversNamesAndDataButNotLibraryContents() throws {
        let bundle = folder + "/lv2/eg-amp.lv2/"
        let original = try XCTUnwrap(LV2BundleFingerprint.of(bundle))
        XCTAssertEqual(LV2BundleFingerprint.of(bundle), original, "the same folder, the same fingerprint")

        // The library rewritten in place, longer and with a new time: the same fingerprint.
        let library = try XCTUnwrap(FileHandle(forWritingAtPath: bundle + "amp.so"))
        library.seekToEndOfFile()
        library.write(Data(repeating: 0, count: 100))
        library.closeFile()
        XCTAssertEqual(LV2BundleFingerprint.of(bundle), original)
        _ = load()
        XCTAssertEqual(load().0.bundlesRead, 0)

        // A new library, a file in a new sub-folder, then a touched file there: each is seen.
        XCTAssertTrue(FileManager.default.createFile(atPath: bundle + "extra.so", contents: Data([1])))
        let withLibrary = try XCTUnwrap(LV2BundleFingerprint.of(bundle))
        XCTAssertNotEqual(withLibrary, original)
        try FileManager.default.createDirectory(atPath: bundle + "presets", withIntermediateDirectories: false)
        XCTAssertTrue(FileManager.default.createFile(atPath: bundle + "presets/a.ttl", contents: Data("#".utf8)))
        let withPreset = try XCTUnwrap(LV2BundleFingerprint.of(bundle))
        XCTAssertNotEqual(withPreset, withLibrary)
        var times = [timespec(tv_sec: 1_000_000, tv_nsec: 0), timespec(tv_sec: 1_000_000, tv_nsec: 0)]
        XCTAssertEqual(utimensat(AT_FDCWD, bundle + "presets/a.ttl", &times, 0), 0)
        XCTAssertNotEqual(LV2BundleFingerprint.of(bundle), withPreset)

        // A folder without a manifest is not a bundle.
        try FileManager.default.removeItem(atPath: bundle + "manifest.ttl")
        XCTAssertNil(LV2BundleFingerprint.of(bundle))
        XCTAssertNil(LV2BundleFingerprint.of(folder + "/lv2/no-such.lv2/"))
    }

    /// A cold catalog of many bundles gives what one fully loaded world gives: codes, names, port
    /// summaries, presets, bundles. A child process reads every other bundle (a wrapper around
    /// the child marks that it ran). (Read by two worlds on two threads, it once gave ZamDynamicEQ
    /// 5 audio inputs and no output: lilv's blank-node prefix is one static buffer for every world.)
    func testACatalogReadsWhatOneWorldReads() throws {
        let mark = folder + "/child-ran"
        let wrapper = folder + "/child-wrapper"
        try "#!/bin/sh\ntouch '\(mark)'\nexec '\(LV2Sweep.defaultChildPath())' \"$@\"\n"
            .write(toFile: wrapper, atomically: true, encoding: .utf8)
        XCTAssertEqual(chmod(wrapper, 0o755), 0)
        try withChild(wrapper) { try assertReadsWhatOneWorldReads() }
        XCTAssertTrue(FileManager.default.fileExists(atPath: mark), "no child read a share")
    }

    /// A child that cannot start, prints nothing, or crashes leaves its bundles to the host.
    func testAChildWithoutAnAnswerLeavesItsBundlesToTheHost() throws {
        let crashing = folder + "/crashing-child"
        try "#!/bin/sh\nkill -SEGV $$\n".write(toFile: crashing, atomically: true, encoding: .utf8)
        XCTAssertEqual(chmod(crashing, 0o755), 0)
        for child in ["/nonexistent/lv2-sweep-child", "/bin/true", crashing] {
            try withChild(child) { try assertReadsWhatOneWorldReads() }
        }
    }

    /// Runs `body` with `LV2_SWEEP_CHILD` set to `child`.
    private func withChild(_ child: String, _ body: () throws -> Void) throws {
        setenv("LV2_SWEEP_CHILD", child, 1)
        defer { unsetenv("LV2_SWEEP_CHILD") }
        try body()
    }

    private func assertReadsWhatOneWorldReads(line: UInt = #line) throws {
        let path = LV2SearchPath()  // the suite's fixed LV2_PATH: well over the 8 bundles that split
        XCTAssertGreaterThan(path.bundles().count, 8)
        let snapshot = LV2CatalogStore.load(path: path, refresh: true, cacheFile: cacheFile) { _ in }
        let world = LV2World(lv2Path: path.text)
        let direct = LV2ComponentCatalog(world: world).entries
        let differing = zip(snapshot.catalog.entries, direct).first { $0 != $1 }
        XCTAssertTrue(
            snapshot.catalog.entries == direct,
            "\(snapshot.catalog.entries.count) entries against one world's \(direct.count); first differing: \(String(describing: differing))"
        )
        var compared = 0
        for descriptor in world.plugins where descriptor.portDataProblem == nil {
            let expected = LV2CatalogPlugin(
                uri: descriptor.uri, name: descriptor.name, manufacturerName: descriptor.projectName,
                summary: descriptor.catalogPortSummary, isMixer: descriptor.isMixer, bundleURI: descriptor.bundleURI,
                presetNames: descriptor.presets.map(\.label))
            XCTAssertEqual(snapshot.plugins[descriptor.uri]?.plugin, expected, descriptor.uri)
            compared += 1
        }
        XCTAssertEqual(snapshot.plugins.count, compared)
        XCTAssertGreaterThan(compared, 100)
    }

    func testCorruptTruncatedOrOtherVersionCacheIsRebuilt() throws {
        let (first, _) = load()
        let good = try String(contentsOfFile: cacheFile, encoding: .utf8)
        let damaged = [
            String(good.prefix(good.count / 2)),  // truncated
            good.replacingOccurrences(of: "Simple Amplifier", with: "Simple Amplifiex"),  // a flipped byte
            good.replacingOccurrences(of: "auhost-lv2-catalog 2", with: "auhost-lv2-catalog 1"),  // another version
            "", "\u{0}\u{1}garbage\n",
        ]
        for (i, text) in damaged.enumerated() {
            try text.write(toFile: cacheFile, atomically: false, encoding: .utf8)
            XCTAssertNil(LV2CatalogCacheFile.read(cacheFile), "case \(i) must not be trusted")
            let (rebuilt, _) = load()
            XCTAssertEqual(rebuilt.bundlesRead, 3, "case \(i): every bundle read again")
            XCTAssertEqual(rebuilt.catalog.entries, first.catalog.entries, "case \(i)")
            XCTAssertNotNil(LV2CatalogCacheFile.read(cacheFile), "case \(i): a valid cache written")
        }
    }

    func testRefreshReadsEveryBundle() {
        _ = load()
        XCTAssertEqual(load(refresh: true).0.bundlesRead, 3)
    }

    func testNamesWithTabsAndNewlinesSurviveTheCache() throws {
        let plugin = LV2CatalogPlugin(
            uri: "urn:x", name: "a\tb\nc\\d\r", manufacturerName: "M\\t", summary: LV2PortSummary(ports: []),
            isMixer: true, bundleURI: "file:///x/", presetNames: ["p\t1", "p2"])
        let record = LV2BundleRecord(path: "/x/", fingerprint: "f", plugins: [plugin], warnings: ["w\n"])
        try LV2CatalogCacheFile.write([record], to: cacheFile)
        XCTAssertEqual(LV2CatalogCacheFile.read(cacheFile), [record])
    }

    /// An unwritable cache folder (here a file stands where the folder should be, which stops
    /// root too): the catalog still works, with one warning naming the file.
    func testUnwritableCacheDegradesToMemoryWithOneWarning() throws {
        XCTAssertTrue(FileManager.default.createFile(atPath: folder + "/not-a-folder", contents: Data()))
        cacheFile = folder + "/not-a-folder/lv2-catalog.txt"
        let (snapshot, warnings) = load()
        XCTAssertEqual(snapshot.catalog.entries.count, 3)
        XCTAssertEqual(warnings.count, 1)
        XCTAssertTrue(warnings[0].contains(cacheFile), warnings[0])
    }

    /// Four processes fill an empty cache at once: all succeed with the same catalog, the file left
    /// is valid, and the next load reads nothing.
    func testConcurrentBuildersLeaveAValidCache() throws {
        let child = LV2Sweep.defaultChildPath()
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_CACHE_HOME"] = folder + "/xdg"
        let processes = try (0..<4).map { _ -> (Process, Pipe) in
            let process = Process()
            process.executableURL = URL(fileURLWithPath: child)
            process.arguments = ["--catalog", folder + "/lv2"]
            process.environment = environment
            let pipe = Pipe()
            process.standardOutput = pipe
            try process.run()
            return (process, pipe)
        }
        for (process, pipe) in processes {
            let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            XCTAssertEqual(process.terminationStatus, 0)
            XCTAssertTrue(output.hasPrefix("CATALOG 3 plug-ins"), output)
        }
        setenv("XDG_CACHE_HOME", folder + "/xdg", 1)
        let file = LV2CatalogCacheFile.file(for: path)
        unsetenv("XDG_CACHE_HOME")
        let records = try XCTUnwrap(LV2CatalogCacheFile.read(file), "the cache left behind is valid")
        XCTAssertEqual(records.flatMap(\.plugins).count, 3)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder + "/xdg/auhost").filter { $0.hasSuffix(".tmp") }
        XCTAssertEqual(leftovers, [])
        let warm = LV2CatalogStore.load(path: path, cacheFile: file) { _ in }
        XCTAssertEqual(warm.bundlesRead, 0)
    }

    /// Issue 21: a bundle whose port index is 4294967295 or -1 is skipped with one warning naming
    /// it; every other plug-in is listed and usable.
    func testBundleWithHostilePortIndexIsSkippedAlone() throws {
        let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/hostile").path
        for name in ["auhost-index-huge.lv2", "auhost-index-negative.lv2"] {
            try FileManager.default.copyItem(atPath: fixtures + "/" + name, toPath: folder + "/lv2/" + name)
        }
        for _ in 0..<2 {  // cold, then warm: the warning is given each time, the plug-in never listed
            let (snapshot, warnings) = load()
            XCTAssertEqual(
                Set(snapshot.catalog.entries.map(\.uri)),
                ["http://lv2plug.in/plugins/eg-amp", "http://lv2plug.in/plugins/eg-fifths", "http://lv2plug.in/plugins/eg-metro"])
            XCTAssertEqual(warnings.count, 2, "\(warnings)")
            XCTAssertTrue(warnings.contains { $0.contains("auhost-index-huge.lv2") && $0.contains("4294967295") }, "\(warnings)")
            XCTAssertTrue(warnings.contains { $0.contains("auhost-index-negative.lv2") && $0.contains("-1") }, "\(warnings)")
        }
        // The catalog of a fully loaded world leaves them out too: the same codes either way.
        let world = LV2World(lv2Path: folder + "/lv2")
        XCTAssertEqual(LV2ComponentCatalog(world: world).entries, load().0.catalog.entries)
        // The descriptor itself refuses to read ports lilv would crash on.
        let huge = try world.plugin(uri: "urn:auhost:hostile:index-huge")
        XCTAssertNotNil(huge.portDataProblem)
        XCTAssertEqual(huge.ports, [])
        XCTAssertThrowsError(try LV2Instance.checkLoadable(huge))
    }
}

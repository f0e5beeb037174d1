import AudioToolbox
import Foundation
import LADSPAHost
import LV2Host
import XCTest

/// Discovery: described in a child, cached by fingerprint, codes derived and stable, and a broken
/// library on the path costs exactly one warning naming it.
final class LADSPACatalogTests: XCTestCase {
    func testCatalogIsCachedAndItsCodesAreStable() throws {
        let folder = LADSPATestSupport.scratch + "/two"
        try? FileManager.default.removeItem(atPath: folder)
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for name in ["cmt.so", "tap_deesser.so"] {
            try FileManager.default.createSymbolicLink(
                atPath: folder + "/" + name, withDestinationPath: LADSPATestSupport.fixedPath + "/" + name)
        }
        let cache = LADSPATestSupport.scratch + "/two-cache.txt"
        try? FileManager.default.removeItem(atPath: cache)
        var warnings: [String] = []
        let cold = LADSPACatalogStore.load(
            path: LADSPASearchPath(ladspaPath: folder, dssiPath: LADSPATestSupport.scratch + "/no-dssi"), cacheFile: cache
        ) { warnings.append($0) }
        XCTAssertEqual(cold.librariesDescribed, 2)
        XCTAssertEqual(warnings, [])
        let warm = LADSPACatalogStore.load(
            path: LADSPASearchPath(ladspaPath: folder, dssiPath: LADSPATestSupport.scratch + "/no-dssi"), cacheFile: cache
        ) { warnings.append($0) }
        XCTAssertEqual(warm.librariesDescribed, 0, "a current cache describes nothing again")
        XCTAssertEqual(warm.plugins, cold.plugins)
        // A warm read takes the port counts from the cache and reads the ports only when asked.
        XCTAssertEqual(warm.plugins.map(\.portTable.counts), cold.plugins.map { LADSPAPortCounts($0.ports) })
        XCTAssertEqual(warm.catalog.entries, cold.catalog.entries)
        let hpf = try XCTUnwrap(warm.catalog.entry(uri: "hpf"))
        // FNV-1a of the label and of the maker: the same on every machine and run.
        XCTAssertEqual(LV2ComponentCode.string(hpf.description.componentType), "aufx")
        XCTAssertEqual(LV2ComponentCode.string(hpf.description.componentSubType), "fuvr")
        XCTAssertEqual(LV2ComponentCode.string(hpf.description.componentManufacturer), "Xte2")
        let sine = try XCTUnwrap(warm.catalog.entry(uri: "sine_fcac"))
        XCTAssertEqual(LV2ComponentCode.string(sine.description.componentType), "augn", "audio out and no audio in: a generator")
        let plugin = try XCTUnwrap(warm.plugins.first { $0.label == "hpf" })
        XCTAssertEqual(plugin.uniqueID, 1052)
        XCTAssertEqual(plugin.ports.count, 3)
        XCTAssertTrue(cold.plugins.contains { $0.label == "tap_deesser" })

        // A damaged cache is refused whole (then rebuilt): one byte changed, or the end cut off.
        XCTAssertNotNil(LADSPACatalogCacheFile.read(cache))
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: cache)))
        let intact = bytes
        bytes[bytes.count / 2] ^= 0x01
        try Data(bytes).write(to: URL(fileURLWithPath: cache))
        XCTAssertNil(LADSPACatalogCacheFile.read(cache), "one byte changed")
        try Data(intact.dropLast(intact.count / 3) + Array("end 0\n".utf8)).write(to: URL(fileURLWithPath: cache))
        XCTAssertNil(LADSPACatalogCacheFile.read(cache), "the end cut off")

        // A port line that cannot be read under a valid checksum (a hand-edited cache) leaves hpf
        // without ports, and making its instance says to refresh the catalog.
        var lines = String(decoding: intact, as: UTF8.self).split(separator: "\n").dropLast().map(String.init)
        let hpfLine = try XCTUnwrap(lines.firstIndex { $0.hasPrefix("plugin\t") && $0.contains("\thpf\t") })
        XCTAssertTrue(lines[hpfLine + 1].hasPrefix("ports\t3\t"), lines[hpfLine + 1])
        lines[hpfLine + 2] = "port\tx\t0\t0\t0\tInput"
        var body = Array((lines.joined(separator: "\n") + "\n").utf8)
        let sum = body.withUnsafeBufferPointer { LADSPACatalogCacheFile.checksum($0.baseAddress!, count: $0.count) }
        body += Array("end \(String(sum, radix: 16))\n".utf8)
        try Data(body).write(to: URL(fileURLWithPath: cache))
        let edited = try XCTUnwrap(LADSPACatalogCacheFile.read(cache)).flatMap(\.plugins)
        let damaged = try XCTUnwrap(edited.first { $0.label == "hpf" })
        XCTAssertEqual(damaged.portTable.counts, LADSPAPortCounts(plugin.ports))
        XCTAssertEqual(damaged.ports, [])
        XCTAssertThrowsError(try LADSPAInstance(plugin: damaged, sampleRate: 48_000)) { error in
            XCTAssertEqual((error as? LADSPAHostError)?.status, OSStatus(kAudioUnitErr_ExtensionNotFound))
            XCTAssertTrue("\(error)".contains("auhost list --refresh"), "\(error)")
        }
        XCTAssertEqual(edited.first { $0.label == "lpf" }?.ports.count, 3, "the other plug-ins' ports are read")
    }

    /// ladspa-sdk's amp.so and CMT both have amp_mono and amp_stereo (other unique IDs): the first
    /// library on the path stands for the label, said once when the catalog is built, not on every
    /// warm run, and again when the set of libraries changes.
    func testAShadowedLabelIsSaidWhenTheCatalogIsBuiltNotOnEveryRun() throws {
        let folder = LADSPATestSupport.scratch + "/shadowed"
        try? FileManager.default.removeItem(atPath: folder)
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: folder + "/amp.so", withDestinationPath: "/usr/lib/ladspa/amp.so")
        try FileManager.default.createSymbolicLink(
            atPath: folder + "/cmt.so", withDestinationPath: LADSPATestSupport.fixedPath + "/cmt.so")
        let cache = LADSPATestSupport.scratch + "/shadowed-cache.txt"
        try? FileManager.default.removeItem(atPath: cache)
        let path = LADSPASearchPath(ladspaPath: folder, dssiPath: LADSPATestSupport.scratch + "/no-dssi")
        func load() -> (LADSPACatalogSnapshot, [String]) {
            var warnings: [String] = []
            let snapshot = LADSPACatalogStore.load(path: path, cacheFile: cache) { warnings.append($0) }
            return (snapshot, warnings)
        }

        let (cold, coldWarnings) = load()
        XCTAssertEqual(
            coldWarnings.sorted(),
            ["amp_mono", "amp_stereo"].map {
                "ladspa: ignoring plug-in \($0) in \(folder)/cmt.so: \(folder)/amp.so also has that label and stands for it."
            })
        XCTAssertEqual(cold.plugins.first { $0.label == "amp_mono" }?.library, folder + "/amp.so")
        let (warm, warmWarnings) = load()
        XCTAssertEqual(warm.librariesDescribed, 0)
        XCTAssertEqual(warmWarnings, [], "a warm catalog repeats no shadowed label")
        XCTAssertEqual(warm.plugins.first { $0.label == "amp_mono" }?.library, folder + "/amp.so")

        try FileManager.default.createSymbolicLink(
            atPath: folder + "/tap_deesser.so", withDestinationPath: LADSPATestSupport.fixedPath + "/tap_deesser.so")
        XCTAssertEqual(load().1.count, 2, "a changed set of libraries says them again")
    }

    /// Not ELF, crashing in ladspa_descriptor, hanging in it, and no ladspa_descriptor at all:
    /// one warning each, naming the library; the good library beside them is described.
    func testBrokenLibrariesCostOneWarningEach() throws {
        let folder = LADSPATestSupport.scratch + "/broken"
        try? FileManager.default.removeItem(atPath: folder)
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try "this is not a shared object\n".write(toFile: folder + "/a-not-elf.so", atomically: true, encoding: .utf8)
        try LADSPATestSupport.compileLibrary(
            "#include <stddef.h>\nconst void *ladspa_descriptor(unsigned long i) { return *(void * volatile *)NULL; }\n",
            to: folder + "/b-crashes.so")
        try LADSPATestSupport.compileLibrary(
            "const void *ladspa_descriptor(unsigned long i) { for (;;) {} }\n", to: folder + "/c-hangs.so")
        try LADSPATestSupport.compileLibrary("int not_ladspa(void) { return 0; }\n", to: folder + "/d-no-descriptor.so")
        try FileManager.default.createSymbolicLink(
            atPath: folder + "/e-cmt.so", withDestinationPath: LADSPATestSupport.fixedPath + "/cmt.so")
        let outcomes = LADSPAScan.describe(
            ["a-not-elf.so", "b-crashes.so", "c-hangs.so", "d-no-descriptor.so", "e-cmt.so"].map { folder + "/" + $0 }, timeoutSeconds: 2)
        var warnings: [String] = []
        for (library, outcome) in outcomes {
            if case .skipped(let warning) = outcome {
                XCTAssertTrue(warning.contains(library), warning)
                warnings.append(warning)
            }
        }
        XCTAssertEqual(warnings.count, 4, warnings.joined(separator: "\n"))
        guard case .described(let plugins) = outcomes[folder + "/e-cmt.so"] else { return XCTFail("cmt.so was not described") }
        XCTAssertTrue(plugins.contains { $0.label == "hpf" })
        XCTAssertTrue(outcomes[folder + "/b-crashes.so"].map { "\($0)".contains("crashed") } ?? false)
        XCTAssertTrue(outcomes[folder + "/c-hangs.so"].map { "\($0)".contains("timed out") } ?? false)
        XCTAssertTrue(outcomes[folder + "/a-not-elf.so"].map { "\($0)".contains("cannot load") } ?? false)

        // Through the store: the same four warnings once per load, also when read from the cache.
        let cache = LADSPATestSupport.scratch + "/broken-cache.txt"
        try? FileManager.default.removeItem(atPath: cache)
        for _ in 0..<2 {
            var seen: [String] = []
            let snapshot = LADSPACatalogStore.load(
                path: LADSPASearchPath(ladspaPath: folder, dssiPath: LADSPATestSupport.scratch + "/no-dssi"), cacheFile: cache,
                timeoutSeconds: 2
            ) { seen.append($0) }
            XCTAssertEqual(seen.count, 4, seen.joined(separator: "\n"))
            XCTAssertTrue(snapshot.plugins.contains { $0.label == "hpf" })
        }
    }

    /// A host that cannot start its describing child (a program linking the installed library
    /// without the child installed) warns about each library but does not cache that: the next
    /// run with the child describes them.
    func testAMissingDescribingChildIsNotRemembered() throws {
        let cache = LADSPATestSupport.scratch + "/missing-child-cache.txt"
        try? FileManager.default.removeItem(atPath: cache)
        let path = LADSPASearchPath(ladspaPath: LADSPATestSupport.fixedPath, dssiPath: LADSPATestSupport.scratch + "/no-dssi")
        var warnings: [String] = []
        let without = LADSPACatalogStore.load(path: path, cacheFile: cache, childPath: "/nonexistent/lv2-sweep-child") {
            warnings.append($0)
        }
        XCTAssertTrue(without.plugins.isEmpty)
        XCTAssertFalse(warnings.isEmpty)
        XCTAssertTrue(warnings.allSatisfy { $0.contains("cannot start /nonexistent/lv2-sweep-child") }, warnings.joined(separator: "\n"))
        let with = LADSPACatalogStore.load(path: path, cacheFile: cache) { _ in }
        XCTAssertEqual(with.librariesDescribed, warnings.count)
        XCTAssertTrue(with.plugins.contains { $0.label == "hpf" })
    }
}

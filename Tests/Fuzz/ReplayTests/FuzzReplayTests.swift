import Foundation
import AUHost
import FuzzHarnesses
import XCTest

/// Replays every seed and every crash the fuzzers found (Tests/Fuzz/Corpus/NAME and
/// Tests/Fuzz/Crashes/NAME) through its harness in an ordinary build: a finding that comes back
/// fails here (a trap ends the test run, naming the file in the log line before it).
final class FuzzReplayTests: XCTestCase {
    static let fuzz = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()

    /// Every built-in unit in the registry (the device units aside: ALSA's need a sound card, JACK's a server) is
    /// a target of the C API harness and some seed of its corpus drives it, so its replay is not a
    /// no-op: a unit added without a seed fails here (built SDK plug-ins change nothing).
    func testTheCAPIHarnessCoversEveryBuiltInUnit() throws {
        let builtIn = ComponentRegistry.shared.all.filter { $0.origin.hasPrefix("built-in") && !CAPIFuzz.isDeviceUnit($0.origin) }
        XCTAssertGreaterThanOrEqual(builtIn.count, 9, "the registry lists the built-in units")
        let dir = Self.fuzz.appendingPathComponent("Corpus/CAPIFuzz")
        var driven: Set<String> = []
        for name in try FileManager.default.contentsOfDirectory(atPath: dir.path) where !name.hasPrefix(".") {
            let data = try Data(contentsOf: dir.appendingPathComponent(name))
            if let target = data.withUnsafeBytes({ CAPIFuzz.target(for: $0) }) { driven.insert(target.tripleString) }
        }
        let targets = CAPIFuzz.builtInTargets.map(\.tripleString)
        for component in builtIn {
            let triple = component.description.tripleString
            guard let index = targets.firstIndex(of: triple) else {
                XCTFail("\(component.name) (\(triple)) is not a target of CAPIFuzz")
                continue
            }
            XCTAssertTrue(
                driven.contains(triple),
                "no seed in Tests/Fuzz/Corpus/CAPIFuzz drives \(component.name): add one whose first 4 bytes (a little-endian UInt32 below 0xF0000000) are \(index) modulo \(targets.count)"
            )
        }
    }

    func testEveryCorpusAndCrashFileReplaysWithoutATrap() throws {
        for harness in FuzzRegistry.harnesses {
            var replayed = 0
            for folder in ["Corpus", "Crashes"] {
                let dir = Self.fuzz.appendingPathComponent(folder).appendingPathComponent(harness.name)
                let names = ((try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []).filter { !$0.hasPrefix(".") }.sorted()
                for name in names {
                    let data = try Data(contentsOf: dir.appendingPathComponent(name))
                    print("replaying \(folder)/\(harness.name)/\(name)")
                    data.withUnsafeBytes { harness.run($0) }
                    replayed += 1
                }
            }
            XCTAssertGreaterThan(replayed, 0, "\(harness.name) has a seed corpus in Tests/Fuzz/Corpus/\(harness.name)")
        }
    }
}

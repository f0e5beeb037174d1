import Foundation
import FuzzHarnesses
import XCTest

/// Replays every seed and every crash the fuzzers found (Tests/Fuzz/Corpus/NAME and
/// Tests/Fuzz/Crashes/NAME) through its harness in an ordinary build: a finding that comes back
/// fails here (a trap ends the test run, naming the file in the log line before it).
final class FuzzReplayTests: XCTestCase {
    static let fuzz = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()

    /// Every built-in unit (the ALSA I/O unit aside) is a target of the C API harness: its replay is not a no-op.
    func testTheCAPIHarnessCoversEveryBuiltInUnit() {
        XCTAssertGreaterThanOrEqual(CAPIFuzz.targets.count, 8)
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

import XCTest
import Foundation
import FuzzHarnesses

/// Replays the C API harnesses' seed corpora and every crash they found (Tests/Fuzz/Corpus/<harness>,
/// Tests/Fuzz/Crashes/<harness>): each input must run to its end (a trap fails the whole run).
final class CAPIFuzzReplayTests: XCTestCase {
    private func inputs(_ harness: String) throws -> [URL] {
        let fuzz = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        var files: [URL] = []
        for folder in ["Corpus", "Crashes"] {
            let dir = fuzz.appendingPathComponent(folder).appendingPathComponent(harness)
            let names = (try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []
            files += names.filter { !$0.hasPrefix(".") }.sorted().map { dir.appendingPathComponent($0) }
        }
        return files
    }

    private func replay(_ harness: String, _ run: (UnsafeRawBufferPointer) -> Void) throws {
        let files = try inputs(harness)
        XCTAssertFalse(files.isEmpty, "no seed corpus for \(harness)")
        for file in files {
            let data = try Data(contentsOf: file)
            data.withUnsafeBytes { run($0) }
        }
    }

    func testCAPIFuzzCorpusAndCrashesReplay() throws {
        // Every built-in unit is a target (the ALSA I/O unit aside): the replay is not a no-op.
        XCTAssertGreaterThanOrEqual(CAPIFuzz.targets.count, 8)
        try replay("CAPIFuzz", CAPIFuzz.run)
    }
    func testRenderNotifyFuzzCorpusAndCrashesReplay() throws { try replay("RenderNotifyFuzz", RenderNotifyFuzz.run) }
}

import Foundation
import LV2Host
import XCTest

/// Issue 27: a malformed bundle claiming eg-amp's URI (Fixtures/hostile/auhost-claims-eg-amp.lv2)
/// must not hide the real eg-amp, whether it comes before it on LV2_PATH (lilv then took the
/// impostor's data) or after it (lilv merged the impostor's port: "port index 0 is used twice").
final class LV2SharedURITests: XCTestCase {
    let egAmp = "http://lv2plug.in/plugins/eg-amp"
    var folder = ""

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("lv2-shared-\(UUID().uuidString)").path
        for sub in ["impostor", "real"] {
            try FileManager.default.createDirectory(atPath: folder + "/" + sub, withIntermediateDirectories: true)
        }
        let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/hostile").path
        try FileManager.default.copyItem(
            atPath: fixtures + "/auhost-claims-eg-amp.lv2", toPath: folder + "/impostor/auhost-claims-eg-amp.lv2")
        for bundle in ["eg-amp.lv2", "eg-fifths.lv2"] {
            try FileManager.default.copyItem(atPath: "/usr/lib/lv2/" + bundle, toPath: folder + "/real/" + bundle)
        }
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(atPath: folder) }

    func testAMalformedBundleClaimingAURIDoesNotHideTheRealPlugIn() throws {
        let impostor = folder + "/impostor/auhost-claims-eg-amp.lv2/"
        let real = folder + "/real/eg-amp.lv2/"
        for (i, order) in [["impostor", "real"], ["real", "impostor"]].enumerated() {
            let path = order.map { folder + "/" + $0 }.joined(separator: ":")
            let world = LV2World(lv2Path: path)
            let amp = try world.plugin(uri: egAmp)
            XCTAssertNil(amp.portDataProblem, path)
            XCTAssertEqual(amp.bundleURI, "file://" + real, path)
            XCTAssertEqual(amp.ports.map(\.symbol), ["gain", "in", "out"], path)
            XCTAssertNoThrow(try LV2Instance.checkLoadable(amp), path)
            XCTAssertEqual(world.ignoredClaims.map(\.bundle), [impostor], path)
            XCTAssertEqual(world.ignoredClaims.first?.standing, real, path)
            XCTAssertEqual(Set(world.plugins.map(\.uri)), [egAmp, "http://lv2plug.in/plugins/eg-fifths"], path)

            // The catalog lists eg-amp from its real bundle and names the ignored one once.
            var warnings: [String] = []
            let snapshot = LV2CatalogStore.load(
                path: LV2SearchPath(lv2Path: path), refresh: true, cacheFile: folder + "/cache-\(i).txt"
            ) { warnings.append($0) }
            XCTAssertEqual(snapshot.plugins[egAmp]?.plugin.bundleURI, "file://" + real, path)
            XCTAssertEqual(snapshot.plugins[egAmp]?.plugin.summary.controlInputs, 1, path)
            XCTAssertEqual(warnings.count, 1, "\(warnings)")
            XCTAssertTrue(warnings.first?.contains("auhost-claims-eg-amp.lv2") ?? false, "\(warnings)")
            XCTAssertTrue(warnings.first?.contains("none.so cannot be read") ?? false, "\(warnings)")
        }
    }
}

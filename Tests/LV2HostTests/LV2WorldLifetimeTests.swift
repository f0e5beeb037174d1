import Foundation
import LV2Host
import XCTest

/// A world that ends frees its lilv world last: the vocabulary's nodes went to lilv_node_free
/// after lilv_world_free (Swift releases stored properties after deinit's body), which reads the
/// freed world (the LV2Descriptor fuzz harness: ASan's SEGV in LV2Vocabulary.deinit, kept as
/// Tests/Fuzz/Crashes/LV2Descriptor/crash-d12006c8…).
final class LV2WorldLifetimeTests: XCTestCase {
    func testWorldsWithoutPluginsEndCleanly() {
        let folder = NSTemporaryDirectory() + "lv2-world-lifetime-\(getpid())/garbage.lv2/"
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        XCTAssertTrue(FileManager.default.createFile(atPath: folder + "manifest.ttl", contents: Data("not turtle".utf8)))
        for _ in 0..<200 {
            let world = LV2World(supportBundles: [], lv2Path: nil)
            world.load(bundle: folder)
            XCTAssertTrue(world.plugins.isEmpty)
        }
    }
}

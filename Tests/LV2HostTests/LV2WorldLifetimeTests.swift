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

    /// A world with plug-ins is freed once neither it nor any of its descriptors is held: the
    /// descriptors held the world object and it held them, so no such world was ever freed (the
    /// LV2Descriptor fuzz harness's leak); a descriptor still outlives the world object.
    func testAWorldWithPluginsIsFreedWithItsLastDescriptor() throws {
        let bundleURI = try LV2TestSupport.world.plugin(uri: "http://lv2plug.in/plugins/eg-amp").bundleURI
        let bundle = try XCTUnwrap(URL(string: bundleURI)).path + "/"
        weak var weakWorld: LV2World?
        weak var weakData: LV2WorldData?
        var amp: LV2PluginDescriptor?
        do {
            let world = LV2World(supportBundles: [], lv2Path: nil)
            world.load(bundle: bundle)
            weakWorld = world
            weakData = world.data
            amp = try world.plugin(uri: "http://lv2plug.in/plugins/eg-amp")
        }
        XCTAssertNil(weakWorld, "the world object is freed while a descriptor of it lives")
        XCTAssertNotNil(weakData)
        XCTAssertEqual(amp?.name, "Simple Amplifier")
        XCTAssertEqual(amp?.ports.map(\.symbol), ["gain", "in", "out"])
        amp = nil
        XCTAssertNil(weakData, "the lilv world is freed with its last descriptor")
    }
}

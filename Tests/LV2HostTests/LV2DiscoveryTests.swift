import AudioToolbox
import LV2Host
import XCTest

/// Discovery and the component-description mapping.
final class LV2DiscoveryTests: XCTestCase {
    func fourCC(_ s: String) -> UInt32 { s.utf8.reduce(0) { $0 << 8 | UInt32($1) } }

    func testKnownPluginsGetTheRightTypes() throws {
        let catalog = LV2ComponentCatalog(world: LV2TestSupport.world)
        let expected = [
            "http://lv2plug.in/plugins/eg-amp": "aufx", "http://drobilla.net/plugins/mda/Piano": "aumu",
            "http://drobilla.net/plugins/mda/JX10": "aumu", "http://lv2plug.in/plugins/eg-sampler": "aumu",
            "http://drobilla.net/plugins/mda/TestTone": "aufx", "http://plugin.org.uk/swh-plugins/analogueOsc": "augn",
            "http://plugin.org.uk/swh-plugins/gverb": "aufx",
            "http://lv2plug.in/plugins/eg-fifths": "aumi",
        ]
        for (uri, type) in expected {
            let entry = try XCTUnwrap(catalog.entry(uri: uri), uri)
            XCTAssertEqual(LV2ComponentCode.string(entry.description.componentType), type, uri)
        }
        let amp = try LV2TestSupport.world.plugin(uri: "http://lv2plug.in/plugins/eg-amp")
        XCTAssertEqual(amp.portSummary.audioInputs, 1)
        XCTAssertEqual(amp.portSummary.audioOutputs, 1)
        XCTAssertEqual(amp.portSummary.controlInputs, 1)
    }

    /// The catalog's lean port count equals the full port reading for every plug-in.
    func testCatalogPortSummaryEqualsTheFullPortSummary() {
        let world = LV2World()
        XCTAssertGreaterThan(world.plugins.count, 100)
        for plugin in world.plugins + LV2TestSupport.fixtureWorld.plugins {
            XCTAssertEqual(plugin.catalogPortSummary, plugin.portSummary, plugin.uri)
        }
    }

    /// Two independent worlds give the same codes, all unique, all printable.
    func testDerivationIsDeterministicAndUnique() {
        let first = LV2ComponentCatalog(world: LV2World())
        let second = LV2ComponentCatalog(world: LV2World())
        XCTAssertEqual(first.entries, second.entries)
        XCTAssertGreaterThan(first.entries.count, 100)
        let keys = Set(
            first.entries.map {
                [
                    $0.description.componentType, $0.description.componentSubType,
                    $0.description.componentManufacturer,
                ]
            })
        XCTAssertEqual(keys.count, first.entries.count)
        for entry in first.entries {
            for code in [entry.description.componentSubType, entry.description.componentManufacturer] {
                XCTAssertTrue(LV2ComponentCode.string(code).allSatisfy { $0.isLetter || $0.isNumber })
            }
        }
        XCTAssertEqual(LV2ComponentCode.fnv1a("a"), 0xE40C_292C, "FNV-1a reference value")
    }

    /// Forced collisions are resolved by sorted URI (the first keeps its code) and reported.
    func testCollisionsAreResolvedDeterministicallyAndReported() {
        let summary = LV2PortSummary(ports: [])
        let inputs = ["urn:c", "urn:a", "urn:b"].map {
            LV2CatalogInput(uri: $0, name: $0, manufacturerName: "Maker", summary: summary, isMixer: false)
        }
        let collide: (String) -> UInt32 = { $0.hasPrefix("urn:") && !$0.contains("#") ? 42 : LV2ComponentCode.fnv1a($0) }
        let catalog = LV2ComponentCatalog(inputs: inputs, hash: collide)
        let reversed = LV2ComponentCatalog(inputs: inputs.reversed(), hash: collide)
        XCTAssertEqual(catalog.entries, reversed.entries)
        XCTAssertEqual(catalog.collisions.count, 1)
        XCTAssertEqual(catalog.collisions.first?.uris, ["urn:a", "urn:b", "urn:c"])
        XCTAssertEqual(catalog.entry(uri: "urn:a")?.description.componentSubType, LV2ComponentCode.code(hash: 42))
        XCTAssertEqual(Set(catalog.entries.map(\.description.componentSubType)).count, 3)
    }

    func testUnknownURIThrowsExtensionNotFound() {
        XCTAssertThrowsError(try LV2TestSupport.world.plugin(uri: "urn:nobody:here")) { error in
            XCTAssertEqual((error as? LV2HostError)?.status, OSStatus(kAudioUnitErr_ExtensionNotFound))
        }
    }

    /// The URID map grows past 15,000 URIs and maps both ways consistently.
    func testURIDMapHandlesTwentyThousandURIs() {
        let map = LV2URIDMap()
        let ids = (0..<20_000).map { map.map("urn:test:\($0)") }
        XCTAssertEqual(Set(ids).count, 20_000)
        XCTAssertEqual(map.map("urn:test:12345"), ids[12_345])
        XCTAssertEqual(map.unmap(ids[19_999]), "urn:test:19999")
        XCTAssertNil(map.unmap(0))
    }
}

import AUHost
import Foundation
import PlugInLoader
import XCTest

/// Listing reads manifests only; a binary is opened when its first instance is made.
final class PlugInDiscoveryTests: XCTestCase {
    /// Whether the process has loaded the shared object at `path`: RTLD_NOLOAD finds a loaded
    /// object without loading it. (Reading /proc/self/maps as UTF-8 gives nothing when any
    /// mapping's name is not UTF-8; a loaded binary once looked unloaded in CI that way, we think.)
    private func mapped(_ path: String) -> Bool {
        guard let handle = dlopen(path, RTLD_LAZY | RTLD_NOLOAD) else { return false }
        dlclose(handle)
        return true
    }

    func testListingOpensNoBinaryAndInstantiationDoes() throws {
        // A private copy of the gain plug-in, so that no other test has loaded this path.
        let built = URL(fileURLWithPath: try BuiltPlugIns.folder.get())
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("auhost-discovery-\(getpid())")
        try? FileManager.default.removeItem(at: folder)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for name in ["libGain.so", "Gain.auplugin.json"] {
            try FileManager.default.copyItem(at: built.appendingPathComponent(name), to: folder.appendingPathComponent(name))
        }
        let binary = folder.appendingPathComponent("libGain.so").path
        let provider = PlugInProvider(folders: [folder.path])
        let components = provider.components()
        XCTAssertEqual(components.map(\.description.tripleString), ["aufx gain AUSd"])
        XCTAssertEqual(components.first?.origin, binary)
        XCTAssertEqual(components.first?.version, 0x0001_0000)
        XCTAssertFalse(mapped(binary), "listing must not open the binary")

        ComponentRegistry.shared.install(provider)
        let component = try XCTUnwrap(ComponentRegistry.shared.all.first { $0.origin == binary })
        var unit: AudioUnit?
        XCTAssertEqual(AudioComponentInstanceNew(component.handle, &unit), noErr, lastErrorMessage())
        XCTAssertTrue(mapped(binary), "instantiation opens it")
        XCTAssertEqual(AudioComponentInstanceDispose(unit!), noErr)

        // Two images of the same binary (same Swift module names) run side by side.
        let copy = try EffectHarness(component.handle, input: [[1, 2], [3, 4]])
        func otherGain() -> Component? {
            ComponentRegistry.shared.all.first { $0.description.tripleString == "aufx gain AUSd" && $0.origin != binary }
        }
        if otherGain() == nil { ComponentRegistry.shared.install(PlugInProvider(folders: [try BuiltPlugIns.folder.get()])) }
        let original = try EffectHarness(try XCTUnwrap(otherGain()).handle, input: [[1, 2], [3, 4]])
        try copy.set(0, 2)
        try original.set(0, 0.5)
        XCTAssertEqual(try copy.render(2), [[2, 4], [6, 8]])
        XCTAssertEqual(try original.render(2), [[0.5, 1], [1.5, 2]])
        XCTAssertEqual(try copy.get(0), 2, "each image keeps its own parameter state")
    }

    func testSearchPathOrder() {
        let folders = PlugInSearchPath.folders(environment: ["AUHOST_PLUGIN_PATH": "/a:/b", "HOME": "/home/x"])
        XCTAssertEqual(
            Array(folders.prefix(5)),
            [
                "/a", "/b", "/home/x/.local/lib/auhost/plugins",
                "/usr/local/lib/auhost/plugins", "/usr/lib/auhost/plugins",
            ])
        XCTAssertTrue(folders.dropFirst(5).allSatisfy { $0.hasSuffix("Plugins/.build/release") || $0.hasSuffix("Plugins/.build/debug") })
    }

    func testManifestVersionsParse() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("auhost-manifest-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let path = folder.appendingPathComponent("V.auplugin.json").path
        try
            #"{"abiVersion":1,"binary":"libV.so","components":[{"type":"aufx","subtype":"vers","manufacturer":"AUbk","name":"V","version":"2.3.4","factoryFunction":"F"}]}"#
            .write(toFile: path, atomically: true, encoding: .utf8)
        let manifest = try PlugInManifest(contentsOf: path)
        XCTAssertEqual(manifest.components.first?.version, 0x0002_0304)
        XCTAssertEqual(manifest.binaryPath, folder.appendingPathComponent("libV.so").path)
    }
}

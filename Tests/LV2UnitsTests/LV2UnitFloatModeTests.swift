import AUHost
import CAUHostFloatMode
import Foundation
import LV2Units
import XCTest

/// zam-plugins' LV2 libraries are built with -ffast-math (crtfastmath.o: its constructor turns on
/// flush-to-zero and denormals-are-zero on the thread that opens the library). Making a unit of
/// one, which loads its library through lilv, must leave the host's thread as it was
/// (PlugInFloatModeTests checks the same for LADSPA).
final class LV2UnitFloatModeTests: XCTestCase {
    func testInstantiatingAFastMathPluginKeepsTheThreadsFloatMode() throws {
        // A copy of the bundle under a new folder: the loader runs the constructor again for a
        // new file, where a library an earlier test opened would not be loaded twice.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lv2-float-mode-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.copyItem(atPath: "/usr/lib/lv2/ZamAutoSat.lv2", toPath: folder + "/ZamAutoSat.lv2")
        for spec in ["core", "atom", "urid", "options", "buf-size", "state", "ui", "units", "port-props", "parameters"] {
            try FileManager.default.createSymbolicLink(atPath: "\(folder)/\(spec).lv2", withDestinationPath: "/usr/lib/lv2/\(spec).lv2")
        }
        setenv("XDG_CACHE_HOME", folder + "/cache", 1)
        defer { unsetenv("XDG_CACHE_HOME") }
        let provider = LV2Provider(lv2Path: folder)
        ComponentRegistry.shared.install(provider)
        let component = try XCTUnwrap(provider.component(uri: "urn:zamaudio:ZamAutoSat"))

        XCTAssertEqual(auhost_float_mode_keeps_subnormals(), 1, "this thread flushed subnormals before the test")
        let unit = try AudioUnitInstance(component)
        try unit.initialize()
        XCTAssertEqual(auhost_float_mode_keeps_subnormals(), 1, "instantiating ZamAutoSat left flush-to-zero on")
    }
}

import AUHost
import Foundation
import PlugInLoader
import XCTest

/// Deliberately broken plug-ins (Fixtures/): each fails with its documented status and a message
/// naming the file, through AudioComponentInstanceNew and AUHostCopyLastErrorMessage, and the
/// host keeps working afterwards.
final class BrokenPlugInTests: XCTestCase {
    /// The fixture folder, compiled and copied once: C fixtures built with cc, manifests copied,
    /// and a copy of the tremolo binary for the manifest that lies about its triple.
    static let folder: Result<(path: String, provider: PlugInProvider), Error> = Result(catching: {
        let fixtures = checkoutRoot.appendingPathComponent("Tests/PlugInLoaderTests/Fixtures")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("auhost-broken-plugins-\(getpid())")
        try? FileManager.default.removeItem(at: folder)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let include = checkoutRoot.appendingPathComponent("Sources/CAudioToolbox/include").path
        for (source, library) in [("broken_plugins.c", "libBrokenPlugIns.so"), ("undefined_symbol.c", "libUndefinedSymbol.so")] {
            let result = try runCommand(
                "/usr/bin/cc",
                [
                    "-std=c17", "-shared", "-fPIC", "-I", include,
                    fixtures.appendingPathComponent(source).path,
                    "-o", folder.appendingPathComponent(library).path,
                ])
            guard result.status == 0 else { throw AudioError(kAudio_ParamError, "cc \(source) failed:\n\(result.output)") }
        }
        for name in try FileManager.default.contentsOfDirectory(atPath: fixtures.path) where name.hasSuffix(".auplugin.json") {
            try FileManager.default.copyItem(at: fixtures.appendingPathComponent(name), to: folder.appendingPathComponent(name))
        }
        let tremolo = URL(fileURLWithPath: try BuiltPlugIns.folder.get()).appendingPathComponent("libTremolo.so")
        try FileManager.default.copyItem(at: tremolo, to: folder.appendingPathComponent("libTremolo.so"))
        let provider = PlugInProvider(folders: [folder.path])
        ComponentRegistry.shared.install(provider)
        return (folder.path, provider)
    })

    private func instantiate(_ subtype: String) throws -> (status: OSStatus, message: String, instance: AudioUnit?) {
        let folder = try Self.folder.get().path
        var desc = AudioComponentDescription("aufx", subtype, "AUbk")!
        let component = try XCTUnwrap(AudioComponentFindNext(nil, &desc), "aufx \(subtype) AUbk is listed from \(folder)")
        var instance: AudioUnit?
        let status = AudioComponentInstanceNew(component, &instance)
        return (status, lastErrorMessage(), instance)
    }

    private func assertFails(
        _ subtype: String, _ expected: OSStatus, mentioning fragments: [String],
        file: StaticString = #filePath, line: UInt = #line
    ) throws {
        let (status, message, instance) = try instantiate(subtype)
        XCTAssertEqual(status, expected, message, file: file, line: line)
        XCTAssertNil(instance, file: file, line: line)
        for fragment in fragments {
            XCTAssertTrue(message.contains(fragment), "\"\(message)\" should mention \(fragment)", file: file, line: line)
        }
    }

    private var folder: String { (try? Self.folder.get().path) ?? "" }

    func testMissingBinaryNamesTheFile() throws {
        try assertFails("nobn", kAudio_FileNotFoundError, mentioning: ["\(folder)/libDoesNotExist.so", "does not exist"])
    }

    func testMissingFactorySymbolNamesTheFileAndSymbol() throws {
        try assertFails("nosy", kAudioUnitErr_ExtensionNotFound, mentioning: ["\(folder)/libBrokenPlugIns.so", "NoSuchFactory"])
    }

    func testABIVersionFromTheFutureIsRefusedBeforeLoading() throws {
        try assertFails("abi9", kAudioComponentErr_UnsupportedType, mentioning: ["FutureABI.auplugin.json", "version 99"])
    }

    func testFactoryReturningNullNamesTheFile() throws {
        try assertFails(
            "null", kAudioUnitErr_FailedInitialization, mentioning: ["\(folder)/libBrokenPlugIns.so", "NullFactory", "returned NULL"])
    }

    func testOpenFailingPassesItsStatusAndNamesTheFile() throws {
        try assertFails("opnf", kAudioUnitErr_Unauthorized, mentioning: ["\(folder)/libBrokenPlugIns.so", "failed to open"])
    }

    func testBinaryWithAnUnresolvableSymbolIsRefusedByTheLoader() throws {
        try assertFails(
            "undf", kAudioUnitErr_InvalidFile, mentioning: ["\(folder)/libUndefinedSymbol.so", "auhost_fixture_function_nobody_defines"])
    }

    func testManifestLyingAboutTheTripleIsCaught() throws {
        try assertFails("lie!", kAudioUnitErr_InvalidFile, mentioning: ["\(folder)/libTremolo.so", "aufx lie! AUbk", "aufx trem AUSd"])
    }

    func testUnreadableManifestsAreSkippedWithAReason() throws {
        let provider = try Self.folder.get().provider
        var desc = AudioComponentDescription("aufx", "nonm", "AUbk")!
        XCTAssertNil(AudioComponentFindNext(nil, &desc), "a manifest without a name lists nothing")
        XCTAssertTrue(
            provider.diagnostics.contains { $0.contains("NotJSON.auplugin.json") && $0.contains("not valid JSON") },
            "\(provider.diagnostics)")
        XCTAssertTrue(
            provider.diagnostics.contains { $0.contains("MissingName.auplugin.json") && $0.contains("\"name\"") },
            "\(provider.diagnostics)")
    }

    func testHostKeepsWorkingAfterEveryFailure() throws {
        for subtype in ["nobn", "nosy", "abi9", "null", "opnf", "undf", "lie!"] { _ = try instantiate(subtype) }
        let h = try EffectHarness(try BuiltPlugIns.component("gain"), input: [[1, 2, 3], [4, 5, 6]])
        try h.set(0, 2)
        XCTAssertEqual(try h.render(3), [[2, 4, 6], [8, 10, 12]])
    }
}

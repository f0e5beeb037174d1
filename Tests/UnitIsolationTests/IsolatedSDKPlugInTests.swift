import AUHost
import Foundation
import PlugInLoader
import XCTest

/// AUHost's SDK plug-ins (Plugins/, built with Plugins/build.sh release) render bit-identical out
/// of process: the child loads the plug-in's shared object from its own folder only.
final class IsolatedSDKPlugInTests: XCTestCase {
    static let folder: Result<String, Error> = Result {
        let build = Process()
        build.executableURL = URL(fileURLWithPath: "/bin/sh")
        build.arguments = [checkoutRoot.appendingPathComponent("Plugins/build.sh").path, "release"]
        let pipe = Pipe()
        build.standardOutput = pipe
        build.standardError = FileHandle.nullDevice
        try build.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        build.waitUntilExit()
        guard build.terminationStatus == 0, let folder = output.split(separator: "\n").last else {
            throw AudioError(kAudio_ParamError, "Plugins/build.sh release failed")
        }
        return String(folder)
    }

    func component(_ type: String, _ subtype: String) throws -> AudioComponent {
        let folder = try Self.folder.get()
        var desc = AudioComponentDescription(type, subtype, "AUSd")!
        if let found = AudioComponentFindNext(nil, &desc) { return found }
        ComponentRegistry.shared.install(PlugInProvider(folders: [folder]))
        return try XCTUnwrap(AudioComponentFindNext(nil, &desc), "\(type) \(subtype) AUSd is not listed")
    }

    func assertBitIdentical(_ inProcess: [[Float]], _ isolated: [[Float]], _ what: String) {
        XCTAssertEqual(isolated.count, inProcess.count, what)
        XCTAssertTrue(inProcess.contains { $0.contains { $0 != 0 } }, "\(what) renders sound in process")
        for c in inProcess.indices where c < isolated.count {
            XCTAssertEqual(isolated[c].count, inProcess[c].count, what)
            let differing = zip(isolated[c], inProcess[c]).filter { $0.bitPattern != $1.bitPattern }.count
            XCTAssertEqual(differing, 0, "\(what) channel \(c): \(differing) samples differ out of process")
        }
    }

    func testSDKEffectsRenderBitIdenticalOutOfProcess() throws {
        for subtype in ["gain", "chor", "satu", "trem"] {
            let component = try component("aufx", subtype)
            func render(_ outOfProcess: Bool) throws -> [[Float]] {
                try IsolationRig(try instantiate(component, outOfProcess: outOfProcess)).render(blocks: 20, frames: 512)
            }
            assertBitIdentical(try render(false), try render(true), "aufx \(subtype) AUSd")
        }
    }

    func testSDKInstrumentRendersBitIdenticalOutOfProcess() throws {
        let component = try component("aumu", "sins")
        func play(_ outOfProcess: Bool) throws -> [[Float]] {
            let rig = try IsolationRig(try instantiate(component, outOfProcess: outOfProcess))
            return try rig.render(blocks: 12, frames: 512) { block in
                if block == 1 { XCTAssertEqual(MusicDeviceMIDIEvent(rig.unit, 0x90, 69, 100, 10), noErr) }
                if block == 6 { XCTAssertEqual(MusicDeviceMIDIEvent(rig.unit, 0x80, 69, 0, 300), noErr) }
            }
        }
        assertBitIdentical(try play(false), try play(true), "aumu sins AUSd")
    }
}

import Foundation
import XCTest

/// The libraries behind files, devices, codecs and DSP are opened on first use (CLazyLibraries):
/// `auhost info` loads none of them, a render loads libsndfile when it opens its file, and a
/// library the machine lacks is named in the error of the command that needs it, which fails
/// cleanly instead of keeping every other command from starting.
final class LazyLibraryCLITests: XCTestCase {
    let ampURI = "http://lv2plug.in/plugins/eg-amp"
    static let lazySonames = [
        "libasound.so.2", "libsndfile.so.1", "libjack.so.0", "libsoxr.so.0", "libSoundTouchDll.so.1", "libmpg123.so.0",
        "libFLAC.so.12", "libogg.so.0", "libvorbis.so.0", "libopus.so.0",
    ]

    /// The sonames the dynamic loader opened for a run (LD_DEBUG=files prints "file=NAME [0];  …").
    static func loaded(_ result: CLI.Result) -> Set<String> {
        Set(
            result.stderr.split(separator: "\n").compactMap { line in
                guard let start = line.range(of: "file=") else { return nil }
                let name = line[start.upperBound...].prefix { $0 != " " && $0 != "\t" }
                return lazySonames.contains(String(name)) ? String(name) : nil
            })
    }

    func testInfoLoadsNoFileDeviceOrCodecLibraryAndARenderLoadsLibsndfile() throws {
        let info = try CLI.run(["info", ampURI], environment: ["LD_DEBUG": "files"])
        XCTAssertEqual(info.status, 0, info.stderr.suffix(2000).description)
        XCTAssertTrue(info.stdout.contains("Amplifier"), info.stdout)
        XCTAssertEqual(Self.loaded(info), [], "auhost info opened libraries it does not use")

        let folder = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("in.wav").path
        try WAV.writeFloat([0, 0.5, -0.5, 0.25], rate: 48_000, to: input)
        let output = folder.appendingPathComponent("out.wav").path
        let render = try CLI.run(["render", "-i", input, "-o", output, ampURI], environment: ["LD_DEBUG": "files"])
        XCTAssertEqual(render.status, 0, render.stderr.suffix(2000).description)
        XCTAssertTrue(Self.loaded(render).contains("libsndfile.so.1"), "a render reads its file through libsndfile")
    }

    func testAMissingLibsndfileIsNamedByTheRenderThatNeedsIt() throws {
        let folder = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("in.wav").path
        try WAV.writeFloat([0, 0.5], rate: 48_000, to: input)
        let missing = ["AUHOST_SIMULATE_MISSING_LIBRARIES": "libsndfile.so.1"]

        let info = try CLI.run(["info", ampURI], environment: missing)
        XCTAssertEqual(info.status, 0, "info needs no audio file library: \(info.stderr)")

        let render = try CLI.run(["render", "-i", input, "-o", folder.path + "/out.wav", ampURI], environment: missing)
        XCTAssertEqual(render.status, 1, "a clean failure, not a crash: \(render.stderr)")
        XCTAssertTrue(render.stderr.contains("libsndfile.so.1"), render.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.path + "/out.wav"))
    }

    func testAMissingLibjackIsNamedByPlayOnJACK() throws {
        let folder = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("in.wav").path
        try WAV.writeFloat([0, 0.5], rate: 48_000, to: input)
        // A list of two: an entry after a comma counts too.
        let played = try CLI.run(
            ["play", input, ampURI, "--jack"], environment: ["AUHOST_SIMULATE_MISSING_LIBRARIES": "libogg.so.0,libjack.so.0"])
        XCTAssertEqual(played.status, 1, "a clean failure, not a crash: \(played.stderr)")
        XCTAssertTrue(played.stderr.contains("cannot load libjack.so.0"), played.stderr)
    }
}

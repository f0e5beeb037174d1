import Foundation
import XCTest

/// `-p NAME=VALUE` reaches an LV2 plug-in's patch:writable settings too: eg-sampler (lv2-examples)
/// takes its sample by path and its gain in dB, and plays the file at each note of a MIDI file.
final class PatchCLITests: XCTestCase {
    let midi = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("MusicPlayerServicesTests/Fixtures/tempo-changes.mid").path
    var dir: URL!

    override func setUpWithError() throws { dir = try CLI.temporaryDirectory() }
    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: dir) }

    func path(_ name: String) -> String { dir.appendingPathComponent(name).path }

    func testASamplePathAndAGainGoByName() throws {
        let ramp = (0..<300).map { Float($0 + 1) / 1_024 }
        try WAV.writeFloat(ramp, rate: 48_000, to: path("ramp.wav"))
        let r = try CLI.run([
            "render", "--midi", midi, "-o", path("out.wav"), "--tail", "0", "-p", "sample=\(path("ramp.wav"))", "-p", "gain=-6",
            "http://lv2plug.in/plugins/eg-sampler",
        ])
        XCTAssertEqual(r.status, 0, r.stderr)
        let out = try WAV.readFloat(path("out.wav"))
        // The second note starts at frame 12,500 (the fixture's mido timing). (The first, in the
        // first block, still plays the plug-in's default sample: eg-sampler loads a file on its
        // worker, whose answer arrives after the run that asked, as in every LV2 host.)
        // eg-sampler plays 299 of the file's 300 frames (its render loop silences the last), times -6 dB.
        let gain = powf(10, -6 * 0.05)
        let expected = [Float](repeating: 0, count: 10) + ramp.dropLast().map { $0 * gain } + [Float](repeating: 0, count: 11)
        XCTAssertEqual(Array(out[12_490..<12_810]).map(\.bitPattern), expected.map(\.bitPattern))
        let bad = try CLI.run([
            "render", "--midi", midi, "-o", path("bad.wav"), "-p", "impulse=x.wav", "http://lv2plug.in/plugins/eg-sampler",
        ])
        XCTAssertEqual(bad.status, 1)
        XCTAssertTrue(bad.stderr.contains("no parameter \"impulse\""), bad.stderr)
    }
}

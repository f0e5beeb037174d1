import Foundation
import XCTest

/// `auhost render` compensates an LV2 plug-in's latency: it reads the Latency property after
/// initializing the unit, before anything is rendered.
final class LV2LatencyCLITests: XCTestCase {
    /// swh Hilbert's 0° output is its input delayed by the 99 frames it reports. Rendered with
    /// compensation, that output (channel 0 of the file) equals the input sample for sample, and
    /// the summary names 99 frames. Before, the Latency was 0 when render read it: the output came
    /// 99 frames late.
    func testRenderAlignsHilbertWithItsInput() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let input = dir.appendingPathComponent("in.wav").path, output = dir.appendingPathComponent("out.wav").path
        let samples = (0..<10_000).map { Float(sin(Double($0) * 0.013) * 0.4 + sin(Double($0) * 0.31) * 0.2) }
        try WAV.writeFloat(samples, rate: 48_000, to: input)
        let r = try CLI.run([
            "render", "-i", input, "-o", output, "--tail", "0", "--block", "500", "http://plugin.org.uk/swh-plugins/hilbert",
        ])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdout.contains("latency 99 frames compensated"), r.stdout)
        let interleaved = try WAV.readFloat(output)  // two channels: 0° and 90°
        XCTAssertEqual(interleaved.count, samples.count * 2)
        let zeroDegrees = stride(from: 0, to: interleaved.count, by: 2).map { interleaved[$0] }
        let first = zip(zeroDegrees, samples).enumerated().first { $0.element.0 != $0.element.1 }?.offset
        XCTAssertNil(first, "first frame where the 0° output differs from the input")
    }
}

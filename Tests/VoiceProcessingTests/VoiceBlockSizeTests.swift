import AUHost
import VoiceTestSupport
import XCTest

/// The offline unit's output does not depend on the host's block size: webrtc sees the far end and
/// the microphone chunk by chunk (reference, then capture, per 10 ms) whatever blocks the host
/// renders, so every block size gives the same samples, bit for bit.
final class VoiceBlockSizeTests: XCTestCase {
    /// Blocks that do not divide a chunk, that straddle chunks and that span many, in turn.
    static let irregular = [1, 159, 37, 480, 4_096, 1_000, 13, 2_048, 160, 441]

    /// Renders `room` through the unit in `blocks` (cyclically); prints and returns ERLE per
    /// far-end-only segment with the output.
    func run(_ room: RoomScenario, frames: Int, blocks: [Int]) throws -> (output: [Float], erle: [Double]) {
        let h = try OfflineVoiceHarness(far: room.farEnd, microphone: room.microphone, rate: room.rate, slice: 4_096)
        try h.initialize()
        let latency = Int((h.latency * room.rate).rounded())
        let (output, _) = try h.render(frames: frames, blocks: blocks)
        let erle = room.farOnly.filter { $0.upperBound <= frames }.map { powerRatioDecibels(room.microphone, output, $0, lag: latency) }
        print("offline unit \(Int(room.rate)) Hz, blocks \(blocks): ERLE \(erle.map { ($0 * 10).rounded() / 10 }) dB")
        return (output, erle)
    }

    func check(rate: Double, frames: Int, blocks: [[Int]]) throws {
        let room = RoomScenario(rate: rate)
        let reference = try run(room, frames: frames, blocks: blocks[0])
        for e in reference.erle { XCTAssertGreaterThanOrEqual(e, 20, "ERLE on far-end-only speech (bar: ≥ 20 dB)") }
        XCTAssertGreaterThan(reference.output.map(abs).max() ?? 0, 0, "the output is not silence")
        for b in blocks.dropFirst() {
            let other = try run(room, frames: frames, blocks: b)
            let worst = zip(reference.output, other.output).map { abs($0 - $1) }.max() ?? 0
            XCTAssertTrue(other.output == reference.output, "blocks \(b) differ from \(blocks[0]) by up to \(worst)")
        }
    }

    func testSixteenKilohertzIsBitIdenticalForAnyBlockSize() throws {
        try check(rate: 16_000, frames: 14 * 16_000, blocks: [[160], [64], [320], [480], [1_440], [4_096], Self.irregular])
    }

    func testFortyEightKilohertzIsBitIdenticalForAnyBlockSize() throws {
        try check(rate: 48_000, frames: 14 * 48_000, blocks: [[480], [441], [1_440], [4_096], Self.irregular])
    }
}

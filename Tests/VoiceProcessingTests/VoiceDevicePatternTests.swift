import AUHost
import VoiceProcessing
import VoiceTestSupport
import XCTest

/// The kernel as the `vpio` unit drives it: each device period's capture is processed first (the
/// app reads it in the input callback), then the period rendered for playback is added as the
/// reference. With periods of several chunks the canceller must still see reference, capture,
/// reference, capture… per 10 ms: the output equals, bit for bit, a run fed chunk by chunk with
/// the reference one period behind (the first period's chunks have none).
final class VoiceDevicePatternTests: XCTestCase {
    static let rate = 48_000.0

    /// Feeds `room` in `piece`-frame steps: `captureFirst` processes a step's microphone before
    /// adding its reference (the device's order); otherwise the reference `delay` frames behind
    /// is added before each step's microphone. Returns the output.
    static func run(_ room: RoomScenario, piece: Int, captureFirst: Bool, delay: Int, reportedMilliseconds: Int) throws -> [Float] {
        var kernel = try VoiceProcessingKernel(
            sampleRate: rate, captureChannels: 1, referenceChannels: 1, maximumFrames: max(piece, delay))
        defer { kernel.release() }
        kernel.requestDelay(milliseconds: reportedMilliseconds)
        let far = AudioBufferStorage(format: .canonical(sampleRate: rate, channels: 1), capacity: UInt32(piece))
        let mic = AudioBufferStorage(format: .canonical(sampleRate: rate, channels: 1), capacity: UInt32(piece))
        var output = [Float](repeating: 0, count: room.frames)
        var start = 0
        while start + piece <= room.frames {
            let referenceStart = captureFirst ? start : start - delay
            for i in 0..<piece {
                mic.channel(0)[i] = room.microphone[start + i]
                if referenceStart >= 0 { far.channel(0)[i] = room.farEnd[referenceStart + i] }
            }
            far.prepare(frames: UInt32(piece))
            mic.prepare(frames: UInt32(piece))
            if !captureFirst && referenceStart >= 0 { kernel.addReference(far.list, frames: piece) }
            kernel.process(mic.list, into: mic.list, frames: piece)
            if captureFirst { kernel.addReference(far.list, frames: piece) }
            for i in 0..<piece { output[start + i] = mic.channel(0)[i] }
            start += piece
        }
        XCTAssertEqual(kernel.lastError, 0)
        return output
    }

    func testDevicePeriodsOfSeveralChunksInterleavePerChunk() throws {
        for period in [960, 1_440] {
            let buffer = 2 * period
            let room = RoomScenario(rate: Self.rate, playbackDelay: buffer)
            let milliseconds = buffer * 1_000 / Int(Self.rate)
            let device = try Self.run(room, piece: period, captureFirst: true, delay: 0, reportedMilliseconds: milliseconds)
            let chunked = try Self.run(room, piece: 480, captureFirst: false, delay: period, reportedMilliseconds: milliseconds)
            let whole = room.frames / period * period  // the device run stops at its last whole period
            let worst = zip(device.prefix(whole), chunked).map { abs($0 - $1) }.max() ?? 0
            XCTAssertTrue(
                device.prefix(whole) == chunked.prefix(whole), "period \(period): device order differs from chunk order by up to \(worst)")
            let latency = 480 + 670
            let erle = room.farOnly.map { powerRatioDecibels(room.microphone, device, $0, lag: latency) }
            print("device order, period \(period): ERLE \(erle.map { ($0 * 10).rounded() / 10 }) dB")
            for e in erle { XCTAssertGreaterThanOrEqual(e, 20, "period \(period): ERLE (bar: ≥ 20 dB)") }
        }
    }
}

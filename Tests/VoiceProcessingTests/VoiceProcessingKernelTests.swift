import AUHost
import VoiceTestSupport
import VoiceProcessing
import XCTest

/// The processing core on the simulated room (issue 18's bars), fed in 256-frame blocks, which do
/// not divide the 480-frame chunks, so the chunking is exercised as a host would.
final class VoiceProcessingKernelTests: XCTestCase {
    /// Runs `scenario` through a kernel with `settings`; returns the output (latencyFrames late).
    static func run(_ scenario: RoomScenario, settings: VoiceProcessingSettings = VoiceProcessingSettings(), block: Int = 256) throws -> (
        output: [Float], latency: Int, metrics: VoiceProcessingMetrics
    ) {
        var kernel = try VoiceProcessingKernel(
            sampleRate: scenario.rate, captureChannels: 1, referenceChannels: 1, maximumFrames: block, settings: settings)
        defer { kernel.release() }
        kernel.requestDelay(milliseconds: 0)
        var output = [Float](repeating: 0, count: scenario.frames)
        let far = AudioBufferStorage(format: .canonical(sampleRate: scenario.rate, channels: 1), capacity: UInt32(block))
        let mic = AudioBufferStorage(format: .canonical(sampleRate: scenario.rate, channels: 1), capacity: UInt32(block))
        var start = 0
        while start < scenario.frames {
            let n = min(block, scenario.frames - start)
            far.channel(0).update(from: scenario.farEnd.withUnsafeBufferPointer { $0.baseAddress! + start }, count: n)
            mic.channel(0).update(from: scenario.microphone.withUnsafeBufferPointer { $0.baseAddress! + start }, count: n)
            far.prepare(frames: UInt32(n))
            mic.prepare(frames: UInt32(n))
            kernel.addReference(far.list, frames: n)
            kernel.process(mic.list, into: mic.list, frames: n)
            output.withUnsafeMutableBufferPointer { ($0.baseAddress! + start).update(from: mic.channel(0), count: n) }
            start += n
        }
        XCTAssertEqual(kernel.lastError, 0, "webrtc reported an error while processing")
        return (output, kernel.latencyFrames, kernel.metrics)
    }

    func testRoomEchoIsCancelledAndNearEndKept() throws {
        let room = RoomScenario()
        let (output, latency, metrics) = try Self.run(room)
        XCTAssertEqual(
            latency, 480 + 670,
            "one 10 ms chunk at 48 kHz, and webrtc's own delay (7 ms canceller, 6 ms noise suppression, 46 frames of band filters)")
        for segment in room.farOnly {
            let erle = powerRatioDecibels(room.microphone, output, segment, lag: latency)
            print("far-end only \(Double(segment.lowerBound) / room.rate)–\(Double(segment.upperBound) / room.rate) s: ERLE \(erle) dB")
            XCTAssertGreaterThanOrEqual(erle, 20, "echo return loss enhancement on far-end-only speech (bar: ≥ 20 dB)")
        }
        let near = bestCorrelation(room.nearEnd, output, room.nearOnly, lags: (latency - 480)...(latency + 480))
        print("near-end only: correlation \(near.r) at lag \(near.lag) frames; webrtc metrics \(metrics)")
        XCTAssertEqual(near.lag, latency, accuracy: 2, "the reported latency is where the near end comes out")
        XCTAssertGreaterThanOrEqual(near.r, 0.9, "near-end speech kept (bar: correlation ≥ 0.9 with the clean near end)")
        let doubleTalk = bestCorrelation(room.nearEnd, output, room.doubleTalk, lags: near.lag...near.lag)
        print("double talk: correlation with the clean near end \(doubleTalk.r)")
    }

    /// Microphone blocks longer than the size the kernel was created for give exactly the output
    /// of short blocks (noise suppression and high-pass only: no reference is fed).
    func testBlocksLongerThanTheMaximumGiveTheSameOutput() throws {
        var settings = VoiceProcessingSettings()
        settings.echoCancellation = false
        settings.gainControl = false
        let room = RoomScenario(rate: 16_000)
        func run(block: Int) throws -> [Float] {
            var kernel = try VoiceProcessingKernel(
                sampleRate: 16_000, captureChannels: 1, referenceChannels: 1, maximumFrames: 100, settings: settings)
            defer { kernel.release() }
            let storage = AudioBufferStorage(format: .canonical(sampleRate: 16_000, channels: 1), capacity: UInt32(block))
            var output: [Float] = []
            var start = 0
            while start < 48_000 {
                storage.prepare(frames: UInt32(block))
                for i in 0..<block { storage.channel(0)[i] = room.microphone[start + i] }
                kernel.process(storage.list, into: storage.list, frames: block)
                output += storage.samples(channel: 0, frames: block)
                start += block
            }
            return output
        }
        let long = try run(block: 1_000)
        let sized = try run(block: 100)
        XCTAssertEqual(long.count, sized.count)
        XCTAssertTrue(long == sized, "splitting a long block changed the output")
        XCTAssertGreaterThan(long.map(abs).max() ?? 0, 0, "the output is not silence")
    }
}

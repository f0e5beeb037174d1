import Foundation
import LV2Host
import XCTest

/// Real plug-ins rendered through the layer.
final class LV2RenderTests: XCTestCase {
    let world = LV2TestSupport.world

    /// eg-amp through this layer equals lv2apply's output sample for sample.
    func testEgAmpBitIdenticalToLv2apply() throws {
        let directory = NSTemporaryDirectory() + "lv2-egamp-\(getpid())"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let input =
            (0..<48_000).map { Float(sin(Double($0) * 2 * .pi * 441 / 48_000) * 0.8) }
            + LV2TestSupport.noise(12_345, seed: 7)
        try LV2TestSupport.writeFloatWAV(input, sampleRate: 48_000, to: directory + "/in.wav")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/lv2apply")
        process.arguments = [
            "-i", directory + "/in.wav", "-o", directory + "/out.wav", "-c", "gain", "-7.5",
            "http://lv2plug.in/plugins/eg-amp",
        ]
        try process.run()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0)
        let reference = try LV2TestSupport.readFloatWAV(directory + "/out.wav")
        XCTAssertEqual(reference.count, input.count)

        let amp = try LV2Instance(
            plugin: world.plugin(uri: "http://lv2plug.in/plugins/eg-amp"),
            configuration: .init(sampleRate: 48_000, maxBlockLength: 1024))
        try amp.setControl(symbol: "gain", to: -7.5)
        amp.activate()
        let ours = LV2TestSupport.render(amp, inputs: [input], frames: input.count, block: 1024)[0]
        XCTAssertEqual(ours.count, reference.count)
        let firstDifference = zip(ours, reference).enumerated().first { $0.element.0.bitPattern != $0.element.1.bitPattern }?.offset
        XCTAssertNil(firstDifference, "first differing sample")
        XCTAssertGreaterThan(ours.map(abs).max()!, 0.3, "the gain was applied to a real signal")
    }

    /// Block-independent plug-ins give identical output in one 4096-frame block and in 67-frame blocks.
    func testBlockIndependentPluginsMatchAcrossBlockSizes() throws {
        let uris = [
            "http://drobilla.net/plugins/mda/Delay", "http://drobilla.net/plugins/mda/Overdrive",
            "http://drobilla.net/plugins/mda/Stereo", "http://plugin.org.uk/swh-plugins/amp",
            "http://plugin.org.uk/swh-plugins/hardLimiter", "http://plugin.org.uk/swh-plugins/foldover",
        ]
        for uri in uris {
            let plugin = try world.plugin(uri: uri)
            func renderWith(block: Int) throws -> [[Float]] {
                let instance = try LV2Instance(plugin: plugin, configuration: .init(maxBlockLength: 4096))
                instance.activate()
                let inputs = (0..<instance.audioInputCount).map { LV2TestSupport.noise(4096, seed: UInt32(11 + $0)) }
                return LV2TestSupport.render(instance, inputs: inputs, frames: 4096, block: block)
            }
            let whole = try renderWith(block: 4096), pieces = try renderWith(block: 67)
            XCTAssertFalse(whole.isEmpty, uri)
            XCTAssertEqual(whole.count, pieces.count, uri)
            for (a, b) in zip(whole, pieces) {
                let difference = zip(a, b).enumerated().first { $0.element.0.bitPattern != $0.element.1.bitPattern }?.offset
                XCTAssertNil(difference, "\(uri) differs between block sizes at this frame")
            }
            XCTAssertGreaterThan(whole.flatMap { $0 }.map(abs).max() ?? 0, 0.01, "\(uri) produced silence")
        }
    }

    /// mda Piano sounds after a note-on and is silent again once the note is released and its tail has died.
    func testPianoNoteOnSoundsNoteOffDecays() throws {
        let piano = try LV2Instance(
            plugin: world.plugin(uri: "http://drobilla.net/plugins/mda/Piano"),
            configuration: .init(sampleRate: 48_000, maxBlockLength: 512))
        piano.activate()
        func peak(blocks: Int) -> Float {
            var peak: Float = 0
            for _ in 0..<blocks {
                XCTAssertEqual(piano.run(frames: 512), .ok)
                for o in 0..<piano.audioOutputCount {
                    for i in 0..<512 { peak = max(peak, abs(piano.audioOutput(o)[i])) }
                }
            }
            return peak
        }
        XCTAssertEqual(peak(blocks: 4), 0, "silent before any note")
        XCTAssertTrue([UInt8(0x90), 60, 100].withUnsafeBytes { piano.queueMIDI($0, atFrame: 100) })
        XCTAssertGreaterThan(peak(blocks: 20), 0.05, "a note-on sounds")
        XCTAssertTrue([UInt8(0x80), 60, 0].withUnsafeBytes { piano.queueMIDI($0, atFrame: 0) })
        _ = peak(blocks: 94 * 3)  // ~3 s of release tail
        XCTAssertLessThan(peak(blocks: 10), 1e-4, "silent after note-off and its tail")
    }

    /// swh fastLookaheadLimiter reports its look-ahead as latency on its latency port.
    func testFastLookaheadLimiterReportsLatency() throws {
        let limiter = try LV2Instance(
            plugin: world.plugin(uri: "http://plugin.org.uk/swh-plugins/fastLookaheadLimiter"),
            configuration: .init(sampleRate: 48_000, maxBlockLength: 256))
        limiter.activate()
        _ = LV2TestSupport.render(
            limiter, inputs: [LV2TestSupport.noise(256, seed: 1), LV2TestSupport.noise(256, seed: 2)],
            frames: 256, block: 256)
        let latency = try XCTUnwrap(limiter.latencyFrames)
        XCTAssertGreaterThan(latency, 0)
        // The plug-in's look-ahead is a fixed 2.9 ms-ish buffer: a few hundred frames at 48 kHz.
        XCTAssertLessThan(latency, 48_000 * 0.1)
    }

    /// eg-sampler plays its default sample (restored by loadDefaultState) when given a note.
    func testEgSamplerSoundsAfterDefaultStateAndNote() throws {
        let sampler = try LV2Instance(
            plugin: world.plugin(uri: "http://lv2plug.in/plugins/eg-sampler"),
            configuration: .init(sampleRate: 48_000, maxBlockLength: 512))
        sampler.activate()
        XCTAssertTrue([UInt8(0x90), 60, 100].withUnsafeBytes { sampler.queueMIDI($0, atFrame: 0) })
        var peak: Float = 0
        for _ in 0..<20 {
            XCTAssertEqual(sampler.run(frames: 512), .ok)
            for i in 0..<512 { peak = max(peak, abs(sampler.audioOutput(0)[i])) }
        }
        XCTAssertGreaterThan(peak, 0.05)
    }

    /// Runs longer than the maximum block length are refused, not overrun.
    func testTooManyFramesIsRefused() throws {
        let amp = try LV2Instance(
            plugin: world.plugin(uri: "http://lv2plug.in/plugins/eg-amp"),
            configuration: .init(maxBlockLength: 64))
        amp.activate()
        XCTAssertEqual(amp.run(frames: 65), .tooManyFrames)
        XCTAssertEqual(amp.run(frames: 64), .ok)
    }
}

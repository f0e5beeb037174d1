import AVFAudio
import Foundation
import XCTest

/// The engine's inputNode on a device: ALSA's file plugin as a full-duplex PCM (capture from an
/// infile of raw Float32 frames, playback into a raw file, under the clockless `null` PCM), in
/// the ~/.asoundrc of a temporary HOME for the test's duration.
final class InputNodeTests: XCTestCase {
    private var alsaHome: TemporaryALSAHome!
    private var home: URL { alsaHome.directory }

    override func setUpWithError() throws {
        alsaHome = try TemporaryALSAHome("avinput") { dir in
            "pcm.engine_duplex { type file slave.pcm \"null\" file \"\(dir.path)/out.raw\" infile \"\(dir.path)/in.raw\" format \"raw\" }\n"
        }
    }

    override func tearDown() { alsaHome.restore() }

    /// inputNode → mainMixerNode → outputNode, Apple's monitoring pattern: what the device plays
    /// is what it captured, sample for sample, after the duplex latency's silence; a tap on the
    /// input node sees the captured samples too.
    func testTheInputNodeCarriesTheDevicesCaptureToItsPlayback() throws {
        let frames = 9_600
        var captured: [Float] = []
        for i in 0..<frames { captured += [Float(i % 480) / 480 - 0.5, Float(i % 97) / -194] }
        try captured.withUnsafeBytes { try Data($0).write(to: home.appendingPathComponent("in.raw")) }

        let engine = AVAudioEngine()
        XCTAssertEqual(setCurrentDevice(engine.outputNode.audioUnit!, "engine_duplex"), noErr)
        let input = engine.inputNode
        let format = input.outputFormat(forBus: 0)
        XCTAssertEqual(format.channelCount, 2)
        engine.connect(input, to: engine.mainMixerNode, format: format)
        let tapped = TapRecord()
        input.installTap(onBus: 0, bufferSize: 512, format: nil) { buffer, _ in tapped.append(buffer) }
        try engine.start()
        let deadline = Date().addingTimeInterval(30)
        while tapped.frames < frames + 4_800 && Date() < deadline { usleep(1_000) }
        engine.stop()
        XCTAssertGreaterThanOrEqual(tapped.frames, frames, "the tap saw the capture")
        XCTAssertEqual(Array(tapped.left.prefix(frames)), (0..<frames).map { captured[2 * $0] })

        var latency: UInt32 = 0
        var size = UInt32(4)
        XCTAssertEqual(
            AudioUnitGetProperty(
                engine.outputNode.audioUnit!, kAUHostALSAProperty_DuplexLatencyFrames, kAudioUnitScope_Global, 0, &latency, &size), noErr)
        let played = try Data(contentsOf: home.appendingPathComponent("out.raw")).withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
        let start = Int(latency) * 2
        XCTAssertGreaterThanOrEqual(played.count, start + 2 * frames, "the device played the capture")
        XCTAssertTrue(played.prefix(start).allSatisfy { $0 == 0 }, "silence before the first captured frame")
        XCTAssertEqual(Array(played[start..<start + 2 * frames]), captured)
    }
}

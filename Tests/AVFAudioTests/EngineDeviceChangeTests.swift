import ALSATestSupport
import AVFAudio
import Foundation
import XCTest

/// The engine on a device that goes away: ALSA's jack PCM on a JACK server (dummy backend, real
/// time), defined in the ~/.asoundrc of a temporary HOME; killing the server makes the device
/// vanish. JACK keeps at most 8 servers in its registry and frees a killed server's slot only when
/// one of the same name starts, so the test starts it again and stops it gracefully.
final class EngineDeviceChangeTests: XCTestCase {
    let serverName = "auhost-avfaudio-tests"

    func testADeviceThatStopsByItselfStopsTheEngineAndPostsTheConfigurationChange() throws {
        let home = try TemporaryALSAHome("avengine-jack") { _ in
            "pcm.engine_jack { type jack playback_ports { 0 system:playback_1 1 system:playback_2 } }\n"
        }
        defer { home.restore() }
        let server = try DummyJACKServer(name: serverName)

        let engine = AVAudioEngine()
        XCTAssertEqual(setCurrentDevice(engine.outputNode.audioUnit!, "engine_jack"), noErr)
        let source = AVAudioSourceNode { _, _, frames, list in
            for buffer in UnsafeMutableAudioBufferListPointer(list) { if let data = buffer.mData { memset(data, 0, Int(frames) * 4) } }
            return noErr
        }
        engine.attach(source)
        let format = AVAudioFormat(standardFormatWithSampleRate: engine.outputNode.outputFormat(forBus: 0).sampleRate, channels: 2)
        engine.connect(source, to: engine.mainMixerNode, format: format)
        let rendered = FrameCount()
        engine.mainMixerNode.installTap(onBus: 0, bufferSize: 256, format: nil) { buffer, _ in rendered.add(Int(buffer.frameLength)) }
        let changes = FrameCount()
        let observer = NotificationCenter.default.addObserver(forName: .AVAudioEngineConfigurationChange, object: engine, queue: nil) {
            _ in changes.add(1)
        }
        defer { NotificationCenter.default.removeObserver(observer) }

        // The server takes a moment to accept clients.
        let ready = Date().addingTimeInterval(15)
        while (try? engine.start()) == nil && Date() < ready { usleep(50_000) }
        XCTAssertTrue(engine.isRunning, "the engine did not start on the JACK PCM")
        XCTAssertTrue(rendered.wait(atLeast: 4_800), "the device did not pull the engine")
        engine.stop()  // the engine's own stop is not a change of configuration
        try engine.start()
        XCTAssertTrue(rendered.wait(atLeast: 9_600), "the device did not pull the engine again")
        XCTAssertEqual(changes.value, 0)

        server.kill()
        XCTAssertTrue(changes.wait(atLeast: 1), "no AVAudioEngineConfigurationChange after the device vanished")
        XCTAssertFalse(engine.isRunning)
        XCTAssertEqual(changes.value, 1)

        let again = try DummyJACKServer(name: serverName)  // frees the killed server's registry slot
        usleep(500_000)
        kill(again.process.processIdentifier, SIGTERM)
        again.process.waitUntilExit()
    }
}

/// A counter shared with callbacks on other threads, with a deadline-bound wait.
private final class FrameCount: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    var value: Int { lock.withLock { count } }
    func add(_ n: Int) { lock.withLock { count += n } }
    /// Waits (15 s at most: a deadline, not a timing) until the count reaches `target`.
    func wait(atLeast target: Int) -> Bool {
        let deadline = Date().addingTimeInterval(15)
        while value < target && Date() < deadline { usleep(5_000) }
        return value >= target
    }
}

import ALSATestSupport
import AVFAudio
import Foundation
import TestSupport
import XCTest

/// The engine on JACK (AUHOST_AUDIO_DEVICE=jack:CLIENT), against jackd's dummy backend (48 kHz,
/// 64-frame cycles) and a second JACK client of the test's own (JACKPeer), as another program on
/// the server would hear and feed the engine: code written for Apple's engine, unchanged.
final class EngineJACKTests: XCTestCase {
    private var server: DummyJACKServer?

    override func setUpWithError() throws {
        server = try DummyJACKServer.ready(name: "auhost-avf-jack", periodFrames: 64)
        setenv("AUHOST_AUDIO_DEVICE", "jack:avf-engine", 1)
    }

    override func tearDown() {
        unsetenv("AUHOST_AUDIO_DEVICE")
        server?.interrupt()
        server = nil
    }

    /// A source node → main mixer → output node plays on the client's ports, every frame exact:
    /// the output node is the JACK I/O unit at the server's rate, and the session reports the
    /// server's rate and cycle.
    func testTheOutputNodeIsAJACKClientThatPlaysTheEngineExactly() throws {
        let engine = AVAudioEngine()
        let unit = try XCTUnwrap(engine.outputNode.audioUnit)
        var description = AudioComponentDescription()
        XCTAssertEqual(AudioComponentGetDescription(AudioComponentInstanceGetComponent(unit), &description), noErr)
        XCTAssertEqual(description.componentSubType, kAudioUnitSubType_AUHostJACKIO)
        XCTAssertEqual(engine.outputNode.outputFormat(forBus: 0).sampleRate, 48_000)
        XCTAssertEqual(engine.outputNode.inputFormat(forBus: 0).sampleRate, 48_000)

        let ramp = RampCounter()
        let source = AVAudioSourceNode { _, _, frames, list in
            let buffers = UnsafeMutableAudioBufferListPointer(list)
            let left = buffers[0].mData!.assumingMemoryBound(to: Float.self)
            let right = buffers[1].mData!.assumingMemoryBound(to: Float.self)
            for i in 0..<Int(frames) {
                left[i] = Float(ramp.next + i) / 65_536
                right[i] = -left[i]
            }
            ramp.next += Int(frames)
            return noErr
        }
        engine.attach(source)
        engine.connect(source, to: engine.mainMixerNode, format: AVAudioFormat(standardFormatWithSampleRate: 48_000, channels: 2))
        try engine.start()
        defer { engine.stop() }
        XCTAssertEqual(AVAudioSession.sharedInstance().sampleRate, 48_000)
        XCTAssertEqual(AVAudioSession.sharedInstance().ioBufferDuration, 64.0 / 48_000)

        let peer = try JACKPeer()
        XCTAssertEqual(peer.ports("avf-engine:"), ["avf-engine:out_1", "avf-engine:out_2"])
        XCTAssertEqual(peer.connect("avf-engine:out_1", "auhost-test-peer:in_1"), 0)
        XCTAssertEqual(peer.connect("avf-engine:out_2", "auhost-test-peer:in_2"), 0)
        XCTAssertTrue(waitUntil(timeout: 20) { peer.framesRecorded >= 4_800 }, "4,800 frames through JACK within 20 s")
        // What the peer recorded while the engine ran (after stop it records silence).
        let left = peer.recording(0), right = peer.recording(1)
        let allowed = breaksAllowed(unit)
        let start = try XCTUnwrap(max(left.firstIndex { $0 != 0 } ?? .max, right.firstIndex { $0 != 0 } ?? .max) as Int?)
        XCTAssertLessThan(start + 1_000, left.count, "the ramp arrived on both ports")
        let played = Array(left[start...])
        XCTAssertLessThanOrEqual(JACKPeer.rampBreaks(played), allowed, "every frame in order and unchanged but at xruns")
        XCTAssertTrue(right[start...].elementsEqual(played.map { -$0 }), "channel 2 is channel 1 negated")
    }

    /// Apple's monitoring pattern, inputNode → mainMixerNode: what another client plays into the
    /// engine's input ports comes out of its output ports, frame for frame, and a tap on the input
    /// node sees it.
    func testTheInputNodeCapturesTheJACKInputPorts() throws {
        let engine = AVAudioEngine()
        let input = engine.inputNode
        XCTAssertEqual(input.outputFormat(forBus: 0).sampleRate, 48_000)
        engine.connect(input, to: engine.mainMixerNode, format: input.outputFormat(forBus: 0))
        let tapped = TapRecord()
        input.installTap(onBus: 0, bufferSize: 256, format: nil) { buffer, _ in tapped.append(buffer) }
        try engine.start()
        defer { engine.stop() }

        let peer = try JACKPeer()
        XCTAssertEqual(peer.ports("avf-engine:in"), ["avf-engine:in_1", "avf-engine:in_2"])
        XCTAssertEqual(peer.connect("auhost-test-peer:ramp", "avf-engine:in_1"), 0)
        XCTAssertEqual(peer.connect("avf-engine:out_1", "auhost-test-peer:in_1"), 0)
        XCTAssertTrue(waitUntil(timeout: 20) { peer.framesRecorded >= 9_600 }, "9,600 frames back through JACK within 20 s")
        XCTAssertTrue(waitUntil(timeout: 20) { tapped.frames >= 4_800 }, "the tap saw 4,800 frames within 20 s")
        // While the engine runs: after stop the peer records silence, and the last cycles of a stop
        // can hand the tap silence too.
        let back = peer.recording(0), seen = tapped.left
        let allowed = breaksAllowed(try XCTUnwrap(engine.outputNode.audioUnit))
        engine.stop()
        let start = try XCTUnwrap(back.firstIndex { $0 != 0 }, "the peer's ramp came back")
        XCTAssertLessThan(start + 1_000, back.count)
        XCTAssertLessThanOrEqual(JACKPeer.rampBreaks(Array(back[start...])), allowed, "played back in order but at xruns")
        let first = try XCTUnwrap(seen.firstIndex { $0 != 0 }, "the tap saw the ramp")
        XCTAssertLessThanOrEqual(JACKPeer.rampBreaks(Array(seen[first...])), allowed, "tapped in order but at xruns")
    }

    /// The server going away stops the engine and posts AVAudioEngineConfigurationChange, as an
    /// unplugged device does on Apple.
    func testAServerThatVanishesStopsTheEngineAndPostsTheConfigurationChange() throws {
        let engine = AVAudioEngine()
        let source = AVAudioSourceNode { _, _, _, _ in noErr }
        engine.attach(source)
        engine.connect(source, to: engine.mainMixerNode, format: AVAudioFormat(standardFormatWithSampleRate: 48_000, channels: 2))
        let posted = DispatchSemaphore(value: 0)
        let observer = NotificationCenter.default.addObserver(forName: .AVAudioEngineConfigurationChange, object: engine, queue: nil) {
            _ in posted.signal()
        }
        defer { NotificationCenter.default.removeObserver(observer) }
        try engine.start()
        XCTAssertTrue(engine.isRunning)
        server?.kill()
        XCTAssertEqual(posted.wait(timeout: .now() + 20), .success, "AVAudioEngineConfigurationChange after the server died")
        XCTAssertFalse(engine.isRunning)
        engine.stop()
    }

    /// "jack" alone names the client after the program, as JACK programs are named.
    func testPlainJackNamesTheClientAfterTheProgram() throws {
        setenv("AUHOST_AUDIO_DEVICE", "jack", 1)
        let engine = AVAudioEngine()
        _ = engine.mainMixerNode
        try engine.start()
        defer { engine.stop() }
        let program = ProcessInfo.processInfo.processName
        XCTAssertEqual(try JACKPeer().ports(program + ":"), [program + ":out_1", program + ":out_2"])
    }

    /// No server: the engine is made, and start throws the JACK unit's error naming the server.
    func testStartWithoutAServerThrowsNamingIt() throws {
        server?.interrupt()
        let engine = AVAudioEngine()
        _ = engine.mainMixerNode
        XCTAssertThrowsError(try engine.start()) { error in
            XCTAssertEqual((error as NSError).code, Int(kAudioUnitErr_NoConnection))
            XCTAssertTrue("\(error)".contains("auhost-avf-jack"), "\(error)")
        }
        XCTAssertFalse(engine.isRunning)
    }

    private func breaksAllowed(_ unit: AudioUnit) -> Int {
        JACKPeer.breaksAllowed {
            var count: UInt32 = 0
            var size = UInt32(4)
            XCTAssertEqual(AudioUnitGetProperty(unit, kAUHostJACKProperty_XrunCount, kAudioUnitScope_Global, 0, &count, &size), noErr)
            return Int(count)
        }
    }
}

/// The source node's frame count (render thread only).
private final class RampCounter: @unchecked Sendable {
    var next = 0
}

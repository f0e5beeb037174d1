import ALSATestSupport
import AUHost
import CAUHostAtomics
import CJACK
import JACKIOUnit
import TestSupport
import XCTest

/// The JACK I/O unit against jackd's dummy backend (48 kHz, 64-frame cycles) started by each
/// test under a name of its own: ports named as AUHostJACK.h says, samples passed exactly both
/// ways, the server's rate and buffer size, the transport, freewheel, xruns and a vanishing server.
final class JACKIOUnitTests: XCTestCase {
    var server: DummyJACKServer?

    override func setUpWithError() throws {
        server = try DummyJACKServer.ready(name: "auhost-jackio-test", periodFrames: 64)
    }

    override func tearDown() {
        server?.interrupt()
        server = nil
    }

    func testOutputPortsAreNamedAndCarryTheRenderCallbackExactly() throws {
        let unit = try JACKUnitUnderTest(clientName: "auhost-io")
        let ramp = RampSource()
        try unit.setRenderCallback(rampRender, ramp.pointer)
        try unit.initialize()
        XCTAssertEqual(unit.float64(kAUHostJACKProperty_ServerSampleRate), 48_000)
        XCTAssertEqual(unit.uint32(kAUHostJACKProperty_ServerBufferFrames), 64)
        XCTAssertEqual(unit.string(kAUHostJACKProperty_ClientName), "auhost-io")
        try unit.start()
        // A test that ends early must not leave the device thread in a callback whose data is freed.
        defer { withExtendedLifetime(ramp) { _ = try? unit.stop() } }
        let peer = try JACKPeer()
        XCTAssertEqual(peer.ports("auhost-io:"), ["auhost-io:out_1", "auhost-io:out_2"])
        XCTAssertEqual(peer.connect("auhost-io:out_1", "auhost-test-peer:in_1"), 0)
        XCTAssertEqual(peer.connect("auhost-io:out_2", "auhost-test-peer:in_2"), 0)
        XCTAssertTrue(waitUntil(timeout: 20) { peer.framesRecorded >= 4_800 }, "4,800 frames through JACK within 20 s")
        // Each port joined the peer at its own connection: compare from the later one on.
        let left = peer.recording(0), right = peer.recording(1)
        let start = try XCTUnwrap(max(left.firstIndex { $0 != 0 } ?? .max, right.firstIndex { $0 != 0 } ?? .max) as Int?)
        XCTAssertLessThan(start, left.count, "the ramp arrived on both ports")
        let played = Array(left[start...])
        XCTAssertLessThanOrEqual(
            JACKPeer.rampBreaks(played), JACKPeer.breaksAllowed { Int(unit.uint32(kAUHostJACKProperty_XrunCount)) },
            "every frame in order, unchanged, but where the server reported an xrun: \(JACKPeer.describeBreaks(played))")
        XCTAssertTrue(right[start...].elementsEqual(played.map { -$0 }), "channel 2 is channel 1 negated")
        XCTAssertEqual(unit.uint32(kAudioOutputUnitProperty_IsRunning), 1)
        try withExtendedLifetime(ramp) { try unit.stop() }
        XCTAssertEqual(unit.uint32(kAudioOutputUnitProperty_IsRunning), 0)
    }

    func testInputPortsReachAudioUnitRenderOnElementOne() throws {
        let unit = try JACKUnitUnderTest(clientName: "auhost-in", input: true)
        let capture = CaptureSink(unit: unit.unit)
        try unit.setInputCallback(captureInput, capture.pointer)
        try unit.start()
        defer { withExtendedLifetime(capture) { _ = try? unit.stop() } }
        let peer = try JACKPeer()
        XCTAssertEqual(peer.connect("auhost-test-peer:ramp", "auhost-in:in_1"), 0)
        XCTAssertTrue(waitUntil(timeout: 20) { capture.frames >= 4_800 }, "4,800 captured frames within 20 s")
        // What was captured while the unit ran: jack_deactivate disconnects the ports while JACK
        // may still call the client, so the last cycles of a stop can read silence or skip a
        // cycle (seen 3 times in 40 runs, always at the end of the capture).
        let got = capture.samples
        try withExtendedLifetime(capture) { try unit.stop() }
        let start = try XCTUnwrap(got.firstIndex { $0 != 0 }, "the peer's ramp arrived")
        let tail = Array(got[start...])
        XCTAssertLessThanOrEqual(
            JACKPeer.rampBreaks(tail), JACKPeer.breaksAllowed { Int(unit.uint32(kAUHostJACKProperty_XrunCount)) },
            "every captured frame in order, but where the server reported an xrun: \(JACKPeer.describeBreaks(tail))")
        XCTAssertEqual(capture.lastStatus, noErr)
    }

    func testTransportStartAndStopReachTheHostCallbacks() throws {
        let unit = try JACKUnitUnderTest(clientName: "auhost-transport")
        let probe = TransportProbe(try unit.transportCallbacks())
        try unit.setRenderCallback(transportRender, probe.pointer)
        try unit.start()
        defer { withExtendedLifetime(probe) { _ = try? unit.stop() } }
        let peer = try JACKPeer()
        XCTAssertTrue(waitUntil(timeout: 10) { probe.cycles > 10 }, "the unit renders")
        XCTAssertEqual(probe.playing, 0, "JACK's transport starts stopped")
        jack_transport_locate(peer.client, 96_000)
        jack_transport_start(peer.client)
        XCTAssertTrue(waitUntil(timeout: 10) { probe.playing == 1 }, "jack_transport_start reached the unit's callbacks")
        XCTAssertTrue(waitUntil(timeout: 10) { probe.sample > 96_000 }, "the frame moves on from the located 96,000")
        let (sample, beat, tempo) = probe.position
        XCTAssertEqual(tempo, 120, "no timebase master: 120 BPM")
        XCTAssertEqual(beat, sample / 48_000 * 2, accuracy: 1e-9, "beats counted from frame 0 at 120 BPM")
        jack_transport_stop(peer.client)
        XCTAssertTrue(waitUntil(timeout: 10) { probe.playing == 0 }, "jack_transport_stop reached the unit's callbacks")
        try withExtendedLifetime(probe) { try unit.stop() }  // the callback reads the probe until Stop
    }

    func testTheUnitAsTimebaseMasterGivesEveryClientItsTempo() throws {
        let unit = try JACKUnitUnderTest(clientName: "auhost-timebase")
        XCTAssertEqual(unit.setFloat64(kAUHostJACKProperty_TimebaseTempo, -1), kAudioUnitErr_InvalidPropertyValue)
        XCTAssertEqual(unit.setFloat64(kAUHostJACKProperty_TimebaseTempo, 90), noErr)
        let probe = TransportProbe(try unit.transportCallbacks())
        try unit.setRenderCallback(transportRender, probe.pointer)
        try unit.start()
        defer { withExtendedLifetime(probe) { _ = try? unit.stop() } }
        let peer = try JACKPeer()
        jack_transport_start(peer.client)
        XCTAssertTrue(waitUntil(timeout: 10) { probe.playing == 1 && probe.sample > 48_000 }, "the transport rolls")
        let (sample, beat, tempo) = probe.position
        XCTAssertEqual(tempo, 90, "the unit's callbacks read the master's tempo")
        XCTAssertEqual(beat, sample / 48_000 * 1.5, accuracy: 1.0 / 1_920, "beats at 90 BPM from frame 0, to a tick")
        var position = jack_position_t()
        _ = jack_transport_query(peer.client, &position)
        XCTAssertNotEqual(position.valid.rawValue & JackPositionBBT.rawValue, 0, "another client sees bar, beat and tick")
        XCTAssertEqual(position.beats_per_minute, 90)
        jack_transport_stop(peer.client)
        try withExtendedLifetime(probe) { try unit.stop() }
    }

    func testAGraphHandsTheHeadsTransportToItsNodes() throws {
        JACKProvider.installOnce()
        var graph: AUGraph?
        XCTAssertEqual(NewAUGraph(&graph), noErr)
        let g = try XCTUnwrap(graph)
        defer { DisposeAUGraph(g) }
        var headDescription = JACKIOUnit.identity
        var effectDescription = AudioComponentDescription(
            componentType: kAudioUnitType_Effect, componentSubType: kAudioUnitSubType_Delay,
            componentManufacturer: kAudioUnitManufacturer_Apple,
            componentFlags: 0, componentFlagsMask: 0)
        var head = AUNode(), effect = AUNode()
        XCTAssertEqual(AUGraphAddNode(g, &headDescription, &head), noErr)
        XCTAssertEqual(AUGraphAddNode(g, &effectDescription, &effect), noErr)
        XCTAssertEqual(AUGraphOpen(g), noErr)
        XCTAssertEqual(AUGraphConnectNodeInput(g, effect, 0, head, 0), noErr)
        var headUnit: AudioUnit?, effectUnit: AudioUnit?
        AUGraphNodeInfo(g, head, nil, &headUnit)
        AUGraphNodeInfo(g, effect, nil, &effectUnit)
        var off: UInt32 = 0
        AudioUnitSetProperty(headUnit!, kAUHostJACKProperty_AutoConnect, kAudioUnitScope_Global, 0, &off, 4)
        var format = AudioStreamBasicDescription.canonical(sampleRate: 48_000, channels: 2)
        let formatSize = UInt32(MemoryLayout.size(ofValue: format))
        for (unit, scope) in [
            (effectUnit!, kAudioUnitScope_Input), (effectUnit!, kAudioUnitScope_Output), (headUnit!, kAudioUnitScope_Input),
        ] {
            XCTAssertEqual(AudioUnitSetProperty(unit, kAudioUnitProperty_StreamFormat, scope, 0, &format, formatSize), noErr)
        }
        XCTAssertEqual(AUGraphInitialize(g), noErr, LastErrorMessage.current ?? "")
        var offered = HostCallbackInfo(), handed = HostCallbackInfo()
        var size = UInt32(MemoryLayout<HostCallbackInfo>.size)
        XCTAssertEqual(
            AudioUnitGetProperty(headUnit!, kAUHostJACKProperty_TransportHostCallbacks, kAudioUnitScope_Global, 0, &offered, &size), noErr)
        XCTAssertEqual(
            AudioUnitGetProperty(effectUnit!, kAudioUnitProperty_HostCallbacks, kAudioUnitScope_Global, 0, &handed, &size), noErr)
        XCTAssertNotNil(offered.hostUserData)
        XCTAssertEqual(handed.hostUserData, offered.hostUserData, "the node answers from the head's JACK transport")
        XCTAssertEqual(AUGraphUninitialize(g), noErr)
    }

    func testFreewheelIsAskedOfTheServerAndReadBack() throws {
        let unit = try JACKUnitUnderTest(clientName: "auhost-freewheel")
        XCTAssertEqual(unit.setUInt32(kAUHostJACKProperty_Freewheel, 1), kAudioUnitErr_Uninitialized, "no server before initialize")
        try unit.start()
        XCTAssertEqual(unit.setUInt32(kAUHostJACKProperty_Freewheel, 1), noErr)
        XCTAssertTrue(waitUntil(timeout: 10) { unit.uint32(kAUHostJACKProperty_Freewheel) == 1 }, "the server freewheels")
        XCTAssertEqual(unit.setUInt32(kAUHostJACKProperty_Freewheel, 0), noErr)
        XCTAssertTrue(waitUntil(timeout: 10) { unit.uint32(kAUHostJACKProperty_Freewheel) == 0 }, "and stops freewheeling")
        try unit.stop()
    }

    func testACycleThatOverrunsIsCountedAsAnXrun() throws {
        let unit = try JACKUnitUnderTest(clientName: "auhost-xrun")
        let slow = SlowSource()
        try unit.setRenderCallback(slowRender, slow.pointer)
        try unit.start()
        // This VM's dummy server misses its own deadlines about once a second (more under load),
        // so the count may already have moved: every slow cycle (15 periods long) adds one more,
        // ten of them within a fifth of a second, where the server's own take ten seconds.
        let before = unit.uint32(kAUHostJACKProperty_XrunCount)
        slow.sleepMicroseconds = 20_000  // 15 cycles of 64 frames
        XCTAssertTrue(
            waitUntil(timeout: 20) { unit.uint32(kAUHostJACKProperty_XrunCount) >= before + 10 }, "JACK reported the overruns")
        slow.sleepMicroseconds = 0
        try withExtendedLifetime(slow) { try unit.stop() }
    }

    func testAServerThatVanishesStopsTheUnitWithItsReason() throws {
        let unit = try JACKUnitUnderTest(clientName: "auhost-vanish")
        let listener = RunningListener(unit.unit)
        try unit.start()
        XCTAssertTrue(waitUntil(timeout: 5) { listener.calls >= 1 }, "IsRunning listener on Start")
        server?.kill()
        XCTAssertTrue(waitUntil(timeout: 20) { unit.string(kAUHostJACKProperty_StreamError) != nil }, "the server's reason is kept")
        XCTAssertTrue(waitUntil(timeout: 20) { listener.calls >= 2 }, "IsRunning listeners heard it")
        var error: OSStatus = 0
        var size: UInt32 = 4
        AudioUnitGetProperty(unit.unit, kAudioUnitProperty_LastRenderError, kAudioUnitScope_Global, 0, &error, &size)
        XCTAssertEqual(error, kAudioUnitErr_NoConnection)
        XCTAssertThrowsError(try unit.start(), "no restart on a dead connection")
    }

    func testBadRatesAndMissingServersAreRefusedWithTheirCause() throws {
        let unit = try JACKUnitUnderTest(clientName: "auhost-rate")
        var format = AudioStreamBasicDescription.canonical(sampleRate: 44_100, channels: 2)
        XCTAssertEqual(
            AudioUnitSetProperty(
                unit.unit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Input, 0, &format, UInt32(MemoryLayout.size(ofValue: format))),
            noErr)
        XCTAssertEqual(AudioUnitInitialize(unit.unit), kAudioUnitErr_FormatNotSupported)
        XCTAssertTrue(LastErrorMessage.current?.contains("48000 Hz") ?? false, LastErrorMessage.current ?? "")
        var interleaved = AudioStreamBasicDescription.canonical(sampleRate: 48_000, channels: 2)
        interleaved.mFormatFlags &= ~kAudioFormatFlagIsNonInterleaved
        XCTAssertEqual(
            AudioUnitSetProperty(
                unit.unit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Input, 0, &interleaved,
                UInt32(MemoryLayout.size(ofValue: format))),
            kAudioUnitErr_FormatNotSupported)

        let lost = try JACKUnitUnderTest(clientName: "auhost-lost", server: "auhost-no-such-server")
        XCTAssertEqual(AudioUnitInitialize(lost.unit), kAudioUnitErr_NoConnection)
        XCTAssertTrue(LastErrorMessage.current?.contains("auhost-no-such-server") ?? false, LastErrorMessage.current ?? "")
    }
}

/// Disposing a running unit, as a host that skips AudioOutputUnitStop does: JACK stops calling it
/// before its memory goes (no render callback after AudioComponentInstanceDispose returns).
final class JACKIOUnitDisposeTests: XCTestCase {
    func testDisposingARunningUnitStopsItsCycles() throws {
        let server = try DummyJACKServer.ready(name: "auhost-jackio-dispose", periodFrames: 64)
        defer { server.interrupt() }
        for _ in 0..<5 {
            var unit: JACKUnitUnderTest? = try JACKUnitUnderTest(clientName: "auhost-dispose")
            let probe = TransportProbe(try unit!.transportCallbacks())
            try unit!.setRenderCallback(transportRender, probe.pointer)
            try unit!.start()
            XCTAssertTrue(waitUntil(timeout: 10) { probe.cycles > 2 }, "the unit renders")
            unit!.dispose()
            let after = probe.cycles
            usleep(50_000)
            XCTAssertEqual(probe.cycles, after, "no cycle after dispose")
            withExtendedLifetime(probe) {}
            unit = nil
        }
    }
}

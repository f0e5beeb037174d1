import AUHost
import VoiceTestSupport
import XCTest

/// The offline voice-processing unit through the C API: the room bars, bypass, mute, element 0,
/// the properties and refused formats.
final class VoiceProcessingOfflineUnitTests: XCTestCase {
    func testRoomBarsThroughTheUnit() throws {
        let room = RoomScenario()
        let h = try OfflineVoiceHarness(far: room.farEnd, microphone: room.microphone)
        try h.initialize()
        let latency = Int((h.latency * room.rate).rounded())
        XCTAssertEqual(latency, 1150, "kAudioUnitProperty_Latency: one chunk (480) plus webrtc's delay (670) at 48 kHz")
        let (output, _) = try h.render(frames: room.frames, block: 512)
        for segment in room.farOnly {
            let erle = powerRatioDecibels(room.microphone, output, segment, lag: latency)
            print(
                "unit, far-end only \(Double(segment.lowerBound) / room.rate)–\(Double(segment.upperBound) / room.rate) s: ERLE \(erle) dB")
            XCTAssertGreaterThanOrEqual(erle, 20, "ERLE on far-end-only speech (bar: ≥ 20 dB)")
        }
        let r = correlation(room.nearEnd, output, room.nearOnly, lag: latency)
        print("unit, near-end only: correlation \(r)")
        XCTAssertGreaterThanOrEqual(r, 0.9, "near end kept (bar: ≥ 0.9)")
        let m = h.metrics
        print(
            "unit, webrtc metrics: ERLE \(m.mEchoReturnLossEnhancement) dB (average \(m.mAverageEchoReturnLossEnhancement)), ERL \(m.mEchoReturnLoss) dB, delay \(m.mEchoDelay) s"
        )
        XCTAssertEqual(m.mValid, 1, "the canceller produced figures after 14 s")
        XCTAssertEqual(m.mReportedDelay, 0, "offline, far end and microphone are aligned")
    }

    func testBypassPassesTheMicrophoneBitForBit() throws {
        let room = RoomScenario(rate: 16_000)
        let h = try OfflineVoiceHarness(far: room.farEnd, microphone: room.microphone, rate: 16_000)
        try h.setSwitch(kAUVoiceIOProperty_BypassVoiceProcessing, true)
        try h.initialize()
        XCTAssertEqual(h.latency, 0, "bypassed processing adds no latency")
        let (output, _) = try h.render(frames: 48_000, block: 300)
        XCTAssertEqual(output, Array(room.microphone.prefix(48_000)))
    }

    func testElementZeroGivesTheFarEndOnceAndMuteSilencesIt() throws {
        let far = (0..<4_800).map { Float($0 % 97) / 97 - 0.5 }
        let h = try OfflineVoiceHarness(far: far, microphone: [Float](repeating: 0, count: 4_800))
        try h.initialize()
        let (_, heard) = try h.render(frames: 2_400, block: 480, alsoFarEnd: true)
        XCTAssertEqual(heard, Array(far.prefix(2_400)), "element 0 gives the far end pulled for element 1")
        XCTAssertEqual(h.far.calls, 5, "the far end is pulled once per time stamp")
        try h.setSwitch(kAUVoiceIOProperty_MuteOutput, true)
        let (_, muted) = try h.render(frames: 2_400, block: 480, alsoFarEnd: true)
        XCTAssertEqual(muted, [Float](repeating: 0, count: 2_400))
    }

    func testSwitchesReadBackAndRefuseBadValues() throws {
        let h = try OfflineVoiceHarness(far: [], microphone: [])
        for (id, initial) in [
            (kAUVoiceIOProperty_BypassVoiceProcessing, UInt32(0)), (kAUVoiceIOProperty_VoiceProcessingEnableAGC, 1),
            (kAUVoiceIOProperty_MuteOutput, 0),
        ] {
            var v: UInt32 = 9
            var size = UInt32(4)
            XCTAssertEqual(AudioUnitGetProperty(h.unit, id, kAudioUnitScope_Global, 0, &v, &size), noErr)
            XCTAssertEqual(v, initial, "default of property \(id)")
            var bad: UInt32 = 2
            XCTAssertEqual(AudioUnitSetProperty(h.unit, id, kAudioUnitScope_Global, 0, &bad, 4), kAudioUnitErr_InvalidPropertyValue)
            var on: UInt32 = 1 - initial
            XCTAssertEqual(AudioUnitSetProperty(h.unit, id, kAudioUnitScope_Input, 0, &on, 4), kAudioUnitErr_InvalidScope)
            XCTAssertEqual(AudioUnitSetProperty(h.unit, id, kAudioUnitScope_Global, 0, &on, 4), noErr)
            XCTAssertEqual(AudioUnitGetProperty(h.unit, id, kAudioUnitScope_Global, 0, &v, &size), noErr)
            XCTAssertEqual(v, on)
        }
        var m = AUHostVoiceIOMetrics()
        XCTAssertEqual(
            AudioUnitSetProperty(
                h.unit, kAUHostVoiceIOProperty_EchoMetrics, kAudioUnitScope_Global, 0, &m, UInt32(MemoryLayout.size(ofValue: m))),
            kAudioUnitErr_PropertyNotWritable)
    }

    func testRatesItCannotChunkAreRefusedAtInitialize() throws {
        let h = try OfflineVoiceHarness(far: [], microphone: [], rate: 22_050)
        let status = AudioUnitInitialize(h.unit)
        XCTAssertEqual(status, kAudioUnitErr_FormatNotSupported)
        let h2 = try OfflineVoiceHarness(far: [], microphone: [], rate: 48_000)
        var interleavedStereo = AudioStreamBasicDescription.linearPCM(
            sampleRate: 48_000, channels: 2, bitsPerChannel: 32, isFloat: true, interleaved: true)
        XCTAssertNotEqual(
            AudioUnitSetProperty(
                h2.unit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Input, 1, &interleavedStereo,
                UInt32(MemoryLayout<AudioStreamBasicDescription>.size)), noErr,
            "interleaved formats are refused when set")
    }
}

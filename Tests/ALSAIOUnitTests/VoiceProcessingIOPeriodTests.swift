import AUHost
import VoiceTestSupport
import XCTest

/// The `vpio` unit with device periods longer than one 10 ms chunk (the kernel then holds each
/// played period back and pairs it chunk by chunk with the next capture; VoiceDevicePatternTests
/// checks that order bit for bit), and its suppression level property.
final class VoiceProcessingIOPeriodTests: XCTestCase {
    override func setUp() { _ = ALSAIOTestEnvironment.directory }

    /// The simulated room through the `aio_duplex` file PCMs in periods of 1024 (not a multiple
    /// of the 480-frame chunk) and 1440 frames (three chunks): the bars hold as with 256.
    func testRoomEchoIsCancelledWithLongPeriods() throws {
        for period in [1_024, 1_440] {
            let buffer = period * 2
            let room = RoomScenario(playbackDelay: buffer)
            ALSAIOTestEnvironment.write(float32Bytes(room.microphone + [Float](repeating: 0, count: 48_000)), to: "in.raw")
            let voice = try VoiceDuplexRun(
                subType: kAudioUnitSubType_VoiceProcessingIO, far: room.farEnd, capacity: room.frames, period: UInt32(period), periods: 2
            ) {
                XCTAssertEqual(IO.set($0, kAudioUnitProperty_MaximumFramesPerSlice, kAudioUnitScope_Global, 0, UInt32(4_096)), noErr)
            }
            let output = try voice.run(frames: room.frames)
            let latency = Int((try IO.get(voice.unit, kAudioUnitProperty_Latency, as: Float64.self) * room.rate).rounded())
            let metrics = try IO.get(voice.unit, kAUHostVoiceIOProperty_EchoMetrics, as: AUHostVoiceIOMetrics.self)
            XCTAssertEqual(AudioUnitUninitialize(voice.unit), noErr)
            XCTAssertEqual(metrics.mReportedDelay, Double(buffer) / room.rate, "the duplex latency is the delay handed to the canceller")
            let erle = room.farOnly.map { powerRatioDecibels(room.microphone, output, $0, lag: latency) }
            let r = correlation(room.nearEnd, output, room.nearOnly, lag: latency)
            print(
                "ALSA duplex, period \(period): ERLE \(erle.map { ($0 * 10).rounded() / 10 }) dB, near-end correlation \((r * 1000).rounded() / 1000), webrtc delay \(metrics.mEchoDelay) s"
            )
            for e in erle { XCTAssertGreaterThanOrEqual(e, 20, "period \(period): ERLE on far-end-only speech (bar: ≥ 20 dB)") }
            XCTAssertGreaterThanOrEqual(r, 0.9, "period \(period): near end kept (bar: ≥ 0.9)")
        }
    }

    /// kAUHostVoiceIOProperty_SuppressionLevel on `vpio`: moderate by default, 0…3 accepted while
    /// uninitialized, other values and changes while initialized refused.
    func testSuppressionLevelIsSetBeforeInitialize() throws {
        ALSAIOTestEnvironment.write([UInt8](repeating: 0, count: 4 * 4_800), to: "in.raw")
        let unit = try IO.make(kAudioUnitSubType_VoiceProcessingIO)
        defer { AudioComponentInstanceDispose(unit) }
        XCTAssertEqual(IO.setDevice(unit, "aio_duplex"), noErr)
        XCTAssertEqual(IO.set(unit, kAudioOutputUnitProperty_EnableIO, kAudioUnitScope_Input, 1, UInt32(1)), noErr)
        let id = kAUHostVoiceIOProperty_SuppressionLevel
        XCTAssertEqual(try IO.get(unit, id, as: UInt32.self), kAUHostVoiceIOSuppression_Moderate)
        XCTAssertEqual(IO.set(unit, id, kAudioUnitScope_Global, 0, UInt32(4)), kAudioUnitErr_InvalidPropertyValue)
        XCTAssertEqual(IO.set(unit, id, kAudioUnitScope_Global, 0, kAUHostVoiceIOSuppression_VeryHigh), noErr)
        let mono = AudioStreamBasicDescription.linearPCM(
            sampleRate: 48_000, channels: 1, bitsPerChannel: 32, isFloat: true, interleaved: true)
        XCTAssertEqual(IO.set(unit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Input, 1, mono), noErr)
        XCTAssertEqual(AudioUnitInitialize(unit), noErr, IO.lastErrorMessage)
        XCTAssertEqual(IO.set(unit, id, kAudioUnitScope_Global, 0, kAUHostVoiceIOSuppression_Low), kAudioUnitErr_Initialized)
        XCTAssertEqual(try IO.get(unit, id, as: UInt32.self), kAUHostVoiceIOSuppression_VeryHigh)
        XCTAssertEqual(AudioUnitUninitialize(unit), noErr)
        XCTAssertEqual(IO.set(unit, id, kAudioUnitScope_Global, 0, kAUHostVoiceIOSuppression_Low), noErr)
    }
}

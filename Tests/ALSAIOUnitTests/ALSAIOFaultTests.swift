import AUHost
import ALSATestSupport
import Foundation
import Synchronization
import XCTest

final class ALSAIOFaultTests: XCTestCase {
    override func setUp() { _ = ALSAIOTestEnvironment.directory }

    /// A device that disappears mid-stream stops the unit: a JACK server (dummy backend) is
    /// killed under a running unit on the `jack` PCM (alsa-lib's file plugin swallows file
    /// errors, so it cannot fail mid-stream). The unit stops, IsRunning listeners fire (and read
    /// 0), LastRenderError becomes kAudioUnitErr_NoConnection (its listener fires too), and
    /// kAUHostALSAProperty_StreamError names the device and ALSA's reason.
    func testDeviceFailingMidStreamStopsTheUnitWithItsReason() throws {
        // A fixed name: the killed server's slot in JACK's registry is taken back by the next
        // run's (a name per process left one more slot each run; after eight no jackd starts).
        let server = try DummyJACKServer(name: "alsaiounit-test-vanish")

        let source = PlaybackSource(samples: [0.25, -0.25], channels: 2)
        let events = PropertyEvents()
        let unit = try IO.make(kAudioUnitSubType_DefaultOutput)
        defer { AudioComponentInstanceDispose(unit) }
        XCTAssertEqual(IO.setDevice(unit, "aio_jack"), noErr)
        XCTAssertEqual(IO.set(unit, kAUHostALSAProperty_PreferredPeriodFrames, kAudioUnitScope_Global, 0, UInt32(256)), noErr)
        XCTAssertEqual(
            IO.set(
                unit, kAudioUnitProperty_SetRenderCallback, kAudioUnitScope_Input, 0,
                AURenderCallbackStruct(inputProc: renderTestSignal, inputProcRefCon: source.refCon)), noErr)
        XCTAssertEqual(AudioUnitAddPropertyListener(unit, kAudioOutputUnitProperty_IsRunning, recordPropertyEvent, events.refCon), noErr)
        XCTAssertEqual(AudioUnitAddPropertyListener(unit, kAudioUnitProperty_LastRenderError, recordPropertyEvent, events.refCon), noErr)
        XCTAssertTrue(
            ALSAIOTestEnvironment.wait(upTo: 15) { AudioUnitInitialize(unit) == noErr },
            "the JACK server did not come up: \(IO.lastErrorMessage)")

        XCTAssertEqual(AudioOutputUnitStart(unit), noErr, IO.lastErrorMessage)
        XCTAssertEqual(events.isRunningCalls.load(ordering: .relaxed), 1, "Start tells IsRunning listeners")
        XCTAssertTrue(ALSAIOTestEnvironment.wait { source.rendered.load(ordering: .relaxed) >= 48_000 / 4 }, "no audio moved through JACK")
        XCTAssertNil(try IO.string(unit, kAUHostALSAProperty_StreamError))

        server.kill()

        XCTAssertTrue(
            ALSAIOTestEnvironment.wait { events.isRunningSeenFalse.load(ordering: .relaxed) >= 1 },
            "IsRunning listeners were not told the unit stopped")
        XCTAssertEqual(try IO.get(unit, kAudioOutputUnitProperty_IsRunning, as: UInt32.self), 0)
        XCTAssertEqual(try IO.get(unit, kAudioUnitProperty_LastRenderError, as: OSStatus.self), kAudioUnitErr_NoConnection)
        XCTAssertTrue(
            ALSAIOTestEnvironment.wait { events.lastRenderErrorCalls.load(ordering: .relaxed) >= 1 },
            "LastRenderError listeners were not told")
        let reason = try XCTUnwrap(try IO.string(unit, kAUHostALSAProperty_StreamError))
        XCTAssertTrue(reason.contains("\"aio_jack\""), reason)
        XCTAssertTrue(reason.contains("stopped"), reason)
        XCTAssertEqual(AudioOutputUnitStop(unit), noErr, "stopping a unit the device stopped is fine")
    }

    /// An absent PCM name fails AudioOutputUnitStart (which initializes) and AudioUnitInitialize
    /// with kAudioUnitErr_InvalidPropertyValue and a sentence naming the device and ALSA's reason.
    func testAbsentDeviceFailsToStartWithAClearMessage() throws {
        let unit = try IO.make()
        defer { AudioComponentInstanceDispose(unit) }
        XCTAssertEqual(IO.setDevice(unit, "aio_no_such_pcm"), noErr)
        XCTAssertEqual(AudioOutputUnitStart(unit), kAudioUnitErr_InvalidPropertyValue)
        let message = IO.lastErrorMessage
        XCTAssertTrue(message.contains("\"aio_no_such_pcm\""), message)
        XCTAssertTrue(message.contains("Cannot open ALSA playback device"), message)
        XCTAssertTrue(message.contains("aplay -L"), message)
        XCTAssertEqual(try IO.get(unit, kAudioOutputUnitProperty_IsRunning, as: UInt32.self), 0)
        XCTAssertEqual(AudioUnitInitialize(unit), kAudioUnitErr_InvalidPropertyValue)
    }

    /// Bad settings get the documented status and a sentence saying what to do.
    func testMisuseGetsDocumentedStatusesAndReasons() throws {
        let unit = try IO.make()
        defer { AudioComponentInstanceDispose(unit) }
        XCTAssertEqual(IO.set(unit, kAudioOutputUnitProperty_EnableIO, kAudioUnitScope_Input, 0, UInt32(1)), kAudioUnitErr_InvalidElement)
        XCTAssertTrue(IO.lastErrorMessage.contains("input scope element 1"), IO.lastErrorMessage)
        XCTAssertEqual(
            IO.set(unit, kAUHostALSAProperty_PreferredPeriodFrames, kAudioUnitScope_Global, 0, UInt32(0)),
            kAudioUnitErr_InvalidPropertyValue)
        XCTAssertEqual(
            IO.set(unit, kAUHostALSAProperty_GrantedPeriodFrames, kAudioUnitScope_Global, 0, UInt32(64)),
            kAudioUnitErr_PropertyNotWritable)
        XCTAssertEqual(IO.set(unit, kAudioOutputUnitProperty_IsRunning, kAudioUnitScope_Input, 0, UInt32(1)), kAudioUnitErr_InvalidScope)
        // Both directions off: nothing to open.
        XCTAssertEqual(IO.set(unit, kAudioOutputUnitProperty_EnableIO, kAudioUnitScope_Output, 0, UInt32(0)), noErr)
        XCTAssertEqual(AudioUnitInitialize(unit), kAudioUnitErr_FailedInitialization)
        XCTAssertTrue(IO.lastErrorMessage.contains("Both directions"), IO.lastErrorMessage)
        XCTAssertEqual(IO.set(unit, kAudioOutputUnitProperty_EnableIO, kAudioUnitScope_Output, 0, UInt32(1)), noErr)

        // Ask 48 kHz while the app side says 44.1 kHz: the device grants 48 kHz and playback
        // converts (ALSAIORateConversionTests checks the samples); the device side reads 48 kHz.
        XCTAssertEqual(IO.setDevice(unit, "aio_raw_out"), noErr)
        var app = AudioStreamBasicDescription.canonical(sampleRate: 44_100, channels: 2)
        XCTAssertEqual(
            AudioUnitSetProperty(
                unit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Input, 0, &app,
                UInt32(MemoryLayout<AudioStreamBasicDescription>.size)), noErr)
        XCTAssertEqual(IO.set(unit, kAUHostALSAProperty_PreferredSampleRate, kAudioUnitScope_Global, 0, Float64(48_000)), noErr)
        XCTAssertEqual(AudioUnitInitialize(unit), noErr, IO.lastErrorMessage)
        XCTAssertEqual(
            try IO.get(unit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Output, 0, as: AudioStreamBasicDescription.self).mSampleRate,
            48_000)
        XCTAssertEqual(AudioUnitUninitialize(unit), noErr)

        // Preferred 0 asks for the app side's rate: granted, read back.
        XCTAssertEqual(IO.set(unit, kAUHostALSAProperty_PreferredSampleRate, kAudioUnitScope_Global, 0, Float64(0)), noErr)
        XCTAssertEqual(AudioUnitInitialize(unit), noErr, IO.lastErrorMessage)
        XCTAssertEqual(try IO.get(unit, kAUHostALSAProperty_GrantedSampleRate, as: Float64.self), 44_100)
        XCTAssertEqual(IO.setDevice(unit, "aio_wav_out"), kAudioUnitErr_Initialized)
    }
}

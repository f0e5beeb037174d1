import AUHost
import CSoxr
import Foundation
import XCTest

/// libsoxr's one-shot conversion of interleaved `input` with the unit's recipe (20-bit quality,
/// no dither, float32), preceded by 100 ms of silence that is trimmed again, so that the
/// filter's history at the first sample is silence, as a streaming converter's is.
func soxrInterleaved(_ input: [Float], channels: Int, from inputRate: Double, to outputRate: Double) -> [Float] {
    let lead = Int(inputRate / 10) * channels, leadOut = Int(outputRate / 10) * channels
    let padded = [Float](repeating: 0, count: lead) + input
    var output = [Float](repeating: 0, count: (Int(Double(padded.count / channels) * outputRate / inputRate) + 16) * channels)
    var io = soxr_io_spec(SOXR_FLOAT32_I, SOXR_FLOAT32_I)
    io.flags = UInt(SOXR_NO_DITHER)
    var quality = soxr_quality_spec(UInt(SOXR_20_BITQ), 0)
    var done = 0
    let error = padded.withUnsafeBufferPointer { i in
        output.withUnsafeMutableBufferPointer { o in
            soxr_oneshot(inputRate, outputRate, UInt32(channels), i.baseAddress, padded.count / channels, nil,
                         o.baseAddress, o.count / channels, &done, &io, &quality, nil)
        }
    }
    XCTAssertNil(error.map { String(cString: $0) })
    return Array(output[leadOut..<(done * channels)])
}

final class ALSAIORateConversionTests: XCTestCase {
    override func setUp() { _ = ALSAIOTestEnvironment.directory }

    /// The app renders 44.1 kHz canonical stereo into a device that runs at 48 kHz (the output
    /// scope of element 0, the hardware side, set to 48 kHz float interleaved): the file PCM
    /// receives libsoxr's conversion of the app's signal, delayed by the unit's Latency.
    func testPlaybackAt44_1kHzIntoA48kHzDeviceIsLibsoxrsConversion() throws {
        let channels = 2, appFrames = 44_100 / 2
        let values = (0..<(appFrames * channels)).map { i -> Float in
            let n = Double(i / channels), c = Double(i % channels)
            return Float(0.4 * sin(2 * .pi * (440 + 660 * c) * n / 44_100) + 0.3 * sin(2 * .pi * 15_000 * n / 44_100))
        }
        let source = PlaybackSource(samples: values, channels: channels)
        let unit = try IO.make()
        defer { AudioComponentInstanceDispose(unit) }
        XCTAssertEqual(IO.setDevice(unit, "aio_raw_out"), noErr)
        XCTAssertEqual(IO.set(unit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Input, 0,
                              AudioStreamBasicDescription.canonical(sampleRate: 44_100, channels: 2)), noErr)
        let device = AudioStreamBasicDescription.linearPCM(sampleRate: 48_000, channels: 2, bitsPerChannel: 32, isFloat: true, interleaved: true)
        XCTAssertEqual(IO.set(unit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Output, 0, device), noErr)
        XCTAssertEqual(IO.set(unit, kAudioUnitProperty_MaximumFramesPerSlice, kAudioUnitScope_Global, 0, UInt32(512)), noErr)
        XCTAssertEqual(IO.set(unit, kAUHostALSAProperty_PreferredPeriodFrames, kAudioUnitScope_Global, 0, UInt32(64)), noErr)
        XCTAssertEqual(IO.set(unit, kAUHostALSAProperty_PreferredPeriodCount, kAudioUnitScope_Global, 0, UInt32(4)), noErr)
        XCTAssertEqual(IO.set(unit, kAudioUnitProperty_SetRenderCallback, kAudioUnitScope_Input, 0,
                              AURenderCallbackStruct(inputProc: renderTestSignal, inputProcRefCon: source.refCon)), noErr)
        XCTAssertEqual(AudioUnitInitialize(unit), noErr, IO.lastErrorMessage)
        XCTAssertEqual(try IO.get(unit, kAUHostALSAProperty_GrantedSampleRate, as: Float64.self), 48_000)
        let latency = try IO.get(unit, kAudioUnitProperty_Latency, as: Float64.self)
        let latencyFrames = Int((latency * 48_000).rounded())
        XCTAssertGreaterThan(latencyFrames, 0, "the resampler's filter delay is reported")
        XCTAssertEqual(latency * 48_000, Double(latencyFrames), accuracy: 1e-6)

        let deviceFrames = appFrames * 48_000 / 44_100
        XCTAssertEqual(AudioOutputUnitStart(unit), noErr, IO.lastErrorMessage)
        XCTAssertTrue(ALSAIOTestEnvironment.wait { source.rendered.load(ordering: .acquiring) >= appFrames + 4_096 },
                      "the device did not pull the signal")
        XCTAssertEqual(AudioOutputUnitStop(unit), noErr)
        XCTAssertEqual(AudioUnitUninitialize(unit), noErr)

        let bytes = ALSAIOTestEnvironment.read("out.raw")
        let written = bytes.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
        XCTAssertGreaterThanOrEqual(written.count, (latencyFrames + deviceFrames) * channels)
        XCTAssertEqual(written.prefix(latencyFrames * channels).map { abs($0) }.max(), 0, "the delay is prerolled silence")
        let reference = soxrInterleaved(values, channels: channels, from: 44_100, to: 48_000)
        XCTAssertEqual(reference.count, deviceFrames * channels)
        var error = 0.0, signal = 0.0
        for (i, r) in reference.enumerated() {
            let d = Double(written[latencyFrames * channels + i] - r)
            error += d * d
            signal += Double(r) * Double(r)
        }
        let level = 10 * log10(error / signal)
        print("ALSA I/O unit 44.1 → 48 kHz playback vs libsoxr: error \(level) dB, latency \(latencyFrames) frames")
        XCTAssertLessThan(level, -100)
    }

    /// Capture does not convert rates: a 44.1 kHz output scope on element 1 over a device that
    /// runs at 48 kHz is refused at Initialize with both formats named.
    func testCaptureAtAnotherRateThanTheDeviceIsRefusedNamingBothFormats() throws {
        ALSAIOTestEnvironment.write([UInt8](repeating: 0, count: 64 * 4 * 8), to: "in.raw")
        let unit = try IO.make()
        defer { AudioComponentInstanceDispose(unit) }
        XCTAssertEqual(IO.set(unit, kAudioOutputUnitProperty_EnableIO, kAudioUnitScope_Output, 0, UInt32(0)), noErr)
        XCTAssertEqual(IO.set(unit, kAudioOutputUnitProperty_EnableIO, kAudioUnitScope_Input, 1, UInt32(1)), noErr)
        XCTAssertEqual(IO.setDevice(unit, "aio_raw_in"), noErr)
        XCTAssertEqual(IO.set(unit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Output, 1,
                              AudioStreamBasicDescription.canonical(sampleRate: 44_100, channels: 2)), noErr)
        XCTAssertEqual(IO.set(unit, kAUHostALSAProperty_PreferredSampleRate, kAudioUnitScope_Global, 0, Float64(48_000)), noErr)
        XCTAssertEqual(IO.set(unit, kAUHostALSAProperty_PreferredPeriodFrames, kAudioUnitScope_Global, 0, UInt32(64)), noErr)
        XCTAssertEqual(AudioUnitInitialize(unit), kAudioUnitErr_FormatNotSupported)
        let message = IO.lastErrorMessage
        XCTAssertTrue(message.contains("48000 Hz") && message.contains("2 ch, 44100 Hz"), message)
    }
}

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
            soxr_oneshot(
                inputRate, outputRate, UInt32(channels), i.baseAddress, padded.count / channels, nil,
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
        XCTAssertEqual(
            IO.set(
                unit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Input, 0,
                AudioStreamBasicDescription.canonical(sampleRate: 44_100, channels: 2)), noErr)
        let device = AudioStreamBasicDescription.linearPCM(
            sampleRate: 48_000, channels: 2, bitsPerChannel: 32, isFloat: true, interleaved: true)
        XCTAssertEqual(IO.set(unit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Output, 0, device), noErr)
        XCTAssertEqual(IO.set(unit, kAudioUnitProperty_MaximumFramesPerSlice, kAudioUnitScope_Global, 0, UInt32(512)), noErr)
        XCTAssertEqual(IO.set(unit, kAUHostALSAProperty_PreferredPeriodFrames, kAudioUnitScope_Global, 0, UInt32(64)), noErr)
        XCTAssertEqual(IO.set(unit, kAUHostALSAProperty_PreferredPeriodCount, kAudioUnitScope_Global, 0, UInt32(4)), noErr)
        XCTAssertEqual(
            IO.set(
                unit, kAudioUnitProperty_SetRenderCallback, kAudioUnitScope_Input, 0,
                AURenderCallbackStruct(inputProc: renderTestSignal, inputProcRefCon: source.refCon)), noErr)
        XCTAssertEqual(AudioUnitInitialize(unit), noErr, IO.lastErrorMessage)
        XCTAssertEqual(try IO.get(unit, kAUHostALSAProperty_GrantedSampleRate, as: Float64.self), 48_000)
        let latency = try IO.get(unit, kAudioUnitProperty_Latency, as: Float64.self)
        let latencyFrames = Int((latency * 48_000).rounded())
        XCTAssertGreaterThan(latencyFrames, 0, "the resampler's filter delay is reported")
        XCTAssertEqual(latency * 48_000, Double(latencyFrames), accuracy: 1e-6)

        let deviceFrames = appFrames * 48_000 / 44_100
        XCTAssertEqual(AudioOutputUnitStart(unit), noErr, IO.lastErrorMessage)
        XCTAssertTrue(
            ALSAIOTestEnvironment.wait { source.rendered.load(ordering: .acquiring) >= appFrames + 4_096 },
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

    /// Input only: the device captures 48 kHz float (the input scope of element 1, the hardware
    /// side), the app asks for 44.1 kHz canonical stereo on the output scope of element 1. The
    /// input callback is offered the converted frames (inNumberFrames varies, never more than
    /// MaximumFramesPerSlice) and what AudioUnitRender gives is libsoxr's conversion, delayed by
    /// the unit's Latency.
    func testCaptureFromA48kHzDeviceAt44_1kHzIsLibsoxrsConversion() throws {
        let channels = 2, deviceFrames = 48_000 / 2
        let values = (0..<(deviceFrames * channels)).map { i -> Float in
            let n = Double(i / channels), c = Double(i % channels)
            return Float(0.4 * sin(2 * .pi * (500 + 700 * c) * n / 48_000) + 0.3 * sin(2 * .pi * 17_000 * n / 48_000))
        }
        let padded = values + [Float](repeating: 0, count: 48_000 * channels)
        ALSAIOTestEnvironment.write(padded.withUnsafeBytes { Array($0) }, to: "in.raw")
        let recorder = CaptureRecorder(channels: channels)
        let unit = try IO.make()
        recorder.unit = unit
        defer { AudioComponentInstanceDispose(unit) }
        XCTAssertEqual(IO.set(unit, kAudioOutputUnitProperty_EnableIO, kAudioUnitScope_Output, 0, UInt32(0)), noErr)
        XCTAssertEqual(IO.set(unit, kAudioOutputUnitProperty_EnableIO, kAudioUnitScope_Input, 1, UInt32(1)), noErr)
        XCTAssertEqual(IO.setDevice(unit, "aio_raw_in"), noErr)
        let device = AudioStreamBasicDescription.linearPCM(
            sampleRate: 48_000, channels: 2, bitsPerChannel: 32, isFloat: true, interleaved: true)
        XCTAssertEqual(IO.set(unit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Input, 1, device), noErr)
        XCTAssertEqual(
            IO.set(
                unit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Output, 1,
                AudioStreamBasicDescription.canonical(sampleRate: 44_100, channels: 2)), noErr)
        XCTAssertEqual(IO.set(unit, kAudioUnitProperty_MaximumFramesPerSlice, kAudioUnitScope_Global, 0, UInt32(512)), noErr)
        XCTAssertEqual(IO.set(unit, kAUHostALSAProperty_PreferredPeriodFrames, kAudioUnitScope_Global, 0, UInt32(64)), noErr)
        XCTAssertEqual(IO.set(unit, kAUHostALSAProperty_PreferredPeriodCount, kAudioUnitScope_Global, 0, UInt32(4)), noErr)
        XCTAssertEqual(
            IO.set(
                unit, kAudioOutputUnitProperty_SetInputCallback, kAudioUnitScope_Global, 0,
                AURenderCallbackStruct(inputProc: recordCapture, inputProcRefCon: recorder.refCon)), noErr)
        XCTAssertEqual(AudioUnitInitialize(unit), noErr, IO.lastErrorMessage)
        XCTAssertEqual(try IO.get(unit, kAUHostALSAProperty_GrantedSampleRate, as: Float64.self), 48_000)
        let latency = try IO.get(unit, kAudioUnitProperty_Latency, as: Float64.self)
        let latencyFrames = Int((latency * 44_100).rounded())
        XCTAssertGreaterThan(latencyFrames, 0, "the resampler's filter delay is reported")
        XCTAssertEqual(latency * 44_100, Double(latencyFrames), accuracy: 1e-6)

        let appFrames = deviceFrames * 44_100 / 48_000
        XCTAssertEqual(AudioOutputUnitStart(unit), noErr, IO.lastErrorMessage)
        XCTAssertTrue(
            ALSAIOTestEnvironment.wait { recorder.frameCount >= latencyFrames + appFrames }, "the device did not capture the signal")
        XCTAssertEqual(AudioOutputUnitStop(unit), noErr)
        XCTAssertEqual(AudioUnitUninitialize(unit), noErr)

        let (captured, errors, largest) = recorder.snapshot()
        XCTAssertEqual(errors, 0, "AudioUnitRender on element 1 failed")
        XCTAssertLessThanOrEqual(largest, 512, "inNumberFrames never exceeds MaximumFramesPerSlice")
        XCTAssertEqual(captured.prefix(latencyFrames * channels).map { abs($0) }.max(), 0, "the delay is prerolled silence")
        let reference = soxrInterleaved(values, channels: channels, from: 48_000, to: 44_100)
        XCTAssertEqual(reference.count, appFrames * channels)
        var error = 0.0, signal = 0.0
        for (i, r) in reference.enumerated() {
            let d = Double(captured[latencyFrames * channels + i] - r)
            error += d * d
            signal += Double(r) * Double(r)
        }
        let level = 10 * log10(error / signal)
        print("ALSA I/O unit 48 → 44.1 kHz capture vs libsoxr: error \(level) dB, latency \(latencyFrames) frames")
        XCTAssertLessThan(level, -100)
    }

    /// Full duplex hands the captured period to the render callback, so it does not convert
    /// rates: an app side at 44.1 kHz over a 48 kHz device is refused at Initialize, both
    /// formats named.
    func testFullDuplexAtAnotherRateThanTheDeviceIsRefusedNamingTheFormats() throws {
        let unit = try IO.make()
        defer { AudioComponentInstanceDispose(unit) }
        XCTAssertEqual(IO.set(unit, kAudioOutputUnitProperty_EnableIO, kAudioUnitScope_Input, 1, UInt32(1)), noErr)
        XCTAssertEqual(IO.setDevice(unit, "aio_duplex"), noErr)
        let app = AudioStreamBasicDescription.canonical(sampleRate: 44_100, channels: 2)
        XCTAssertEqual(IO.set(unit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Input, 0, app), noErr)
        XCTAssertEqual(IO.set(unit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Output, 1, app), noErr)
        XCTAssertEqual(IO.set(unit, kAUHostALSAProperty_PreferredSampleRate, kAudioUnitScope_Global, 0, Float64(48_000)), noErr)
        XCTAssertEqual(IO.set(unit, kAUHostALSAProperty_PreferredPeriodFrames, kAudioUnitScope_Global, 0, UInt32(64)), noErr)
        XCTAssertEqual(AudioUnitInitialize(unit), kAudioUnitErr_FormatNotSupported)
        let message = IO.lastErrorMessage
        XCTAssertTrue(message.contains("48000 Hz") && message.contains("2 ch, 44100 Hz"), message)
    }
}

/// What the input callback rendered from element 1 (canonical float, interleaved here).
final class CaptureRecorder: @unchecked Sendable {
    var unit: AudioUnit?
    let channels: Int
    let storage: AudioBufferStorage
    private let lock = NSLock()
    private var samples: [Float] = []
    private var errors = 0
    private var largest: UInt32 = 0

    init(channels: Int) {
        self.channels = channels
        storage = AudioBufferStorage(format: .canonical(sampleRate: 44_100, channels: UInt32(channels)), capacity: 4096)
    }

    var refCon: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

    var frameCount: Int {
        lock.lock(); defer { lock.unlock() }
        return samples.count / channels
    }

    func record(_ frames: UInt32, status: OSStatus) {
        lock.lock(); defer { lock.unlock() }
        largest = max(largest, frames)
        guard status == noErr else { errors += 1; return }
        let lanes = (0..<channels).map { storage.samples(channel: $0, frames: Int(frames)) }
        for i in 0..<Int(frames) { for c in 0..<channels { samples.append(lanes[c][i]) } }
    }

    func snapshot() -> ([Float], Int, UInt32) {
        lock.lock(); defer { lock.unlock() }
        return (samples, errors, largest)
    }
}

/// The hosting guide's input callback (ioData NULL): render element 1 into the app's buffers.
let recordCapture: AURenderCallback = { refCon, flags, timeStamp, bus, frames, _ in
    let recorder = Unmanaged<CaptureRecorder>.fromOpaque(refCon).takeUnretainedValue()
    recorder.storage.prepare(frames: frames)
    let status = AudioUnitRender(recorder.unit!, flags, timeStamp, 1, frames, recorder.storage.list)
    recorder.record(frames, status: status)
    return status
}

import AUHost
import Foundation
import Synchronization
import VoiceTestSupport
import XCTest

/// One full-duplex run through the `aio_duplex` file PCMs (capture from in.raw, playback to
/// out.raw), mono Float32 at 48 kHz on every side: the render callback plays `far`; the input
/// callback renders element 1 and keeps what it gets.
final class VoiceDuplexRun: @unchecked Sendable {
    let unit: AudioUnit
    let far: [Float]
    var farPosition = 0
    let captured: UnsafeMutablePointer<Float>
    let capacity: Int
    let capturedFrames = Atomic<Int>(0)
    let renderErrors = Atomic<Int>(0)
    let scratch = AudioBufferStorage(format: .canonical(sampleRate: 48_000, channels: 1), capacity: 4096)

    init(subType: OSType, far: [Float], capacity: Int, period: UInt32, periods: UInt32, configure: (AudioUnit) -> Void = { _ in }) throws {
        unit = try IO.make(subType)
        self.far = far
        self.capacity = capacity
        captured = .allocate(capacity: capacity)
        captured.initialize(repeating: 0, count: capacity)
        XCTAssertEqual(IO.setDevice(unit, "aio_duplex"), noErr)
        XCTAssertEqual(IO.set(unit, kAudioOutputUnitProperty_EnableIO, kAudioUnitScope_Input, 1, UInt32(1)), noErr)
        let mono = AudioStreamBasicDescription.canonical(sampleRate: 48_000, channels: 1)
        let device = AudioStreamBasicDescription.linearPCM(
            sampleRate: 48_000, channels: 1, bitsPerChannel: 32, isFloat: true, interleaved: true)
        XCTAssertEqual(IO.set(unit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Input, 0, mono), noErr, IO.lastErrorMessage)
        XCTAssertEqual(IO.set(unit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Output, 1, mono), noErr, IO.lastErrorMessage)
        XCTAssertEqual(IO.set(unit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Output, 0, device), noErr, IO.lastErrorMessage)
        XCTAssertEqual(IO.set(unit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Input, 1, device), noErr, IO.lastErrorMessage)
        XCTAssertEqual(IO.set(unit, kAUHostALSAProperty_PreferredPeriodFrames, kAudioUnitScope_Global, 0, period), noErr)
        XCTAssertEqual(IO.set(unit, kAUHostALSAProperty_PreferredPeriodCount, kAudioUnitScope_Global, 0, periods), noErr)
        let refCon = Unmanaged.passUnretained(self).toOpaque()
        XCTAssertEqual(
            IO.set(
                unit, kAudioOutputUnitProperty_SetInputCallback, kAudioUnitScope_Global, 0,
                AURenderCallbackStruct(inputProc: voiceInput, inputProcRefCon: refCon)),
            noErr)
        XCTAssertEqual(
            IO.set(
                unit, kAudioUnitProperty_SetRenderCallback, kAudioUnitScope_Input, 0,
                AURenderCallbackStruct(inputProc: voiceFarEnd, inputProcRefCon: refCon)),
            noErr)
        configure(unit)
    }

    deinit {
        AudioComponentInstanceDispose(unit)
        captured.deallocate()
    }

    /// Initializes, runs until `frames` were captured, stops; returns them.
    func run(frames: Int) throws -> [Float] {
        try AudioError.check(AudioUnitInitialize(unit), IO.lastErrorMessage)
        try AudioError.check(AudioOutputUnitStart(unit), IO.lastErrorMessage)
        // The file PCMs run unpaced: give up at the first failed render or once the playback
        // file is far longer than the run needs, so a fault cannot fill the disk.
        let limit = UInt64(frames) * 4 * 4 + (1 << 20)
        let ran = ALSAIOTestEnvironment.wait(upTo: 60) {
            if renderErrors.load(ordering: .relaxed) > 0 { return true }
            let played = (try? FileManager.default.attributesOfItem(atPath: ALSAIOTestEnvironment.path("out.raw"))[.size] as? UInt64) ?? 0
            return capturedFrames.load(ordering: .acquiring) >= frames || played > limit
        }
        try AudioError.check(AudioOutputUnitStop(unit), "stop")
        XCTAssertTrue(ran && capturedFrames.load(ordering: .acquiring) >= frames, "duplex did not capture \(frames) frames")
        XCTAssertEqual(renderErrors.load(ordering: .relaxed), 0, "AudioUnitRender of element 1 failed")
        XCTAssertEqual(try IO.get(unit, kAUHostALSAProperty_XrunCount, as: UInt32.self), 0)
        return Array(UnsafeBufferPointer(start: captured, count: min(frames, capacity)))
    }
}

let voiceInput: AURenderCallback = { refCon, flags, timeStamp, _, frames, _ in
    let run = Unmanaged<VoiceDuplexRun>.fromOpaque(refCon).takeUnretainedValue()
    run.scratch.prepare(frames: frames)
    let status = AudioUnitRender(run.unit, flags, timeStamp, 1, frames, run.scratch.list)
    if status != noErr {
        run.renderErrors.add(1, ordering: .relaxed)
        return status
    }
    let have = run.capturedFrames.load(ordering: .relaxed)
    let n = min(Int(frames), run.capacity - have)
    if n > 0 { (run.captured + have).update(from: run.scratch.channel(0), count: n) }
    run.capturedFrames.store(have + max(n, 0), ordering: .releasing)
    return noErr
}

let voiceFarEnd: AURenderCallback = { refCon, _, _, _, frames, ioData in
    let run = Unmanaged<VoiceDuplexRun>.fromOpaque(refCon).takeUnretainedValue()
    let out = UnsafeMutableAudioBufferListPointer(ioData!)[0].mData!.assumingMemoryBound(to: Float.self)
    for i in 0..<Int(frames) {
        let n = run.farPosition + i
        out[i] = n < run.far.count ? run.far[n] : 0
    }
    run.farPosition += Int(frames)
    return noErr
}

/// Little-endian Float32 bytes.
func float32Bytes(_ values: [Float]) -> [UInt8] {
    values.flatMap { v in withUnsafeBytes(of: v.bitPattern.littleEndian) { Array($0) } }
}

final class VoiceProcessingIOTests: XCTestCase {
    override func setUp() { _ = ALSAIOTestEnvironment.directory }

    /// Bypass on: element 1 gives exactly what the plain ALSA I/O unit gives for the same capture,
    /// and the playback file is byte-identical too.
    func testBypassIsBitIdenticalToThePlainIOUnit() throws {
        let frames = 48_000
        let microphone = (0..<(frames + 4_096)).map { Float(sin(Double($0) * 0.031) * 0.5 + Double($0 % 7) * 0.01) }
        let far = (0..<frames).map { Float(($0 * 7_919) % 2_001 - 1_000) / 2_000 }
        ALSAIOTestEnvironment.write(float32Bytes(microphone), to: "in.raw")
        let plain = try VoiceDuplexRun(subType: kAudioUnitSubType_RemoteIO, far: far, capacity: frames, period: 256, periods: 2)
        let plainCaptured = try plain.run(frames: frames)
        XCTAssertEqual(AudioUnitUninitialize(plain.unit), noErr)
        let plainPlayed = ALSAIOTestEnvironment.read("out.raw")

        let voice = try VoiceDuplexRun(subType: kAudioUnitSubType_VoiceProcessingIO, far: far, capacity: frames, period: 256, periods: 2) {
            XCTAssertEqual(IO.set($0, kAUVoiceIOProperty_BypassVoiceProcessing, kAudioUnitScope_Global, 0, UInt32(1)), noErr)
        }
        let voiceCaptured = try voice.run(frames: frames)
        XCTAssertEqual(try IO.get(voice.unit, kAudioUnitProperty_Latency, as: Float64.self), 0, "bypass adds no latency")
        XCTAssertEqual(AudioUnitUninitialize(voice.unit), noErr)
        let voicePlayed = ALSAIOTestEnvironment.read("out.raw")

        XCTAssertEqual(plainCaptured, Array(microphone.prefix(frames)), "the plain unit captures the file exactly")
        XCTAssertTrue(voiceCaptured == plainCaptured, "bypassed voice processing changed the captured signal")
        XCTAssertGreaterThan(plainPlayed.count, frames * 4)
        XCTAssertTrue(voicePlayed.prefix(frames * 4) == plainPlayed.prefix(frames * 4), "bypassed voice processing changed the playback")
    }

    /// The simulated room through the device: what the unit plays (its render callback) is the
    /// far end; the capture file holds its echo exactly one playback buffer later (where a real
    /// loopback would put it), plus the near end and noise. Bars as offline.
    func testRoomEchoIsCancelledThroughTheDevice() throws {
        let period = 256, periods = 2
        let buffer = period * periods
        let room = RoomScenario(playbackDelay: buffer)
        ALSAIOTestEnvironment.write(float32Bytes(room.microphone + [Float](repeating: 0, count: 48_000)), to: "in.raw")
        let voice = try VoiceDuplexRun(
            subType: kAudioUnitSubType_VoiceProcessingIO, far: room.farEnd, capacity: room.frames, period: UInt32(period),
            periods: UInt32(periods))
        let output = try voice.run(frames: room.frames)
        let latency = Int((try IO.get(voice.unit, kAudioUnitProperty_Latency, as: Float64.self) * room.rate).rounded())
        let metrics = try IO.get(voice.unit, kAUHostVoiceIOProperty_EchoMetrics, as: AUHostVoiceIOMetrics.self)
        XCTAssertEqual(AudioUnitUninitialize(voice.unit), noErr)
        XCTAssertEqual(latency, 1_150, "one chunk and webrtc's own delay")
        XCTAssertEqual(metrics.mReportedDelay, Double(buffer) / room.rate, "the duplex latency is the delay handed to the canceller")
        for segment in room.farOnly {
            let erle = powerRatioDecibels(room.microphone, output, segment, lag: latency)
            print(
                "ALSA duplex, far-end only \(Double(segment.lowerBound) / room.rate)–\(Double(segment.upperBound) / room.rate) s: ERLE \(erle) dB"
            )
            XCTAssertGreaterThanOrEqual(erle, 20, "ERLE on far-end-only speech (bar: ≥ 20 dB)")
        }
        let r = correlation(room.nearEnd, output, room.nearOnly, lag: latency)
        print(
            "ALSA duplex, near-end only: correlation \(r); webrtc: ERLE \(metrics.mEchoReturnLossEnhancement) dB, delay \(metrics.mEchoDelay) s"
        )
        XCTAssertGreaterThanOrEqual(r, 0.9, "near end kept (bar: ≥ 0.9)")
    }

    /// What webrtc cannot take is refused at AudioUnitInitialize with the documented status and a
    /// sentence naming the cause; the devices are closed again (a plain initialize then works).
    func testCaptureItCannotProcessIsRefusedAtInitialize() throws {
        ALSAIOTestEnvironment.write([UInt8](repeating: 0, count: 4 * 4 * 4_800), to: "in.raw")
        let unit = try IO.make(kAudioUnitSubType_VoiceProcessingIO)
        defer { AudioComponentInstanceDispose(unit) }
        XCTAssertEqual(IO.setDevice(unit, "aio_duplex"), noErr)
        XCTAssertEqual(IO.set(unit, kAudioOutputUnitProperty_EnableIO, kAudioUnitScope_Input, 1, UInt32(1)), noErr)
        XCTAssertEqual(IO.set(unit, kAUHostALSAProperty_PreferredPeriodFrames, kAudioUnitScope_Global, 0, UInt32(256)), noErr)
        let four = AudioStreamBasicDescription.linearPCM(
            sampleRate: 48_000, channels: 4, bitsPerChannel: 32, isFloat: true, interleaved: true)
        XCTAssertEqual(IO.set(unit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Input, 1, four), noErr, IO.lastErrorMessage)
        XCTAssertEqual(AudioUnitInitialize(unit), kAudioUnitErr_FormatNotSupported)
        XCTAssertTrue(IO.lastErrorMessage.contains("1 or 2 microphone channels"), IO.lastErrorMessage)
        XCTAssertTrue(IO.lastErrorMessage.contains("granted 4"), IO.lastErrorMessage)

        let mono = AudioStreamBasicDescription.linearPCM(
            sampleRate: 22_050, channels: 1, bitsPerChannel: 32, isFloat: true, interleaved: true)
        XCTAssertEqual(IO.set(unit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Input, 1, mono), noErr, IO.lastErrorMessage)
        XCTAssertEqual(IO.set(unit, kAUHostALSAProperty_PreferredSampleRate, kAudioUnitScope_Global, 0, Float64(22_050)), noErr)
        let app22 = AudioStreamBasicDescription.canonical(sampleRate: 22_050, channels: 1)
        XCTAssertEqual(IO.set(unit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Input, 0, app22), noErr)
        XCTAssertEqual(IO.set(unit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Output, 1, app22), noErr)
        XCTAssertEqual(AudioUnitInitialize(unit), kAudioUnitErr_FormatNotSupported)
        XCTAssertTrue(IO.lastErrorMessage.contains("22050.0 Hz is not"), IO.lastErrorMessage)

        XCTAssertEqual(IO.set(unit, kAUHostALSAProperty_PreferredSampleRate, kAudioUnitScope_Global, 0, Float64(48_000)), noErr)
        let app48 = AudioStreamBasicDescription.canonical(sampleRate: 48_000, channels: 1)
        XCTAssertEqual(IO.set(unit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Input, 0, app48), noErr)
        XCTAssertEqual(IO.set(unit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Output, 1, app48), noErr)
        XCTAssertEqual(
            IO.set(
                unit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Input, 1,
                AudioStreamBasicDescription.linearPCM(
                    sampleRate: 48_000, channels: 1, bitsPerChannel: 32, isFloat: true, interleaved: true)), noErr)
        XCTAssertEqual(AudioUnitInitialize(unit), noErr, "after the refusals the devices were closed: " + IO.lastErrorMessage)
        XCTAssertEqual(AudioUnitUninitialize(unit), noErr)
    }

    /// kAUVoiceIOProperty_MuteOutput: the device plays silence while the app's render callback
    /// still runs; turned off, the far end plays again.
    func testMuteOutputSilencesThePlayback() throws {
        let frames = 24_000
        ALSAIOTestEnvironment.write(float32Bytes([Float](repeating: 0, count: frames + 4_096)), to: "in.raw")
        let far = (0..<frames).map { Float(($0 * 7_919) % 2_001 - 1_000) / 2_000 }
        let muted = try VoiceDuplexRun(subType: kAudioUnitSubType_VoiceProcessingIO, far: far, capacity: frames, period: 256, periods: 2) {
            XCTAssertEqual(IO.set($0, kAUVoiceIOProperty_MuteOutput, kAudioUnitScope_Global, 0, UInt32(1)), noErr)
        }
        _ = try muted.run(frames: frames)
        XCTAssertGreaterThan(muted.farPosition, frames / 2, "the render callback ran while muted")
        XCTAssertEqual(AudioUnitUninitialize(muted.unit), noErr)
        let silent = ALSAIOTestEnvironment.read("out.raw")
        XCTAssertGreaterThan(silent.count, frames * 4)
        XCTAssertTrue(silent.allSatisfy { $0 == 0 }, "muted output played something")

        let playing = try VoiceDuplexRun(subType: kAudioUnitSubType_VoiceProcessingIO, far: far, capacity: frames, period: 256, periods: 2)
        _ = try playing.run(frames: frames)
        XCTAssertEqual(AudioUnitUninitialize(playing.unit), noErr)
        let played = ALSAIOTestEnvironment.read("out.raw")
        let offset = 512 * 4  // one playback buffer of silence first
        XCTAssertTrue(
            played.dropFirst(offset).prefix(frames * 4).elementsEqual(float32Bytes(far)), "unmuted, the far end plays as rendered")
    }
}

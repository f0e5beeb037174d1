import AUHost
import Foundation
import Synchronization
import XCTest

/// What the render callback plays: interleaved test samples, then silence.
final class PlaybackSource: @unchecked Sendable {
    let samples: [Float]
    let channels: Int
    let framesWithSignal: Int
    /// Frames the callback has produced (written by the device thread).
    let rendered = Atomic<Int>(0)

    init(samples: [Float], channels: Int) {
        self.samples = samples
        self.channels = channels
        framesWithSignal = samples.count / channels
    }

    var refCon: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }
}

/// The app's render callback: canonical Float32, one buffer per channel.
let renderTestSignal: AURenderCallback = { refCon, _, _, _, frames, ioData in
    let source = Unmanaged<PlaybackSource>.fromOpaque(refCon).takeUnretainedValue()
    let buffers = UnsafeMutableAudioBufferListPointer(ioData!)
    let start = source.rendered.load(ordering: .relaxed)
    for c in 0..<source.channels {
        let out = buffers[c].mData!.assumingMemoryBound(to: Float.self)
        for i in 0..<Int(frames) {
            let n = start + i
            out[i] = n < source.framesWithSignal ? source.samples[n * source.channels + c] : 0
        }
    }
    source.rendered.store(start + Int(frames), ordering: .releasing)
    return noErr
}

final class ALSAIOPlaybackTests: XCTestCase {
    override func setUp() { _ = ALSAIOTestEnvironment.directory }

    /// An HAL output unit on the `file` plugin's WAV (`aio_wav_out`): S16 stereo on the device
    /// side, 48 kHz, 4 × 64-frame periods asked for, `callback` rendering; not yet initialized.
    func wavOutputUnit(_ callback: AURenderCallback, _ refCon: UnsafeMutableRawPointer) throws -> AudioUnit {
        let unit = try IO.make(kAudioUnitSubType_HALOutput)
        XCTAssertEqual(IO.setDevice(unit, "aio_wav_out"), noErr)
        XCTAssertEqual(IO.set(unit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Output, 0, int16Interleaved(channels: 2)), noErr)
        XCTAssertEqual(IO.set(unit, kAUHostALSAProperty_PreferredSampleRate, kAudioUnitScope_Global, 0, Float64(48_000)), noErr)
        XCTAssertEqual(IO.set(unit, kAUHostALSAProperty_PreferredPeriodFrames, kAudioUnitScope_Global, 0, UInt32(64)), noErr)
        XCTAssertEqual(IO.set(unit, kAUHostALSAProperty_PreferredPeriodCount, kAudioUnitScope_Global, 0, UInt32(4)), noErr)
        let render = AURenderCallbackStruct(inputProc: callback, inputProcRefCon: refCon)
        XCTAssertEqual(IO.set(unit, kAudioUnitProperty_SetRenderCallback, kAudioUnitScope_Input, 0, render), noErr)
        return unit
    }

    /// Ported code finds the ALSA unit by the documented I/O subtypes, with Apple's manufacturer
    /// or 0, and gets the documented defaults: output enabled, input disabled, "default" device.
    func testDocumentedIOSubtypesFindTheALSAUnitWithDocumentedDefaults() throws {
        for subType in [kAudioUnitSubType_RemoteIO, kAudioUnitSubType_HALOutput, kAudioUnitSubType_DefaultOutput] {
            for manufacturer in [kAudioUnitManufacturer_Apple, 0] {
                var desc = AudioComponentDescription(
                    componentType: kAudioUnitType_Output, componentSubType: subType,
                    componentManufacturer: manufacturer, componentFlags: 0, componentFlagsMask: 0)
                let component = try XCTUnwrap(AudioComponentFindNext(nil, &desc), "subtype \(subType) manufacturer \(manufacturer)")
                var name: Unmanaged<CFString>?
                XCTAssertEqual(AudioComponentCopyName(component, &name), noErr)
                XCTAssertEqual(String(cfString: name?.takeRetainedValue()), "AUHost: ALSA I/O")
            }
        }
        let unit = try IO.make()
        defer { AudioComponentInstanceDispose(unit) }
        XCTAssertEqual(try IO.get(unit, kAudioOutputUnitProperty_EnableIO, kAudioUnitScope_Output, 0, as: UInt32.self), 1)
        XCTAssertEqual(try IO.get(unit, kAudioOutputUnitProperty_EnableIO, kAudioUnitScope_Input, 1, as: UInt32.self), 0)
        XCTAssertEqual(try IO.string(unit, kAudioOutputUnitProperty_CurrentDevice), "default")
        XCTAssertEqual(try IO.get(unit, kAudioOutputUnitProperty_IsRunning, as: UInt32.self), 0)
        XCTAssertEqual(try IO.get(unit, kAUHostALSAProperty_GrantedPeriodFrames, as: UInt32.self), 0, "nothing granted before initialize")
    }

    /// The blog of seed 004 sets its callbacks on global scope (record: element 1, playback:
    /// element 0), as RemoteIO accepts; so does this unit.
    func testRemoteIOCallbackAddressesFromTheBlogAreAccepted() throws {
        let unit = try IO.make()
        defer { AudioComponentInstanceDispose(unit) }
        let callback: AURenderCallback = { _, _, _, _, _, _ in noErr }
        var cb = AURenderCallbackStruct(inputProc: callback, inputProcRefCon: nil)
        let size = UInt32(MemoryLayout<AURenderCallbackStruct>.size)
        XCTAssertEqual(AudioUnitSetProperty(unit, kAudioOutputUnitProperty_SetInputCallback, kAudioUnitScope_Global, 1, &cb, size), noErr)
        XCTAssertEqual(AudioUnitSetProperty(unit, kAudioUnitProperty_SetRenderCallback, kAudioUnitScope_Global, 0, &cb, size), noErr)
        XCTAssertEqual(
            AudioUnitSetProperty(unit, kAudioUnitProperty_SetRenderCallback, kAudioUnitScope_Global, 1, &cb, size),
            kAudioUnitErr_InvalidScope, "only element 0 is an alias")
    }

    /// Output only, with a render callback, into the `file` plugin's WAV: ask for 48 kHz and
    /// 4 × 64-frame periods, read them back after AudioUnitInitialize, and the WAV's data chunk
    /// holds exactly the rendered samples (converted to the S16 device format set on the
    /// output scope of element 0), followed only by whole periods of the silence rendered
    /// after the signal ended and before Stop took effect.
    func testOutputOnlyWritesExactlyTheRenderedSamples() throws {
        let channels = 2, frames = 64 * 40
        let values = testSamples(frames * channels)
        let source = PlaybackSource(samples: values.map { Float($0) / 32768 }, channels: channels)
        let unit = try wavOutputUnit(renderTestSignal, source.refCon)
        defer { AudioComponentInstanceDispose(unit) }
        XCTAssertEqual(AudioUnitInitialize(unit), noErr, IO.lastErrorMessage)
        XCTAssertEqual(try IO.get(unit, kAUHostALSAProperty_GrantedSampleRate, as: Float64.self), 48_000)
        XCTAssertEqual(try IO.get(unit, kAUHostALSAProperty_GrantedPeriodFrames, as: UInt32.self), 64)
        XCTAssertEqual(try IO.get(unit, kAUHostALSAProperty_GrantedPeriodCount, as: UInt32.self), 4)
        let deviceFormat = try IO.get(
            unit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Output, 0, as: AudioStreamBasicDescription.self)
        XCTAssertEqual(deviceFormat.mBitsPerChannel, 16)
        XCTAssertEqual(deviceFormat.mSampleRate, 48_000)

        XCTAssertEqual(AudioOutputUnitStart(unit), noErr, IO.lastErrorMessage)
        XCTAssertEqual(try IO.get(unit, kAudioOutputUnitProperty_IsRunning, as: UInt32.self), 1)
        XCTAssertTrue(
            ALSAIOTestEnvironment.wait { source.rendered.load(ordering: .acquiring) >= frames }, "the device did not pull the signal")
        XCTAssertEqual(AudioOutputUnitStop(unit), noErr)
        XCTAssertEqual(try IO.get(unit, kAudioOutputUnitProperty_IsRunning, as: UInt32.self), 0)
        XCTAssertEqual(try IO.get(unit, kAUHostALSAProperty_XrunCount, as: UInt32.self), 0)
        let rendered = source.rendered.load(ordering: .acquiring)
        XCTAssertEqual(AudioUnitUninitialize(unit), noErr)  // closes the PCM: the WAV is complete

        let wav = try XCTUnwrap(WAVData(ALSAIOTestEnvironment.read("out.wav")))
        XCTAssertEqual(wav.channels, 2)
        XCTAssertEqual(wav.sampleRate, 48_000)
        XCTAssertEqual(wav.bitsPerSample, 16)
        let expected = int16Bytes(values)
        XCTAssertTrue(
            wav.data.count >= expected.count && Array(wav.data.prefix(expected.count)) == expected,
            "the WAV does not hold exactly the rendered samples")
        let tail = wav.data.dropFirst(expected.count)
        XCTAssertTrue(tail.allSatisfy { $0 == 0 }, "after the signal the WAV holds something other than silence")
        XCTAssertEqual(tail.count % (64 * channels * 2), 0, "the tail is not whole periods")
        // Every rendered period reached the file, the last one rendered before Stop included.
        let written = wav.data.count / (channels * 2)
        XCTAssertEqual(written, rendered, "frames written against frames rendered")
    }

    /// An app that stops as soon as its callback has rendered its last frame (as a player at the
    /// end of its file does, and the guide's output example) finds every rendered frame in the
    /// device: Stop, coming after that period's render and before its write, does not drop it.
    /// The callback holds its last period until the app is stopping, so the race is forced.
    func testStopRightAfterARenderKeepsThatPeriod() throws {
        final class LastPeriod: @unchecked Sendable {
            let frames: Int
            let rendered = Atomic<Int>(0)
            let stopping = Atomic<Bool>(false)
            init(frames: Int) { self.frames = frames }
        }
        let callback: AURenderCallback = { refCon, _, _, _, frames, ioData in
            let source = Unmanaged<LastPeriod>.fromOpaque(refCon).takeUnretainedValue()
            let start = source.rendered.load(ordering: .relaxed)
            for buffer in UnsafeMutableAudioBufferListPointer(ioData!) {
                let out = buffer.mData!.assumingMemoryBound(to: Float.self)
                for i in 0..<Int(frames) { out[i] = Float(start + i + 1) / 32768 }
            }
            let total = start + Int(frames)
            source.rendered.store(total, ordering: .releasing)
            if total >= source.frames {
                // The app sees the last frame rendered and stops; this period's write comes after.
                while !source.stopping.load(ordering: .acquiring) { usleep(100) }
                usleep(20_000)
            }
            return noErr
        }
        let source = LastPeriod(frames: 64 * 8)
        let unit = try wavOutputUnit(callback, Unmanaged.passUnretained(source).toOpaque())
        defer { AudioComponentInstanceDispose(unit) }
        XCTAssertEqual(AudioUnitInitialize(unit), noErr, IO.lastErrorMessage)
        XCTAssertEqual(AudioOutputUnitStart(unit), noErr, IO.lastErrorMessage)
        XCTAssertTrue(ALSAIOTestEnvironment.wait { source.rendered.load(ordering: .acquiring) >= source.frames })
        source.stopping.store(true, ordering: .releasing)
        XCTAssertEqual(AudioOutputUnitStop(unit), noErr)
        let rendered = source.rendered.load(ordering: .acquiring)
        XCTAssertEqual(AudioUnitUninitialize(unit), noErr)  // closes the PCM: the WAV is complete

        let wav = try XCTUnwrap(WAVData(ALSAIOTestEnvironment.read("out.wav")))
        XCTAssertEqual(wav.data.count / 4, rendered, "frames in the file against frames rendered before Stop")
        let last = wav.data.count / 4 - 1
        if last >= 0 {
            let sample = Int16(bitPattern: UInt16(wav.data[last * 4]) | UInt16(wav.data[last * 4 + 1]) << 8)
            XCTAssertEqual(Int(sample), rendered, "the file's last frame is the last one rendered")
        }
    }

    /// Without a device format from the app, the unit negotiates one and reports it (the raw
    /// file PCM over null accepts FLOAT_LE, the first choice); the app side stays canonical.
    func testDeviceFormatIsNegotiatedAndReadBack() throws {
        let unit = try IO.make()
        defer { AudioComponentInstanceDispose(unit) }
        XCTAssertEqual(IO.setDevice(unit, "aio_raw_out"), noErr)
        XCTAssertEqual(IO.set(unit, kAUHostALSAProperty_PreferredPeriodFrames, kAudioUnitScope_Global, 0, UInt32(128)), noErr)
        XCTAssertEqual(AudioUnitInitialize(unit), noErr, IO.lastErrorMessage)
        let device = try IO.get(unit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Output, 0, as: AudioStreamBasicDescription.self)
        XCTAssertNotEqual(device.mFormatFlags & kAudioFormatFlagIsFloat, 0)
        XCTAssertEqual(device.mBitsPerChannel, 32)
        XCTAssertEqual(device.mChannelsPerFrame, 2)
        XCTAssertEqual(device.mFormatFlags & kAudioFormatFlagIsNonInterleaved, 0, "interleaved by default")
        XCTAssertEqual(try IO.get(unit, kAUHostALSAProperty_GrantedPeriodFrames, as: UInt32.self), 128)
        XCTAssertEqual(try IO.get(unit, kAUHostALSAProperty_GrantedPeriodCount, as: UInt32.self), 2)
    }
}

import AUHost
import Foundation
import Synchronization
import XCTest

/// The pass-through pattern of the hosting guide: the input callback (ioData NULL) renders
/// element 1 into the app's own buffer; the render callback plays that buffer.
final class PassThrough: @unchecked Sendable {
    var unit: AudioUnit?
    let captured = AudioBufferStorage(format: int16Interleaved(channels: 2), capacity: 4096)
    let periods = Atomic<Int>(0)
    let inputErrors = Atomic<Int>(0)
    let inputCallbackSawNullData = Atomic<Int>(0)
    var refCon: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }
}

let passThroughInput: AURenderCallback = { refCon, flags, timeStamp, bus, frames, ioData in
    let state = Unmanaged<PassThrough>.fromOpaque(refCon).takeUnretainedValue()
    if ioData == nil && bus == 1 { state.inputCallbackSawNullData.add(1, ordering: .relaxed) }
    state.captured.prepare(frames: frames)
    let status = AudioUnitRender(state.unit!, flags, timeStamp, 1, frames, state.captured.list)
    if status != noErr { state.inputErrors.add(1, ordering: .relaxed) }
    return status
}

let passThroughRender: AURenderCallback = { refCon, _, _, _, frames, ioData in
    let state = Unmanaged<PassThrough>.fromOpaque(refCon).takeUnretainedValue()
    let out = UnsafeMutableAudioBufferListPointer(ioData!)[0]
    let from = UnsafeMutableAudioBufferListPointer(state.captured.list)[0]
    out.mData!.copyMemory(from: from.mData!, byteCount: Int(frames) * 4)
    state.periods.add(1, ordering: .releasing)
    return noErr
}

final class ALSAIODuplexTests: XCTestCase {
    override func setUp() { _ = ALSAIOTestEnvironment.directory }

    /// Full duplex through one asoundrc PCM (`asym`: playback to a raw file, capture from a raw
    /// file), app formats interleaved SInt16 on both sides as iOS code sets them: the playback
    /// file is the capture file, sample-exactly, after a leading offset of exactly
    /// kAUHostALSAProperty_DuplexLatencyFrames frames of silence (one playback buffer).
    func testPassThroughCopiesCaptureToPlaybackSampleExactly() throws {
        let channels = 2, period = 64, frames = period * 32
        let values = testSamples((frames + period * 16) * channels)
        ALSAIOTestEnvironment.write(int16Bytes(values), to: "in.raw")
        let state = PassThrough()
        let unit = try IO.make(kAudioUnitSubType_RemoteIO)
        state.unit = unit
        defer { AudioComponentInstanceDispose(unit) }
        XCTAssertEqual(IO.setDevice(unit, "aio_duplex"), noErr)
        XCTAssertEqual(IO.set(unit, kAudioOutputUnitProperty_EnableIO, kAudioUnitScope_Input, 1, UInt32(1)), noErr)
        let s16 = int16Interleaved(channels: 2)
        for (scope, element) in [
            (kAudioUnitScope_Input, AudioUnitElement(0)), (kAudioUnitScope_Output, 1),
            (kAudioUnitScope_Output, 0), (kAudioUnitScope_Input, 1),
        ] {
            XCTAssertEqual(IO.set(unit, kAudioUnitProperty_StreamFormat, scope, element, s16), noErr, IO.lastErrorMessage)
        }
        XCTAssertEqual(IO.set(unit, kAUHostALSAProperty_PreferredPeriodFrames, kAudioUnitScope_Global, 0, UInt32(period)), noErr)
        XCTAssertEqual(IO.set(unit, kAUHostALSAProperty_PreferredPeriodCount, kAudioUnitScope_Global, 0, UInt32(3)), noErr)
        XCTAssertEqual(
            IO.set(
                unit, kAudioOutputUnitProperty_SetInputCallback, kAudioUnitScope_Global, 0,
                AURenderCallbackStruct(inputProc: passThroughInput, inputProcRefCon: state.refCon)), noErr)
        XCTAssertEqual(
            IO.set(
                unit, kAudioUnitProperty_SetRenderCallback, kAudioUnitScope_Input, 0,
                AURenderCallbackStruct(inputProc: passThroughRender, inputProcRefCon: state.refCon)), noErr)
        XCTAssertEqual(AudioUnitInitialize(unit), noErr, IO.lastErrorMessage)
        let latency = Int(try IO.get(unit, kAUHostALSAProperty_DuplexLatencyFrames, as: UInt32.self))
        XCTAssertEqual(latency, period * 3, "one playback buffer")

        XCTAssertEqual(AudioOutputUnitStart(unit), noErr, IO.lastErrorMessage)
        let needed = (frames + latency) / period + 1
        XCTAssertTrue(ALSAIOTestEnvironment.wait { state.periods.load(ordering: .acquiring) >= needed }, "duplex did not run")
        XCTAssertEqual(AudioOutputUnitStop(unit), noErr)
        XCTAssertEqual(state.inputErrors.load(ordering: .relaxed), 0, "AudioUnitRender on element 1 failed")
        XCTAssertEqual(
            state.inputCallbackSawNullData.load(ordering: .relaxed), state.periods.load(ordering: .relaxed),
            "the input callback gets bus 1 and ioData NULL every period")
        XCTAssertEqual(try IO.get(unit, kAUHostALSAProperty_XrunCount, as: UInt32.self), 0)
        XCTAssertEqual(AudioUnitUninitialize(unit), noErr)

        let raw = ALSAIOTestEnvironment.read("out.raw")
        let offset = latency * channels * 2
        let expected = int16Bytes(Array(values.prefix(frames * channels)))
        XCTAssertGreaterThanOrEqual(raw.count, offset + expected.count)
        XCTAssertTrue(raw.prefix(offset).allSatisfy { $0 == 0 }, "the leading offset is not silence")
        let copied = Array(raw.dropFirst(offset).prefix(expected.count))
        let firstDifference = copied.indices.first { copied[$0] != expected[$0] }
        XCTAssertTrue(
            copied == expected, "pass-through changed bytes from \(firstDifference.map(String.init) ?? "the end") of \(copied.count)")
    }

    /// Element 1 renders only inside a device cycle with input enabled; elsewhere it says so.
    func testRenderingElementOneOutsideACaptureCycleIsRefused() throws {
        let unit = try IO.make()
        defer { AudioComponentInstanceDispose(unit) }
        XCTAssertEqual(IO.setDevice(unit, "aio_raw_out"), noErr)
        XCTAssertEqual(IO.set(unit, kAUHostALSAProperty_PreferredPeriodFrames, kAudioUnitScope_Global, 0, UInt32(64)), noErr)
        XCTAssertEqual(AudioUnitInitialize(unit), noErr, IO.lastErrorMessage)
        let storage = AudioBufferStorage(format: .canonical(sampleRate: 48_000, channels: 2), capacity: 64)
        storage.prepare(frames: 64)
        var flags: AudioUnitRenderActionFlags = []
        var timeStamp = AudioTimeStamp()
        timeStamp.mFlags = .sampleTimeValid
        XCTAssertEqual(AudioUnitRender(unit, &flags, &timeStamp, 1, 64, storage.list), kAudioUnitErr_CannotDoInCurrentContext)
    }
}

/// The mixer's input bus 0 pulls the I/O unit's element 1 (the captured period).
let pullCapturedIntoMixer: AURenderCallback = { refCon, flags, timeStamp, _, frames, ioData in
    let state = Unmanaged<PassThrough>.fromOpaque(refCon).takeUnretainedValue()
    let status = AudioUnitRender(state.unit!, flags, timeStamp, 1, frames, ioData!)
    if status != noErr { state.inputErrors.add(1, ordering: .relaxed) }
    state.periods.add(1, ordering: .releasing)
    return status
}

final class ALSAIOMixerTests: XCTestCase {
    override func setUp() { _ = ALSAIOTestEnvironment.directory }

    /// Input → multichannel mixer (input volume 0.5) → output, connected with
    /// kAudioUnitProperty_MakeConnection: the playback file holds every captured S16 sample
    /// halved, rounded half away from zero (the documented S16 quantization), after the same
    /// leading offset as the pass-through.
    func testInputThroughMixerToOutputAppliesTheVolumeExactly() throws {
        let channels = 2, period = 64, frames = period * 32
        let values = testSamples((frames + period * 16) * channels)
        ALSAIOTestEnvironment.write(int16Bytes(values), to: "in.raw")
        let state = PassThrough()
        let io = try IO.make(kAudioUnitSubType_RemoteIO)
        state.unit = io
        defer { AudioComponentInstanceDispose(io) }
        var mixerDescription = AudioComponentDescription(
            componentType: kAudioUnitType_Mixer, componentSubType: kAudioUnitSubType_MultiChannelMixer,
            componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0)
        var made: AudioUnit?
        XCTAssertEqual(AudioComponentInstanceNew(AudioComponentFindNext(nil, &mixerDescription)!, &made), noErr)
        let mixer = try XCTUnwrap(made)
        defer { AudioComponentInstanceDispose(mixer) }

        XCTAssertEqual(IO.setDevice(io, "aio_duplex"), noErr)
        XCTAssertEqual(IO.set(io, kAudioOutputUnitProperty_EnableIO, kAudioUnitScope_Input, 1, UInt32(1)), noErr)
        let s16 = int16Interleaved(channels: 2)
        XCTAssertEqual(IO.set(io, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Output, 0, s16), noErr)
        XCTAssertEqual(IO.set(io, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Input, 1, s16), noErr)
        XCTAssertEqual(IO.set(io, kAUHostALSAProperty_PreferredPeriodFrames, kAudioUnitScope_Global, 0, UInt32(period)), noErr)
        XCTAssertEqual(IO.set(io, kAUHostALSAProperty_PreferredPeriodCount, kAudioUnitScope_Global, 0, UInt32(3)), noErr)

        XCTAssertEqual(IO.set(mixer, kAudioUnitProperty_ElementCount, kAudioUnitScope_Input, 0, UInt32(1)), noErr)
        XCTAssertEqual(IO.set(mixer, kAudioUnitProperty_SampleRate, kAudioUnitScope_Output, 0, Float64(48_000)), noErr)
        XCTAssertEqual(IO.set(mixer, kAudioUnitProperty_SampleRate, kAudioUnitScope_Input, 0, Float64(48_000)), noErr)
        XCTAssertEqual(
            IO.set(
                mixer, kAudioUnitProperty_SetRenderCallback, kAudioUnitScope_Input, 0,
                AURenderCallbackStruct(inputProc: pullCapturedIntoMixer, inputProcRefCon: state.refCon)), noErr)
        XCTAssertEqual(AudioUnitSetParameter(mixer, kMultiChannelMixerParam_Volume, kAudioUnitScope_Input, 0, 0.5, 0), noErr)
        XCTAssertEqual(
            IO.set(
                io, kAudioUnitProperty_MakeConnection, kAudioUnitScope_Input, 0,
                AudioUnitConnection(sourceAudioUnit: mixer, sourceOutputNumber: 0, destInputNumber: 0)), noErr)
        XCTAssertEqual(AudioUnitInitialize(mixer), noErr, IO.lastErrorMessage)
        XCTAssertEqual(AudioUnitInitialize(io), noErr, IO.lastErrorMessage)
        let latency = Int(try IO.get(io, kAUHostALSAProperty_DuplexLatencyFrames, as: UInt32.self))

        XCTAssertEqual(AudioOutputUnitStart(io), noErr, IO.lastErrorMessage)
        let needed = (frames + latency) / period + 1
        XCTAssertTrue(ALSAIOTestEnvironment.wait { state.periods.load(ordering: .acquiring) >= needed }, "the chain did not run")
        XCTAssertEqual(AudioOutputUnitStop(io), noErr)
        XCTAssertEqual(state.inputErrors.load(ordering: .relaxed), 0)
        XCTAssertEqual(AudioUnitUninitialize(io), noErr)

        let raw = ALSAIOTestEnvironment.read("out.raw")
        let offset = latency * channels * 2
        let halved = values.prefix(frames * channels).map { v -> Int16 in
            let half = Int(v) / 2  // truncates toward zero
            return Int16(Int(v) % 2 == 0 ? half : half + (v > 0 ? 1 : -1))  // .5 rounds away from zero
        }
        let expected = int16Bytes(halved)
        XCTAssertGreaterThanOrEqual(raw.count, offset + expected.count)
        XCTAssertTrue(raw.prefix(offset).allSatisfy { $0 == 0 }, "the leading offset is not silence")
        let mixed = Array(raw.dropFirst(offset).prefix(expected.count))
        let firstDifference = mixed.indices.first { mixed[$0] != expected[$0] }
        XCTAssertTrue(mixed == expected, "the mixer's volume is not exact from byte \(firstDifference.map(String.init) ?? "the end")")
    }
}

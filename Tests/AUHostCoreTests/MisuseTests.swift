import XCTest
import TestSupport

/// Every misuse answers with its documented code and a message naming the cause; none crashes.
final class MisuseTests: XCTestCase {
    private func lastMessage() -> String { String(cfString: AUHostCopyLastErrorMessage()?.takeRetainedValue()) ?? "" }

    func testWrongSizeIsInvalidPropertyValue() throws {
        let f = try GainFixture(initialize: false)
        var asbd = AudioStreamBasicDescription.canonical(sampleRate: 48_000, channels: 2)
        XCTAssertEqual(
            AudioUnitSetProperty(f.unit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Input, 0, &asbd, 20),
            kAudioUnitErr_InvalidPropertyValue)
        XCTAssertTrue(lastMessage().contains("StreamFormat"), lastMessage())
        var frames: UInt64 = 512
        XCTAssertEqual(
            AudioUnitSetProperty(f.unit, kAudioUnitProperty_MaximumFramesPerSlice, kAudioUnitScope_Global, 0, &frames, 8),
            kAudioUnitErr_InvalidPropertyValue)
    }

    func testTooSmallGetBufferIsParamError() throws {
        let f = try GainFixture()
        var small: UInt16 = 0
        var size = UInt32(2)
        XCTAssertEqual(
            AudioUnitGetProperty(f.unit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Output, 0, &small, &size),
            kAudio_ParamError)
        XCTAssertTrue(lastMessage().contains("smaller"), lastMessage())
    }

    func testWrongScopeElementAndPropertyAnswerTheirCodes() throws {
        let f = try GainFixture(initialize: false)
        var frames: UInt32 = 256
        XCTAssertEqual(
            AudioUnitSetProperty(f.unit, kAudioUnitProperty_MaximumFramesPerSlice, kAudioUnitScope_Input, 0, &frames, 4),
            kAudioUnitErr_InvalidScope)
        XCTAssertTrue(lastMessage().contains("input scope"), lastMessage())
        var asbd = AudioStreamBasicDescription()
        var size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
        XCTAssertEqual(
            AudioUnitGetProperty(f.unit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Input, 3, &asbd, &size),
            kAudioUnitErr_InvalidElement)
        XCTAssertEqual(AudioUnitGetProperty(f.unit, 9999, kAudioUnitScope_Global, 0, &asbd, &size), kAudioUnitErr_InvalidProperty)
        var value: Float = 0
        XCTAssertEqual(AudioUnitGetParameter(f.unit, 77, kAudioUnitScope_Global, 0, &value), kAudioUnitErr_InvalidParameter)
    }

    func testReadOnlyPropertyIsNotWritable() throws {
        let f = try GainFixture()
        var latency: Float64 = 1
        XCTAssertEqual(
            AudioUnitSetProperty(f.unit, kAudioUnitProperty_Latency, kAudioUnitScope_Global, 0, &latency, 8),
            kAudioUnitErr_PropertyNotWritable)
        var writable: UInt8 = 1
        XCTAssertEqual(AudioUnitGetPropertyInfo(f.unit, kAudioUnitProperty_Latency, kAudioUnitScope_Global, 0, nil, &writable), noErr)
        XCTAssertEqual(writable, 0)
    }

    func testRenderBeforeInitializeAndTooManyFrames() throws {
        let f = try GainFixture(initialize: false)
        XCTAssertEqual(f.render(256), kAudioUnitErr_Uninitialized)
        XCTAssertEqual(AudioUnitInitialize(f.unit), noErr)
        XCTAssertEqual(f.render(1024), kAudioUnitErr_TooManyFramesToProcess)
        XCTAssertEqual(f.render(512), noErr)
        // Changing MaximumFramesPerSlice needs an uninitialized unit, as documented.
        var frames: UInt32 = 1024
        XCTAssertEqual(
            AudioUnitSetProperty(f.unit, kAudioUnitProperty_MaximumFramesPerSlice, kAudioUnitScope_Global, 0, &frames, 4),
            kAudioUnitErr_Initialized)
    }

    func testFormatTheUnitCannotTakeIsRefused() throws {
        let f = try GainFixture(initialize: false)
        var int16 = AudioStreamBasicDescription.linearPCM(
            sampleRate: 44_100, channels: 2, bitsPerChannel: 16, isFloat: false, interleaved: true)
        XCTAssertEqual(
            AudioUnitSetProperty(
                f.unit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Input, 0, &int16,
                UInt32(MemoryLayout<AudioStreamBasicDescription>.size)), kAudioUnitErr_FormatNotSupported)
        XCTAssertTrue(lastMessage().contains("16-bit"), lastMessage())
        // 1 in, 2 out breaks the effect's in == out configuration: refused at Initialize.
        var mono = AudioStreamBasicDescription.canonical(sampleRate: 44_100, channels: 1)
        XCTAssertEqual(
            AudioUnitSetProperty(
                f.unit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Input, 0, &mono,
                UInt32(MemoryLayout<AudioStreamBasicDescription>.size)), noErr)
        XCTAssertEqual(AudioUnitInitialize(f.unit), kAudioUnitErr_FormatNotSupported)
    }

    /// C callers may pass NULL where Swift's import (like Apple's) says non-null: the C entry points
    /// (the `@_cdecl` functions, called here directly) answer kAudio_ParamError.
    func testNullPointersAreParamErrors() throws {
        let f = try GainFixture()
        var asbd = AudioStreamBasicDescription()
        XCTAssertEqual(
            _AudioUnitGetProperty(f.unit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Input, 0, &asbd, nil), kAudio_ParamError)
        var size = UInt32(40)
        XCTAssertEqual(
            _AudioUnitGetProperty(f.unit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Input, 0, nil, &size), kAudio_ParamError)
        XCTAssertEqual(_AudioUnitSetProperty(f.unit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Input, 0, nil, 40), kAudio_ParamError)
        XCTAssertEqual(_AudioUnitInitialize(nil), kAudio_ParamError)
        var flags: AudioUnitRenderActionFlags = []
        XCTAssertEqual(_AudioUnitRender(f.unit, &flags, &f.timeStamp, 0, 64, nil), kAudio_ParamError)
        XCTAssertEqual(_AudioUnitGetParameter(f.unit, 0, kAudioUnitScope_Global, 0, nil), kAudio_ParamError)
        var desc = TestGainUnit.description
        XCTAssertEqual(_AudioComponentInstanceNew(AudioComponentFindNext(nil, &desc)!, nil), kAudio_ParamError)
        XCTAssertEqual(_AudioComponentGetDescription(nil, &desc), badComponentInstance)
    }

    func testDisposedHandleAnswersBadComponentInstance() throws {
        registerTestUnits()
        var desc = TestGainUnit.description
        var unit: AudioUnit?
        XCTAssertEqual(AudioComponentInstanceNew(AudioComponentFindNext(nil, &desc)!, &unit), noErr)
        XCTAssertEqual(AudioComponentInstanceDispose(unit!), noErr)
        XCTAssertEqual(AudioUnitInitialize(unit!), badComponentInstance)
        XCTAssertEqual(AudioComponentInstanceDispose(unit!), badComponentInstance)
    }

    func testBufferListThatDoesNotMatchTheFormatIsRefused() throws {
        let f = try GainFixture()
        let mono = AudioBufferStorage(format: .canonical(sampleRate: 44_100, channels: 1), capacity: 512)
        mono.prepare(frames: 512)
        var flags: AudioUnitRenderActionFlags = []
        XCTAssertEqual(AudioUnitRender(f.unit, &flags, &f.timeStamp, 0, 512, mono.list), kAudio_ParamError)
        f.storage.prepare(frames: 128)
        XCTAssertEqual(AudioUnitRender(f.unit, &flags, &f.timeStamp, 0, 512, f.storage.list), kAudio_ParamError, "buffers too small")
        XCTAssertEqual(AudioUnitRender(f.unit, &flags, &f.timeStamp, 1, 64, f.storage.list), kAudioUnitErr_InvalidElement)
    }
}

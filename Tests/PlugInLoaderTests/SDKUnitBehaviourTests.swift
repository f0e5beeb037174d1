import AUHost
import XCTest

/// What the SDK gives every kernel, checked on the gain plug-in (output = input × Gain) through the
/// C API: sample-accurate scheduled and ramped parameters, bypass, in-place or not, parameter info.
final class SDKUnitBehaviourTests: XCTestCase {
    private func gain(_ input: [[Float]]) throws -> EffectHarness {
        try EffectHarness(try BuiltPlugIns.component("gain"), input: input)
    }

    func testRampIsExactPerFrameAcrossRenderCalls() throws {
        let h = try gain([Array(repeating: 1, count: 512), Array(repeating: 2, count: 512)])
        var event = AudioUnitParameterEvent()
        event.scope = kAudioUnitScope_Global
        event.parameter = 0
        event.eventType = .parameterEvent_Ramped
        event.eventValues.ramp = .init(startBufferOffset: 64, durationInFrames: 256, startValue: 0, endValue: 2)
        XCTAssertEqual(AudioUnitScheduleParameters(h.unit, &event, 1), noErr)
        let out = try h.render(512, slice: 256)  // the ramp crosses the call boundary at 256
        for i in 0..<512 {
            let g: Float = i < 64 ? 1 : i < 320 ? 2 * Float(i - 64) / 256 : 2
            XCTAssertEqual(out[0][i], g, accuracy: 1e-6, "frame \(i)")
            XCTAssertEqual(out[1][i], 2 * g, accuracy: 1e-6, "frame \(i)")
        }
    }

    func testImmediateEventLandsOnItsFrame() throws {
        let h = try gain([Array(repeating: 1, count: 256), Array(repeating: 1, count: 256)])
        XCTAssertEqual(AudioUnitSetParameter(h.unit, 0, kAudioUnitScope_Global, 0, 3, 77), noErr)
        let out = try h.render(256)
        XCTAssertEqual(Array(out[0][0..<77]), Array(repeating: 1, count: 77))
        XCTAssertEqual(Array(out[0][77...]), Array(repeating: 3, count: 179))
    }

    func testBypassPassesTheInputThrough() throws {
        let input = [sine(440, frames: 600), sine(880, frames: 600)]
        let h = try gain(input)
        try h.set(0, 0.25)
        var on: UInt32 = 1
        XCTAssertEqual(AudioUnitSetProperty(h.unit, kAudioUnitProperty_BypassEffect, kAudioUnitScope_Global, 0, &on, 4), noErr)
        XCTAssertEqual(try h.render(600), input)
    }

    func testSameOutputInPlaceOrNot() throws {
        let input = [sine(440, frames: 700), sine(660, frames: 700)]
        let inPlace = try gain(input)
        let separate = try EffectHarness(try BuiltPlugIns.component("gain"), input: input, initialize: false)
        var off: UInt32 = 0
        XCTAssertEqual(AudioUnitSetProperty(separate.unit, kAudioUnitProperty_InPlaceProcessing, kAudioUnitScope_Global, 0, &off, 4), noErr)
        XCTAssertEqual(AudioUnitInitialize(separate.unit), noErr)
        try inPlace.set(0, 1.5)
        try separate.set(0, 1.5)
        let expected = input.map { $0.map { $0 * 1.5 } }
        XCTAssertEqual(try inPlace.render(700), expected)
        XCTAssertEqual(try separate.render(700), expected)
    }

    func testParameterInfoComesFromTheDeclaration() throws {
        let h = try gain([[], []])
        var info = AudioUnitParameterInfo()
        var size = UInt32(MemoryLayout<AudioUnitParameterInfo>.size)
        XCTAssertEqual(AudioUnitGetProperty(h.unit, kAudioUnitProperty_ParameterInfo, kAudioUnitScope_Global, 0, &info, &size), noErr)
        XCTAssertEqual(String(cfString: info.cfNameString?.takeRetainedValue()), "Gain")
        XCTAssertEqual([info.minValue, info.maxValue, info.defaultValue], [0, 4, 1])
        XCTAssertEqual(info.unit, kAudioUnitParameterUnit_LinearGain)
        XCTAssertTrue(info.flags.contains(.flag_CanRamp))
        XCTAssertEqual(AudioUnitSetParameter(h.unit, 9, kAudioUnitScope_Global, 0, 1, 0), kAudioUnitErr_InvalidParameter)
    }
}

/// A plug-in's own error sentences cross the image boundary (kAUHostCopyLastErrorMessageSelect).
final class PlugInErrorMessageTests: XCTestCase {
    func testInitializeFailureInsideThePlugInReachesTheHost() throws {
        let h = try EffectHarness(try BuiltPlugIns.component("satu"), input: [[], []], initialize: false)
        var mono = AudioStreamBasicDescription.canonical(sampleRate: 44_100, channels: 1)
        XCTAssertEqual(
            AudioUnitSetProperty(
                h.unit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Input, 0, &mono,
                UInt32(MemoryLayout<AudioStreamBasicDescription>.size)), noErr)
        XCTAssertEqual(AudioUnitInitialize(h.unit), kAudioUnitErr_FormatNotSupported)
        let message = lastErrorMessage()
        XCTAssertTrue(message.contains("AUHost SDK: Saturator") && message.contains("libSaturator.so"), message)
        XCTAssertTrue(message.contains("1 input and 2 output channels"), message)
    }

    func testUnknownPropertyMessageComesFromThePlugIn() throws {
        let h = try EffectHarness(try BuiltPlugIns.component("gain"), input: [[], []])
        var size: UInt32 = 0
        XCTAssertEqual(AudioUnitGetPropertyInfo(h.unit, 77_777, kAudioUnitScope_Global, 0, &size, nil), kAudioUnitErr_InvalidProperty)
        XCTAssertTrue(lastErrorMessage().contains("libGain.so"), lastErrorMessage())
        XCTAssertTrue(lastErrorMessage().contains("77777"), lastErrorMessage())
    }
}

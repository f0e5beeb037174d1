import Foundation
import XCTest
import TestSupport

/// Frequency from rising zero crossings between `from` and `to` (linear interpolation at both
/// ends of the counted span).
func zeroCrossingFrequency(_ x: [Float], from: Int, to: Int, sampleRate: Double) -> Double {
    var crossings: [Double] = []
    for i in max(from, 1)..<min(to, x.count) where x[i - 1] < 0 && x[i] >= 0 {
        crossings.append(Double(i - 1) + Double(-x[i - 1] / (x[i] - x[i - 1])))
    }
    guard crossings.count > 1 else { return 0 }
    return Double(crossings.count - 1) / (crossings.last! - crossings.first!) * sampleRate
}

/// First and last frames whose magnitude exceeds `threshold` (nil when none does).
func soundingSpan(_ x: [Float], threshold: Float = 0.05) -> (first: Int, last: Int)? {
    guard let first = x.firstIndex(where: { abs($0) > threshold }), let last = x.lastIndex(where: { abs($0) > threshold }) else {
        return nil
    }
    return (first, last)
}

func sine(_ frequency: Double, frames: Int, amplitude: Float = 0.5, sampleRate: Double = 44_100) -> [Float] {
    (0..<frames).map { amplitude * Float(sin(2 * Double.pi * frequency * Double($0) / sampleRate)) }
}

final class TimePitchUnitTests: XCTestCase {
    private func timePitch(_ input: [Float]) throws -> UnitHarness {
        let h = try UnitHarness(type: kAudioUnitType_FormatConverter, subType: kAudioUnitSubType_NewTimePitch)
        try h.feed(bus: 0, [input, input])
        return h
    }

    /// Rate 1, Pitch 0: the input passes exactly, with no latency, one input frame per output frame.
    func testUnitySettingsPassTheInputExactly() throws {
        let x = sine(1234, frames: 8192)
        let h = try timePitch(x)
        try h.initialize()
        let out = try h.render(frames: 8192, channels: 2)
        XCTAssertEqual(out[0], x)
        XCTAssertEqual(out[1], x)
        XCTAssertEqual(h.sources[0].position, 8192)
    }

    /// Rate 2: a one-second tone comes out in half a second (within 1024 frames), at its pitch
    /// (440 Hz within 1 %), and the unit pulls about twice the frames it renders.
    func testRateTwoHalvesTheLengthAndKeepsThePitch() throws {
        let h = try timePitch(sine(440, frames: 44_100))
        try h.set(kNewTimePitchParam_Rate, 2)
        try h.initialize()
        let out = try h.render(frames: 44_100, channels: 2)[0]
        let span = try XCTUnwrap(soundingSpan(out))
        XCTAssertEqual(Double(span.last - span.first), 22_050, accuracy: 1024, "\(span)")
        XCTAssertEqual(zeroCrossingFrequency(out, from: span.first + 2048, to: span.last - 2048, sampleRate: 44_100), 440, accuracy: 4.4)
        XCTAssertEqual(Double(h.sources[0].position), 88_200, accuracy: 4096, "input pulled for 44 100 output frames")
    }

    /// Pitch +1200 cents: a 440 Hz tone comes out at 880 Hz (within 1 %) and lasts as long (one
    /// second within 1024 frames).
    func testPitchUpAnOctaveDoublesTheFrequencyAndKeepsTheDuration() throws {
        let h = try timePitch(sine(440, frames: 44_100))
        try h.set(kNewTimePitchParam_Pitch, 1200)
        try h.initialize()
        let out = try h.render(frames: 2 * 44_100, channels: 2)[0]
        let span = try XCTUnwrap(soundingSpan(out))
        XCTAssertEqual(Double(span.last - span.first), 44_100, accuracy: 1024, "\(span)")
        XCTAssertEqual(zeroCrossingFrequency(out, from: span.first + 2048, to: span.last - 2048, sampleRate: 44_100), 880, accuracy: 8.8)
    }

    /// Back to Rate 1 / Pitch 0 after processing: exact pass-through resumes (SoundTouch cleared).
    func testReturningToUnityResumesExactPassThrough() throws {
        let x = sine(300, frames: 16_384)
        let h = try timePitch(x)
        try h.set(kNewTimePitchParam_Rate, 0.5)
        try h.initialize()
        _ = try h.render(frames: 2048, channels: 2)
        try h.set(kNewTimePitchParam_Rate, 1)
        let consumed = h.sources[0].position
        let out = try h.render(frames: 2048, channels: 2)[0]
        XCTAssertEqual(out, Array(x[consumed..<consumed + 2048]))
    }

    func testBypassPassesTheCallersFrames() throws {
        let x = sine(700, frames: 4096)
        let h = try timePitch(x)
        try h.set(kNewTimePitchParam_Rate, 3)
        var on: UInt32 = 1
        try AudioError.check(AudioUnitSetProperty(h.unit, kAudioUnitProperty_BypassEffect, kAudioUnitScope_Global, 0, &on, 4), "bypass")
        try h.initialize()
        XCTAssertEqual(try h.render(frames: 4096, channels: 2)[0], x)
    }

    /// The corners of the ranges (rate 1/32 and 32, pitch ±2400 cents), in mono or six channels, in
    /// slices of 4096: every call succeeds and the output is finite and bounded; at rate 32 a
    /// call after the first pulls about 32 × its frames (the first pulls 43 776 frames more: SoundTouch's
    /// windows at that tempo).
    func testExtremeSettingsRenderFiniteAudio() throws {
        let cases: [(Int, Float, Float)] = [(1, 1.0 / 32, -2400), (6, 32, 2400), (1, 32, -2400), (6, 1.0 / 32, 2400)]
        for (channels, rate, pitch) in cases {
            let x = sine(440, frames: 300_000)
            let h = try UnitHarness(type: kAudioUnitType_FormatConverter, subType: kAudioUnitSubType_NewTimePitch, slice: 4096)
            try h.setFormat(.canonical(sampleRate: 44_100, channels: UInt32(channels)), scope: kAudioUnitScope_Input)
            try h.setFormat(.canonical(sampleRate: 44_100, channels: UInt32(channels)), scope: kAudioUnitScope_Output)
            try h.feed(bus: 0, [x])
            try h.set(kNewTimePitchParam_Rate, rate)
            try h.set(kNewTimePitchParam_Pitch, pitch)
            try h.initialize()
            let first = try h.render(frames: 4096, channels: channels)
            let startUp = h.sources[0].position
            let second = try h.render(frames: 4096, channels: channels)
            XCTAssertTrue(
                (first + second).allSatisfy { $0.allSatisfy { $0.isFinite && abs($0) < 4 } }, "\(channels) ch, rate \(rate), pitch \(pitch)"
            )
            // Past SoundTouch's start-up (its first call pulls what its windows need first).
            if rate == 32 {
                XCTAssertEqual(Double(h.sources[0].position - startUp), 32 * 4096, accuracy: 8192, "input pulled at rate 32")
            }
        }
    }

    /// SoundTouch takes at most 16 channels (2.3.2 ignores more), and only its tempo is used: its
    /// anti-alias filter, which asserts fewer than 16 channels (FIRFilter.cpp), stays off. 16
    /// channels shift, each channel its own sine to twice its frequency (within 2 %, over 0.6 s);
    /// 17 are refused at Initialize naming the limit. Mutation tried: SoundTouch transposing the
    /// pitch itself (as before): the process aborts in FIRFilter::evaluateFilterMulti.
    func testSixteenChannelsShiftAndSeventeenAreRefused() throws {
        func unit(channels: Int) throws -> UnitHarness {
            let h = try UnitHarness(type: kAudioUnitType_FormatConverter, subType: kAudioUnitSubType_NewTimePitch)
            for scope in [kAudioUnitScope_Input, kAudioUnitScope_Output] {
                try h.setFormat(.canonical(sampleRate: 44_100, channels: UInt32(channels)), scope: scope)
            }
            try h.feed(bus: 0, (0..<channels).map { sine(300 + 40 * Double($0), frames: 44_100) })
            try h.set(kNewTimePitchParam_Pitch, 1200)
            return h
        }
        let sixteen = try unit(channels: 16)
        try sixteen.initialize()
        var out = [[Float]](repeating: [], count: 16)
        for _ in 0..<64 { for (c, samples) in try sixteen.render(frames: 512, channels: 16).enumerated() { out[c] += samples } }
        for c in [0, 8, 15] {
            let octave = 2 * (300 + 40 * Double(c))
            XCTAssertEqual(zeroCrossingFrequency(out[c], from: 4_096, to: 32_768, sampleRate: 44_100), octave, accuracy: octave * 0.02)
        }
        let seventeen = try unit(channels: 17)
        XCTAssertThrowsError(try seventeen.initialize()) { error in
            XCTAssertEqual((error as? AudioError)?.status, kAudioUnitErr_FormatNotSupported)
            XCTAssertTrue(unitLastMessage().contains("1…16"), unitLastMessage())
        }
    }
}

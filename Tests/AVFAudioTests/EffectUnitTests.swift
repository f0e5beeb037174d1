import AVFAudio
import Foundation
import XCTest

/// Frequency from rising zero crossings (interpolated) over `x`.
private func zeroCrossingFrequency(_ x: ArraySlice<Float>, sampleRate: Double) -> Double {
    var crossings: [Double] = []
    for i in (x.startIndex + 1)..<x.endIndex where x[i - 1] < 0 && x[i] >= 0 {
        crossings.append(Double(i - 1) + Double(-x[i - 1] / (x[i] - x[i - 1])))
    }
    guard crossings.count > 1 else { return 0 }
    return Double(crossings.count - 1) / (crossings.last! - crossings.first!) * sampleRate
}

private func unitParameter(_ node: AVAudioUnit, _ id: AudioUnitParameterID) -> Float {
    var value: Float = 0
    XCTAssertEqual(AudioUnitGetParameter(node.audioUnit, id, kAudioUnitScope_Global, 0, &value), noErr)
    return value
}

/// AVAudioUnitReverb, AVAudioUnitDistortion, AVAudioUnitTimePitch and AVAudioUnitVarispeed in an
/// offline engine (source node → effect → main mixer), 48 kHz mono.
final class EffectUnitTests: XCTestCase {
    private func run(_ effect: AVAudioUnit, frames: Int, source: @escaping (Int) -> Float) throws -> (out: [Float], pulled: Int) {
        let rig = OfflineRig()
        var pulled = 0
        let node = rampSource { n in
            pulled = max(pulled, n + 1)
            return source(n)
        }
        rig.engine.attach(node)
        rig.engine.attach(effect)
        rig.engine.connect(node, to: effect, format: rig.format)
        rig.engine.connect(effect, to: rig.engine.mainMixerNode, format: rig.format)
        try rig.enable()
        try rig.engine.start()
        let out = try rig.render(frames)[0]
        rig.engine.stop()
        return (out, pulled)
    }

    private func ramp(_ n: Int) -> Float { Float((n * 13) % 97) / 97 - 0.5 }

    func testReverbIsAnEffectWithFactoryPresetsAndAnExactDryMix() throws {
        let reverb = AVAudioUnitReverb()
        XCTAssertTrue((reverb as AVAudioUnit) is AVAudioUnitEffect)
        XCTAssertEqual(reverb.wetDryMix, 100)
        XCTAssertEqual(reverb.audioComponentDescription.componentSubType, kAudioUnitSubType_Reverb2)
        reverb.loadFactoryPreset(.cathedral)
        XCTAssertEqual(unitParameter(reverb, kReverb2Param_DecayTimeAt0Hz), 5)
        reverb.loadFactoryPreset(.smallRoom)
        XCTAssertEqual(unitParameter(reverb, kReverb2Param_DecayTimeAt0Hz), 0.4, accuracy: 1e-7)
        reverb.wetDryMix = 0
        let (out, _) = try run(reverb, frames: 2_000, source: ramp)
        XCTAssertEqual(out, (0..<2_000).map(ramp))
    }

    func testReverbWetSignalTailsAnImpulse() throws {
        let reverb = AVAudioUnitReverb()
        reverb.loadFactoryPreset(.largeHall)
        let (out, _) = try run(reverb, frames: 48_000, source: { $0 == 0 ? 1 : 0 })
        let late = out[24_000...].reduce(0) { $0 + Double($1) * Double($1) }
        XCTAssertGreaterThan(late, 1e-4, "a large hall still sounds after half a second")
    }

    func testDistortionPresetsPreGainAndAnExactDryMix() throws {
        let distortion = AVAudioUnitDistortion()
        XCTAssertTrue((distortion as AVAudioUnit) is AVAudioUnitEffect)
        XCTAssertEqual(distortion.preGain, -6)
        XCTAssertEqual(distortion.wetDryMix, 50)
        distortion.preGain = 12
        XCTAssertEqual(unitParameter(distortion, kDistortionParam_SoftClipGain), 12)
        distortion.loadFactoryPreset(.multiEcho1)
        XCTAssertEqual(unitParameter(distortion, kDistortionParam_Delay), 150)
        distortion.wetDryMix = 0
        let (out, _) = try run(distortion, frames: 2_000, source: ramp)
        XCTAssertEqual(out, (0..<2_000).map(ramp))
    }

    /// Rate 2: the source is pulled about twice as fast as the engine renders (within 4096
    /// frames of 2 × 48 000) and a 480 Hz tone keeps its pitch (within 1 %).
    func testTimePitchRateTwoPullsTwiceTheInputAndKeepsThePitch() throws {
        let timePitch = AVAudioUnitTimePitch()
        XCTAssertTrue((timePitch as AVAudioUnit) is AVAudioUnitTimeEffect)
        XCTAssertEqual(timePitch.rate, 1)
        XCTAssertEqual(timePitch.pitch, 0)
        XCTAssertEqual(timePitch.overlap, 8)
        timePitch.rate = 2
        let (out, pulled) = try run(timePitch, frames: 48_000, source: { 0.5 * Float(sin(2 * Double.pi * 480 * Double($0) / 48_000)) })
        XCTAssertEqual(Double(pulled), 96_000, accuracy: 4_096)
        XCTAssertEqual(zeroCrossingFrequency(out[4_096..<44_000], sampleRate: 48_000), 480, accuracy: 4.8)
    }

    /// Pitch +1200 cents: 480 Hz comes out at 960 Hz (within 1 %), one input frame per output frame
    /// on average (within 4096).
    func testTimePitchOctaveUpDoublesTheFrequency() throws {
        let timePitch = AVAudioUnitTimePitch()
        timePitch.pitch = 1200
        let (out, pulled) = try run(timePitch, frames: 48_000, source: { 0.5 * Float(sin(2 * Double.pi * 480 * Double($0) / 48_000)) })
        XCTAssertEqual(Double(pulled), 48_000, accuracy: 4_096)
        XCTAssertEqual(zeroCrossingFrequency(out[4_096..<44_000], sampleRate: 48_000), 960, accuracy: 9.6)
    }

    func testTimeEffectBypassPassesTheInput() throws {
        let timePitch = AVAudioUnitTimePitch()
        timePitch.rate = 4
        timePitch.bypass = true
        XCTAssertTrue(timePitch.bypass)
        let (out, _) = try run(timePitch, frames: 2_000, source: ramp)
        XCTAssertEqual(out, (0..<2_000).map(ramp))
    }

    /// Varispeed rate 1 passes exactly; rate 2 plays 480 Hz at 960 Hz (within 0.1 %) and pulls
    /// two source frames per rendered frame (within 512).
    func testVarispeedRateOneIsExactAndRateTwoIsAnOctaveUp() throws {
        let unity = AVAudioUnitVarispeed()
        XCTAssertTrue((unity as AVAudioUnit) is AVAudioUnitTimeEffect)
        XCTAssertEqual(unity.rate, 1)
        XCTAssertEqual(try run(unity, frames: 2_000, source: ramp).out, (0..<2_000).map(ramp))
        let double = AVAudioUnitVarispeed()
        double.rate = 2
        let (out, pulled) = try run(double, frames: 24_000, source: { 0.5 * Float(sin(2 * Double.pi * 480 * Double($0) / 48_000)) })
        XCTAssertEqual(zeroCrossingFrequency(out[1_000..<23_000], sampleRate: 48_000), 960, accuracy: 0.96)
        XCTAssertEqual(pulled, 48_000, accuracy: 512)
    }
}

import AUHost
import TestSupport
import XCTest

/// Ranges Apple documents in terms of the sample rate ("10 -> (SampleRate/2)"): ParameterInfo
/// reports the range in force at the unit's rate, and a value up to that rate's Nyquist is kept.
final class RateDependentRangeTests: XCTestCase {
    /// The delay's LopassCutoff: 10 Hz to half the rate, at 44.1 (the default), 48 and 96 kHz;
    /// at 48 kHz 23000 Hz is kept (it was refused while the maximum was fixed at 22050).
    func testDelayCutoffReachesHalfTheRate() throws {
        for rate in [44_100.0, 48_000, 96_000] {
            let h = try UnitHarness(type: kAudioUnitType_Effect, subType: kAudioUnitSubType_Delay)
            try h.setFormat(.canonical(sampleRate: rate, channels: 2), scope: kAudioUnitScope_Input)
            try h.setFormat(.canonical(sampleRate: rate, channels: 2), scope: kAudioUnitScope_Output)
            let i = try parameterInfo(h.unit, kDelayParam_LopassCutoff)
            XCTAssertEqual(i.minValue, 10, "\(rate)")
            XCTAssertEqual(i.maxValue, Float(rate / 2), "\(rate)")
            XCTAssertEqual(i.defaultValue, 15_000, "\(rate)")
            try h.initialize()
            let nearNyquist = Float(rate / 2) - 1_000
            XCTAssertEqual(AudioUnitSetParameter(h.unit, kDelayParam_LopassCutoff, kAudioUnitScope_Global, 0, nearNyquist, 0), noErr)
            XCTAssertEqual(try h.get(kDelayParam_LopassCutoff), nearNyquist, "\(rate)")
            XCTAssertEqual(AudioUnitSetParameter(h.unit, kDelayParam_LopassCutoff, kAudioUnitScope_Global, 0, 100_000, 0), noErr)
            XCTAssertEqual(try h.get(kDelayParam_LopassCutoff), Float(rate / 2), "clamped to Nyquist at \(rate)")
        }
    }

    /// The N-band EQ's band frequencies: 20 Hz to half the rate; a band whose default lies above a
    /// low rate's Nyquist (band 15: 20 kHz at 22.05 kHz) reports a default inside the range.
    func testNBandEQFrequencyFollowsTheRate() throws {
        for rate in [22_050.0, 48_000, 192_000] {
            let h = try UnitHarness(type: kAudioUnitType_Effect, subType: kAudioUnitSubType_NBandEQ)
            try h.setFormat(.canonical(sampleRate: rate, channels: 2), scope: kAudioUnitScope_Input)
            try h.setFormat(.canonical(sampleRate: rate, channels: 2), scope: kAudioUnitScope_Output)
            for band: UInt32 in [0, 15] {
                let i = try parameterInfo(h.unit, kAUNBandEQParam_Frequency + band)
                XCTAssertEqual(i.minValue, 20)
                XCTAssertEqual(i.maxValue, Float(rate / 2), "band \(band) at \(rate)")
                XCTAssertLessThanOrEqual(i.defaultValue, i.maxValue, "band \(band) at \(rate)")
            }
            try h.initialize()
            XCTAssertEqual(AudioUnitSetParameter(h.unit, kAUNBandEQParam_Frequency, kAudioUnitScope_Global, 0, Float(rate / 2), 0), noErr)
            XCTAssertEqual(try h.get(kAUNBandEQParam_Frequency), Float(rate / 2))
        }
    }
}

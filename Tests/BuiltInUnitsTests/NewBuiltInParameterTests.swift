import XCTest
import TestSupport

/// What every new built-in answers to bad values, through the C API: a finite value outside the
/// range is clamped (noErr), NaN and infinities are refused; the units appear under Apple's
/// identity with their documented parameter lists.
final class NewBuiltInParameterTests: XCTestCase {
    static let units: [(OSType, OSType, [AudioUnitParameterID])] = [
        (kAudioUnitType_Effect, kAudioUnitSubType_Reverb2, Array(0...6)),
        (kAudioUnitType_Effect, kAudioUnitSubType_Distortion, Array(0...15)),
        (kAudioUnitType_FormatConverter, kAudioUnitSubType_NewTimePitch, [0, 1, 4, 6]),
        (kAudioUnitType_FormatConverter, kAudioUnitSubType_Varispeed, [0, 1]),
    ]

    func testParameterListsClampingAndNaN() throws {
        for (type, subType, ids) in Self.units {
            let h = try UnitHarness(type: type, subType: subType)
            var size: UInt32 = 0
            var writable: DarwinBoolean = false
            try AudioError.check(
                AudioUnitGetPropertyInfo(h.unit, kAudioUnitProperty_ParameterList, kAudioUnitScope_Global, 0, &size, &writable), "list")
            var list = [AudioUnitParameterID](repeating: 0, count: Int(size) / 4)
            try AudioError.check(
                AudioUnitGetProperty(h.unit, kAudioUnitProperty_ParameterList, kAudioUnitScope_Global, 0, &list, &size), "list")
            XCTAssertEqual(list, ids, FourCC.string(subType))
            for id in ids {
                let info = try parameterInfo(h.unit, id)
                for value in [Float.nan, .infinity] {
                    XCTAssertEqual(
                        AudioUnitSetParameter(h.unit, id, kAudioUnitScope_Global, 0, value, 0), kAudioUnitErr_InvalidParameterValue,
                        "\(FourCC.string(subType)) \(id) \(value)")
                }
                XCTAssertEqual(try h.get(id), info.defaultValue, "\(FourCC.string(subType)) \(id) default kept")
                XCTAssertEqual(AudioUnitSetParameter(h.unit, id, kAudioUnitScope_Global, 0, 1e9, 0), noErr)
                XCTAssertEqual(try h.get(id), info.maxValue, "\(FourCC.string(subType)) \(id) clamped")
                XCTAssertEqual(AudioUnitSetParameter(h.unit, id, kAudioUnitScope_Global, 0, -1e9, 0), noErr)
                XCTAssertEqual(try h.get(id), info.minValue, "\(FourCC.string(subType)) \(id) clamped")
            }
        }
    }

    func testDocumentedRangesAndDefaults() throws {
        let expected: [(OSType, AudioUnitParameterID, Float, Float, Float)] = [
            (kAudioUnitSubType_Reverb2, kReverb2Param_DryWetMix, 0, 100, 100),
            (kAudioUnitSubType_Reverb2, kReverb2Param_MinDelayTime, 0.0001, 1, 0.008),
            (kAudioUnitSubType_Reverb2, kReverb2Param_DecayTimeAtNyquist, 0.001, 20, 0.5),
            (kAudioUnitSubType_Reverb2, kReverb2Param_RandomizeReflections, 1, 1000, 1),
            (kAudioUnitSubType_Distortion, kDistortionParam_Delay, 0.1, 500, 0.1),
            (kAudioUnitSubType_Distortion, kDistortionParam_SoftClipGain, -80, 20, -6),
            (kAudioUnitSubType_Distortion, kDistortionParam_RingModFreq2, 0.5, 8000, 100),
            (kAudioUnitSubType_NewTimePitch, kNewTimePitchParam_Rate, 1.0 / 32, 32, 1),
            (kAudioUnitSubType_NewTimePitch, kNewTimePitchParam_Pitch, -2400, 2400, 0),
            (kAudioUnitSubType_NewTimePitch, kNewTimePitchParam_Overlap, 3, 32, 8),
            (kAudioUnitSubType_Varispeed, kVarispeedParam_PlaybackRate, 0.25, 4, 1),
            (kAudioUnitSubType_Varispeed, kVarispeedParam_PlaybackCents, -2400, 2400, 0),
        ]
        for (subType, id, min, max, value) in expected {
            let type = Self.units.first { $0.1 == subType }!.0
            let h = try UnitHarness(type: type, subType: subType)
            let info = try parameterInfo(h.unit, id)
            XCTAssertEqual(info.minValue, min, "\(FourCC.string(subType)) \(id)")
            XCTAssertEqual(info.maxValue, max, "\(FourCC.string(subType)) \(id)")
            XCTAssertEqual(info.defaultValue, value, "\(FourCC.string(subType)) \(id)")
        }
    }

    /// The time units keep the channel count (and NewTimePitch the rate): other formats fail
    /// Initialize with kAudioUnitErr_FormatNotSupported.
    func testTimeUnitsRefuseMismatchedFormats() throws {
        for subType in [kAudioUnitSubType_NewTimePitch, kAudioUnitSubType_Varispeed] {
            let h = try UnitHarness(type: kAudioUnitType_FormatConverter, subType: subType)
            try h.setFormat(.canonical(sampleRate: 44_100, channels: 1), scope: kAudioUnitScope_Input)
            try h.setFormat(.canonical(sampleRate: 44_100, channels: 2), scope: kAudioUnitScope_Output)
            XCTAssertEqual(AudioUnitInitialize(h.unit), kAudioUnitErr_FormatNotSupported, FourCC.string(subType))
        }
        let h = try UnitHarness(type: kAudioUnitType_FormatConverter, subType: kAudioUnitSubType_NewTimePitch)
        try h.setFormat(.canonical(sampleRate: 48_000, channels: 2), scope: kAudioUnitScope_Input)
        XCTAssertEqual(AudioUnitInitialize(h.unit), kAudioUnitErr_FormatNotSupported)
    }
}

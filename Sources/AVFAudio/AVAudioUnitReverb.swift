import AudioToolbox

/// The factory presets of AVAudioUnitReverb (Apple's AVAudioUnitReverbPreset, same numbers). The
/// settings behind each name are AUHost's own (docs/PORTING.md), not Apple's rooms.
public enum AVAudioUnitReverbPreset: Int, Sendable {
    case smallRoom = 0
    case mediumRoom = 1
    case largeRoom = 2
    case mediumHall = 3
    case largeHall = 4
    case plate = 5
    case mediumChamber = 6
    case largeChamber = 7
    case cathedral = 8
    case largeRoom2 = 9
    case mediumHall2 = 10
    case mediumHall3 = 11
    case largeHall2 = 12
}

/// A reverb (Apple's AVAudioUnitReverb) over the built-in Reverb2 ('aufx' 'rvb2'), AUHost's own
/// feedback-delay-network reverb.
///
/// Thread: setup to make; parameters from any thread.
public final class AVAudioUnitReverb: AVAudioUnitEffect {
    static let reverb = AudioComponentDescription(
        componentType: kAudioUnitType_Effect, componentSubType: kAudioUnitSubType_Reverb2,
        componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0)

    /// Thread: setup.
    public init() {
        super.init(unit: try! makeUnit(AVAudioUnitReverb.reverb))  // built in: always there
    }

    /// Loads one of the factory presets (the unit's kAudioUnitProperty_PresentPreset); the
    /// wet/dry mix is kept.
    ///
    /// Thread: setup.
    public func loadFactoryPreset(_ preset: AVAudioUnitReverbPreset) { loadPreset(unit, Int32(preset.rawValue)) }

    /// Percent wet (0…100, default 100). Thread: any.
    public var wetDryMix: Float {
        get { parameter(unit, kReverb2Param_DryWetMix) }
        set { setParameter(unit, kReverb2Param_DryWetMix, newValue) }
    }
}

/// Sets a unit's kAudioUnitProperty_PresentPreset to factory preset `number`.
///
/// Thread: setup.
func loadPreset(_ unit: AudioUnit, _ number: Int32) {
    var preset = AUPreset(presetNumber: number, presetName: nil)
    _ = AudioUnitSetProperty(
        unit, kAudioUnitProperty_PresentPreset, kAudioUnitScope_Global, 0, &preset, UInt32(MemoryLayout<AUPreset>.size))
}

import AudioToolbox

/// The factory presets of AVAudioUnitDistortion (Apple's AVAudioUnitDistortionPreset, same
/// numbers). The settings behind each name are AUHost's own (docs/PORTING.md).
public enum AVAudioUnitDistortionPreset: Int, Sendable {
    case drumsBitBrush = 0
    case drumsBufferBeats = 1
    case drumsLoFi = 2
    case multiBrokenSpeaker = 3
    case multiCellphoneConcert = 4
    case multiDecimated1 = 5
    case multiDecimated2 = 6
    case multiDecimated3 = 7
    case multiDecimated4 = 8
    case multiDistortedFunk = 9
    case multiDistortedCubed = 10
    case multiDistortedSquared = 11
    case multiEcho1 = 12
    case multiEcho2 = 13
    case multiEchoTight1 = 14
    case multiEchoTight2 = 15
    case multiEverythingIsBroken = 16
    case speechAlienChatter = 17
    case speechCosmicInterference = 18
    case speechGoldenPi = 19
    case speechRadioTower = 20
    case speechWaves = 21
}

/// A multi-stage distortion (Apple's AVAudioUnitDistortion) over the built-in distortion
/// ('aufx' 'dist').
///
/// Thread: setup to make; parameters from any thread.
public final class AVAudioUnitDistortion: AVAudioUnitEffect {
    static let distortion = AudioComponentDescription(
        componentType: kAudioUnitType_Effect, componentSubType: kAudioUnitSubType_Distortion,
        componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0)

    /// Thread: setup.
    public init() {
        super.init(unit: try! makeUnit(AVAudioUnitDistortion.distortion))  // built in: always there
    }

    /// Loads one of the factory presets; the wet/dry mix is kept.
    ///
    /// Thread: setup.
    public func loadFactoryPreset(_ preset: AVAudioUnitDistortionPreset) { loadPreset(unit, Int32(preset.rawValue)) }

    /// dB of gain into the soft clipper (−80…20, default −6; kDistortionParam_SoftClipGain).
    /// Thread: any.
    public var preGain: Float {
        get { parameter(unit, kDistortionParam_SoftClipGain) }
        set { setParameter(unit, kDistortionParam_SoftClipGain, newValue) }
    }
    /// Percent wet (0…100, default 50; kDistortionParam_FinalMix). Thread: any.
    public var wetDryMix: Float {
        get { parameter(unit, kDistortionParam_FinalMix) }
        set { setParameter(unit, kDistortionParam_FinalMix, newValue) }
    }
}

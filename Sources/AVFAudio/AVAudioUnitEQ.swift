import AudioToolbox

/// The filter of an EQ band (Apple's AVAudioUnitEQFilterType; the N-band EQ's numbers).
public enum AVAudioUnitEQFilterType: Int, Sendable {
    case parametric = 0
    case lowPass = 1
    case highPass = 2
    case resonantLowPass = 3
    case resonantHighPass = 4
    case bandPass = 5
    case bandStop = 6
    case lowShelf = 7
    case highShelf = 8
    case resonantLowShelf = 9
    case resonantHighShelf = 10
}

/// One band of an AVAudioUnitEQ (Apple's AVAudioUnitEQFilterParameters): its parameters on the
/// N-band EQ, read and written in place.
///
/// Thread: any (parameters).
public final class AVAudioUnitEQFilterParameters {
    private let unit: AudioUnit
    private let band: Int

    init(unit: AudioUnit, band: Int) {
        self.unit = unit
        self.band = band
    }

    private func id(_ base: AudioUnitParameterID) -> AudioUnitParameterID { base + AudioUnitParameterID(band) }

    /// The band's filter. Thread: any.
    public var filterType: AVAudioUnitEQFilterType {
        get { AVAudioUnitEQFilterType(rawValue: Int(parameter(unit, id(kAUNBandEQParam_FilterType)))) ?? .parametric }
        set { setParameter(unit, id(kAUNBandEQParam_FilterType), Float(newValue.rawValue)) }
    }
    /// Hz. Thread: any.
    public var frequency: Float {
        get { parameter(unit, id(kAUNBandEQParam_Frequency)) }
        set { setParameter(unit, id(kAUNBandEQParam_Frequency), newValue) }
    }
    /// Octaves (0.05…5). Thread: any.
    public var bandwidth: Float {
        get { parameter(unit, id(kAUNBandEQParam_Bandwidth)) }
        set { setParameter(unit, id(kAUNBandEQParam_Bandwidth), newValue) }
    }
    /// dB (−96…24). Thread: any.
    public var gain: Float {
        get { parameter(unit, id(kAUNBandEQParam_Gain)) }
        set { setParameter(unit, id(kAUNBandEQParam_Gain), newValue) }
    }
    /// Whether the band is off. Thread: any.
    public var bypass: Bool {
        get { parameter(unit, id(kAUNBandEQParam_BypassBand)) != 0 }
        set { setParameter(unit, id(kAUNBandEQParam_BypassBand), newValue ? 1 : 0) }
    }
}

/// A multi-band EQ (Apple's AVAudioUnitEQ) over the N-band EQ ('aufx' 'nbeq'), at most 16 bands.
///
/// Thread: setup.
public final class AVAudioUnitEQ: AVAudioUnitEffect {
    static let nBandEQ = AudioComponentDescription(
        componentType: kAudioUnitType_Effect, componentSubType: kAudioUnitSubType_NBandEQ,
        componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0)

    /// The bands, each bypassed until told otherwise (the unit's default).
    public let bands: [AVAudioUnitEQFilterParameters]

    /// An EQ of one band.
    ///
    /// Thread: setup.
    public convenience init() { self.init(numberOfBands: 1) }

    /// An EQ of `numberOfBands` bands (1…16; more are cut to 16, docs/PORTING.md).
    ///
    /// Thread: setup.
    public init(numberOfBands: Int) {
        let unit = try! makeUnit(AVAudioUnitEQ.nBandEQ)  // built in: always there
        bands = (0..<min(max(numberOfBands, 1), 16)).map { AVAudioUnitEQFilterParameters(unit: unit, band: $0) }
        super.init(unit: unit)
    }

    /// Gain applied to the whole signal, dB (−96…24).
    ///
    /// Thread: any.
    public var globalGain: Float {
        get { parameter(unit, kAUNBandEQParam_GlobalGain) }
        set { setParameter(unit, kAUNBandEQParam_GlobalGain, newValue) }
    }
}

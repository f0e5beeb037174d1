/// The factory presets of the iPod EQ (AUiPodEQ), as gains over a fixed ten-band graphic EQ.
///
/// The bands are the octave-spaced centres of the classic ten-band graphic equaliser,
/// `IPodEQPreset.bandFrequencies` (31.25 Hz … 16 kHz, written 32 … 16 k); each band is a
/// `.parametric` biquad one octave wide (`bandwidthOctaves`). The curves are this project's
/// choice, shaped after the familiar consumer-player presets of the same names: boosters and
/// reducers tilt one end by up to ±5.5 dB, genre curves stay within ±7 dB. Bands at or above 45 %
/// of the sample rate cannot be designed and are bypassed. Preset numbers are the positions in
/// the documented (alphabetical) list, starting at 0.
public enum IPodEQPreset: Int, CaseIterable, Sendable {
    case acoustic, bassBooster, bassReducer, classical, dance, deep, electronic, flat, hipHop, jazz,
        latin, loudness, lounge, piano, pop, rAndB, rock, smallSpeakers, spokenWord, trebleBooster,
        trebleReducer, vocalBooster

    /// Centre frequencies (Hz) of the ten bands.
    public static let bandFrequencies: [Double] = [32, 64, 125, 250, 500, 1000, 2000, 4000, 8000, 16000]
    /// The width of every band, in octaves.
    public static let bandwidthOctaves = 1.0

    /// The documented factory-preset name ("Acoustic", "Bass Booster", ..., "Vocal Booster").
    public var name: String {
        switch self {
        case .acoustic: "Acoustic"
        case .bassBooster: "Bass Booster"
        case .bassReducer: "Bass Reducer"
        case .classical: "Classical"
        case .dance: "Dance"
        case .deep: "Deep"
        case .electronic: "Electronic"
        case .flat: "Flat"
        case .hipHop: "Hip-Hop"
        case .jazz: "Jazz"
        case .latin: "Latin"
        case .loudness: "Loudness"
        case .lounge: "Lounge"
        case .piano: "Piano"
        case .pop: "Pop"
        case .rAndB: "R&B"
        case .rock: "Rock"
        case .smallSpeakers: "Small Speakers"
        case .spokenWord: "Spoken Word"
        case .trebleBooster: "Treble Booster"
        case .trebleReducer: "Treble Reducer"
        case .vocalBooster: "Vocal Booster"
        }
    }

    /// The AUPreset number (position in the documented list). Thread: any.
    public var presetNumber: Int32 { Int32(rawValue) }

    /// The preset called `name` (exact documented spelling), or nil. Thread: any.
    public init?(name: String) {
        guard let match = Self.allCases.first(where: { $0.name == name }) else { return nil }
        self = match
    }

    /// Gain in dB of each band of `bandFrequencies`, low to high.
    public var bandGains: [Double] {
        switch self {
        case .acoustic: [5, 5, 4, 1, 1.5, 1.5, 3.5, 4, 3.5, 2]
        case .bassBooster: [5.5, 4.5, 3.5, 2.5, 1.25, 0, 0, 0, 0, 0]
        case .bassReducer: [-5.5, -4.5, -3.5, -2.5, -1.25, 0, 0, 0, 0, 0]
        case .classical: [4.75, 3.75, 3, 2.5, -1.5, -1.5, 0, 2.25, 3.25, 3.75]
        case .dance: [3.5, 6.5, 5, 0, 2, 3.5, 5, 4.5, 3.5, 0]
        case .deep: [5, 3.5, 1.75, 1, 3, 2.5, 1.5, -2, -3.5, -4.5]
        case .electronic: [4.25, 3.75, 1.25, 0, -2, 2.25, 0.75, 1.25, 4.25, 4.75]
        case .flat: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0]
        case .hipHop: [5, 4.25, 1.5, 3, -1, -1, 1.5, -0.5, 2, 3]
        case .jazz: [4, 3, 1.5, 2.25, -1.5, -1.5, 0, 1.5, 3, 3.75]
        case .latin: [4.5, 3, 0, 0, -1.5, -1.5, -1.5, 0, 3, 4.5]
        case .loudness: [6, 4, 0, 0, -2, 0, -1, -5, 5, 1]
        case .lounge: [-3, -1.5, -0.5, 1.5, 4, 2.5, 0, -1.5, 2, 1]
        case .piano: [3, 2, 0, 2.5, 3, 1.5, 3.5, 4.5, 3, 3.5]
        case .pop: [-1.5, -1, 0, 2, 4, 4, 2, 0, -1, -1.5]
        case .rAndB: [2.5, 7, 5.5, 1.25, -2.25, -1.5, 2.25, 2.75, 3, 3.75]
        case .rock: [5, 4, 3, 1.5, -0.5, -1, 0.5, 2.5, 3.5, 4.5]
        case .smallSpeakers: [5.5, 4.25, 3.5, 2.5, 1.25, 0, -1.25, -2.5, -3.5, -4.25]
        case .spokenWord: [-3.5, -0.5, 0, 0.75, 3.5, 4.5, 4.75, 4.25, 2.5, 0]
        case .trebleBooster: [0, 0, 0, 0, 0, 1.25, 2.5, 3.5, 4.25, 5.5]
        case .trebleReducer: [0, 0, 0, 0, 0, -1.25, -2.5, -3.5, -4.25, -5.5]
        case .vocalBooster: [-1.5, -3, -3, 1.5, 3.75, 3.75, 3, 1.5, 0, -1.5]
        }
    }

    /// One design per band at `sampleRate`; nil for a band at or above 45 % of the rate or with
    /// 0 dB gain (both are bypassed). Thread: any (setup work: it evaluates libm).
    public func bandCoefficients(sampleRate: Double) -> [BiquadCoefficients?] {
        zip(Self.bandFrequencies, bandGains).map { frequency, gain in
            guard gain != 0, frequency < 0.45 * sampleRate else { return nil }
            return try? BiquadCoefficients(
                type: .parametric, frequency: frequency, gain: gain,
                bandwidth: Self.bandwidthOctaves, sampleRate: sampleRate)
        }
    }

    /// Loads this preset into `cascade`, which must have at least `bandFrequencies.count`
    /// stages (extra stages are bypassed). Throws `kAudio_ParamError` when it is too short.
    /// Thread: setup (non-real-time), while no render is running on `cascade`.
    public func apply(to cascade: inout BiquadCascade, sampleRate: Double) throws {
        let bands = bandCoefficients(sampleRate: sampleRate)
        guard cascade.stageCount >= bands.count else {
            throw DSPKernelError.parameter(
                "The iPod EQ needs a cascade of \(bands.count) stages; this one has \(cascade.stageCount).")
        }
        for stage in 0..<cascade.stageCount {
            if stage < bands.count, let design = bands[stage] {
                cascade.setCoefficients(design, stage: stage)
                cascade.setBypassed(false, stage: stage)
            } else {
                cascade.setCoefficients(.identity, stage: stage)
                cascade.setBypassed(true, stage: stage)
            }
        }
    }
}

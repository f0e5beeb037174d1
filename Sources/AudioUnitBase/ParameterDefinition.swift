import AudioTypes

/// A parameter declared once: identity, name, range, unit, default and flags, plus value strings
/// for indexed parameters. The unit model answers ParameterList, ParameterInfo and
/// ParameterValueStrings from these, and keeps the current value where the render thread reads it.
public struct ParameterDefinition {
    public var id: AudioUnitParameterID
    public var name: String
    public var unit: AudioUnitParameterUnit
    public var minValue: AudioUnitParameterValue
    public var maxValue: AudioUnitParameterValue
    public var defaultValue: AudioUnitParameterValue
    public var flags: AudioUnitParameterOptions
    public var valueStrings: [String]
    /// The scope the parameter lives in; input/output-scope parameters exist once per element.
    public var scope: AudioUnitScope
    /// Whether the maximum is half the unit's sample rate, as Apple documents frequencies
    /// ("10 -> (SampleRate/2)"): AUBase sets `maxValue` from the rate in force.
    public var maximumIsNyquist: Bool

    /// Thread: any.
    public init(
        id: AudioUnitParameterID, name: String, unit: AudioUnitParameterUnit = kAudioUnitParameterUnit_Generic,
        min: AudioUnitParameterValue, max: AudioUnitParameterValue, default defaultValue: AudioUnitParameterValue,
        flags: AudioUnitParameterOptions = .flag_CanRamp,
        valueStrings: [String] = [], scope: AudioUnitScope = kAudioUnitScope_Global, maximumIsNyquist: Bool = false
    ) {
        self.id = id
        self.name = name
        self.unit = unit
        self.minValue = min
        self.maxValue = max
        self.defaultValue = defaultValue
        self.flags = flags.union([.flag_IsReadable, .flag_IsWritable])
            .union(valueStrings.isEmpty ? [] : .flag_ValuesHaveStrings)
        self.valueStrings = valueStrings
        self.scope = scope
        self.maximumIsNyquist = maximumIsNyquist
    }

    /// The definition in force at `sampleRate`: a Nyquist maximum is rate/2 (never below the
    /// minimum), and the default stays inside the range. Others are returned as they are.
    ///
    /// Thread: setup.
    public func atSampleRate(_ sampleRate: Double) -> ParameterDefinition {
        guard maximumIsNyquist else { return self }
        var d = self
        d.maxValue = Swift.max(minValue, Float(sampleRate / 2))
        d.defaultValue = Swift.min(defaultValue, d.maxValue)
        return d
    }

    /// The documented C record (name truncated to 51 bytes; cfNameString carries it whole).
    ///
    /// Thread: setup.
    public var info: AudioUnitParameterInfo {
        var info = AudioUnitParameterInfo()
        withUnsafeMutableBytes(of: &info.name) { raw in
            let bytes = Array(name.utf8.prefix(raw.count - 1))
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        info.cfNameString = CFBridge.string(name)
        info.unit = unit
        info.minValue = minValue
        info.maxValue = maxValue
        info.defaultValue = defaultValue
        info.flags = flags.union([.flag_HasCFNameString, .flag_CFNameRelease])
        return info
    }
}

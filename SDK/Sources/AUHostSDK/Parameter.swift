import AudioUnitBase

/// A parameter declared once: identifier, name, range, unit, default and flags. The SDK answers
/// ParameterList, ParameterInfo, ParameterValueStrings and ClassInfo from it, and the kernel reads
/// the current value as a plain Float through ``ParameterValues``.
///
/// ```swift
/// enum Param: AudioUnitParameterID { case rate, depth }
/// static let parameters = [
///     Parameter(Param.rate, "Rate", 0.1...20, unit: kAudioUnitParameterUnit_Hertz, default: 5),
///     Parameter(Param.depth, "Depth", 0...100, unit: kAudioUnitParameterUnit_Percent, default: 50),
/// ]
/// ```
public struct Parameter {
    public let id: AudioUnitParameterID
    public let name: String
    public let range: ClosedRange<Float>
    public let unit: AudioUnitParameterUnit
    public let defaultValue: Float
    public let flags: AudioUnitParameterOptions
    /// Names of the values of an indexed parameter (range 0…count-1).
    public let valueStrings: [String]

    /// Thread: setup.
    public init(
        _ id: AudioUnitParameterID, _ name: String, _ range: ClosedRange<Float>,
        unit: AudioUnitParameterUnit = kAudioUnitParameterUnit_Generic, default defaultValue: Float,
        flags: AudioUnitParameterOptions = .flag_CanRamp, valueStrings: [String] = []
    ) {
        self.id = id
        self.name = name
        self.range = range
        self.unit = unit
        self.defaultValue = defaultValue
        self.flags = flags
        self.valueStrings = valueStrings
    }

    /// A parameter whose identifier is an enum case (`enum Param: AudioUnitParameterID`).
    ///
    /// Thread: setup.
    public init<Key: RawRepresentable>(
        _ key: Key, _ name: String, _ range: ClosedRange<Float>,
        unit: AudioUnitParameterUnit = kAudioUnitParameterUnit_Generic, default defaultValue: Float,
        flags: AudioUnitParameterOptions = .flag_CanRamp,
        valueStrings: [String] = []
    ) where Key.RawValue == AudioUnitParameterID {
        self.init(key.rawValue, name, range, unit: unit, default: defaultValue, flags: flags, valueStrings: valueStrings)
    }

    /// The unit model's definition (global scope).
    ///
    /// Thread: setup.
    public var definition: ParameterDefinition {
        ParameterDefinition(
            id: id, name: name, unit: unit, min: range.lowerBound, max: range.upperBound,
            default: defaultValue, flags: flags, valueStrings: valueStrings)
    }
}

/// A factory preset: a number, a name and the parameter values it sets (others keep theirs).
public struct Preset {
    public let number: Int32
    public let name: String
    public let values: [AudioUnitParameterID: Float]

    /// Thread: setup.
    public init(_ number: Int32, _ name: String, _ values: [AudioUnitParameterID: Float]) {
        self.number = number
        self.name = name
        self.values = values
    }
}

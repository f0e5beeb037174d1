import AUHostCore
import LADSPAHost

/// Parameters of a LADSPA unit: one per control port, ID = port index. Inputs are writable with
/// the range and default their hints give (``LADSPAPortInfo/range(sampleRate:)``,
/// ``LADSPAPortInfo/defaultValue(sampleRate:)``); outputs are read-only meters.
enum LADSPAUnitParameters {
    /// The definitions of `plugin`'s control ports at `sampleRate`, in port order. Thread: setup.
    static func definitions(_ plugin: LADSPAPluginInfo, sampleRate: Double) -> [ParameterDefinition] {
        plugin.ports.indices.filter { plugin.ports[$0].isControl }.map { definition(plugin.ports[$0], index: $0, sampleRate: sampleRate) }
    }

    /// Toggled → Boolean 0/1; integer → Indexed (no ramps: an integer has no in-between);
    /// logarithmic → DisplayLogarithmic. Thread: setup.
    static func definition(_ port: LADSPAPortInfo, index: Int, sampleRate: Double) -> ParameterDefinition {
        let range = port.range(sampleRate: sampleRate)
        if port.isOutput {
            var meter = ParameterDefinition(
                id: AudioUnitParameterID(index), name: port.name,
                unit: port.reportsLatency ? kAudioUnitParameterUnit_SampleFrames : kAudioUnitParameterUnit_Generic,
                min: range.lowerBound, max: range.upperBound, default: min(max(0, range.lowerBound), range.upperBound), flags: [])
            meter.flags = [.flag_IsReadable, .flag_MeterReadOnly]
            return meter
        }
        var unit = kAudioUnitParameterUnit_Generic
        var flags = AudioUnitParameterOptions.flag_CanRamp
        if port.isToggled {
            unit = kAudioUnitParameterUnit_Boolean
            flags = []
        } else if port.isInteger {
            unit = kAudioUnitParameterUnit_Indexed
            flags = []
        }
        if port.isLogarithmic { flags.insert(.flag_DisplayLogarithmic) }
        return ParameterDefinition(
            id: AudioUnitParameterID(index), name: port.name, unit: unit, min: range.lowerBound, max: range.upperBound,
            default: port.defaultValue(sampleRate: sampleRate), flags: flags)
    }
}

import AUHost
import Foundation

/// `-p NAME=VALUE` and `--preset NAME` applied to a unit: NAME is a parameter's name (any case)
/// or its id; VALUE a number or one of the parameter's value strings.
enum UnitSettings {
    /// Chooses factory preset `preset` (its name or number), then sets each `NAME=VALUE`.
    ///
    /// Thread: setup.
    static func apply(preset: String?, parameters: [String], to unit: AudioUnitInstance) throws {
        let facts = UnitFacts(unit)
        if let preset {
            guard let chosen = facts.presets.first(where: { $0.name.lowercased() == preset.lowercased() || "\($0.number)" == preset }) else {
                let known = facts.presets.map(\.name).joined(separator: ", ")
                throw AudioError(kAudioUnitErr_InvalidPropertyValue,
                                 "\(unit.component.name) has no preset \"\(preset)\"; its presets: \(known.isEmpty ? "none" : known).")
            }
            var value = AUPreset(presetNumber: chosen.number, presetName: nil)
            try AudioError.check(AudioUnitSetProperty(unit.handle, kAudioUnitProperty_PresentPreset, kAudioUnitScope_Global, 0, &value,
                                                      UInt32(MemoryLayout<AUPreset>.size)), "Choosing preset \"\(preset)\" failed.")
        }
        for setting in parameters {
            guard let equals = setting.firstIndex(of: "=") else {
                throw AudioError(kAudio_ParamError, "\"\(setting)\" is not NAME=VALUE (e.g. -p gain=-6).")
            }
            let name = String(setting[..<equals]).trimmingCharacters(in: .whitespaces)
            let text = String(setting[setting.index(after: equals)...]).trimmingCharacters(in: .whitespaces)
            guard let p = facts.parameters.first(where: { $0.name.lowercased() == name.lowercased() || "\($0.id)" == name }) else {
                let known = facts.parameters.map(\.name).joined(separator: ", ")
                throw AudioError(kAudioUnitErr_InvalidParameter,
                                 "\(unit.component.name) has no parameter \"\(name)\"; its parameters: \(known.isEmpty ? "none" : known).")
            }
            let value: Float
            if let number = Float(text) { value = number }
            else if let index = p.valueStrings.firstIndex(where: { $0.lowercased() == text.lowercased() }) { value = Float(index) }
            else {
                throw AudioError(kAudioUnitErr_InvalidParameterValue,
                                 "\"\(text)\" is not a number\(p.valueStrings.isEmpty ? "" : " or one of " + p.valueStrings.joined(separator: ", ")) for \(p.name).")
            }
            guard value >= p.minValue && value <= p.maxValue else {
                throw AudioError(kAudioUnitErr_InvalidParameterValue, "\(p.name) = \(value) is outside its range \(p.minValue) … \(p.maxValue).")
            }
            try unit.setParameter(p.id, value)
        }
    }
}

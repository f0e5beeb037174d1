import AUHost
import Foundation

/// `-p NAME=VALUE` and `--preset NAME` applied to a unit: NAME is a parameter's name (any case)
/// or its id; VALUE a number or one of the parameter's value strings.
enum UnitSettings {
    /// Chooses factory preset `preset` (its name or number), then sets each `NAME=VALUE`.
    ///
    /// Thread: setup.
    static func apply(preset: String?, parameters: [String], to unit: AudioUnitInstance) throws {
        try apply(preset: preset, parameters: parameters, to: unit.handle, named: unit.component.name)
    }

    /// The same for a unit the caller does not own (a graph's node): `name` names it in messages.
    ///
    /// Thread: setup.
    static func apply(preset: String?, parameters: [String], to handle: AudioUnit, named name: String) throws {
        let facts = (presets: UnitFacts.factoryPresets(handle), parameters: globalParameters(handle))
        if let preset {
            guard let chosen = facts.presets.first(where: { $0.name.lowercased() == preset.lowercased() || "\($0.number)" == preset })
            else {
                let known = facts.presets.map(\.name).joined(separator: ", ")
                throw AudioError(
                    kAudioUnitErr_InvalidPropertyValue,
                    "\(name) has no preset \"\(preset)\"; its presets: \(known.isEmpty ? "none" : known).")
            }
            var value = AUPreset(presetNumber: chosen.number, presetName: nil)
            try AudioError.check(
                AudioUnitSetProperty(
                    handle, kAudioUnitProperty_PresentPreset, kAudioUnitScope_Global, 0, &value,
                    UInt32(MemoryLayout<AUPreset>.size)), "Choosing preset \"\(preset)\" failed.")
        }
        for setting in parameters {
            guard let equals = setting.firstIndex(of: "=") else {
                throw AudioError(kAudio_ParamError, "\"\(setting)\" is not NAME=VALUE (e.g. -p gain=-6).")
            }
            let key = String(setting[..<equals]).trimmingCharacters(in: .whitespaces)
            let text = String(setting[setting.index(after: equals)...]).trimmingCharacters(in: .whitespaces)
            guard let p = facts.parameters.first(where: { $0.name.lowercased() == key.lowercased() || "\($0.id)" == key }) else {
                // An LV2 plug-in's path or string setting (patch:writable) goes by name too.
                if setPatchText(key, text, on: handle) { continue }
                let known = facts.parameters.map(\.name).joined(separator: ", ")
                throw AudioError(
                    kAudioUnitErr_InvalidParameter,
                    "\(name) has no parameter \"\(key)\"; its parameters: \(known.isEmpty ? "none" : known).")
            }
            let value: Float
            if let number = Float(text) {
                value = number
            } else if let index = p.valueStrings.firstIndex(where: { $0.lowercased() == text.lowercased() }) {
                value = Float(index)
            } else {
                throw AudioError(
                    kAudioUnitErr_InvalidParameterValue,
                    "\"\(text)\" is not a number\(p.valueStrings.isEmpty ? "" : " or one of " + p.valueStrings.joined(separator: ", ")) for \(p.name)."
                )
            }
            guard value >= p.minValue && value <= p.maxValue else {
                throw AudioError(
                    kAudioUnitErr_InvalidParameterValue, "\(p.name) = \(value) is outside its range \(p.minValue) … \(p.maxValue).")
            }
            try AudioError.check(
                AudioUnitSetParameter(handle, p.id, kAudioUnitScope_Global, 0, value, 0),
                LastErrorMessage.current ?? "Setting \(p.name) of \(name) failed.")
        }
    }

    /// Sets `key` = `text` through kLV2UnitProperty_PatchText; false when the unit has no such
    /// text setting (or is not an LV2 unit).
    ///
    /// Thread: setup.
    private static func setPatchText(_ key: String, _ text: String, on handle: AudioUnit) -> Bool {
        let values = CFBridge.propertyList(.dictionary([key: .string(text)]))
        defer { values.release() }
        var ref: UnsafeRawPointer? = UnsafeRawPointer(values.toOpaque())
        return AudioUnitSetProperty(
            handle, kLV2UnitProperty_PatchText, kAudioUnitScope_Global, 0, &ref, UInt32(MemoryLayout<UnsafeRawPointer>.size))
            == noErr
    }

    /// The global-scope parameters of `handle`, read through the C API.
    ///
    /// Thread: setup.
    static func globalParameters(_ handle: AudioUnit) -> [UnitFacts.Parameter] {
        var size: UInt32 = 0
        guard AudioUnitGetPropertyInfo(handle, kAudioUnitProperty_ParameterList, kAudioUnitScope_Global, 0, &size, nil) == noErr,
            size >= 4
        else { return [] }
        var ids = [AudioUnitParameterID](repeating: 0, count: Int(size) / 4)
        guard AudioUnitGetProperty(handle, kAudioUnitProperty_ParameterList, kAudioUnitScope_Global, 0, &ids, &size) == noErr else {
            return []
        }
        return ids.compactMap { id in
            var info = AudioUnitParameterInfo()
            var infoSize = UInt32(MemoryLayout<AudioUnitParameterInfo>.size)
            guard AudioUnitGetProperty(handle, kAudioUnitProperty_ParameterInfo, kAudioUnitScope_Global, id, &info, &infoSize) == noErr
            else {
                return nil
            }
            return UnitFacts.Parameter(
                id: id, name: UnitFacts.name(info), minValue: info.minValue, maxValue: info.maxValue,
                defaultValue: info.defaultValue, unit: UnitFacts.unitName(info.unit),
                valueStrings: UnitFacts.valueStrings(handle, id))
        }
    }
}

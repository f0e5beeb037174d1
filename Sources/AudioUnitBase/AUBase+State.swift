import AudioTypes

// ClassInfo: the unit's state as the documented dictionary (version, type, subtype, manufacturer,
// name, data). "data" holds every parameter instance as big-endian records of
// (scope UInt32, element UInt32, id UInt32, value Float32 bits); a unit's extra state goes under
// "auhost-state". Restoring checks the identity first and refuses another unit's state.

extension AUBase {
    /// The unit's state (kAudioUnitProperty_ClassInfo).
    ///
    /// Thread: setup.
    public func classInfo() -> PropertyListValue {
        var data: [UInt8] = []
        for (slot, instance) in parameters.instances.enumerated() {
            let id = parameters.definitions[instance.definition].id
            for word in [instance.scope, instance.element, id, parameters.values[slot].bitPattern] {
                data += [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: word >> $0) }
            }
        }
        var dict: [String: PropertyListValue] = [
            kAUPresetVersionKey: .integer(0),
            kAUPresetTypeKey: .integer(Int64(componentDescription.componentType)),
            kAUPresetSubtypeKey: .integer(Int64(componentDescription.componentSubType)),
            kAUPresetManufacturerKey: .integer(Int64(componentDescription.componentManufacturer)),
            kAUPresetNameKey: .string(presentPreset.name),
            kAUPresetNumberKey: .integer(Int64(presentPreset.number)),
            kAUPresetRenderQualityKey: .integer(Int64(renderQuality)),
            kAUPresetDataKey: .data(data),
        ]
        let extra = saveExtraState()
        if !extra.isEmpty { dict["auhost-state"] = .dictionary(extra) }
        return .dictionary(dict)
    }

    /// Restores state saved by ``classInfo()`` from this kind of unit.
    ///
    /// Thread: setup.
    public func restoreClassInfo(_ plist: PropertyListValue) throws {
        guard case .dictionary = plist else {
            throw AudioError(kAudioUnitErr_InvalidPropertyValue, "ClassInfo must be a dictionary.")
        }
        let d = componentDescription
        for (key, expected) in [
            (kAUPresetTypeKey, d.componentType), (kAUPresetSubtypeKey, d.componentSubType),
            (kAUPresetManufacturerKey, d.componentManufacturer),
        ] {
            guard let v = plist[key]?.integerValue else {
                throw AudioError(kAudioUnitErr_MissingKey, "ClassInfo has no \"\(key)\" entry.")
            }
            guard UInt32(truncatingIfNeeded: v) == expected else {
                throw AudioError(
                    kAudioUnitErr_InvalidPropertyValue,
                    "ClassInfo was saved by unit \(FourCC.string(UInt32(truncatingIfNeeded: v))) \(key), not by \(d.tripleString).")
            }
        }
        guard let data = plist[kAUPresetDataKey]?.dataValue, data.count % 16 == 0 else {
            throw AudioError(
                kAudioUnitErr_InvalidPropertyValue, "ClassInfo \"data\" is missing or not a whole number of parameter records.")
        }
        func word(_ i: Int) -> UInt32 { data[i..<i + 4].reduce(0) { ($0 << 8) | UInt32($1) } }
        // Checked whole before anything changes: a value AudioUnitSetParameter would refuse (not
        // finite) refuses the state, naming the parameter; one outside the range is clamped, as
        // AudioUnitSetParameter clamps it.
        var restored: [(UnsafeMutablePointer<Float>, Float)] = []
        for r in stride(from: 0, to: data.count, by: 16) {
            // Parameters the unit no longer has are skipped, as AUBase does.
            guard let slot = parameters.slot(word(r + 8), word(r), word(r + 4)) else { continue }
            // Meters are readings the unit writes, not state to restore.
            if let d = parameters.definition(word(r + 8), word(r), word(r + 4)), d.flags.contains(.flag_MeterReadOnly) { continue }
            let stored = Float(bitPattern: word(r + 12))
            guard let value = parameters.clamp(stored, at: slot) else {
                throw AudioError(
                    kAudioUnitErr_InvalidParameterValue,
                    "ClassInfo gives parameter \(word(r + 8)) (\(scopeName(word(r))) scope, element \(word(r + 4))) the value \(stored), which is not a number."
                )
            }
            restored.append((slot, value))
        }
        for (slot, value) in restored { slot.pointee = value }
        if case .dictionary(let extra)? = plist["auhost-state"] { try restoreExtraState(extra) }
        presentPreset = (
            Int32(truncatingIfNeeded: plist[kAUPresetNumberKey]?.integerValue ?? -1),
            plist[kAUPresetNameKey]?.stringValue ?? "Untitled"
        )
        if let q = plist[kAUPresetRenderQualityKey]?.integerValue { renderQuality = UInt32(clamping: q) }
    }
}

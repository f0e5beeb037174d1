import AUHostCore
import AudioUnitBase
import Foundation
import LV2Host

// Presets a user saves (issue 31): an LV2 unit's current settings as an LV2 preset bundle, in
// ~/.lv2 by default as jalv saves them, so that this host, lv2info and every LV2 host list it.

extension LV2Unit {
    /// Where user presets go when no folder is given: ~/.lv2, on LV2's default search path.
    ///
    /// Thread: any.
    public static var userPresetDirectory: String {
        (ProcessInfo.processInfo.environment["HOME"] ?? NSHomeDirectory()) + "/.lv2"
    }

    /// Saves the unit's current parameters and the plug-in's own state as the LV2 preset `name`,
    /// in a bundle `<plug-in>_<name>.preset.lv2` inside `directory` (default
    /// ``userPresetDirectory``); saving again under the same name replaces it. The unit's factory
    /// presets list it at once. Returns the bundle's path.
    ///
    /// Thread: setup.
    @discardableResult
    public func saveUserPreset(named name: String, in directory: String? = nil) throws -> String {
        guard !name.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw AudioError(kAudio_ParamError, "A preset needs a name that is not empty.")
        }
        guard let instance = lv2Instance else {
            throw AudioError(
                kAudioUnitErr_Uninitialized, "Initialize \(plugin.name) before saving a preset: its state comes from the running plug-in.")
        }
        let bundle = (directory ?? Self.userPresetDirectory) + "/" + LV2Instance.fileSafe(plugin.name + "_" + name) + ".preset.lv2"
        let controls = controlPortValues()
        try access.withWorldThrowingAudioErrors { _ in
            try instance.savePreset(label: name, bundle: bundle, controls: controls)
            presetList = plugin.presets
        }
        return bundle
    }

    /// The control input values the parameters stand for (an indexed parameter's scale point).
    private func controlPortValues() -> [Int: Float] {
        var values: [Int: Float] = [:]
        for control in layout.controls where !control.isOutput {
            guard let value = parameters.slot(AudioUnitParameterID(control.portIndex), kAudioUnitScope_Global, 0)?.pointee else { continue }
            if let table = control.indexedValues, !table.isEmpty {
                values[control.portIndex] = table[value.isFinite ? Int(min(max(value, 0), Float(table.count - 1)) + 0.5) : 0]
            } else {
                values[control.portIndex] = value
            }
        }
        return values
    }
}

/// AUHostLV2SaveUserPreset (AUHostLV2.h). Thread: setup.
@_cdecl("AUHostLV2SaveUserPreset")
public func _AUHostLV2SaveUserPreset(
    _ unit: AudioUnit?, _ name: UnsafeRawPointer?, _ directory: UnsafeRawPointer?, _ outBundle: UnsafeMutablePointer<UnsafeRawPointer?>?
) -> OSStatus {
    LastErrorMessage.status {
        guard let lv2 = ComponentInstance.from(unit)?.unit as? LV2Unit else {
            throw AudioError(
                kAudio_ParamError, "AUHostLV2SaveUserPreset takes an LV2 unit in this process (not out of process, not another kind).")
        }
        guard case .string(let label) = CFBridge.value(name) else {
            throw AudioError(kAudio_ParamError, "AUHostLV2SaveUserPreset needs the preset's name as a CFString.")
        }
        var folder: String?
        if let directory {
            guard case .string(let path) = CFBridge.value(directory) else {
                throw AudioError(kAudio_ParamError, "AUHostLV2SaveUserPreset's directory is a CFString path (or NULL for ~/.lv2).")
            }
            folder = path
        }
        let bundle = try lv2.saveUserPreset(named: label, in: folder)
        outBundle?.pointee = UnsafeRawPointer(CFBridge.string(bundle).toOpaque())
    }
}

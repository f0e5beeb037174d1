import AUHostCore
import Foundation
import LV2Host

/// ClassInfo and the unit's own properties.
extension LV2Unit {
    /// The ClassInfo key holding the plug-in's LV2 state as Turtle.
    static let stateKey = "lv2-state"
    /// The ClassInfo key holding the plug-in URI (checked on restore).
    static let uriKey = "lv2-uri"

    /// The plug-in's LV2 state (its own data beyond the ports) as Turtle, beside the parameters
    /// AUBase saves. Thread: setup.
    func saveLV2State() -> [String: PropertyListValue] {
        var extra: [String: PropertyListValue] = [Self.uriKey: .string(plugin.uri)]
        if let instance = lv2Instance {
            if let text = access.withWorld({ _ in try? instance.stateString() }) { extra[Self.stateKey] = .string(text) }
        } else if let text = pendingState {
            extra[Self.stateKey] = .string(text)
        }
        return extra
    }

    /// Restores the LV2 state saved by ``saveExtraState()``: into the running plug-in, or at the
    /// next initialize. Parameters (control ports) come from ClassInfo's parameter data.
    /// Thread: setup.
    func restoreLV2State(_ state: [String: PropertyListValue]) throws {
        if let uri = state[Self.uriKey]?.stringValue, uri != plugin.uri {
            throw AudioError(
                kAudioUnitErr_InvalidPropertyValue,
                "This ClassInfo holds the state of LV2 plug-in <\(uri)>, not of <\(plugin.uri)>.")
        }
        guard let text = state[Self.stateKey]?.stringValue else { return }
        if let instance = lv2Instance {
            try access.withWorldThrowingAudioErrors { _ in try instance.restoreState(string: text) }
            controlPortsOverwritten()
        } else {
            pendingState = text
            pendingPresetURI = nil
        }
    }

    func lv2PropertyInfo(_ id: AudioUnitPropertyID, _ scope: AudioUnitScope) throws -> (size: UInt32, writable: Bool)? {
        switch id {
        case kLV2UnitProperty_PluginURI, kLV2UnitProperty_RenderProblem:
            try requireGlobal(scope, id)
            return (UInt32(MemoryLayout<UnsafeRawPointer>.size), false)
        case kLV2UnitProperty_LiveWorker:
            try requireGlobal(scope, id)
            return (4, true)
        case kLV2UnitProperty_PatchText:
            try requireGlobal(scope, id)
            return (UInt32(MemoryLayout<UnsafeRawPointer>.size), true)
        default:
            return nil
        }
    }

    func getLV2Property(_ id: AudioUnitPropertyID, _ data: UnsafeMutableRawPointer) {
        switch id {
        case kLV2UnitProperty_PluginURI: data.storeBytes(of: CFBridge.string(plugin.uri).toOpaque(), as: UnsafeMutableRawPointer.self)
        case kLV2UnitProperty_RenderProblem:
            data.storeBytes(of: takeRenderProblem().map { CFBridge.string($0).toOpaque() }, as: UnsafeMutableRawPointer?.self)
        case kLV2UnitProperty_LiveWorker: data.storeBytes(of: UInt32(liveWorker ? 1 : 0), as: UInt32.self)
        case kLV2UnitProperty_PatchText:
            takePatchTextReplies()
            let values = PropertyListValue.dictionary(patchText.mapValues { .string($0) })
            data.storeBytes(of: CFBridge.propertyList(values).toOpaque(), as: UnsafeMutableRawPointer.self)
        default: break
        }
    }

    func setLV2Property(_ id: AudioUnitPropertyID, _ data: UnsafeRawPointer, _ size: UInt32) throws {
        if id == kLV2UnitProperty_PatchText {
            guard case .dictionary(let entries) = CFBridge.value(data.loadUnaligned(as: UnsafeRawPointer?.self)) else {
                throw AudioError(kAudioUnitErr_InvalidPropertyValue, "PatchText takes a CFDictionary of names to CFString values.")
            }
            var values: [String: String] = [:]
            for (key, value) in entries {
                guard case .string(let text) = value else {
                    throw AudioError(kAudioUnitErr_InvalidPropertyValue, "PatchText's value for \"\(key)\" is not a CFString.")
                }
                values[key] = text
            }
            return try setPatchText(values)
        }
        guard id == kLV2UnitProperty_LiveWorker else { return }
        guard size == 4 else { throw AudioError(kAudioUnitErr_InvalidPropertyValue, "LiveWorker takes a 4-byte UInt32.") }
        guard !isInitialized else {
            throw AudioError(kAudioUnitErr_Initialized, "Uninitialize the LV2 unit before switching its worker between live and offline.")
        }
        let live = data.loadUnaligned(as: UInt32.self) != 0
        if !live, access.withWorld({ _ in plugin.requiresLive }) {
            throw AudioError(
                kAudioUnitErr_InvalidPropertyValue,
                "LV2 plug-in <\(plugin.uri)> requires lv2:isLive, so it runs only with a live worker; LiveWorker stays 1.")
        }
        liveWorker = live
    }

    private func requireGlobal(_ scope: AudioUnitScope, _ id: AudioUnitPropertyID) throws {
        guard scope == kAudioUnitScope_Global else {
            throw AudioError(kAudioUnitErr_InvalidScope, "LV2 unit property \(id) lives in global scope.")
        }
    }
}

/// CFStringRef (read-only, caller releases): the plug-in's LV2 URI.
public let kLV2UnitProperty_PluginURI: AudioUnitPropertyID = 64_000
/// UInt32, writable while uninitialized: 1 runs the plug-in's scheduled work on a worker thread
/// (for real-time use, `lv2:isLive` offered); 0 (the default) runs it right after each run, so
/// offline renders are deterministic. A plug-in that requires `lv2:isLive` starts at 1 and
/// refuses 0 (kAudioUnitErr_InvalidPropertyValue).
public let kLV2UnitProperty_LiveWorker: AudioUnitPropertyID = 64_001
/// CFStringRef or NULL (read-only, reading clears it): why the last renders failed, when the
/// plug-in produced NaN or infinite samples (render returned kAudioUnitErr_InvalidOfflineRender).
public let kLV2UnitProperty_RenderProblem: AudioUnitPropertyID = 64_002

import AUHostCore
import Foundation
import LADSPAHost

/// kDSSIUnitProperty_Configure (AUHostDSSI.h): a DSSI plug-in's configure() keys, kept by the
/// unit, given to a running plug-in at once and to every new instance before it is activated.
extension LADSPAUnit {
    /// Thread: setup.
    func configurePropertyInfo(_ id: AudioUnitPropertyID, _ scope: AudioUnitScope) throws -> (size: UInt32, writable: Bool)? {
        guard id == kDSSIUnitProperty_Configure else { return nil }
        guard plugin.isDSSI else {
            throw AudioError(kAudioUnitErr_InvalidProperty, "\(plugin.label) is a LADSPA plug-in: only DSSI plug-ins have configure().")
        }
        guard scope == kAudioUnitScope_Global else {
            throw AudioError(kAudioUnitErr_InvalidScope, "kDSSIUnitProperty_Configure is a global-scope property.")
        }
        return (UInt32(MemoryLayout<UnsafeRawPointer>.size), true)
    }

    /// A +1 CFDictionary of the values given. Thread: setup.
    func getConfigure(_ data: UnsafeMutableRawPointer) {
        let values = PropertyListValue.dictionary(configureValues.mapValues { .string($0) })
        data.storeBytes(of: CFBridge.propertyList(values).toOpaque(), as: UnsafeMutableRawPointer.self)
    }

    /// Each pair goes to the running plug-in (if any) in key order; the first it refuses stops
    /// there with its message, the ones before it staying given. Thread: setup.
    func setConfigure(_ data: UnsafeRawPointer) throws {
        guard case .dictionary(let entries) = CFBridge.value(data.loadUnaligned(as: UnsafeRawPointer?.self)) else {
            throw AudioError(
                kAudioUnitErr_InvalidPropertyValue, "kDSSIUnitProperty_Configure takes a CFDictionary of keys to CFString values.")
        }
        var values: [(String, String)] = []
        for (key, value) in entries.sorted(by: { $0.key < $1.key }) {
            guard case .string(let text) = value else {
                throw AudioError(kAudioUnitErr_InvalidPropertyValue, "The configure() value for \"\(key)\" is not a CFString.")
            }
            values.append((key, text))
        }
        for (key, value) in values {
            if let instance = ladspaInstance, let message = instance.configure(key: key, value: value) {
                let refusal = "DSSI plug-in \(plugin.label) refused configure(\"\(key)\", \"\(value)\"): \(message)"
                throw AudioError(kAudioUnitErr_InvalidPropertyValue, refusal)
            }
            configureValues[key] = value
        }
    }
}

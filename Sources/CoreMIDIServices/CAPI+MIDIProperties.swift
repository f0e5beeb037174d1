import AudioTypes
import CoreMIDI
import Foundation

// Core MIDI's C API (MIDIServices.h): object properties. Every function here is [setup].
// Strings: name, manufacturer, model, displayName (name when unset) and any set one; integers:
// uniqueID, offline, private, and any set one. Objects of other programs are read-only.

private let integerKeys: Set<String> = [
    "uniqueID", "offline", "private", "deviceID", "receiveChannels", "transmitChannels",
    "embedded", "advanceScheduleTimeMuSec",
]
private let stringKeys: Set<String> = ["name", "manufacturer", "model", "displayName", "driver"]

private func found(_ ref: MIDIObjectRef) throws -> MIDIObject {
    guard let object = MIDIServer.shared.object(ref, as: MIDIObject.self) else {
        throw AudioError(kMIDIObjectNotFound, "\(ref) is not a Core MIDI object (it may have been disposed).")
    }
    return object
}

private func key(_ property: UnsafeRawPointer?) throws -> String {
    let name = string(property)
    guard !name.isEmpty else { throw AudioError(kMIDIUnknownProperty, "The property name is missing (kMIDIProperty…).") }
    return name
}

/// Thread: setup. The string comes back +1 (CFRelease it).
@_cdecl("MIDIObjectGetStringProperty")
public func _MIDIObjectGetStringProperty(
    _ ref: MIDIObjectRef, _ property: UnsafeRawPointer?, _ out: UnsafeMutablePointer<UnsafeMutableRawPointer?>?
) -> OSStatus {
    LastErrorMessage.status {
        let object = try found(ref)
        let name = try key(property)
        guard let out else { throw AudioError(kAudio_ParamError, "MIDIObjectGetStringProperty needs a place for the string.") }
        let value = MIDIServer.shared.lock.withLock { () -> String? in
            if name == "displayName" { return object.strings[name] ?? object.strings["name"] }
            return object.strings[name]
        }
        guard let value else {
            if integerKeys.contains(name) || object.integers[name] != nil {
                throw AudioError(kMIDIWrongPropertyType, "Property \(name) is an integer (MIDIObjectGetIntegerProperty).")
            }
            throw AudioError(kMIDIUnknownProperty, "\(object.name) has no string property \(name).")
        }
        out.pointee = CFBridge.string(value).toOpaque()
    }
}

/// Thread: setup.
@_cdecl("MIDIObjectSetStringProperty")
public func _MIDIObjectSetStringProperty(_ ref: MIDIObjectRef, _ property: UnsafeRawPointer?, _ value: UnsafeRawPointer?) -> OSStatus {
    LastErrorMessage.status {
        let object = try found(ref)
        let name = try key(property)
        guard !integerKeys.contains(name) else { throw AudioError(kMIDIWrongPropertyType, "Property \(name) is an integer.") }
        guard object.ownedHere else {
            throw AudioError(kMIDINotPermitted, "\(object.name) belongs to another program; its properties are read-only.")
        }
        guard value != nil else { throw AudioError(kAudio_ParamError, "MIDIObjectSetStringProperty needs a string.") }
        MIDIServer.shared.lock.withLock { object.strings[name] = string(value) }
        MIDIServer.shared.notifyPropertyChanged(object, name)
    }
}

/// Thread: setup.
@_cdecl("MIDIObjectGetIntegerProperty")
public func _MIDIObjectGetIntegerProperty(_ ref: MIDIObjectRef, _ property: UnsafeRawPointer?, _ out: UnsafeMutablePointer<Int32>?)
    -> OSStatus
{
    LastErrorMessage.status {
        let object = try found(ref)
        let name = try key(property)
        guard let out else { throw AudioError(kAudio_ParamError, "MIDIObjectGetIntegerProperty needs outValue.") }
        let value = MIDIServer.shared.lock.withLock { () -> Int32? in
            object.integers[name] ?? (name == "offline" || name == "private" ? 0 : nil)
        }
        guard let value else {
            if stringKeys.contains(name) || object.strings[name] != nil {
                throw AudioError(kMIDIWrongPropertyType, "Property \(name) is a string (MIDIObjectGetStringProperty).")
            }
            throw AudioError(kMIDIUnknownProperty, "\(object.name) has no integer property \(name).")
        }
        out.pointee = value
    }
}

/// Thread: setup. A UniqueID another object has: kMIDIIDNotUnique.
@_cdecl("MIDIObjectSetIntegerProperty")
public func _MIDIObjectSetIntegerProperty(_ ref: MIDIObjectRef, _ property: UnsafeRawPointer?, _ value: Int32) -> OSStatus {
    LastErrorMessage.status {
        let server = MIDIServer.shared
        let object = try found(ref)
        let name = try key(property)
        guard !stringKeys.contains(name) else { throw AudioError(kMIDIWrongPropertyType, "Property \(name) is a string.") }
        guard object.ownedHere else {
            throw AudioError(kMIDINotPermitted, "\(object.name) belongs to another program; its properties are read-only.")
        }
        try server.lock.withLock {
            if name == "uniqueID", server.objects.values.contains(where: { $0 !== object && $0.integers["uniqueID"] == value }) {
                throw AudioError(kMIDIIDNotUnique, "Another Core MIDI object has the unique ID \(value).")
            }
            object.integers[name] = value
        }
        server.notifyPropertyChanged(object, name)
    }
}

/// Thread: setup.
@_cdecl("MIDIObjectFindByUniqueID")
public func _MIDIObjectFindByUniqueID(
    _ id: Int32, _ outObject: UnsafeMutablePointer<MIDIObjectRef>?, _ outType: UnsafeMutablePointer<MIDIObjectType>?
) -> OSStatus {
    LastErrorMessage.status {
        let server = MIDIServer.shared
        guard id != kMIDIInvalidUniqueID,
            let object = server.lock.withLock({ server.objects.values.first { $0.integers["uniqueID"] == id } })
        else { throw AudioError(kMIDIObjectNotFound, "No Core MIDI object has the unique ID \(id).") }
        outObject?.pointee = object.ref
        outType?.pointee = object.type
    }
}

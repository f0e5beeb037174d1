import AUHostCore
import AudioUnitBase

// The AUHostIsolation.h functions and the hook that makes AudioComponentInstantiate's
// kAudioComponentInstantiation_LoadOutOfProcess reach IsolatedUnit.

/// Installs the out-of-process factory in the core (the composition layer calls it with the
/// default providers). Thread: setup.
public func installUnitIsolation() {
    Component.outOfProcessFactory = { component in AUBase.makePlugIn(try IsolatedUnit(component: component)) }
}

/// The out-of-process unit behind a handle, if it is one. Thread: any.
public func isolatedUnit(_ unit: AudioUnit?) -> IsolatedUnit? {
    ComponentInstance.from(unit)?.unit as? IsolatedUnit
}

/// Thread: any.
@_cdecl("AUHostIsolatedUnitIsOutOfProcess")
public func _AUHostIsolatedUnitIsOutOfProcess(_ unit: AudioUnit?) -> UInt8 {
    isolatedUnit(unit) != nil ? 1 : 0
}

/// Thread: setup.
@_cdecl("AUHostIsolatedUnitCopyFaultDescription")
public func _AUHostIsolatedUnitCopyFaultDescription(_ unit: AudioUnit?) -> UnsafeMutableRawPointer? {
    guard let sentence = isolatedUnit(unit)?.faultDescription else { return nil }
    return CFBridge.string(sentence).toOpaque()
}

/// Thread: setup.
@_cdecl("AUHostIsolatedUnitRestart")
public func _AUHostIsolatedUnitRestart(_ unit: AudioUnit?) -> OSStatus {
    guard let isolated = isolatedUnit(unit) else {
        LastErrorMessage.set("AUHostIsolatedUnitRestart was given a unit that does not live out of process.")
        return kAudio_ParamError
    }
    return LastErrorMessage.status { try isolated.restart() }
}

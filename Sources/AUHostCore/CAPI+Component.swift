import AudioUnitBase
import Foundation

// The AudioComponent* functions of AudioComponent.h. Thread class: setup unless noted.

@_cdecl("AudioComponentFindNext")
public func _AudioComponentFindNext(_ previous: AudioComponent?, _ desc: UnsafePointer<AudioComponentDescription>?) -> AudioComponent? {
    guard let desc else { return nil }
    return ComponentRegistry.shared.findNext(after: Component.from(previous), matching: desc.pointee)?.handle
}

@_cdecl("AudioComponentCount")
public func _AudioComponentCount(_ desc: UnsafePointer<AudioComponentDescription>?) -> UInt32 {
    guard let desc else { return 0 }
    return UInt32(ComponentRegistry.shared.find(desc.pointee).count)
}

@_cdecl("AudioComponentCopyName")
public func _AudioComponentCopyName(_ component: AudioComponent?, _ outName: UnsafeMutableRawPointer?) -> OSStatus {
    guard let outName else { return kAudio_ParamError }
    guard let c = Component.from(component) else { return badComponentInstance }
    outName.storeBytes(of: CFBridge.string(c.name).toOpaque(), as: UnsafeMutableRawPointer.self)
    return noErr
}

@_cdecl("AudioComponentGetDescription")
public func _AudioComponentGetDescription(_ component: AudioComponent?, _ outDesc: UnsafeMutablePointer<AudioComponentDescription>?)
    -> OSStatus
{
    guard let outDesc else { return kAudio_ParamError }
    guard let c = Component.from(component) else { return badComponentInstance }
    outDesc.pointee = c.description
    return noErr
}

@_cdecl("AudioComponentGetVersion")
public func _AudioComponentGetVersion(_ component: AudioComponent?, _ outVersion: UnsafeMutablePointer<UInt32>?) -> OSStatus {
    guard let outVersion else { return kAudio_ParamError }
    guard let c = Component.from(component) else { return badComponentInstance }
    outVersion.pointee = c.version
    return noErr
}

@_cdecl("AudioComponentInstanceNew")
public func _AudioComponentInstanceNew(_ component: AudioComponent?, _ outInstance: UnsafeMutablePointer<AudioComponentInstance?>?)
    -> OSStatus
{
    guard let outInstance else { return kAudio_ParamError }
    outInstance.pointee = nil
    guard let c = Component.from(component) else {
        LastErrorMessage.set("AudioComponentInstanceNew was given no component or one the registry does not know.")
        return component == nil ? kAudio_ParamError : badComponentInstance
    }
    return LastErrorMessage.status { outInstance.pointee = try ComponentInstance(component: c).open() }
}

@_cdecl("AudioComponentInstantiate")
public func _AudioComponentInstantiate(
    _ component: AudioComponent?, _ options: UInt32,
    _ handler: (@convention(c) (AudioComponentInstance?, OSStatus, UnsafeMutableRawPointer?) -> Void)?,
    _ userData: UnsafeMutableRawPointer?
) {
    var instance: AudioComponentInstance?
    let status: OSStatus
    if AudioComponentInstantiationOptions(rawValue: options).contains(.loadOutOfProcess) {
        status = newInstance(component, outOfProcess: true, &instance)
    } else {
        status = _AudioComponentInstanceNew(component, &instance)
    }
    handler?(instance, status, userData)
}

/// AudioComponentInstanceNew, or its out-of-process form (AUHostIsolation.h).
func newInstance(_ component: AudioComponent?, outOfProcess: Bool, _ out: inout AudioComponentInstance?) -> OSStatus {
    out = nil
    guard let c = Component.from(component) else {
        LastErrorMessage.set("AudioComponentInstantiate was given no component or one the registry does not know.")
        return component == nil ? kAudio_ParamError : badComponentInstance
    }
    return LastErrorMessage.status { out = try ComponentInstance(component: c, outOfProcess: outOfProcess).open() }
}

/// Makes an AudioUnit of `component`, in this process or in a child process of its own
/// (AUHostIsolation.h); throws with the documented status and the reason.
///
/// Thread: setup.
public func makeAudioUnit(_ component: Component, outOfProcess: Bool) throws -> AudioUnit {
    var unit: AudioComponentInstance?
    try AudioError.check(
        newInstance(component.handle, outOfProcess: outOfProcess, &unit), LastErrorMessage.current ?? "Could not make \(component.name).")
    return unit!
}

@_cdecl("AudioComponentInstanceDispose")
public func _AudioComponentInstanceDispose(_ instance: AudioComponentInstance?) -> OSStatus {
    guard let instance else { return kAudio_ParamError }
    return ComponentInstance.dispose(instance)
}

/// Thread: any.
@_cdecl("AudioComponentInstanceGetComponent")
public func _AudioComponentInstanceGetComponent(_ instance: AudioComponentInstance?) -> AudioComponent? {
    ComponentInstance.from(instance)?.component.handle
}

/// Thread: any.
@_cdecl("AudioComponentInstanceCanDo")
public func _AudioComponentInstanceCanDo(_ instance: AudioComponentInstance?, _ selector: Int16) -> UInt8 {
    guard let i = ComponentInstance.from(instance) else { return 0 }
    return i.method(selector, as: AudioComponentMethod.self) != nil ? 1 : 0
}

@_cdecl("AudioComponentRegister")
public func _AudioComponentRegister(
    _ desc: UnsafePointer<AudioComponentDescription>?, _ name: UnsafeRawPointer?,
    _ version: UInt32, _ factory: AudioComponentFactoryFunction?
) -> AudioComponent? {
    guard let desc, let factory else { return nil }
    let d = desc.pointee
    let displayName = CFBridge.value(name)?.stringValue ?? d.tripleString
    let component = Component(description: d, name: displayName, version: version, origin: "registered in-process") { d in
        var copy = d
        guard let plugIn = factory(&copy) else {
            throw AudioError(kAudioUnitErr_FailedInitialization, "The factory function of \(displayName) returned NULL.")
        }
        return plugIn
    }
    return ComponentRegistry.shared.register(component).handle
}

/// Thread: any.
@_cdecl("AUHostCopyLastErrorMessage")
public func _AUHostCopyLastErrorMessage() -> UnsafeMutableRawPointer? {
    LastErrorMessage.current.map { CFBridge.string($0).toOpaque() }
}

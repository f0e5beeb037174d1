import AudioTypes
import AudioUnitBase

// The AudioUnit* and AudioOutputUnit* functions: each looks up the instance and calls the
// plug-in's method for the selector. Setup calls check that the handle is live (a disposed or
// foreign handle answers badComponentInstance instead of crashing) and run one at a time per
// instance, under its setup lock; render-thread calls take the handle as given, without a lock.

/// Runs a setup call on a live instance's method for `selector`, holding the instance's setup
/// lock unless `serialised` is false (SysEx, a render-thread call). A call made from inside the
/// unit's own render (a callback or notification that reads a property) does not take the lock:
/// the lock's holder may be waiting for that very render to leave the unit's configuration.
private func dispatch<F>(
    _ unit: AudioUnit?, _ selector: Int16, _ type: F.Type, serialised: Bool = true,
    _ call: (F, UnsafeMutableRawPointer) -> OSStatus
) -> OSStatus {
    guard let unit else { return kAudio_ParamError }
    let notLive = "The AudioUnit handle is not a live instance (disposed, or never made by AudioComponentInstanceNew)."
    guard let instance = ComponentInstance.from(unit) else {
        LastErrorMessage.set(notLive)
        return badComponentInstance
    }
    let locks = serialised && !(instance.unit?.isInsideRender ?? false)
    if locks { instance.setupLock.lock() }
    defer { if locks { instance.setupLock.unlock() } }
    guard instance.isOpen else {
        LastErrorMessage.set(notLive)
        return badComponentInstance
    }
    guard let method = instance.method(selector, as: F.self) else {
        LastErrorMessage.set("\(instance.component.name) does not implement selector \(selector).")
        return badComponentSelector
    }
    let status = call(method, instance.me)
    if status != noErr { instance.adoptPlugInErrorMessage(status) }
    return status
}

/// The instance behind a handle on the render thread: no lock, no reference counting.
@inline(__always)
private func renderInstance<R>(_ unit: AudioUnit, _ body: (ComponentInstance) -> R) -> R {
    Unmanaged<ComponentInstance>.fromOpaque(UnsafeRawPointer(unit))._withUnsafeGuaranteedRef(body)
}

@_cdecl("AudioUnitInitialize")
public func _AudioUnitInitialize(_ unit: AudioUnit?) -> OSStatus {
    dispatch(unit, kAudioUnitInitializeSelect, AudioUnitInitializeProc.self) { $0($1) }
}

@_cdecl("AudioUnitUninitialize")
public func _AudioUnitUninitialize(_ unit: AudioUnit?) -> OSStatus {
    dispatch(unit, kAudioUnitUninitializeSelect, AudioUnitUninitializeProc.self) { $0($1) }
}

@_cdecl("AudioUnitGetPropertyInfo")
public func _AudioUnitGetPropertyInfo(
    _ unit: AudioUnit?, _ id: AudioUnitPropertyID, _ scope: AudioUnitScope, _ element: AudioUnitElement,
    _ outSize: UnsafeMutablePointer<UInt32>?, _ outWritable: UnsafeMutablePointer<UInt8>?
) -> OSStatus {
    dispatch(unit, kAudioUnitGetPropertyInfoSelect, AudioUnitGetPropertyInfoProc.self) { $0($1, id, scope, element, outSize, outWritable) }
}

@_cdecl("AudioUnitGetProperty")
public func _AudioUnitGetProperty(
    _ unit: AudioUnit?, _ id: AudioUnitPropertyID, _ scope: AudioUnitScope, _ element: AudioUnitElement,
    _ outData: UnsafeMutableRawPointer?, _ ioSize: UnsafeMutablePointer<UInt32>?
) -> OSStatus {
    dispatch(unit, kAudioUnitGetPropertySelect, AudioUnitGetPropertyProc.self) { $0($1, id, scope, element, outData, ioSize) }
}

@_cdecl("AudioUnitSetProperty")
public func _AudioUnitSetProperty(
    _ unit: AudioUnit?, _ id: AudioUnitPropertyID, _ scope: AudioUnitScope, _ element: AudioUnitElement,
    _ inData: UnsafeRawPointer?, _ size: UInt32
) -> OSStatus {
    if unit != nil, let refusal = formatRefusal(id, inData, size) {
        LastErrorMessage.set(refusal.message)
        return refusal.status
    }
    return dispatch(unit, kAudioUnitSetPropertySelect, AudioUnitSetPropertyProc.self) { $0($1, id, scope, element, inData, size) }
}

/// The boundary check of stream formats, for every unit whatever its origin: a StreamFormat or
/// SampleRate value outside StreamFormatLimits never reaches a unit (so no unit sizes memory,
/// builds a resampler or prints a format from a rate of 1e19 Hz).
private func formatRefusal(
    _ id: AudioUnitPropertyID, _ data: UnsafeRawPointer?,
    _ size: UInt32
) -> (status: OSStatus, message: String)? {
    guard let data else { return nil }
    switch id {
    case kAudioUnitProperty_StreamFormat:
        guard size == UInt32(MemoryLayout<AudioStreamBasicDescription>.size) else {
            return (
                kAudioUnitErr_InvalidPropertyValue,
                "Property \(propertyName(id)) takes \(MemoryLayout<AudioStreamBasicDescription>.size) bytes; \(size) were passed."
            )
        }
        let format = data.loadUnaligned(as: AudioStreamBasicDescription.self)
        guard let problem = format.boundaryProblem else { return nil }
        return (kAudioUnitErr_FormatNotSupported, "The stream format \(format) is refused: \(problem)")
    case kAudioUnitProperty_SampleRate:
        guard size == 8 else {
            return (kAudioUnitErr_InvalidPropertyValue, "Property \(propertyName(id)) takes 8 bytes; \(size) were passed.")
        }
        guard let problem = AudioStreamBasicDescription.sampleRateProblem(data.loadUnaligned(as: Float64.self)) else { return nil }
        return (kAudioUnitErr_InvalidPropertyValue, problem)
    default:
        return nil
    }
}

@_cdecl("AudioUnitAddPropertyListener")
public func _AudioUnitAddPropertyListener(
    _ unit: AudioUnit?, _ id: AudioUnitPropertyID, _ proc: AudioUnitPropertyListenerProc?,
    _ refCon: UnsafeMutableRawPointer?
) -> OSStatus {
    dispatch(unit, kAudioUnitAddPropertyListenerSelect, AudioUnitAddPropertyListenerProc.self) { $0($1, id, proc, refCon) }
}

@_cdecl("AudioUnitRemovePropertyListener")
public func _AudioUnitRemovePropertyListener(_ unit: AudioUnit?, _ id: AudioUnitPropertyID, _ proc: AudioUnitPropertyListenerProc?)
    -> OSStatus
{
    dispatch(unit, kAudioUnitRemovePropertyListenerSelect, AudioUnitRemovePropertyListenerProc.self) { $0($1, id, proc) }
}

@_cdecl("AudioUnitRemovePropertyListenerWithUserData")
public func _AudioUnitRemovePropertyListenerWithUserData(
    _ unit: AudioUnit?, _ id: AudioUnitPropertyID, _ proc: AudioUnitPropertyListenerProc?,
    _ refCon: UnsafeMutableRawPointer?
) -> OSStatus {
    dispatch(unit, kAudioUnitRemovePropertyListenerWithUserDataSelect, AudioUnitRemovePropertyListenerWithUserDataProc.self) {
        $0($1, id, proc, refCon)
    }
}

@_cdecl("AudioUnitAddRenderNotify")
public func _AudioUnitAddRenderNotify(_ unit: AudioUnit?, _ proc: AURenderCallback?, _ refCon: UnsafeMutableRawPointer?) -> OSStatus {
    dispatch(unit, kAudioUnitAddRenderNotifySelect, AudioUnitAddRenderNotifyProc.self) { $0($1, proc, refCon) }
}

@_cdecl("AudioUnitRemoveRenderNotify")
public func _AudioUnitRemoveRenderNotify(_ unit: AudioUnit?, _ proc: AURenderCallback?, _ refCon: UnsafeMutableRawPointer?) -> OSStatus {
    dispatch(unit, kAudioUnitRemoveRenderNotifySelect, AudioUnitRemoveRenderNotifyProc.self) { $0($1, proc, refCon) }
}

@_cdecl("AudioUnitReset")
public func _AudioUnitReset(_ unit: AudioUnit?, _ scope: AudioUnitScope, _ element: AudioUnitElement) -> OSStatus {
    dispatch(unit, kAudioUnitResetSelect, AudioUnitResetProc.self) { $0($1, scope, element) }
}

@_cdecl("AudioOutputUnitStart")
public func _AudioOutputUnitStart(_ unit: AudioUnit?) -> OSStatus {
    dispatch(unit, kAudioOutputUnitStartSelect, AudioOutputUnitStartProc.self) { $0($1) }
}

@_cdecl("AudioOutputUnitStop")
public func _AudioOutputUnitStop(_ unit: AudioUnit?) -> OSStatus {
    dispatch(unit, kAudioOutputUnitStopSelect, AudioOutputUnitStopProc.self) { $0($1) }
}

// MARK: Any-thread and render-thread calls

@_cdecl("AudioUnitGetParameter")
public func _AudioUnitGetParameter(
    _ unit: AudioUnit?, _ id: AudioUnitParameterID, _ scope: AudioUnitScope, _ element: AudioUnitElement,
    _ outValue: UnsafeMutablePointer<AudioUnitParameterValue>?
) -> OSStatus {
    guard let unit, let outValue else { return kAudio_ParamError }
    return renderInstance(unit) { i in i.getParameter.map { $0(i.me, id, scope, element, outValue) } ?? badComponentSelector }
}

@_cdecl("AudioUnitSetParameter")
public func _AudioUnitSetParameter(
    _ unit: AudioUnit?, _ id: AudioUnitParameterID, _ scope: AudioUnitScope, _ element: AudioUnitElement,
    _ value: AudioUnitParameterValue, _ offset: UInt32
) -> OSStatus {
    guard let unit else { return kAudio_ParamError }
    return renderInstance(unit) { i in i.setParameter.map { $0(i.me, id, scope, element, value, offset) } ?? badComponentSelector }
}

@_cdecl("AudioUnitScheduleParameters")
public func _AudioUnitScheduleParameters(_ unit: AudioUnit?, _ events: UnsafePointer<AudioUnitParameterEvent>?, _ count: UInt32) -> OSStatus
{
    guard let unit else { return kAudio_ParamError }
    return renderInstance(unit) { i in i.scheduleParameters.map { $0(i.me, events, count) } ?? badComponentSelector }
}

@_cdecl("AudioUnitRender")
public func _AudioUnitRender(
    _ unit: AudioUnit?, _ flags: UnsafeMutablePointer<AudioUnitRenderActionFlags>?,
    _ timeStamp: UnsafePointer<AudioTimeStamp>?, _ bus: UInt32, _ frames: UInt32,
    _ ioData: UnsafeMutablePointer<AudioBufferList>?
) -> OSStatus {
    guard let unit else { return kAudio_ParamError }
    return renderInstance(unit) { i in i.render.map { $0(i.me, flags, timeStamp, bus, frames, ioData) } ?? badComponentSelector }
}

@_cdecl("AudioUnitProcess")
public func _AudioUnitProcess(
    _ unit: AudioUnit?, _ flags: UnsafeMutablePointer<AudioUnitRenderActionFlags>?,
    _ timeStamp: UnsafePointer<AudioTimeStamp>?, _ frames: UInt32,
    _ ioData: UnsafeMutablePointer<AudioBufferList>?
) -> OSStatus {
    guard let unit else { return kAudio_ParamError }
    return renderInstance(unit) { i in
        guard i.unit?.supportsProcess ?? true, let process = i.process else { return badComponentSelector }
        return process(i.me, flags, timeStamp, frames, ioData)
    }
}

@_cdecl("AudioUnitProcessMultiple")
public func _AudioUnitProcessMultiple(
    _ unit: AudioUnit?, _ flags: UnsafeMutablePointer<AudioUnitRenderActionFlags>?,
    _ timeStamp: UnsafePointer<AudioTimeStamp>?, _ frames: UInt32,
    _ inputCount: UInt32, _ inputs: UnsafeMutablePointer<UnsafePointer<AudioBufferList>?>?,
    _ outputCount: UInt32, _ outputs: UnsafeMutablePointer<UnsafeMutablePointer<AudioBufferList>?>?
) -> OSStatus {
    guard let unit else { return kAudio_ParamError }
    return renderInstance(unit) { i in
        guard i.unit?.supportsProcessMultiple ?? true, let processMultiple = i.processMultiple else { return badComponentSelector }
        return processMultiple(i.me, flags, timeStamp, frames, inputCount, inputs, outputCount, outputs)
    }
}

// MARK: Music devices

@_cdecl("MusicDeviceMIDIEvent")
public func _MusicDeviceMIDIEvent(_ unit: MusicDeviceComponent?, _ status: UInt32, _ data1: UInt32, _ data2: UInt32, _ offset: UInt32)
    -> OSStatus
{
    guard let unit else { return kAudio_ParamError }
    return renderInstance(unit) { i in
        guard i.unit?.acceptsMIDI ?? true, let midi = i.midiEvent else { return badComponentSelector }
        return midi(i.me, status, data1, data2, offset)
    }
}

@_cdecl("MusicDeviceSysEx")
public func _MusicDeviceSysEx(_ unit: MusicDeviceComponent?, _ data: UnsafePointer<UInt8>?, _ length: UInt32) -> OSStatus {
    dispatch(unit, kMusicDeviceSysExSelect, MusicDeviceSysExProc.self, serialised: false) { $0($1, data, length) }
}

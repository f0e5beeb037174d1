import AudioTypes

// The C ABI face of an AUBase: an AudioComponentPlugInInterface whose Lookup returns thunks that
// turn each documented call into a method call, and thrown AudioErrors into statuses (the message
// stays readable through AUHostCopyLastErrorMessage).

/// What `self` points at for an AUBase plug-in: the interface first, as the ABI requires.
struct PlugInRecord {
    var interface: AudioComponentPlugInInterface
    var unit: Unmanaged<AUBase>
}

extension AUBase {
    /// Wraps a new unit in a plug-in interface the host opens, calls through Lookup and closes.
    /// The interface owns the unit until Close.
    ///
    /// Thread: setup.
    public static func makePlugIn(_ unit: AUBase) -> UnsafeMutablePointer<AudioComponentPlugInInterface> {
        let record = UnsafeMutablePointer<PlugInRecord>.allocate(capacity: 1)
        record.initialize(
            to: PlugInRecord(
                interface: AudioComponentPlugInInterface(Open: plugInOpen, Close: plugInClose, Lookup: plugInLookup, reserved: nil),
                unit: Unmanaged.passRetained(unit)))
        return UnsafeMutableRawPointer(record).assumingMemoryBound(to: AudioComponentPlugInInterface.self)
    }

    /// The unit behind a plug-in `self` made by ``makePlugIn(_:)`` (nil for other plug-ins).
    ///
    /// Thread: any.
    public static func unit(fromPlugIn me: UnsafeMutableRawPointer?) -> AUBase? {
        guard let me else { return nil }
        let record = me.assumingMemoryBound(to: PlugInRecord.self)
        guard sameFunction(record.pointee.interface.Lookup, plugInLookup) else { return nil }
        return record.pointee.unit.takeUnretainedValue()
    }
}

@inline(__always)
private func withUnit<R>(_ me: UnsafeMutableRawPointer?, _ body: (AUBase) -> R, orElse fallback: R) -> R {
    guard let me else { return fallback }
    return me.assumingMemoryBound(to: PlugInRecord.self).pointee.unit._withUnsafeGuaranteedRef(body)
}

private func setup(_ me: UnsafeMutableRawPointer?, _ body: (AUBase) throws -> Void) -> OSStatus {
    withUnit(me, { unit in LastErrorMessage.status { try body(unit) } }, orElse: badComponentInstance)
}

private let plugInOpen: @convention(c) (UnsafeMutableRawPointer?, AudioComponentInstance?) -> OSStatus = { me, instance in
    setup(me) { $0.instance = instance }
}

private let plugInClose: @convention(c) (UnsafeMutableRawPointer?) -> OSStatus = { me in
    guard let me else { return badComponentInstance }
    let record = me.assumingMemoryBound(to: PlugInRecord.self)
    let unit = record.pointee.unit.takeUnretainedValue()
    unit.uninitialize()
    record.pointee.unit.release()
    record.deinitialize(count: 1)
    record.deallocate()
    return noErr
}

private let initializeThunk: AudioUnitInitializeProc = { me in setup(me) { try $0.initialize() } }
private let uninitializeThunk: AudioUnitUninitializeProc = { me in setup(me) { $0.uninitialize() } }

private let getPropertyInfoThunk: AudioUnitGetPropertyInfoProc = { me, id, scope, element, outSize, outWritable in
    setup(me) { unit in
        let (scope, element) = unit.propertyAddress(id, scope, element)
        let info = try unit.propertyInfo(id, scope, element)
        outSize?.pointee = info.size
        outWritable?.pointee = info.writable ? 1 : 0
    }
}

private let getPropertyThunk: AudioUnitGetPropertyProc = { me, id, scope, element, outData, ioSize in
    setup(me) { unit in
        guard let ioSize, let outData else {
            throw AudioError(kAudio_ParamError, "AudioUnitGetProperty needs non-NULL outData and ioDataSize.")
        }
        let (scope, element) = unit.propertyAddress(id, scope, element)
        let info = try unit.propertyInfo(id, scope, element)
        guard ioSize.pointee >= info.size else {
            throw AudioError(
                kAudio_ParamError, "The \(ioSize.pointee)-byte buffer is smaller than the \(info.size)-byte value of \(propertyName(id)).")
        }
        if info.size > 0 { try unit.getProperty(id, scope, element, outData) }
        ioSize.pointee = info.size
    }
}

/// Properties whose value may be NULL to remove it.
private let removableProperties: Set<AudioUnitPropertyID> = [
    kAudioUnitProperty_MakeConnection, kAudioUnitProperty_SetRenderCallback,
    kAudioUnitProperty_ElementName, kAudioUnitProperty_ContextName, kAudioUnitProperty_HostCallbacks,
    kAUHostProperty_TempoChangeCallback,
]

private let setPropertyThunk: AudioUnitSetPropertyProc = { me, id, scope, element, inData, inSize in
    setup(me) { unit in
        let (scope, element) = unit.propertyAddress(id, scope, element)
        let info = try unit.propertyInfo(id, scope, element)
        guard info.writable else { throw AudioError(kAudioUnitErr_PropertyNotWritable, "Property \(propertyName(id)) is read-only.") }
        if inData == nil {
            guard removableProperties.contains(id) else {
                throw AudioError(kAudio_ParamError, "Property \(propertyName(id)) needs a value; NULL was passed.")
            }
        } else if let layout = unit.arrayPropertyLayout(id, scope, element) {
            // An array: a whole number of entries, bounded, so the unit never reads past the caller's value.
            guard layout.entrySize > 0, inSize % layout.entrySize == 0, inSize / layout.entrySize <= layout.maximumCount else {
                throw AudioError(
                    kAudioUnitErr_InvalidPropertyValue,
                    "Property \(propertyName(id)) takes up to \(layout.maximumCount) entries of \(layout.entrySize) bytes; \(inSize) bytes were passed."
                )
            }
        } else if inSize != info.size {
            // Every other property, the unit's own (ID ≥ 1000) included, has exactly its declared size.
            throw AudioError(
                kAudioUnitErr_InvalidPropertyValue,
                "Property \(propertyName(id)) takes \(info.size) bytes; \(inSize) were passed.")
        }
        try unit.setProperty(id, scope, element, inData, inSize)
        unit.propertyChanged(id, scope, element)
        if id == kAudioUnitProperty_SampleRate { unit.propertyChanged(kAudioUnitProperty_StreamFormat, scope, element) }
        if id == kAudioUnitProperty_StreamFormat { unit.propertyChanged(kAudioUnitProperty_SampleRate, scope, element) }
    }
}

private let addListenerThunk: AudioUnitAddPropertyListenerProc = { me, id, proc, refCon in
    setup(me) { unit in
        guard let proc else { throw AudioError(kAudio_ParamError, "The listener function is NULL.") }
        unit.addPropertyListener(id, proc, refCon)
    }
}

private let removeListenerThunk: AudioUnitRemovePropertyListenerProc = { me, id, proc in
    withUnit(
        me, { unit in proc.map { unit.removePropertyListener(id, $0, nil, matchRefCon: false) } ?? kAudio_ParamError },
        orElse: badComponentInstance)
}

private let removeListenerWithUserDataThunk: AudioUnitRemovePropertyListenerWithUserDataProc = { me, id, proc, refCon in
    withUnit(
        me, { unit in proc.map { unit.removePropertyListener(id, $0, refCon, matchRefCon: true) } ?? kAudio_ParamError },
        orElse: badComponentInstance)
}

private let addRenderNotifyThunk: AudioUnitAddRenderNotifyProc = { me, proc, refCon in
    withUnit(me, { unit in proc.map { unit.addRenderNotify($0, refCon) } ?? kAudio_ParamError }, orElse: badComponentInstance)
}

private let removeRenderNotifyThunk: AudioUnitRemoveRenderNotifyProc = { me, proc, refCon in
    withUnit(me, { unit in proc.map { unit.removeRenderNotify($0, refCon) } ?? kAudio_ParamError }, orElse: badComponentInstance)
}

private let getParameterThunk: AudioUnitGetParameterProc = { me, id, scope, element, outValue in
    withUnit(
        me,
        { unit in
            guard let outValue else { return kAudio_ParamError }
            guard let slot = unit.parameters.slot(id, scope, element) else { return kAudioUnitErr_InvalidParameter }
            outValue.pointee = slot.pointee
            return noErr
        }, orElse: badComponentInstance)
}

private let setParameterThunk: AudioUnitSetParameterProc = { me, id, scope, element, value, offset in
    withUnit(me, { $0.setParameter(id, scope: scope, element: element, value: value, offset: offset) }, orElse: badComponentInstance)
}

private let scheduleParametersThunk: AudioUnitScheduleParametersProc = { me, events, count in
    withUnit(
        me,
        { unit in
            guard let events else { return count == 0 ? noErr : kAudio_ParamError }
            return unit.scheduleParameters(UnsafeBufferPointer(start: events, count: Int(count)))
        }, orElse: badComponentInstance)
}

private let renderThunk: AudioUnitRenderProc = { me, flags, timeStamp, bus, frames, ioData in
    withUnit(me, { $0.render(flags, timeStamp, bus, frames, ioData) }, orElse: badComponentInstance)
}

private let processThunk: AudioUnitProcessProc = { me, flags, timeStamp, frames, ioData in
    withUnit(me, { $0.process(flags, timeStamp, frames, ioData) }, orElse: badComponentInstance)
}

private let processMultipleThunk: AudioUnitProcessMultipleProc = { me, flags, timeStamp, frames, inputCount, inputs, outputCount, outputs in
    guard let inputs, let outputs else { return kAudio_ParamError }
    return withUnit(
        me,
        {
            $0.processMultiple(
                flags, timeStamp, frames, inputs: UnsafeBufferPointer(start: inputs, count: Int(inputCount)),
                outputs: UnsafeBufferPointer(start: outputs, count: Int(outputCount)))
        }, orElse: badComponentInstance)
}

private let midiEventThunk: MusicDeviceMIDIEventProc = { me, status, data1, data2, offset in
    withUnit(me, { $0.midiEvent(status: status, data1: data1, data2: data2, offset: offset) }, orElse: badComponentInstance)
}

private let sysExThunk: MusicDeviceSysExProc = { me, data, length in
    withUnit(
        me,
        { unit in
            guard let data else { return kAudio_ParamError }
            return unit.sysEx(UnsafeBufferPointer(start: data, count: Int(length)))
        }, orElse: badComponentInstance)
}

private let resetThunk: AudioUnitResetProc = { me, _, _ in setup(me) { $0.reset() } }
private let startThunk: AudioOutputUnitStartProc = { me in setup(me) { try $0.startIO() } }
private let stopThunk: AudioOutputUnitStopProc = { me in setup(me) { try $0.stopIO() } }

/// The sentence of this image's last failed setup call on this thread, for a host in another image.
private let copyLastErrorMessageThunk: AUHostCopyLastErrorMessageProc = { _, buffer, size in
    guard let buffer, size > 0, let message = LastErrorMessage.current else { return kAudio_ParamError }
    let bytes = Array(message.utf8.prefix(Int(size) - 1))
    for (i, b) in bytes.enumerated() { buffer[i] = CChar(bitPattern: b) }
    buffer[bytes.count] = 0
    return noErr
}

private func method<F>(_ f: F) -> AudioComponentMethod { unsafeBitCast(f, to: AudioComponentMethod.self) }

private let plugInLookup: @convention(c) (Int16) -> AudioComponentMethod? = { selector in
    switch selector {
    case kAudioUnitInitializeSelect: return method(initializeThunk)
    case kAudioUnitUninitializeSelect: return method(uninitializeThunk)
    case kAudioUnitGetPropertyInfoSelect: return method(getPropertyInfoThunk)
    case kAudioUnitGetPropertySelect: return method(getPropertyThunk)
    case kAudioUnitSetPropertySelect: return method(setPropertyThunk)
    case kAudioUnitAddPropertyListenerSelect: return method(addListenerThunk)
    case kAudioUnitRemovePropertyListenerSelect: return method(removeListenerThunk)
    case kAudioUnitRemovePropertyListenerWithUserDataSelect: return method(removeListenerWithUserDataThunk)
    case kAudioUnitAddRenderNotifySelect: return method(addRenderNotifyThunk)
    case kAudioUnitRemoveRenderNotifySelect: return method(removeRenderNotifyThunk)
    case kAudioUnitGetParameterSelect: return method(getParameterThunk)
    case kAudioUnitSetParameterSelect: return method(setParameterThunk)
    case kAudioUnitScheduleParametersSelect: return method(scheduleParametersThunk)
    case kAudioUnitRenderSelect: return method(renderThunk)
    case kAudioUnitResetSelect: return method(resetThunk)
    // Selectors whose availability depends on the unit are answered by the host asking the unit
    // (see AUBase.answers(_:)); Lookup is per component, not per instance.
    case kAudioUnitProcessSelect: return method(processThunk)
    case kAudioUnitProcessMultipleSelect: return method(processMultipleThunk)
    case kAudioOutputUnitStartSelect: return method(startThunk)
    case kAudioOutputUnitStopSelect: return method(stopThunk)
    case kMusicDeviceMIDIEventSelect: return method(midiEventThunk)
    case kMusicDeviceSysExSelect: return method(sysExThunk)
    case kAUHostCopyLastErrorMessageSelect: return method(copyLastErrorMessageThunk)
    default: return nil
    }
}

extension AUBase {
    /// Whether this instance really implements a selector (CanDo): Process and ProcessMultiple only
    /// for units that support them, Start/Stop only for output units.
    ///
    /// Thread: any.
    public func answers(_ selector: Int16) -> Bool {
        switch selector {
        case kAudioUnitProcessSelect: return supportsProcess
        case kAudioUnitProcessMultipleSelect: return supportsProcessMultiple
        case kAudioOutputUnitStartSelect, kAudioOutputUnitStopSelect: return isOutputUnit
        case kMusicDeviceMIDIEventSelect, kMusicDeviceSysExSelect: return acceptsMIDI
        default: return plugInLookup(selector) != nil
        }
    }
}

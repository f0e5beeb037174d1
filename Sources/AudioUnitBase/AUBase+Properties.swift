import AudioTypes
import Foundation

// Property dispatch: the standard properties, with the documented size, scope and element checks,
// then the unit's own (customPropertyInfo …). Every failure is an AudioError carrying its status.

extension AUBase {
    private func elementCount(_ scope: AudioUnitScope) -> Int? {
        switch scope {
        case kAudioUnitScope_Global: return 1
        case kAudioUnitScope_Input: return inputElements.count
        case kAudioUnitScope_Output: return outputElements.count
        default: return nil
        }
    }

    private func requireScope(_ scope: AudioUnitScope, in allowed: [AudioUnitScope], _ id: AudioUnitPropertyID) throws {
        guard allowed.contains(scope) else {
            throw AudioError(
                kAudioUnitErr_InvalidScope,
                "Property \(propertyName(id)) does not exist in \(scopeName(scope)) scope (it lives in \(allowed.map(scopeName).joined(separator: " or ")) scope)."
            )
        }
    }

    private func requireElement(_ scope: AudioUnitScope, _ element: AudioUnitElement, _ id: AudioUnitPropertyID) throws {
        let count = elementCount(scope) ?? 0
        guard Int(element) < count else {
            throw AudioError(
                kAudioUnitErr_InvalidElement,
                "Element \(element) does not exist in \(scopeName(scope)) scope for \(propertyName(id)) (the unit has \(count)).")
        }
    }

    /// AudioUnitGetPropertyInfo: size of the value and whether it can be set.
    ///
    /// Thread: setup.
    public func propertyInfo(
        _ id: AudioUnitPropertyID, _ scope: AudioUnitScope,
        _ element: AudioUnitElement
    ) throws -> (size: UInt32, writable: Bool) {
        let io: [AudioUnitScope] = [kAudioUnitScope_Input, kAudioUnitScope_Output]
        let any: [AudioUnitScope] = [kAudioUnitScope_Global, kAudioUnitScope_Input, kAudioUnitScope_Output]
        let global: [AudioUnitScope] = [kAudioUnitScope_Global]
        func sized<T>(_: T.Type, _ scopes: [AudioUnitScope], writable: Bool, checkElement: Bool = true) throws -> (UInt32, Bool) {
            try requireScope(scope, in: scopes, id)
            if checkElement { try requireElement(scope, element, id) }
            return (UInt32(MemoryLayout<T>.size), writable)
        }
        switch id {
        case kAudioUnitProperty_ClassInfo: return try sized(UnsafeRawPointer.self, global, writable: true)
        case kAudioUnitProperty_MakeConnection: return try sized(AudioUnitConnection.self, [kAudioUnitScope_Input], writable: true)
        case kAudioUnitProperty_SetRenderCallback: return try sized(AURenderCallbackStruct.self, [kAudioUnitScope_Input], writable: true)
        case kAudioUnitProperty_HostCallbacks: return try sized(HostCallbackInfo.self, global, writable: true)
        case kAUHostProperty_TempoChangeCallback: return try sized(AUHostTempoChangeInfo.self, global, writable: true)
        case kAudioUnitProperty_SampleRate: return try sized(Float64.self, io, writable: true)
        case kAudioUnitProperty_StreamFormat: return try sized(AudioStreamBasicDescription.self, io, writable: true)
        case kAudioUnitProperty_ShouldAllocateBuffer: return try sized(UInt32.self, io, writable: true)
        case kAudioUnitProperty_ElementName: return try sized(UnsafeRawPointer.self, any, writable: true)
        case kAudioUnitProperty_ElementCount:
            try requireScope(scope, in: any, id)
            let writable =
                scope == kAudioUnitScope_Input
                ? canChangeElementCount.input
                : scope == kAudioUnitScope_Output ? canChangeElementCount.output : false
            return (4, writable)
        case kAudioUnitProperty_ParameterList:
            try requireScope(scope, in: any, id)
            return (UInt32(parameterIDs(scope, element).count * 4), false)
        case kAudioUnitProperty_ParameterInfo:
            try requireScope(scope, in: any, id)
            guard parameterDefinitions.contains(where: { $0.id == element && $0.scope == scope }) else {
                throw invalidParameter(element, scope, 0)
            }
            return (UInt32(MemoryLayout<AudioUnitParameterInfo>.size), false)
        case kAudioUnitProperty_ParameterValueStrings:
            try requireScope(scope, in: any, id)
            guard let d = parameterDefinitions.first(where: { $0.id == element && $0.scope == scope }) else {
                throw invalidParameter(element, scope, 0)
            }
            guard !d.valueStrings.isEmpty else {
                throw AudioError(kAudioUnitErr_InvalidProperty, "Parameter \(element) (\(d.name)) has no value strings.")
            }
            return (UInt32(MemoryLayout<UnsafeRawPointer>.size), false)
        case kAudioUnitProperty_MaximumFramesPerSlice: return try sized(UInt32.self, global, writable: true)
        case kAudioUnitProperty_Latency: return try sized(Float64.self, global, writable: false)
        case kAudioUnitProperty_TailTime: return try sized(Float64.self, global, writable: false)
        case kAudioUnitProperty_CPULoad: return try sized(Float64.self, global, writable: true)
        case kAudioUnitProperty_LastRenderError: return try sized(OSStatus.self, global, writable: false)
        case kAudioUnitProperty_PresentPreset: return try sized(AUPreset.self, global, writable: true)
        case kAudioUnitProperty_ContextName: return try sized(UnsafeRawPointer.self, global, writable: true)
        case kAudioUnitProperty_RenderQuality: return try sized(UInt32.self, global, writable: true)
        case kAudioUnitProperty_BypassEffect where supportsBypass: return try sized(UInt32.self, global, writable: true)
        case kAudioUnitProperty_InPlaceProcessing where supportsInPlace: return try sized(UInt32.self, global, writable: true)
        case kAudioUnitProperty_FactoryPresets where !factoryPresets.isEmpty:
            return try sized(UnsafeRawPointer.self, global, writable: false)
        case kAudioUnitProperty_SupportedNumChannels where !channelCapabilities.isEmpty:
            try requireScope(scope, in: global, id)
            return (UInt32(channelCapabilities.count * MemoryLayout<AUChannelInfo>.size), false)
        default:
            if let custom = try customPropertyInfo(id, scope, element) { return custom }
            throw AudioError(kAudioUnitErr_InvalidProperty, "The unit does not have property \(propertyName(id)).")
        }
    }

    /// AudioUnitGetProperty into `data`, which holds at least the size ``propertyInfo(_:_:_:)`` gave.
    ///
    /// Thread: setup.
    public func getProperty(
        _ id: AudioUnitPropertyID, _ scope: AudioUnitScope, _ element: AudioUnitElement,
        _ data: UnsafeMutableRawPointer
    ) throws {
        func put<T>(_ value: T) { data.storeBytes(of: value, as: T.self) }
        switch id {
        case kAudioUnitProperty_ClassInfo: put(CFBridge.propertyList(classInfo()).toOpaque())
        case kAudioUnitProperty_MakeConnection:
            put(
                inputElements[Int(element)].connection
                    ?? AudioUnitConnection(sourceAudioUnit: nil, sourceOutputNumber: 0, destInputNumber: element))
        case kAudioUnitProperty_SetRenderCallback:
            put(inputElements[Int(element)].renderCallback ?? AURenderCallbackStruct(inputProc: nil, inputProcRefCon: nil))
        case kAudioUnitProperty_HostCallbacks: put(hostCallbacks ?? HostCallbackInfo())
        case kAUHostProperty_TempoChangeCallback: put(tempoChanges ?? AUHostTempoChangeInfo())
        case kAudioUnitProperty_SampleRate: put(format(scope, element).mSampleRate)
        case kAudioUnitProperty_StreamFormat: put(format(scope, element))
        case kAudioUnitProperty_ShouldAllocateBuffer:
            put(UInt32(self.element(scope, element).allocatesBuffer ? 1 : 0))
        case kAudioUnitProperty_ElementName:
            let name = scope == kAudioUnitScope_Global ? nil : self.element(scope, element).name
            put(name.map { CFBridge.string($0).toOpaque() })
        case kAudioUnitProperty_ElementCount: put(UInt32(elementCountValue(scope)))
        case kAudioUnitProperty_ParameterList:
            for (i, pid) in parameterIDs(scope, element).enumerated() { data.storeBytes(of: pid, toByteOffset: i * 4, as: UInt32.self) }
        case kAudioUnitProperty_ParameterInfo:
            guard let d = parameterDefinitions.first(where: { $0.id == element && $0.scope == scope }) else {
                throw invalidParameter(element, scope, 0)
            }
            put(d.info)
        case kAudioUnitProperty_ParameterValueStrings:
            guard let d = parameterDefinitions.first(where: { $0.id == element && $0.scope == scope }) else {
                throw invalidParameter(element, scope, 0)
            }
            put(CFBridge.propertyList(.array(d.valueStrings.map { .string($0) })).toOpaque())
        case kAudioUnitProperty_MaximumFramesPerSlice: put(state.pointee.maxFrames)
        case kAudioUnitProperty_Latency: put(latency)
        case kAudioUnitProperty_TailTime: put(tailTime)
        case kAudioUnitProperty_CPULoad: put(state.pointee.cpuLoad)
        case kAudioUnitProperty_LastRenderError: put(state.pointee.lastRenderError)
        case kAudioUnitProperty_PresentPreset:
            put(AUPreset(presetNumber: presentPreset.number, presetName: CFBridge.string(presentPreset.name)))
        case kAudioUnitProperty_ContextName: put(contextName.map { CFBridge.string($0).toOpaque() })
        case kAudioUnitProperty_RenderQuality: put(renderQuality)
        case kAudioUnitProperty_BypassEffect: put(UInt32(bypassed ? 1 : 0))
        case kAudioUnitProperty_InPlaceProcessing: put(UInt32(processesInPlace ? 1 : 0))
        case kAudioUnitProperty_FactoryPresets:
            put(factoryPresetArray.map { Unmanaged.passRetained($0).toOpaque() })
        case kAudioUnitProperty_SupportedNumChannels:
            for (i, c) in channelCapabilities.enumerated() { data.storeBytes(of: c, toByteOffset: i * 4, as: AUChannelInfo.self) }
        default:
            try getCustomProperty(id, scope, element, data)
        }
    }

    /// AudioUnitSetProperty (size already checked against the property's info). A nil `data`
    /// removes a connection, callback or name.
    ///
    /// Thread: setup.
    public func setProperty(
        _ id: AudioUnitPropertyID, _ scope: AudioUnitScope, _ element: AudioUnitElement,
        _ data: UnsafeRawPointer?, _ size: UInt32
    ) throws {
        func value<T>(_: T.Type) throws -> T {
            guard let data else { throw AudioError(kAudio_ParamError, "Property \(propertyName(id)) needs a value; NULL was passed.") }
            return data.loadUnaligned(as: T.self)
        }
        let e = Int(element)
        switch id {
        case kAudioUnitProperty_ClassInfo:
            let ref = try value(UnsafeRawPointer?.self)
            guard let plist = CFBridge.value(ref) else {
                throw AudioError(kAudioUnitErr_InvalidPropertyValue, "ClassInfo must be a CFDictionary property list.")
            }
            try restoreClassInfo(plist)
        case kAudioUnitProperty_MakeConnection:
            try refuseInsideRender(id)
            if let data {
                let c = data.loadUnaligned(as: AudioUnitConnection.self)
                guard c.destInputNumber == element else {
                    throw AudioError(
                        kAudioUnitErr_InvalidPropertyValue,
                        "AudioUnitConnection.destInputNumber (\(c.destInputNumber)) must equal the element (\(element)).")
                }
                inputElements[e].connection = c.sourceAudioUnit == nil ? nil : c
            } else {
                inputElements[e].connection = nil
            }
            publishConfiguration()
        case kAudioUnitProperty_SetRenderCallback:
            try refuseInsideRender(id)
            let cb = data.map { $0.loadUnaligned(as: AURenderCallbackStruct.self) }
            inputElements[e].renderCallback = cb?.inputProc == nil ? nil : cb
            publishConfiguration()
        case kAudioUnitProperty_HostCallbacks:
            try refuseInsideRender(id)
            hostCallbacks = data.map { $0.loadUnaligned(as: HostCallbackInfo.self) }
            publishConfiguration()
        case kAUHostProperty_TempoChangeCallback:
            try refuseInsideRender(id)
            tempoChanges = data.map { $0.loadUnaligned(as: AUHostTempoChangeInfo.self) }
            publishConfiguration()
        case kAudioUnitProperty_SampleRate:
            var f = format(scope, element)
            f.mSampleRate = try value(Float64.self)
            try setFormat(f, scope, element)
        case kAudioUnitProperty_StreamFormat:
            try setFormat(try value(AudioStreamBasicDescription.self), scope, element)
        case kAudioUnitProperty_ShouldAllocateBuffer:
            guard !isInitialized else {
                throw AudioError(kAudioUnitErr_Initialized, "Uninitialize the unit before changing ShouldAllocateBuffer.")
            }
            let v = try value(UInt32.self) != 0
            if scope == kAudioUnitScope_Input { inputElements[e].allocatesBuffer = v } else { outputElements[e].allocatesBuffer = v }
        case kAudioUnitProperty_ElementName:
            let name = String(cfString: data.flatMap { $0.loadUnaligned(as: Unmanaged<CFString>?.self)?.takeUnretainedValue() })
            if scope == kAudioUnitScope_Input {
                inputElements[e].name = name
            } else if scope == kAudioUnitScope_Output {
                outputElements[e].name = name
            }
        case kAudioUnitProperty_ElementCount:
            try setElementCount(scope, Int(try value(UInt32.self)))
        case kAudioUnitProperty_MaximumFramesPerSlice:
            guard !isInitialized else {
                throw AudioError(kAudioUnitErr_Initialized, "Uninitialize the unit before changing MaximumFramesPerSlice.")
            }
            let frames = try value(UInt32.self)
            guard frames > 0, frames <= 65_536 else {
                throw AudioError(kAudioUnitErr_InvalidPropertyValue, "MaximumFramesPerSlice \(frames) is out of range (1…65536).")
            }
            state.pointee.maxFrames = frames
        case kAudioUnitProperty_PresentPreset:
            let preset = try value(AUPreset.self)
            let name = String(cfString: preset.presetName?.takeUnretainedValue()) ?? ""
            if preset.presetNumber >= 0 {
                guard let factory = factoryPresets.first(where: { $0.number == preset.presetNumber }) else {
                    throw AudioError(kAudioUnitErr_InvalidPropertyValue, "The unit has no factory preset number \(preset.presetNumber).")
                }
                try applyFactoryPreset(preset.presetNumber)
                presentPreset = factory
            } else {
                presentPreset = (preset.presetNumber, name)
            }
        case kAudioUnitProperty_ContextName:
            contextName = String(cfString: data.flatMap { $0.loadUnaligned(as: Unmanaged<CFString>?.self)?.takeUnretainedValue() })
        case kAudioUnitProperty_RenderQuality: renderQuality = min(try value(UInt32.self), kRenderQuality_Max)
        case kAudioUnitProperty_CPULoad:
            let load = try value(Float64.self)
            guard load >= 0, load <= 1 else { throw AudioError(kAudioUnitErr_InvalidPropertyValue, "CPULoad \(load) is outside 0…1.") }
            state.pointee.cpuLoad = load
        case kAudioUnitProperty_BypassEffect:
            try refuseInsideRender(id)
            bypassed = try value(UInt32.self) != 0
            publishConfiguration()
        case kAudioUnitProperty_InPlaceProcessing:
            try refuseInsideRender(id)
            processesInPlace = try value(UInt32.self) != 0
            publishConfiguration()
        case kAudioUnitProperty_ParameterList, kAudioUnitProperty_ParameterInfo, kAudioUnitProperty_Latency,
            kAudioUnitProperty_TailTime, kAudioUnitProperty_LastRenderError,
            kAudioUnitProperty_FactoryPresets, kAudioUnitProperty_SupportedNumChannels, kAudioUnitProperty_ParameterValueStrings:
            throw AudioError(kAudioUnitErr_PropertyNotWritable, "Property \(propertyName(id)) is read-only.")
        default:
            guard let data else { throw AudioError(kAudio_ParamError, "Property \(propertyName(id)) needs a value; NULL was passed.") }
            try setCustomProperty(id, scope, element, data, size)
        }
    }

    /// Properties the render thread reads are published to it, which waits for a render call in
    /// progress to finish: from inside this unit's render that would wait for itself.
    private func refuseInsideRender(_ id: AudioUnitPropertyID) throws {
        guard isInsideRender else { return }
        throw AudioError(
            kAudioUnitErr_CannotDoInCurrentContext,
            "Property \(propertyName(id)) cannot be set from inside the unit's own render (it waits for the render to finish).")
    }

    /// The format of an input or output element.
    ///
    /// Thread: setup.
    public func format(_ scope: AudioUnitScope, _ element: AudioUnitElement) -> AudioStreamBasicDescription {
        self.element(scope, element).format
    }

    /// An input or output element (scope and index checked by the caller).
    ///
    /// Thread: setup.
    public func element(_ scope: AudioUnitScope, _ index: AudioUnitElement) -> AUElement {
        scope == kAudioUnitScope_Input ? inputElements[Int(index)] : outputElements[Int(index)]
    }

    /// Sets an element's stream format after checking the unit can take it.
    ///
    /// Thread: setup; only while uninitialized.
    public func setFormat(_ f: AudioStreamBasicDescription, _ scope: AudioUnitScope, _ element: AudioUnitElement) throws {
        guard !isInitialized else {
            throw AudioError(kAudioUnitErr_Initialized, "Uninitialize the unit before changing the \(scopeName(scope)) stream format.")
        }
        guard accepts(format: f, scope: scope, element: element) else {
            throw AudioError(
                kAudioUnitErr_FormatNotSupported,
                "The unit cannot take \(f) on \(scopeName(scope)) element \(element); it renders canonical Float32 non-interleaved audio.")
        }
        if scope == kAudioUnitScope_Input { inputElements[Int(element)].format = f } else { outputElements[Int(element)].format = f }
        if (scope == kAudioUnitScope_Output && element == 0) || outputElements.isEmpty {
            let oldRate = state.pointee.sampleRate
            state.pointee.sampleRate = f.mSampleRate
            if oldRate != f.mSampleRate {
                if parameterDefinitions.contains(where: \.maximumIsNyquist) {
                    redeclareParameters(parameterDefinitions.map { $0.atSampleRate(f.mSampleRate) })
                }
                sampleRateDidChange(from: oldRate)
            }
        }
    }

    private func elementCountValue(_ scope: AudioUnitScope) -> Int { elementCount(scope) ?? 0 }

    private func parameterIDs(_ scope: AudioUnitScope, _ element: AudioUnitElement) -> [AudioUnitParameterID] {
        parameterDefinitions.filter { $0.scope == scope }.map(\.id)
    }

    func makeFactoryPresetArray() -> CFArray? {
        let presets = factoryPresets
        guard !presets.isEmpty else { return nil }
        // The records live as long as the unit (it holds the array); the names are retained here.
        let records = UnsafeMutablePointer<AUPreset>.allocate(capacity: presets.count)
        for (i, p) in presets.enumerated() {
            (records + i).initialize(to: AUPreset(presetNumber: p.number, presetName: CFBridge.string(p.name)))
        }
        factoryPresetRecords = UnsafeMutableBufferPointer(start: records, count: presets.count)
        var values = (0..<presets.count).map { Optional(UnsafeRawPointer(records + $0)) }
        return CFArrayCreate(nil, &values, presets.count, nil)
    }

    // MARK: Listeners

    /// AudioUnitAddPropertyListener.
    ///
    /// Thread: setup.
    public func addPropertyListener(_ id: AudioUnitPropertyID, _ proc: AudioUnitPropertyListenerProc, _ refCon: UnsafeMutableRawPointer?) {
        listenerLock.lock()
        listeners.append((id, propertyListenerCall(proc), refCon))
        listenerLock.unlock()
        if id == kAudioUnitProperty_LastRenderError { RenderErrorWatcher.shared.watch(self) }
    }

    /// AudioUnitRemovePropertyListener(WithUserData); `matchRefCon` false removes every refCon.
    ///
    /// Thread: setup.
    public func removePropertyListener(
        _ id: AudioUnitPropertyID, _ proc: AudioUnitPropertyListenerProc,
        _ refCon: UnsafeMutableRawPointer?, matchRefCon: Bool
    ) -> OSStatus {
        listenerLock.lock()
        defer { listenerLock.unlock() }
        let before = listeners.count
        listeners.removeAll { $0.id == id && sameFunction($0.proc, propertyListenerCall(proc)) && (!matchRefCon || $0.refCon == refCon) }
        return listeners.count < before ? noErr : kAudio_ParamError
    }

    /// Has the listeners of a global property called soon on the listener thread (see
    /// RenderErrorWatcher): for changes noticed on threads a setup call may wait for, such as an
    /// I/O unit's device threads.
    ///
    /// Thread: any non-real-time thread.
    public func postPropertyChange(_ id: AudioUnitPropertyID) {
        RenderErrorWatcher.shared.post(self, id)
    }

    /// Calls the listeners of a property (on the calling, non-real-time thread; the watcher's
    /// thread for LastRenderError).
    ///
    /// Thread: setup.
    public func propertyChanged(_ id: AudioUnitPropertyID, _ scope: AudioUnitScope, _ element: AudioUnitElement) {
        listenerLock.lock()
        let matching = listeners.filter { $0.id == id }
        listenerLock.unlock()
        for l in matching { l.proc(l.refCon, instance, id, scope, element) }
    }
}

/// "kAudioUnitProperty_StreamFormat (8)" for messages.
public func propertyName(_ id: AudioUnitPropertyID) -> String {
    let names: [AudioUnitPropertyID: String] = [
        0: "ClassInfo", 1: "MakeConnection", 2: "SampleRate", 3: "ParameterList", 4: "ParameterInfo", 6: "CPULoad",
        8: "StreamFormat", 11: "ElementCount", 12: "Latency", 13: "SupportedNumChannels", 14: "MaximumFramesPerSlice",
        16: "ParameterValueStrings", 19: "AudioChannelLayout", 20: "TailTime", 21: "BypassEffect", 22: "LastRenderError",
        23: "SetRenderCallback", 24: "FactoryPresets", 25: "ContextName", 26: "RenderQuality", 29: "InPlaceProcessing",
        30: "ElementName", 36: "PresentPreset", 51: "ShouldAllocateBuffer",
        2000: "CurrentDevice", 2001: "IsRunning", 2002: "ChannelMap", 2003: "EnableIO", 2005: "SetInputCallback",
    ]
    guard let n = names[id] else { return "\(id)" }
    return "\(id >= 2000 ? "kAudioOutputUnitProperty_" : "kAudioUnitProperty_")\(n) (\(id))"
}

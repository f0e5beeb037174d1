import AUHostCore
import CAUHostAtomics
import CJACK

// The output-unit properties (EnableIO, SetInputCallback, CurrentDevice, IsRunning) and AUHost's
// JACK properties (AUHostJACK.h), with their scope, element, size and state checks.

extension JACKIOUnit {
    /// Size and writability of the unit's own properties; nil for others.
    ///
    /// Thread: setup.
    func jackPropertyInfo(
        _ id: AudioUnitPropertyID, _ scope: AudioUnitScope, _ element: AudioUnitElement
    ) throws -> (size: UInt32, writable: Bool)? {
        let pointer = UInt32(MemoryLayout<UnsafeRawPointer>.size)
        switch id {
        case kAudioOutputUnitProperty_EnableIO:
            _ = try isOutputDirection(id, scope, element)
            return (4, true)
        case kAudioOutputUnitProperty_SetInputCallback:
            try requireGlobal(id, scope, element)
            return (UInt32(MemoryLayout<AURenderCallbackStruct>.size), true)
        case kAudioOutputUnitProperty_CurrentDevice, kAUHostJACKProperty_ClientName:
            try requireGlobal(id, scope, element)
            return (pointer, true)
        case kAUHostJACKProperty_StreamError:
            try requireGlobal(id, scope, element)
            return (pointer, false)
        case kAudioOutputUnitProperty_IsRunning, kAUHostJACKProperty_ServerBufferFrames, kAUHostJACKProperty_XrunCount,
            kAUHostJACKProperty_AutoConnect, kAUHostJACKProperty_Freewheel:
            try requireGlobal(id, scope, element)
            return (4, id == kAUHostJACKProperty_AutoConnect || id == kAUHostJACKProperty_Freewheel)
        case kAUHostJACKProperty_ServerSampleRate, kAUHostJACKProperty_TimebaseTempo:
            try requireGlobal(id, scope, element)
            return (8, id == kAUHostJACKProperty_TimebaseTempo)
        case kAUHostJACKProperty_TransportHostCallbacks:
            try requireGlobal(id, scope, element)
            return (UInt32(MemoryLayout<HostCallbackInfo>.size), false)
        default:
            return nil
        }
    }

    /// Thread: setup.
    func jackGetProperty(
        _ id: AudioUnitPropertyID, _ scope: AudioUnitScope, _ element: AudioUnitElement, _ data: UnsafeMutableRawPointer
    ) throws {
        func put<T>(_ value: T) { data.storeBytes(of: value, as: T.self) }
        let client = io.pointee.client
        switch id {
        case kAudioOutputUnitProperty_EnableIO:
            put(UInt32((try isOutputDirection(id, scope, element) ? outputEnabled : inputEnabled) ? 1 : 0))
        case kAudioOutputUnitProperty_SetInputCallback: put(inputCallback)
        case kAudioOutputUnitProperty_CurrentDevice: put(CFBridge.string(serverName).toOpaque())
        case kAudioOutputUnitProperty_IsRunning: put(UInt32(isRunning ? 1 : 0))
        case kAUHostJACKProperty_ClientName: put(CFBridge.string(actualClientName).toOpaque())
        case kAUHostJACKProperty_AutoConnect: put(UInt32(autoConnect ? 1 : 0))
        case kAUHostJACKProperty_ServerSampleRate: put(Float64(client.map { jack_get_sample_rate($0) } ?? 0))
        case kAUHostJACKProperty_ServerBufferFrames: put(UInt32(client.map { jack_get_buffer_size($0) } ?? 0))
        case kAUHostJACKProperty_XrunCount: put(UInt32(clamping: auhost_atomic_load_u64(&io.pointee.xruns)))
        case kAUHostJACKProperty_Freewheel: put(UInt32(auhost_atomic_load_u64(&io.pointee.freewheeling)))
        case kAUHostJACKProperty_TransportHostCallbacks: put(io.hostCallbacks)
        case kAUHostJACKProperty_StreamError: put(stopReason.map { CFBridge.string($0).toOpaque() })
        case kAUHostJACKProperty_TimebaseTempo: put(Float64(bitPattern: auhost_atomic_load_u64(&io.pointee.timebaseTempoBits)))
        default: break
        }
    }

    /// Thread: setup.
    func jackSetProperty(
        _ id: AudioUnitPropertyID, _ scope: AudioUnitScope, _ element: AudioUnitElement, _ data: UnsafeRawPointer, _ size: UInt32
    ) throws {
        let info = try jackPropertyInfo(id, scope, element)
        guard let info, size == info.size else {
            throw AudioError(
                kAudioUnitErr_InvalidPropertyValue, "Property \(jackPropertyName(id)) takes \(info?.size ?? 0) bytes; \(size) were passed.")
        }
        switch id {
        case kAudioOutputUnitProperty_EnableIO:
            try requireUninitialized(id)
            let on = data.loadUnaligned(as: UInt32.self) != 0
            if try isOutputDirection(id, scope, element) { outputEnabled = on } else { inputEnabled = on }
        case kAudioOutputUnitProperty_SetInputCallback:
            inputCallback = data.loadUnaligned(as: AURenderCallbackStruct.self)
        case kAudioOutputUnitProperty_CurrentDevice, kAUHostJACKProperty_ClientName:
            try requireUninitialized(id)
            let ref = data.loadUnaligned(as: Unmanaged<CFString>?.self)?.takeUnretainedValue()
            guard let name = String(cfString: ref), !name.isEmpty, name.utf8.count <= 64 else {
                throw AudioError(
                    kAudioUnitErr_InvalidPropertyValue,
                    "\(jackPropertyName(id)) needs a CFStringRef of 1…64 bytes naming the JACK \(id == kAUHostJACKProperty_ClientName ? "client" : "server (\"default\" for $JACK_DEFAULT_SERVER)")."
                )
            }
            if id == kAUHostJACKProperty_ClientName { clientName = name } else { serverName = name }
        case kAUHostJACKProperty_AutoConnect:
            autoConnect = data.loadUnaligned(as: UInt32.self) != 0
        case kAUHostJACKProperty_TimebaseTempo:
            let tempo = data.loadUnaligned(as: Float64.self)
            guard tempo == 0 || (tempo > 0 && tempo <= 1_000) else {
                throw AudioError(
                    kAudioUnitErr_InvalidPropertyValue,
                    "A timebase tempo is more than 0 and at most 1000 BPM (or 0 for none), not \(tempo).")
            }
            auhost_atomic_store_u64(&io.pointee.timebaseTempoBits, tempo.bitPattern)
            try applyTimebase()
        case kAUHostJACKProperty_Freewheel:
            guard let client = io.pointee.client else {
                throw AudioError(
                    kAudioUnitErr_Uninitialized, "Freewheel asks the server the unit is connected to: initialize the JACK I/O unit first.")
            }
            guard jack_set_freewheel(client, data.loadUnaligned(as: UInt32.self) != 0 ? 1 : 0) == 0 else {
                throw AudioError(kAudioUnitErr_CannotDoInCurrentContext, "JACK server \"\(serverName)\" refused to change freewheeling.")
            }
        default:
            throw AudioError(kAudioUnitErr_PropertyNotWritable, "Property \(jackPropertyName(id)) is read-only.")
        }
    }

    private func requireGlobal(_ id: AudioUnitPropertyID, _ scope: AudioUnitScope, _ element: AudioUnitElement) throws {
        guard scope == kAudioUnitScope_Global else {
            throw AudioError(
                kAudioUnitErr_InvalidScope, "Property \(jackPropertyName(id)) lives in global scope, not \(scopeName(scope)) scope.")
        }
        guard element == 0 else {
            throw AudioError(kAudioUnitErr_InvalidElement, "Property \(jackPropertyName(id)) lives on element 0, not element \(element).")
        }
    }

    /// True for output scope element 0 (the output ports), false for input scope element 1.
    private func isOutputDirection(_ id: AudioUnitPropertyID, _ scope: AudioUnitScope, _ element: AudioUnitElement) throws -> Bool {
        if scope == kAudioUnitScope_Output && element == 0 { return true }
        if scope == kAudioUnitScope_Input && element == 1 { return false }
        throw AudioError(
            kAudioUnitErr_InvalidElement,
            "Property \(jackPropertyName(id)) is set on output scope element 0 (output ports) or input scope element 1 (input ports), not \(scopeName(scope)) scope element \(element)."
        )
    }

    private func requireUninitialized(_ id: AudioUnitPropertyID) throws {
        guard !isInitialized else {
            throw AudioError(kAudioUnitErr_Initialized, "Uninitialize the JACK I/O unit before changing \(jackPropertyName(id)).")
        }
    }
}

/// A readable name for the unit's own properties, the standard name otherwise.
func jackPropertyName(_ id: AudioUnitPropertyID) -> String {
    let names: [AudioUnitPropertyID: String] = [
        kAUHostJACKProperty_ClientName: "ClientName", kAUHostJACKProperty_AutoConnect: "AutoConnect",
        kAUHostJACKProperty_ServerSampleRate: "ServerSampleRate", kAUHostJACKProperty_ServerBufferFrames: "ServerBufferFrames",
        kAUHostJACKProperty_XrunCount: "XrunCount", kAUHostJACKProperty_Freewheel: "Freewheel",
        kAUHostJACKProperty_TransportHostCallbacks: "TransportHostCallbacks", kAUHostJACKProperty_StreamError: "StreamError",
        kAUHostJACKProperty_TimebaseTempo: "TimebaseTempo",
    ]
    guard let name = names[id] else { return propertyName(id) }
    return "kAUHostJACKProperty_\(name) (0x\(String(id, radix: 16)))"
}

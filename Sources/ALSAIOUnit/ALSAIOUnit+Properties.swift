import ALSADevice
import AUHostCore

// The output-unit properties (EnableIO, SetInputCallback, CurrentDevice, IsRunning) and AUHost's
// ALSA properties (AUHostALSA.h), with their scope, element, size and state checks.

extension ALSAIOUnit {
    private func requireGlobal(_ id: AudioUnitPropertyID, _ scope: AudioUnitScope, _ element: AudioUnitElement) throws {
        guard scope == kAudioUnitScope_Global else {
            throw AudioError(
                kAudioUnitErr_InvalidScope, "Property \(alsaPropertyName(id)) lives in global scope, not \(scopeName(scope)) scope.")
        }
        guard element == 0 else {
            throw AudioError(kAudioUnitErr_InvalidElement, "Property \(alsaPropertyName(id)) lives on element 0, not element \(element).")
        }
    }

    /// Checks (scope, element) is output 0 or input 1 — the two directions — and says which.
    private func direction(_ id: AudioUnitPropertyID, _ scope: AudioUnitScope, _ element: AudioUnitElement) throws -> PCMDirection {
        if scope == kAudioUnitScope_Output && element == 0 { return .playback }
        if scope == kAudioUnitScope_Input && element == 1 { return .capture }
        throw AudioError(
            kAudioUnitErr_InvalidElement,
            "Property \(alsaPropertyName(id)) is set on output scope element 0 (playback) or input scope element 1 (capture), not \(scopeName(scope)) scope element \(element)."
        )
    }

    private func requireUninitialized(_ id: AudioUnitPropertyID) throws {
        guard !isInitialized else {
            throw AudioError(kAudioUnitErr_Initialized, "Uninitialize the ALSA I/O unit before changing \(alsaPropertyName(id)).")
        }
    }

    /// Size and writability of the unit's own properties; nil for others.
    /// Thread: setup.
    func alsaPropertyInfo(
        _ id: AudioUnitPropertyID, _ scope: AudioUnitScope,
        _ element: AudioUnitElement
    ) throws -> (size: UInt32, writable: Bool)? {
        switch id {
        case kAudioOutputUnitProperty_EnableIO:
            _ = try direction(id, scope, element)
            return (4, true)
        case kAudioOutputUnitProperty_CurrentDevice:
            if scope != kAudioUnitScope_Global { _ = try direction(id, scope, element) } else { try requireGlobal(id, scope, element) }
            return (UInt32(MemoryLayout<UnsafeRawPointer>.size), true)
        case kAudioOutputUnitProperty_SetInputCallback:
            try requireGlobal(id, scope, element)
            return (UInt32(MemoryLayout<AURenderCallbackStruct>.size), true)
        case kAudioOutputUnitProperty_IsRunning, kAUHostALSAProperty_PreferredPeriodFrames, kAUHostALSAProperty_PreferredPeriodCount,
            kAUHostALSAProperty_GrantedPeriodFrames, kAUHostALSAProperty_GrantedPeriodCount, kAUHostALSAProperty_XrunCount,
            kAUHostALSAProperty_DuplexLatencyFrames, kAUHostALSAProperty_RealTimeScheduling:
            try requireGlobal(id, scope, element)
            return (4, id == kAUHostALSAProperty_PreferredPeriodFrames || id == kAUHostALSAProperty_PreferredPeriodCount)
        case kAUHostALSAProperty_PreferredSampleRate, kAUHostALSAProperty_GrantedSampleRate, kAUHostALSAProperty_WorstRenderFraction:
            try requireGlobal(id, scope, element)
            return (8, id == kAUHostALSAProperty_PreferredSampleRate)
        case kAUHostALSAProperty_StreamError:
            try requireGlobal(id, scope, element)
            return (UInt32(MemoryLayout<UnsafeRawPointer>.size), false)
        default:
            return nil
        }
    }

    /// Reads one of the unit's own properties.
    /// Thread: setup.
    func alsaGetProperty(
        _ id: AudioUnitPropertyID, _ scope: AudioUnitScope, _ element: AudioUnitElement,
        _ data: UnsafeMutableRawPointer
    ) throws {
        func put<T>(_ value: T) { data.storeBytes(of: value, as: T.self) }
        let granted = session?.granted
        let stream = session?.stream
        switch id {
        case kAudioOutputUnitProperty_EnableIO:
            put(UInt32(try direction(id, scope, element) == .playback ? (outputEnabled ? 1 : 0) : (inputEnabled ? 1 : 0)))
        case kAudioOutputUnitProperty_CurrentDevice:
            let name =
                scope == kAudioUnitScope_Input
                ? captureDeviceName
                : scope == kAudioUnitScope_Output || outputEnabled ? playbackDeviceName : captureDeviceName
            put(CFBridge.string(name).toOpaque())
        case kAudioOutputUnitProperty_SetInputCallback: put(inputCallback)
        case kAudioOutputUnitProperty_IsRunning: put(UInt32(isRunning ? 1 : 0))
        case kAUHostALSAProperty_PreferredSampleRate: put(preferredSampleRate)
        case kAUHostALSAProperty_PreferredPeriodFrames: put(preferredPeriodFrames)
        case kAUHostALSAProperty_PreferredPeriodCount: put(preferredPeriodCount)
        case kAUHostALSAProperty_GrantedSampleRate: put(Float64(granted?.sampleRate ?? 0))
        case kAUHostALSAProperty_GrantedPeriodFrames: put(UInt32(granted?.periodFrames ?? 0))
        case kAUHostALSAProperty_GrantedPeriodCount: put(UInt32(granted?.periodCount ?? 0))
        case kAUHostALSAProperty_XrunCount: put(UInt32(clamping: stream?.xrunCount ?? 0))
        case kAUHostALSAProperty_StreamError: put(failure.withLock { $0 }.map { CFBridge.string($0).toOpaque() })
        case kAUHostALSAProperty_WorstRenderFraction: put(Float64(stream?.worstRenderFraction ?? 0))
        case kAUHostALSAProperty_DuplexLatencyFrames: put(UInt32(clamping: stream?.duplexLatencyFrames ?? 0))
        case kAUHostALSAProperty_RealTimeScheduling:
            put(UInt32(stream == nil || stream?.schedulingWarning != nil ? 0 : 1))
        default: break
        }
    }

    /// Sets one of the unit's own properties.
    /// Thread: setup.
    func alsaSetProperty(
        _ id: AudioUnitPropertyID, _ scope: AudioUnitScope, _ element: AudioUnitElement,
        _ data: UnsafeRawPointer, _ size: UInt32
    ) throws {
        let info = try alsaPropertyInfo(id, scope, element)
        guard let info, size == info.size else {
            throw AudioError(
                kAudioUnitErr_InvalidPropertyValue,
                "Property \(alsaPropertyName(id)) takes \(info?.size ?? 0) bytes; \(size) were passed.")
        }
        switch id {
        case kAudioOutputUnitProperty_EnableIO:
            try requireUninitialized(id)
            let on = data.loadUnaligned(as: UInt32.self) != 0
            if try direction(id, scope, element) == .playback { outputEnabled = on } else { inputEnabled = on }
        case kAudioOutputUnitProperty_CurrentDevice:
            try requireUninitialized(id)
            let ref = data.loadUnaligned(as: Unmanaged<CFString>?.self)?.takeUnretainedValue()
            guard let name = String(cfString: ref), !name.isEmpty else {
                throw AudioError(
                    kAudioUnitErr_InvalidPropertyValue,
                    "CurrentDevice needs a CFStringRef naming an ALSA PCM (\"default\", \"hw:1,0\", a PCM of your asoundrc); it was NULL or empty."
                )
            }
            if scope != kAudioUnitScope_Input { playbackDeviceName = name }
            if scope != kAudioUnitScope_Output { captureDeviceName = name }
        case kAudioOutputUnitProperty_SetInputCallback:
            inputCallback = data.loadUnaligned(as: AURenderCallbackStruct.self)
            if !isRunning {
                io.pointee.inputProc = inputCallback.inputProc
                io.pointee.inputRefCon = inputCallback.inputProcRefCon
            }
        case kAUHostALSAProperty_PreferredSampleRate:
            let rate = data.loadUnaligned(as: Float64.self)
            guard rate == 0 || (rate >= 1_000 && rate <= 768_000) else {
                throw AudioError(
                    kAudioUnitErr_InvalidPropertyValue,
                    "A preferred sample rate of \(rate) Hz is out of range; use 1000…768000 Hz, or 0 for the stream format's rate.")
            }
            try requireUninitialized(id)
            preferredSampleRate = rate
        case kAUHostALSAProperty_PreferredPeriodFrames, kAUHostALSAProperty_PreferredPeriodCount:
            let value = data.loadUnaligned(as: UInt32.self)
            let limit: UInt32 = id == kAUHostALSAProperty_PreferredPeriodFrames ? 65_536 : 1_024
            guard value >= 1 && value <= limit else {
                throw AudioError(kAudioUnitErr_InvalidPropertyValue, "\(alsaPropertyName(id)) \(value) is out of range (1…\(limit)).")
            }
            try requireUninitialized(id)
            if id == kAUHostALSAProperty_PreferredPeriodFrames { preferredPeriodFrames = value } else { preferredPeriodCount = value }
        default:
            throw AudioError(kAudioUnitErr_PropertyNotWritable, "Property \(alsaPropertyName(id)) is read-only.")
        }
    }
}

/// A readable name for the unit's own properties, the standard name otherwise.
func alsaPropertyName(_ id: AudioUnitPropertyID) -> String {
    let names: [AudioUnitPropertyID: String] = [
        kAUHostALSAProperty_PreferredSampleRate: "PreferredSampleRate", kAUHostALSAProperty_PreferredPeriodFrames: "PreferredPeriodFrames",
        kAUHostALSAProperty_PreferredPeriodCount: "PreferredPeriodCount", kAUHostALSAProperty_GrantedSampleRate: "GrantedSampleRate",
        kAUHostALSAProperty_GrantedPeriodFrames: "GrantedPeriodFrames", kAUHostALSAProperty_GrantedPeriodCount: "GrantedPeriodCount",
        kAUHostALSAProperty_XrunCount: "XrunCount", kAUHostALSAProperty_StreamError: "StreamError",
        kAUHostALSAProperty_WorstRenderFraction: "WorstRenderFraction", kAUHostALSAProperty_DuplexLatencyFrames: "DuplexLatencyFrames",
        kAUHostALSAProperty_RealTimeScheduling: "RealTimeScheduling",
    ]
    guard let name = names[id] else { return propertyName(id) }
    return "kAUHostALSAProperty_\(name) (0x\(String(id, radix: 16)))"
}

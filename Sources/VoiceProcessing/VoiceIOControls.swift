import CAUHostAtomics
import AUHostCore

/// The switches the render thread reads once per render call (atomics; 0 or 1 each).
public struct VoiceIOSwitches {
    public var bypass: Int32 = 0
    public var gainControl: Int32 = 1
    public var muteOutput: Int32 = 0
    /// kAUHostVoiceIOProperty_SuppressionLevel (read at initialize, not by the render thread).
    public var suppressionLevel = Int32(VoiceProcessingSettings.SuppressionLevel.moderate.rawValue)
}

/// The voice-processing properties both voice units share: Apple's
/// kAUVoiceIOProperty_BypassVoiceProcessing (2100), _VoiceProcessingEnableAGC (2101) and
/// _MuteOutput (2104), UInt32 in global scope element 0, settable while rendering; and AUHost's
/// kAUHostVoiceIOProperty_EchoMetrics (AUHostVoiceIOMetrics, read-only) and
/// kAUHostVoiceIOProperty_SuppressionLevel (UInt32 0…3, settable while uninitialized).
///
/// A unit owns one, forwards its custom-property calls here first, and reads `switches` on the
/// render thread with `VoiceIOSwitches.load`.
public final class VoiceIOControls {
    /// Written by setup threads, read by the render thread (atomically, per field).
    public let switches: UnsafeMutablePointer<VoiceIOSwitches>

    /// Thread: setup.
    public init() {
        switches = .allocate(capacity: 1)
        switches.initialize(to: VoiceIOSwitches())
    }

    deinit { switches.deallocate() }

    /// Whether processing is bypassed (the unit's latency is then 0).
    ///
    /// Thread: any.
    public var bypass: Bool { auhost_atomic_load_i32(&switches.pointee.bypass) != 0 }

    /// Whether gain control is asked for (the kernel's setting at creation).
    ///
    /// Thread: any.
    public var gainControl: Bool { auhost_atomic_load_i32(&switches.pointee.gainControl) != 0 }

    /// The settings a unit's kernel is created with at initialize (gain control and the
    /// suppression level as set).
    ///
    /// Thread: setup.
    public var settings: VoiceProcessingSettings {
        var s = VoiceProcessingSettings()
        s.gainControl = gainControl
        let level = UInt32(clamping: auhost_atomic_load_i32(&switches.pointee.suppressionLevel))
        s.suppressionLevel = VoiceProcessingSettings.SuppressionLevel(rawValue: level) ?? .moderate
        return s
    }

    /// Size and writability of the voice properties; nil for other properties.
    ///
    /// Thread: setup.
    public func propertyInfo(
        _ id: AudioUnitPropertyID, _ scope: AudioUnitScope,
        _ element: AudioUnitElement
    ) throws -> (size: UInt32, writable: Bool)? {
        switch id {
        case kAUVoiceIOProperty_BypassVoiceProcessing, kAUVoiceIOProperty_VoiceProcessingEnableAGC, kAUVoiceIOProperty_MuteOutput,
            kAUHostVoiceIOProperty_SuppressionLevel:
            try requireGlobal(id, scope, element)
            return (4, true)
        case kAUHostVoiceIOProperty_EchoMetrics:
            try requireGlobal(id, scope, element)
            return (UInt32(MemoryLayout<AUHostVoiceIOMetrics>.size), false)
        default:
            return nil
        }
    }

    /// Reads a voice property; `kernel` is the unit's kernel while initialized, `reportedDelay`
    /// the delay (seconds) handed to its canceller. Returns false for other properties.
    ///
    /// Thread: setup.
    public func get(
        _ id: AudioUnitPropertyID, _ data: UnsafeMutableRawPointer, kernel: UnsafeMutablePointer<VoiceProcessingKernel>?,
        reportedDelay: Double
    ) -> Bool {
        switch id {
        case kAUVoiceIOProperty_BypassVoiceProcessing: data.storeBytes(of: UInt32(bypass ? 1 : 0), as: UInt32.self)
        case kAUVoiceIOProperty_VoiceProcessingEnableAGC: data.storeBytes(of: UInt32(gainControl ? 1 : 0), as: UInt32.self)
        case kAUVoiceIOProperty_MuteOutput:
            data.storeBytes(of: UInt32(auhost_atomic_load_i32(&switches.pointee.muteOutput) != 0 ? 1 : 0), as: UInt32.self)
        case kAUHostVoiceIOProperty_SuppressionLevel:
            data.storeBytes(of: settings.suppressionLevel.rawValue, as: UInt32.self)
        case kAUHostVoiceIOProperty_EchoMetrics:
            var value = AUHostVoiceIOMetrics()
            if let m = kernel?.pointee.metrics, m.valid {
                value.mEchoReturnLossEnhancement = Float64(m.erleInstant)
                value.mAverageEchoReturnLossEnhancement = Float64(m.erleAverage)
                value.mEchoReturnLoss = Float64(m.erlAverage)
                value.mEchoDelay = Float64(m.delayMedianMilliseconds) / 1000
                value.mValid = 1
            }
            if kernel != nil { value.mReportedDelay = reportedDelay }
            data.storeBytes(of: value, as: AUHostVoiceIOMetrics.self)
        default:
            return false
        }
        return true
    }

    /// Sets a voice switch (gain control reaches the kernel at its next chunk) or, while the
    /// unit is not `initialized`, the suppression level. Returns whether the unit's latency
    /// changed (bypass), false for unchanged or other properties.
    ///
    /// Thread: setup.
    public func set(
        _ id: AudioUnitPropertyID, _ scope: AudioUnitScope, _ element: AudioUnitElement, _ data: UnsafeRawPointer, _ size: UInt32,
        kernel: UnsafeMutablePointer<VoiceProcessingKernel>?, initialized: Bool
    ) throws -> Bool {
        guard let info = try propertyInfo(id, scope, element) else { return false }
        guard info.writable else {
            throw AudioError(kAudioUnitErr_PropertyNotWritable, "\(voicePropertyName(id)) is read-only.")
        }
        guard size == 4 else {
            throw AudioError(kAudioUnitErr_InvalidPropertyValue, "\(voicePropertyName(id)) takes a UInt32 (4 bytes); \(size) were passed.")
        }
        let value = data.loadUnaligned(as: UInt32.self)
        if id == kAUHostVoiceIOProperty_SuppressionLevel {
            guard VoiceProcessingSettings.SuppressionLevel(rawValue: value) != nil else {
                throw AudioError(
                    kAudioUnitErr_InvalidPropertyValue,
                    "\(voicePropertyName(id)) is 0 (low), 1 (moderate), 2 (high) or 3 (very high); \(value) was passed.")
            }
            guard !initialized else {
                throw AudioError(kAudioUnitErr_Initialized, "Uninitialize the unit before changing \(voicePropertyName(id)).")
            }
            auhost_atomic_store_i32(&switches.pointee.suppressionLevel, Int32(value))
            return false
        }
        guard value <= 1 else {
            throw AudioError(kAudioUnitErr_InvalidPropertyValue, "\(voicePropertyName(id)) is 0 or 1; \(value) was passed.")
        }
        let on = Int32(value)
        switch id {
        case kAUVoiceIOProperty_BypassVoiceProcessing:
            let changed = auhost_atomic_load_i32(&switches.pointee.bypass) != on
            auhost_atomic_store_i32(&switches.pointee.bypass, on)
            return changed
        case kAUVoiceIOProperty_VoiceProcessingEnableAGC:
            auhost_atomic_store_i32(&switches.pointee.gainControl, on)
            kernel?.pointee.requestGainControl(on != 0)
        default:
            auhost_atomic_store_i32(&switches.pointee.muteOutput, on)
        }
        return false
    }

    private func requireGlobal(_ id: AudioUnitPropertyID, _ scope: AudioUnitScope, _ element: AudioUnitElement) throws {
        guard scope == kAudioUnitScope_Global else {
            throw AudioError(kAudioUnitErr_InvalidScope, "\(voicePropertyName(id)) lives in global scope, not \(scopeName(scope)) scope.")
        }
        guard element == 0 else {
            throw AudioError(kAudioUnitErr_InvalidElement, "\(voicePropertyName(id)) lives on element 0, not element \(element).")
        }
    }
}

/// The voice properties' names for messages.
///
/// Thread: any.
public func voicePropertyName(_ id: AudioUnitPropertyID) -> String {
    switch id {
    case kAUVoiceIOProperty_BypassVoiceProcessing: return "kAUVoiceIOProperty_BypassVoiceProcessing (2100)"
    case kAUVoiceIOProperty_VoiceProcessingEnableAGC: return "kAUVoiceIOProperty_VoiceProcessingEnableAGC (2101)"
    case kAUVoiceIOProperty_MuteOutput: return "kAUVoiceIOProperty_MuteOutput (2104)"
    case kAUHostVoiceIOProperty_EchoMetrics: return "kAUHostVoiceIOProperty_EchoMetrics (0x41480010)"
    case kAUHostVoiceIOProperty_SuppressionLevel: return "kAUHostVoiceIOProperty_SuppressionLevel (0x41480011)"
    default: return propertyName(id)
    }
}

extension UnsafeMutablePointer where Pointee == VoiceIOSwitches {
    /// The switches as the render thread sees them this call.
    ///
    /// Thread: render.
    @_noAllocation @_noLocks
    public func load() -> (bypass: Bool, mute: Bool) {
        // AUHostAtomics' functions are single atomic loads the checker cannot see into.
        _unsafePerformance { (auhost_atomic_load_i32(&pointee.bypass) != 0, auhost_atomic_load_i32(&pointee.muteOutput) != 0) }
    }
}

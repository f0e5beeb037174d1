import AudioToolbox
import AudioTypes
import Foundation

// Audio Session Services' C API (AudioSession.h).

/// Thread: setup.
@_cdecl("AudioSessionInitialize")
public func _AudioSessionInitialize(
    _ runLoop: OpaquePointer?, _ mode: UnsafeRawPointer?, _ listener: AudioSessionInterruptionListener?,
    _ clientData: UnsafeMutableRawPointer?
) -> OSStatus {
    LastErrorMessage.status {
        try AudioSessionState.shared.initialize(
            runLoop: runLoop.map { Unmanaged<CFRunLoop>.fromOpaque(UnsafeRawPointer($0)).takeUnretainedValue() },
            mode: mode.map { Unmanaged<CFString>.fromOpaque($0).takeUnretainedValue() }, listener: listener, clientData: clientData)
    }
}

/// Thread: setup.
@_cdecl("AudioSessionSetActive")
public func _AudioSessionSetActive(_ active: UInt8) -> OSStatus {
    LastErrorMessage.status { try AudioSessionState.shared.setActive(active != 0) }
}

/// Thread: setup.
@_cdecl("AudioSessionGetProperty")
public func _AudioSessionGetProperty(
    _ id: AudioSessionPropertyID, _ ioSize: UnsafeMutablePointer<UInt32>?, _ outData: UnsafeMutableRawPointer?
)
    -> OSStatus
{
    LastErrorMessage.status {
        guard let ioSize, let outData else {
            throw AudioError(kAudio_ParamError, "AudioSessionGetProperty needs a size and a place for the value.")
        }
        let value = try AudioSessionState.shared.value(id)
        guard Int(ioSize.pointee) >= value.count else {
            throw AudioError(kAudioSessionBadPropertySizeError, "This property takes \(value.count) bytes; \(ioSize.pointee) were given.")
        }
        outData.copyMemory(from: value, byteCount: value.count)
        ioSize.pointee = UInt32(value.count)
    }
}

/// Thread: setup.
@_cdecl("AudioSessionSetProperty")
public func _AudioSessionSetProperty(_ id: AudioSessionPropertyID, _ size: UInt32, _ data: UnsafeRawPointer?) -> OSStatus {
    LastErrorMessage.status {
        guard let data else { throw AudioError(kAudio_ParamError, "AudioSessionSetProperty needs the value.") }
        try AudioSessionState.shared.setValue(id, data, size: Int(size))
    }
}

/// Thread: setup.
@_cdecl("AudioSessionGetPropertySize")
public func _AudioSessionGetPropertySize(_ id: AudioSessionPropertyID, _ outSize: UnsafeMutablePointer<UInt32>?) -> OSStatus {
    LastErrorMessage.status {
        guard let outSize else { throw AudioError(kAudio_ParamError, "AudioSessionGetPropertySize needs outDataSize.") }
        outSize.pointee = UInt32(try AudioSessionState.shared.value(id).count)
    }
}

/// Thread: setup.
@_cdecl("AudioSessionAddPropertyListener")
public func _AudioSessionAddPropertyListener(
    _ id: AudioSessionPropertyID, _ proc: AudioSessionPropertyListener?, _ clientData: UnsafeMutableRawPointer?
) -> OSStatus {
    LastErrorMessage.status {
        guard let proc else { throw AudioError(kAudio_ParamError, "AudioSessionAddPropertyListener needs a listener.") }
        try AudioSessionState.shared.addListener(id, proc, clientData)
    }
}

/// Thread: setup.
@_cdecl("AudioSessionRemovePropertyListenerWithUserData")
public func _AudioSessionRemovePropertyListenerWithUserData(
    _ id: AudioSessionPropertyID, _ proc: AudioSessionPropertyListener?, _ clientData: UnsafeMutableRawPointer?
) -> OSStatus {
    LastErrorMessage.status {
        guard let proc else { throw AudioError(kAudio_ParamError, "AudioSessionRemovePropertyListenerWithUserData needs the listener.") }
        try AudioSessionState.shared.removeListener(id, proc, clientData)
    }
}

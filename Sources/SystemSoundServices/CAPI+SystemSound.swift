import AudioToolbox
import AudioTypes
import Foundation

// System Sound Services' C API (AudioServices.h).

/// Thread: setup.
@_cdecl("AudioServicesCreateSystemSoundID")
public func _AudioServicesCreateSystemSoundID(_ url: UnsafeRawPointer?, _ out: UnsafeMutablePointer<SystemSoundID>?) -> OSStatus {
    LastErrorMessage.status {
        guard let url, let out else {
            throw AudioError(kAudio_ParamError, "AudioServicesCreateSystemSoundID needs a file URL and a place for the ID.")
        }
        let samples = try SoundSamples(url: Unmanaged<CFURL>.fromOpaque(url).takeUnretainedValue())
        out.pointee = SystemSounds.add(samples).id
    }
}

/// Thread: setup.
@_cdecl("AudioServicesDisposeSystemSoundID")
public func _AudioServicesDisposeSystemSoundID(_ id: SystemSoundID) -> OSStatus {
    LastErrorMessage.status { try SystemSounds.remove(id).removeCompletion() }
}

/// Starts a play; a play that cannot sound completes at once. Thread: setup.
private func play(_ id: SystemSoundID, _ completion: AUHostSystemSoundPlayCompletion?, _ userData: UnsafeMutableRawPointer?) {
    guard let sound = try? SystemSounds.sound(id) else {
        completion?(userData)  // kSystemSoundID_Vibrate and friends, or an unknown ID: nothing to play
        return
    }
    let record = PlayRecord(sound: sound, completion: completion, userData: userData)
    if !SystemSoundMixer.shared.play(sound.samples, record: record) { record.complete() }
}

/// Thread: setup.
@_cdecl("AudioServicesPlaySystemSound")
public func _AudioServicesPlaySystemSound(_ id: SystemSoundID) { play(id, nil, nil) }

/// Thread: setup.
@_cdecl("AudioServicesPlayAlertSound")
public func _AudioServicesPlayAlertSound(_ id: SystemSoundID) { play(id, nil, nil) }

/// Thread: setup.
@_cdecl("AudioServicesPlaySystemSoundWithCompletion")
public func _AudioServicesPlaySystemSoundWithCompletion(
    _ id: SystemSoundID, _ completion: AUHostSystemSoundPlayCompletion?, _ userData: UnsafeMutableRawPointer?
) { play(id, completion, userData) }

/// Thread: setup.
@_cdecl("AudioServicesPlayAlertSoundWithCompletion")
public func _AudioServicesPlayAlertSoundWithCompletion(
    _ id: SystemSoundID, _ completion: AUHostSystemSoundPlayCompletion?, _ userData: UnsafeMutableRawPointer?
) { play(id, completion, userData) }

/// Thread: setup. NULL run loop: the main one; NULL mode: kCFRunLoopDefaultMode (Apple's defaults).
@_cdecl("AudioServicesAddSystemSoundCompletion")
public func _AudioServicesAddSystemSoundCompletion(
    _ id: SystemSoundID, _ runLoop: OpaquePointer?, _ mode: UnsafeRawPointer?, _ routine: AudioServicesSystemSoundCompletionProc?,
    _ clientData: UnsafeMutableRawPointer?
) -> OSStatus {
    LastErrorMessage.status {
        guard let routine else { throw AudioError(kAudio_ParamError, "AudioServicesAddSystemSoundCompletion needs a routine.") }
        let sound = try SystemSounds.sound(id)
        let loop = runLoop.map { Unmanaged<CFRunLoop>.fromOpaque(UnsafeRawPointer($0)).takeUnretainedValue() } ?? CFRunLoopGetMain()!
        let loopMode = mode.map { Unmanaged<CFString>.fromOpaque($0).takeUnretainedValue() } ?? kCFRunLoopDefaultMode!
        try sound.addCompletion(routine, clientData: clientData, runLoop: RunLoopCallbacks(runLoop: loop, mode: loopMode))
    }
}

/// Thread: setup.
@_cdecl("AudioServicesRemoveSystemSoundCompletion")
public func _AudioServicesRemoveSystemSoundCompletion(_ id: SystemSoundID) {
    (try? SystemSounds.sound(id))?.removeCompletion()
}

/// The sound a property call names, checking the specifier and the property ID. Thread: setup.
private func propertySound(_ property: AudioServicesPropertyID, _ specifierSize: UInt32, _ specifier: UnsafeRawPointer?) throws
    -> SystemSound
{
    guard property == kAudioServicesPropertyIsUISound || property == kAudioServicesPropertyCompletePlaybackIfAppDies else {
        throw AudioError(kAudioServicesUnsupportedPropertyError, "System sounds have no property '\(FourCC.string(property))'.")
    }
    guard specifierSize == 4, let specifier else {
        throw AudioError(
            kAudioServicesBadSpecifierSizeError,
            "The specifier of a system-sound property is its SystemSoundID (4 bytes), not \(specifierSize) bytes.")
    }
    return try SystemSounds.sound(specifier.loadUnaligned(as: SystemSoundID.self))
}

/// Thread: setup.
@_cdecl("AudioServicesGetPropertyInfo")
public func _AudioServicesGetPropertyInfo(
    _ property: AudioServicesPropertyID, _ specifierSize: UInt32, _ specifier: UnsafeRawPointer?, _ outSize: UnsafeMutablePointer<UInt32>?,
    _ outWritable: UnsafeMutablePointer<UInt8>?
) -> OSStatus {
    LastErrorMessage.status {
        _ = try propertySound(property, specifierSize, specifier)
        outSize?.pointee = 4
        outWritable?.pointee = 1
    }
}

/// Thread: setup.
@_cdecl("AudioServicesGetProperty")
public func _AudioServicesGetProperty(
    _ property: AudioServicesPropertyID, _ specifierSize: UInt32, _ specifier: UnsafeRawPointer?, _ ioSize: UnsafeMutablePointer<UInt32>?,
    _ outData: UnsafeMutableRawPointer?
) -> OSStatus {
    LastErrorMessage.status {
        let sound = try propertySound(property, specifierSize, specifier)
        guard let ioSize, ioSize.pointee >= 4, let outData else {
            throw AudioError(kAudioServicesBadPropertySizeError, "System-sound properties are UInt32: pass 4 bytes.")
        }
        outData.storeBytes(of: sound.property(property) ?? 0, as: UInt32.self)
        ioSize.pointee = 4
    }
}

/// Thread: setup.
@_cdecl("AudioServicesSetProperty")
public func _AudioServicesSetProperty(
    _ property: AudioServicesPropertyID, _ specifierSize: UInt32, _ specifier: UnsafeRawPointer?, _ size: UInt32, _ data: UnsafeRawPointer?
) -> OSStatus {
    LastErrorMessage.status {
        let sound = try propertySound(property, specifierSize, specifier)
        guard size == 4, let data else {
            throw AudioError(kAudioServicesBadPropertySizeError, "System-sound properties are UInt32: pass 4 bytes, not \(size).")
        }
        sound.setProperty(property, data.loadUnaligned(as: UInt32.self))
    }
}

import AudioToolbox

/// Points an I/O unit at the ALSA PCM `device`: kAudioOutputUnitProperty_CurrentDevice takes a
/// CFStringRef here (Apple's takes an AudioDeviceID). The reference travels as its own bytes;
/// `&` of a `CFString?` variable would hand over an Optional's storage, which Swift warns about.
/// Returns the property call's status, or kAudio_ParamError when `device` is not valid text.
///
/// Thread: setup.
func setCurrentDevice(_ unit: AudioUnit, _ device: String) -> OSStatus {
    guard let name = CFStringCreateWithCString(nil, device, CFStringBuiltInEncodings.UTF8.rawValue) else {
        return OSStatus(kAudio_ParamError)
    }
    return withUnsafeBytes(of: name) { bytes in
        AudioUnitSetProperty(
            unit, kAudioOutputUnitProperty_CurrentDevice, kAudioUnitScope_Global, 0, bytes.baseAddress, UInt32(bytes.count))
    }
}

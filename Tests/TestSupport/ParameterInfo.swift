import AUHost

/// A global parameter's AudioUnitParameterInfo, as a host reads it (throws the status otherwise).
///
/// Thread: setup.
public func parameterInfo(_ unit: AudioUnit, _ id: AudioUnitParameterID) throws -> AudioUnitParameterInfo {
    var info = AudioUnitParameterInfo()
    var size = UInt32(MemoryLayout<AudioUnitParameterInfo>.size)
    try AudioError.check(
        AudioUnitGetProperty(unit, kAudioUnitProperty_ParameterInfo, kAudioUnitScope_Global, id, &info, &size), "ParameterInfo \(id)")
    return info
}

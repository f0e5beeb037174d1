import AudioToolbox
import Foundation

// The few Core Audio calls the node classes make on their units, with errors as NSError.

/// Makes a unit of the first component matching `description`.
///
/// Thread: setup.
func makeUnit(_ description: AudioComponentDescription) throws -> AudioUnit {
    var d = description
    guard let component = AudioComponentFindNext(nil, &d) else {
        throw osStatusError(
            kAUGraphErr_InvalidAudioUnit,
            "No audio unit matches \(fourCC(d.componentType)) \(fourCC(d.componentSubType)) \(fourCC(d.componentManufacturer))")
    }
    var unit: AudioUnit?
    try checkStatus(AudioComponentInstanceNew(component, &unit), "Could not make \(fourCC(d.componentSubType))")
    return unit!
}

/// "aufx" for a four-char code.
///
/// Thread: any.
func fourCC(_ code: UInt32) -> String {
    String((0..<4).map { Character(UnicodeScalar(UInt8(truncatingIfNeeded: code >> (24 - 8 * UInt32($0))))) })
}

/// The unit's stream format on a scope's element (nil when it has none).
///
/// Thread: setup.
func streamFormat(_ unit: AudioUnit, _ scope: AudioUnitScope, _ element: Int) -> AudioStreamBasicDescription? {
    var d = AudioStreamBasicDescription()
    var size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
    guard AudioUnitGetProperty(unit, kAudioUnitProperty_StreamFormat, scope, AudioUnitElement(element), &d, &size) == noErr else {
        return nil
    }
    return d
}

/// Sets the stream format of a scope's element, unless it is already that format.
///
/// Thread: setup.
func setStreamFormat(_ unit: AudioUnit, _ scope: AudioUnitScope, _ element: Int, _ format: AVAudioFormat, _ what: String) throws {
    if let current = streamFormat(unit, scope, element), let f = AVAudioFormat(streamDescription: [current]), f == format { return }
    var d = format.streamDescription.pointee
    try checkStatus(
        AudioUnitSetProperty(
            unit, kAudioUnitProperty_StreamFormat, scope, AudioUnitElement(element), &d,
            UInt32(MemoryLayout<AudioStreamBasicDescription>.size)),
        "\(what) cannot take the format \(format)")
}

/// How many elements (buses) a scope has.
///
/// Thread: setup.
func elementCount(_ unit: AudioUnit, _ scope: AudioUnitScope) -> Int {
    var count: UInt32 = 0
    var size = UInt32(4)
    guard AudioUnitGetProperty(unit, kAudioUnitProperty_ElementCount, scope, 0, &count, &size) == noErr else { return 0 }
    return Int(count)
}

/// A UInt32 property's value (nil when the unit has none).
///
/// Thread: setup.
func uint32Property(_ unit: AudioUnit, _ id: AudioUnitPropertyID, _ scope: AudioUnitScope = kAudioUnitScope_Global, _ element: Int = 0)
    -> UInt32?
{
    var value: UInt32 = 0
    var size = UInt32(4)
    guard AudioUnitGetProperty(unit, id, scope, AudioUnitElement(element), &value, &size) == noErr else { return nil }
    return value
}

/// Sets a UInt32 property.
///
/// Thread: setup.
@discardableResult
func setUInt32Property(
    _ unit: AudioUnit, _ id: AudioUnitPropertyID, _ value: UInt32, _ scope: AudioUnitScope = kAudioUnitScope_Global, _ element: Int = 0
)
    -> OSStatus
{
    var v = value
    return AudioUnitSetProperty(unit, id, scope, AudioUnitElement(element), &v, 4)
}

/// A parameter's value (0 when the unit has no such parameter).
///
/// Thread: any.
func parameter(_ unit: AudioUnit, _ id: AudioUnitParameterID, _ scope: AudioUnitScope = kAudioUnitScope_Global, _ element: Int = 0)
    -> Float
{
    var value: AudioUnitParameterValue = 0
    AudioUnitGetParameter(unit, id, scope, AudioUnitElement(element), &value)
    return value
}

/// Sets a parameter (the unit clamps it to its range).
///
/// Thread: any.
func setParameter(
    _ unit: AudioUnit, _ id: AudioUnitParameterID, _ value: Float, _ scope: AudioUnitScope = kAudioUnitScope_Global, _ element: Int = 0
) {
    AudioUnitSetParameter(unit, id, scope, AudioUnitElement(element), value, 0)
}

// `import CoreMIDI`, as on Apple's platforms: Core MIDI's C declarations (<CoreMIDI/CoreMIDI.h>)
// and the few names C gets from macros, which Swift cannot import. The declarations sit in the
// CAudioToolbox C module beside AudioToolbox's (one module map), so this also brings the AudioToolbox
// C API (Apple's CoreMIDI does not; docs/PORTING.md).
@_exported import CAudioToolbox

/// Core MIDI's property keys (C has them as CFSTR macros; Swift sees them as constants, as on Apple).
/// Thread: any.
public let kMIDIPropertyName: CFString = AUHostConstantString("name").takeUnretainedValue()
public let kMIDIPropertyManufacturer: CFString = AUHostConstantString("manufacturer").takeUnretainedValue()
public let kMIDIPropertyModel: CFString = AUHostConstantString("model").takeUnretainedValue()
public let kMIDIPropertyUniqueID: CFString = AUHostConstantString("uniqueID").takeUnretainedValue()
public let kMIDIPropertyDeviceID: CFString = AUHostConstantString("deviceID").takeUnretainedValue()
public let kMIDIPropertyReceiveChannels: CFString = AUHostConstantString("receiveChannels").takeUnretainedValue()
public let kMIDIPropertyTransmitChannels: CFString = AUHostConstantString("transmitChannels").takeUnretainedValue()
public let kMIDIPropertyOffline: CFString = AUHostConstantString("offline").takeUnretainedValue()
public let kMIDIPropertyPrivate: CFString = AUHostConstantString("private").takeUnretainedValue()
public let kMIDIPropertyDriverOwner: CFString = AUHostConstantString("driver").takeUnretainedValue()
public let kMIDIPropertyDisplayName: CFString = AUHostConstantString("displayName").takeUnretainedValue()
public let kMIDIPropertyIsEmbeddedEntity: CFString = AUHostConstantString("embedded").takeUnretainedValue()
public let kMIDIPropertyAdvanceScheduleTimeMuSec: CFString = AUHostConstantString("advanceScheduleTimeMuSec").takeUnretainedValue()

/// MIDIPacketNext (a C macro): the packet after `packet` — unaligned on x86-64, 4-byte aligned on ARM, as on Apple.
///
/// Thread: any (render threads too).
@inlinable
public func MIDIPacketNext(_ packet: UnsafePointer<MIDIPacket>) -> UnsafeMutablePointer<MIDIPacket> {
    let end = UnsafeRawPointer(packet) + 10 + Int(packet.pointee.length)
    #if arch(arm) || arch(arm64)
    let aligned = (UInt(bitPattern: end) + 3) & ~UInt(3)
    return UnsafeMutablePointer(bitPattern: aligned)!
    #else
    return UnsafeMutableRawPointer(mutating: end).assumingMemoryBound(to: MIDIPacket.self)
    #endif
}

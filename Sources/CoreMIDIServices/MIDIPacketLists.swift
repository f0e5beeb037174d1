import CoreMIDI

// The packet-list helpers (MIDIPacketListInit, MIDIPacketListAdd) and the walk over a list that
// MIDISend and MIDIReceived make before copying one. Layout as Apple's (MIDIServices.h): the list's
// first packet at byte 4, a packet's data at byte 10 of it, packets unaligned on x86-64 and 4-byte
// aligned on ARM. Thread: any (no allocation, no lock), render threads included.

/// Apple's limit on a packet list's size.
let maximumPacketListBytes = 65_536
/// Bytes before a packet's data (timeStamp, length).
let packetHeaderBytes = 10

/// Where the packet that starts at `offset` of a list would start once aligned (ARM: 4 bytes).
@inline(__always)
func alignedPacketOffset(_ offset: Int) -> Int {
    #if arch(arm) || arch(arm64)
    return (offset + 3) & ~3
    #else
    return offset
    #endif
}

/// MIDIPacketListInit: an empty list; the first packet.
@_cdecl("MIDIPacketListInit")
public func _MIDIPacketListInit(_ list: UnsafeMutablePointer<MIDIPacketList>) -> UnsafeMutablePointer<MIDIPacket> {
    list.pointee.numPackets = 0
    return UnsafeMutableRawPointer(list).advanced(by: 4).assumingMemoryBound(to: MIDIPacket.self)
}

/// MIDIPacketListAdd (MIDIServices.h): merged into `current` when the list has packets, the times
/// are equal and neither side is system-exclusive; else a new packet after `current`. NULL when
/// there is no room, the list is over 65536 bytes, `current` lies outside it, or `time` is
/// earlier than `current`'s.
@_cdecl("MIDIPacketListAdd")
public func _MIDIPacketListAdd(
    _ list: UnsafeMutablePointer<MIDIPacketList>, _ listSize: Int, _ current: UnsafeMutablePointer<MIDIPacket>,
    _ time: MIDITimeStamp, _ count: Int, _ data: UnsafePointer<UInt8>
) -> UnsafeMutablePointer<MIDIPacket>? {
    let base = UnsafeMutableRawPointer(list)
    let size = min(listSize, maximumPacketListBytes)
    let currentOffset = UnsafeMutableRawPointer(current) - base
    guard count > 0, count <= Int(UInt16.max), currentOffset >= 4, currentOffset + packetHeaderBytes <= size else { return nil }
    if list.pointee.numPackets > 0 {
        let raw = base + currentOffset  // possibly unaligned (x86-64): read through raw memory
        let currentTime = raw.loadUnaligned(as: UInt64.self)
        let length = Int((raw + 8).loadUnaligned(as: UInt16.self))
        guard time >= currentTime else { return nil }
        let currentIsSysEx = length > 0 && (raw + packetHeaderBytes).load(as: UInt8.self) == 0xF0
        if time == currentTime, !currentIsSysEx, data[0] != 0xF0, length + count <= Int(UInt16.max),
            currentOffset + packetHeaderBytes + length + count <= size
        {
            (base + currentOffset + packetHeaderBytes + length).copyMemory(from: data, byteCount: count)
            (raw + 8).storeBytes(of: UInt16(length + count), as: UInt16.self)
            return current
        }
        let nextOffset = alignedPacketOffset(currentOffset + packetHeaderBytes + length)
        guard nextOffset + packetHeaderBytes + count <= size else { return nil }
        let next = (base + nextOffset).assumingMemoryBound(to: MIDIPacket.self)
        writePacket(next, time, count, data)
        list.pointee.numPackets += 1
        return next
    }
    guard currentOffset + packetHeaderBytes + count <= size else { return nil }
    writePacket(current, time, count, data)
    list.pointee.numPackets = 1
    return current
}

@inline(__always)
private func writePacket(_ packet: UnsafeMutablePointer<MIDIPacket>, _ time: MIDITimeStamp, _ count: Int, _ data: UnsafePointer<UInt8>) {
    // Field by field through raw memory: the packet may be unaligned (x86-64), as on Apple.
    let raw = UnsafeMutableRawPointer(packet)
    raw.storeBytes(of: time, as: UInt64.self)
    (raw + 8).storeBytes(of: UInt16(count), as: UInt16.self)
    (raw + packetHeaderBytes).copyMemory(from: data, byteCount: count)
}

/// One packet of a list, read in place.
public struct MIDIPacketView {
    /// Its timestamp and bytes (valid while the list is). Thread: any.
    public let timeStamp: MIDITimeStamp
    public let bytes: UnsafeRawBufferPointer
}

/// The byte size of a packet list (header, packets, alignment), or nil when it is malformed: more
/// than 65536 bytes (Apple's limit) or a packet that runs past it. The caller's memory is read as
/// far as the packets' lengths say, as on Apple.
///
/// Thread: any.
public func packetListByteCount(_ list: UnsafePointer<MIDIPacketList>) -> Int? {
    let base = UnsafeRawPointer(list)
    let count = Int(list.pointee.numPackets)
    var offset = 4
    for i in 0..<count {
        if i > 0 { offset = alignedPacketOffset(offset) }
        guard offset + packetHeaderBytes <= maximumPacketListBytes else { return nil }
        let length = Int((base + offset + 8).loadUnaligned(as: UInt16.self))
        offset += packetHeaderBytes + length
        guard offset <= maximumPacketListBytes else { return nil }
    }
    return offset
}

/// Calls `body` with each packet of a (checked) list.
///
/// Thread: any.
public func forEachPacket(_ list: UnsafePointer<MIDIPacketList>, _ body: (MIDIPacketView) -> Void) {
    let base = UnsafeRawPointer(list)
    var offset = 4
    for i in 0..<Int(list.pointee.numPackets) {
        if i > 0 { offset = alignedPacketOffset(offset) }
        let time = (base + offset).loadUnaligned(as: UInt64.self)
        let length = Int((base + offset + 8).loadUnaligned(as: UInt16.self))
        body(MIDIPacketView(timeStamp: time, bytes: UnsafeRawBufferPointer(start: base + offset + packetHeaderBytes, count: length)))
        offset += packetHeaderBytes + length
    }
}

/// The length of the MIDI message that starts with `status` (system-exclusive: 0, meaning "up to
/// its 0xF7"), or nil for a byte that starts none (a data byte).
///
/// Thread: any.
@inline(__always)
public func midiMessageLength(status: UInt8) -> Int? {
    switch status {
    case 0x80...0xBF, 0xE0...0xEF: return 3
    case 0xC0...0xDF: return 2
    case 0xF0: return 0
    case 0xF1, 0xF3: return 2
    case 0xF2: return 3
    case 0xF4...0xFF: return 1
    default: return nil
    }
}

/// Calls `body` with each complete message of a packet's bytes (a system-exclusive message
/// through its 0xF7 or the end of the packet); data bytes that start no message are skipped.
///
/// Thread: any.
public func forEachMessage(_ bytes: UnsafeRawBufferPointer, _ body: (UnsafeRawBufferPointer) -> Void) {
    var i = 0
    while i < bytes.count {
        guard let length = midiMessageLength(status: bytes[i]) else {
            i += 1
            continue
        }
        var end = i + length
        if length == 0 {
            end = i + 1
            while end < bytes.count, bytes[end] != 0xF7 { end += 1 }
            end = min(end + 1, bytes.count)
        }
        guard end <= bytes.count else { return }
        body(UnsafeRawBufferPointer(rebasing: bytes[i..<end]))
        i = end
    }
}

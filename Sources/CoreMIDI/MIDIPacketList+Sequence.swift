// Apple's Swift overlay for walking a packet list: `for packet in list.unsafeSequence()` gives an
// UnsafePointer<MIDIPacket> per packet (MIDIPacketNext's packing: unaligned on x86-64, 4-byte
// aligned on ARM). Valid while the list is.

/// The packets of a packet list, as pointers. Thread: any (no allocation).
public struct UnsafeMIDIPacketSequence: Sequence {
    public typealias Element = UnsafePointer<MIDIPacket>

    @usableFromInline let list: UnsafePointer<MIDIPacketList>

    @inlinable init(_ list: UnsafePointer<MIDIPacketList>) { self.list = list }

    /// Thread: any.
    public struct Iterator: IteratorProtocol {
        @usableFromInline var packet: UnsafePointer<MIDIPacket>
        @usableFromInline var remaining: UInt32

        @inlinable init(_ list: UnsafePointer<MIDIPacketList>) {
            packet = UnsafeRawPointer(list).advanced(by: 4).assumingMemoryBound(to: MIDIPacket.self)
            remaining = list.pointee.numPackets
        }

        /// Thread: any.
        @inlinable public mutating func next() -> UnsafePointer<MIDIPacket>? {
            guard remaining > 0 else { return nil }
            remaining -= 1
            defer { if remaining > 0 { packet = UnsafePointer(MIDIPacketNext(packet)) } }
            return packet
        }
    }

    /// Thread: any.
    @inlinable public func makeIterator() -> Iterator { Iterator(list) }
}

extension UnsafePointer where Pointee == MIDIPacketList {
    /// The list's packets (Apple's `unsafeSequence()`). Thread: any.
    @inlinable public func unsafeSequence() -> UnsafeMIDIPacketSequence { UnsafeMIDIPacketSequence(self) }
}

extension UnsafeMutablePointer where Pointee == MIDIPacketList {
    /// The list's packets (Apple's `unsafeSequence()`). Thread: any.
    @inlinable public func unsafeSequence() -> UnsafeMIDIPacketSequence { UnsafeMIDIPacketSequence(UnsafePointer(self)) }
}

import CLilv

// patch:Set messages to a plug-in's patch:Message input: how a host sets a patch parameter
// (LV2PatchParameter), written straight into the input's atom sequence before a run; patch:Get
// asks the plug-in for its values, and its patch:Set / patch:Put replies on its event outputs
// are read back after the run.

/// The URIDs of patch:Set and the atom types of its values, mapped once at instantiation.
public struct LV2PatchURIDs {
    var object, set, get, put, body, property, value, urid: UInt32
    var float, double, int, long, bool, path, string: UInt32

    /// Thread: setup.
    init(map: LV2URIDMap) {
        object = map.map(LV2URI.atomObject)
        set = map.map(LV2URI.patch + "Set")
        get = map.map(LV2URI.patch + "Get")
        put = map.map(LV2URI.patch + "Put")
        body = map.map(LV2URI.patch + "body")
        property = map.map(LV2URI.patch + "property")
        value = map.map(LV2URI.patch + "value")
        urid = map.map(LV2URI.atomURID)
        float = map.map(LV2URI.atomFloat)
        double = map.map(LV2URI.atomDouble)
        int = map.map(LV2URI.atomInt)
        long = map.map(LV2URI.atomLong)
        bool = map.map(LV2URI.atomBool)
        path = map.map(LV2URI.atomPath)
        string = map.map(LV2URI.atom + "String")
    }

    /// The atom type of a value of `kind`.
    ///
    /// Thread: any.
    @_noAllocation @_noLocks
    public func type(of kind: LV2PatchParameter.Kind) -> UInt32 {
        switch kind {
        case .float: return float
        case .double: return double
        case .int: return int
        case .long: return long
        case .bool: return bool
        case .path: return path
        case .string: return string
        }
    }
}

extension UnsafeMutablePointer where Pointee == LV2RenderContext {
    /// Whether the plug-in has an event input that takes patch messages.
    ///
    /// Thread: any.
    public var takesPatchMessages: Bool {
        @_noAllocation @_noLocks get { pointee.patchInputSlot >= 0 }
    }

    /// The patch URIDs of this instance's world.
    ///
    /// Thread: any.
    public var patchURIDs: LV2PatchURIDs {
        @_noAllocation @_noLocks get { pointee.patchURIDs }
    }
}

/// Appends `patch:Set [patch:property <property>; patch:value <value>]` at frame 0 of the next
/// run, the value being `size` bytes of atom type `type` (a number, or a NUL-terminated path).
/// False when the plug-in takes no patch messages, an event at a later frame was queued on the
/// same input already, or the buffer is full.
///
/// Thread: render (real-time): between runs, on the thread that calls `lv2Run`.
@_noAllocation @_noLocks
public func lv2QueuePatchSet(
    _ context: UnsafeMutablePointer<LV2RenderContext>, property: UInt32, type: UInt32, value: UnsafeRawPointer, size: Int
) -> Bool {
    let slot = context.pointee.patchInputSlot
    guard slot >= 0, size >= 0 else { return false }
    if slot == context.pointee.midiInputSlot && context.pointee.lastQueuedFrame > 0 { return false }
    let u = context.pointee.patchURIDs
    let buffer = context.pointee.atomInputs[slot]
    let sequence = buffer.assumingMemoryBound(to: LV2_Atom_Sequence.self)
    let used = MemoryLayout<LV2_Atom>.size + Int(sequence.pointee.atom.size)
    let padded = (size + 7) & ~7
    // Object body (8) + patch:property (key, context, URID atom: 24) + patch:value (16 + value).
    let bodySize = 8 + 24 + 16 + padded
    let eventSize = 16 + bodySize
    guard used + eventSize <= context.pointee.atomInputCapacities[slot] else { return false }
    var w = buffer + used
    @inline(__always) func word32(_ value: UInt32, _ at: inout UnsafeMutableRawPointer) {
        at.storeBytes(of: value, as: UInt32.self)
        at += 4
    }
    w.storeBytes(of: Int64(0), as: Int64.self)  // frame 0
    w += 8
    word32(UInt32(bodySize), &w)
    word32(u.object, &w)
    word32(0, &w)  // object id: blank
    word32(u.set, &w)
    word32(u.property, &w)
    word32(0, &w)
    word32(4, &w)
    word32(u.urid, &w)
    word32(property, &w)
    word32(0, &w)  // padding
    word32(u.value, &w)
    word32(0, &w)
    word32(UInt32(size), &w)
    word32(type, &w)
    w.copyMemory(from: value, byteCount: size)
    (w + size).initializeMemory(as: UInt8.self, repeating: 0, count: padded - size)
    sequence.pointee.atom.size += UInt32(eventSize)
    return true
}

/// Appends `patch:Get []` at frame 0 of the next run: the plug-in is asked for every property's
/// value, which it answers on its event output (patch:Set or patch:Put). False when the plug-in
/// takes no patch messages, a later event was queued on the input, or the buffer is full.
///
/// Thread: render (real-time): between runs, on the thread that calls `lv2Run`.
@_noAllocation @_noLocks
public func lv2QueuePatchGet(_ context: UnsafeMutablePointer<LV2RenderContext>) -> Bool {
    let slot = context.pointee.patchInputSlot
    guard slot >= 0 else { return false }
    if slot == context.pointee.midiInputSlot && context.pointee.lastQueuedFrame > 0 { return false }
    let buffer = context.pointee.atomInputs[slot]
    let sequence = buffer.assumingMemoryBound(to: LV2_Atom_Sequence.self)
    let used = MemoryLayout<LV2_Atom>.size + Int(sequence.pointee.atom.size)
    let eventSize = 16 + 8  // frame, atom header; an object body with no properties
    guard used + eventSize <= context.pointee.atomInputCapacities[slot] else { return false }
    let w = buffer + used
    w.storeBytes(of: Int64(0), as: Int64.self)
    w.storeBytes(of: UInt32(8), toByteOffset: 8, as: UInt32.self)
    w.storeBytes(of: context.pointee.patchURIDs.object, toByteOffset: 12, as: UInt32.self)
    w.storeBytes(of: UInt32(0), toByteOffset: 16, as: UInt32.self)  // object id: blank
    w.storeBytes(of: context.pointee.patchURIDs.get, toByteOffset: 20, as: UInt32.self)
    sequence.pointee.atom.size += UInt32(eventSize)
    return true
}

/// A property's value the plug-in reported: its key and its atom (type, size, then the bytes).
public typealias LV2PatchReply = (property: UInt32, value: UnsafePointer<LV2_Atom>)

/// The property values in the patch:Set and patch:Put objects the last run wrote to the plug-in's
/// event outputs, in order: `while let reply = replies.next() { … }`.
///
/// Thread: render (real-time): after `lv2Run`, before the next.
public struct LV2PatchReplies {
    private let context: UnsafeMutablePointer<LV2RenderContext>
    private var output = 0
    /// The next event's offset in the current output's sequence body.
    private var offset = MemoryLayout<LV2_Atom_Sequence_Body>.size
    /// The patch:body of a patch:Put being read, its size and the next property's offset.
    private var put: UnsafeRawPointer?
    private var putSize = 0, putOffset = 0

    @_noAllocation @_noLocks
    public init(_ context: UnsafeMutablePointer<LV2RenderContext>) { self.context = context }

    @_noAllocation @_noLocks
    public mutating func next() -> LV2PatchReply? {
        let u = context.pointee.patchURIDs
        while true {
            if let body = put {
                if let (key, atom) = Self.property(body, putSize, &putOffset) { return (key, atom) }
                put = nil
            }
            guard let (otype, body, size) = nextObject() else { return nil }
            var at = 0
            if otype == u.set {
                var property: UInt32 = 0
                var value: UnsafePointer<LV2_Atom>?
                while let (key, atom) = Self.property(body, size, &at) {
                    if key == u.property && atom.pointee.type == u.urid && atom.pointee.size >= 4 {
                        property = UnsafeRawPointer(atom + 1).load(as: UInt32.self)
                    } else if key == u.value {
                        value = atom
                    }
                }
                if property != 0, let value { return (property, value) }
            } else if otype == u.put {
                while let (key, atom) = Self.property(body, size, &at) {
                    guard key == u.body && atom.pointee.type == u.object && atom.pointee.size >= 8 else { continue }
                    (put, putSize, putOffset) = (UnsafeRawPointer(atom + 1) + 8, Int(atom.pointee.size) - 8, 0)
                    break
                }
            }
        }
    }

    /// The next event that is an object: its otype, and its properties' bytes.
    @_noAllocation @_noLocks
    private mutating func nextObject() -> (otype: UInt32, body: UnsafeRawPointer, size: Int)? {
        let c = context.pointee
        while output < c.atomOutputCount {
            let buffer = UnsafeRawPointer(c.atomOutputs[output])
            let sequence = buffer.assumingMemoryBound(to: LV2_Atom.self)
            // A sequence the plug-in wrote (else the chunk the host offered), bounded by the buffer.
            let end = sequence.pointee.type == c.sequenceType ? min(Int(sequence.pointee.size), c.atomOutputCapacities[output] - 8) : 0
            while offset + 16 <= end {
                let event = buffer + 8 + offset
                let atom = (event + 8).assumingMemoryBound(to: LV2_Atom.self)
                let size = Int(atom.pointee.size)
                guard offset + 16 + size <= end else { break }
                offset += (16 + size + 7) & ~7
                if atom.pointee.type == c.patchURIDs.object && size >= 8 {
                    return ((event + 20).load(as: UInt32.self), event + 24, size - 8)
                }
            }
            output += 1
            offset = MemoryLayout<LV2_Atom_Sequence_Body>.size
        }
        return nil
    }

    /// The property at `offset` of an object body of `size` bytes (its key and value atom, whole
    /// inside), advancing `offset` past it.
    @_noAllocation @_noLocks
    private static func property(_ body: UnsafeRawPointer, _ size: Int, _ offset: inout Int) -> (UInt32, UnsafePointer<LV2_Atom>)? {
        guard offset + 16 <= size else { return nil }
        let atom = (body + offset + 8).assumingMemoryBound(to: LV2_Atom.self)
        let valueSize = Int(atom.pointee.size)
        guard offset + 16 + valueSize <= size else { return nil }
        let key = (body + offset).load(as: UInt32.self)
        offset += (16 + valueSize + 7) & ~7
        return (key, atom)
    }
}

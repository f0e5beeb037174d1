import CLilv

// patch:Set messages to a plug-in's patch:Message input: how a host sets a patch parameter
// (LV2PatchParameter), written straight into the input's atom sequence before a run.

/// The URIDs of patch:Set and the atom types of its values, mapped once at instantiation.
public struct LV2PatchURIDs {
    var object, set, property, value, urid: UInt32
    var float, double, int, long, bool, path, string: UInt32

    /// Thread: setup.
    init(map: LV2URIDMap) {
        object = map.map(LV2URI.atomObject)
        set = map.map(LV2URI.patch + "Set")
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

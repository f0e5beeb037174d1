import CLilv

// time:Position for plug-ins whose event input supports it (LV2 Time): the host writes an
// atom:Object of otype time:Position into that input's sequence when the musical time does not
// follow on from the last one (at start, on a relocation, a tempo, meter or speed change).

/// The URIDs of a time:Position object, mapped once at instantiation.
public struct LV2TimeURIDs {
    var object, position, long, float, double, int: UInt32
    var frame, speed, bar, barBeat, beat, beatUnit, beatsPerBar, beatsPerMinute: UInt32

    /// Thread: setup.
    init(map: LV2URIDMap) {
        func time(_ name: String) -> UInt32 { map.map(LV2URI.time + name) }
        object = map.map(LV2URI.atomObject)
        position = map.map(LV2URI.timePosition)
        long = map.map(LV2URI.atomLong)
        float = map.map(LV2URI.atomFloat)
        double = map.map(LV2URI.atomDouble)
        int = map.map(LV2URI.atomInt)
        frame = time("frame")
        speed = time("speed")
        bar = time("bar")
        barBeat = time("barBeat")
        beat = time("beat")
        beatUnit = time("beatUnit")
        beatsPerBar = time("beatsPerBar")
        beatsPerMinute = time("beatsPerMinute")
    }
}

/// Where the music is, as LV2 Time describes it.
public struct LV2TimePosition: Equatable, Sendable {
    public var frame: Int64
    /// Transport speed: 1 playing, 0 stopped.
    public var speed: Float
    public var bar: Int64
    /// Beats since the bar began, in `beatUnit` notes.
    public var barBeat: Float
    public var beat: Double
    public var beatUnit: Int32
    public var beatsPerBar: Float
    public var beatsPerMinute: Float

    @_noAllocation @_noLocks
    public init(
        frame: Int64, speed: Float, bar: Int64, barBeat: Float, beat: Double, beatUnit: Int32, beatsPerBar: Float, beatsPerMinute: Float
    ) {
        (self.frame, self.speed, self.bar, self.barBeat, self.beat) = (frame, speed, bar, barBeat, beat)
        (self.beatUnit, self.beatsPerBar, self.beatsPerMinute) = (beatUnit, beatsPerBar, beatsPerMinute)
    }
}

extension UnsafeMutablePointer where Pointee == LV2RenderContext {
    /// Whether the plug-in has an event input that takes time:Position.
    ///
    /// Thread: any.
    public var takesTimePosition: Bool {
        @_noAllocation @_noLocks get { pointee.timeInputSlot >= 0 }
    }
}

/// Appends `position` at `frame` of the next run to the time:Position input (before any MIDI
/// queued at the same frame when both share the input). False when the plug-in has no such input,
/// the event would be out of order or the buffer is full.
///
/// Thread: render (real-time): between runs, on the thread that calls `lv2Run`.
@_noAllocation @_noLocks
public func lv2QueueTimePosition(_ context: UnsafeMutablePointer<LV2RenderContext>, frame: Int64, _ position: LV2TimePosition) -> Bool {
    let slot = context.pointee.timeInputSlot
    guard slot >= 0 else { return false }
    if slot == context.pointee.midiInputSlot && frame < context.pointee.lastQueuedFrame { return false }
    let u = context.pointee.timeURIDs
    let buffer = context.pointee.atomInputs[slot]
    let sequence = buffer.assumingMemoryBound(to: LV2_Atom_Sequence.self)
    let used = MemoryLayout<LV2_Atom>.size + Int(sequence.pointee.atom.size)
    // Event header (16) + object body (8) + 8 properties of 24 bytes (key, context, atom header, 8 bytes of value).
    let bodySize = 8 + 8 * 24
    let eventSize = 16 + bodySize
    guard used + eventSize <= context.pointee.atomInputCapacities[slot] else { return false }
    var w = AtomWriter(at: buffer + used)
    w.word64(UInt64(bitPattern: frame))  // the event's time in frames
    w.word32(UInt32(bodySize))
    w.word32(u.object)
    w.word32(0)  // object id: blank
    w.word32(u.position)
    w.property(u.frame, u.long, 8, UInt64(bitPattern: position.frame))
    w.property(u.speed, u.float, 4, UInt64(position.speed.bitPattern))
    w.property(u.bar, u.long, 8, UInt64(bitPattern: position.bar))
    w.property(u.barBeat, u.float, 4, UInt64(position.barBeat.bitPattern))
    w.property(u.beat, u.double, 8, position.beat.bitPattern)
    w.property(u.beatUnit, u.int, 4, UInt64(UInt32(bitPattern: position.beatUnit)))
    w.property(u.beatsPerBar, u.float, 4, UInt64(position.beatsPerBar.bitPattern))
    w.property(u.beatsPerMinute, u.float, 4, UInt64(position.beatsPerMinute.bitPattern))
    sequence.pointee.atom.size += UInt32(eventSize)
    if slot == context.pointee.midiInputSlot { context.pointee.lastQueuedFrame = frame }
    return true
}

/// Writes an atom's words one after another (little-endian, as the host's own memory).
private struct AtomWriter {
    var at: UnsafeMutableRawPointer

    @_noAllocation @_noLocks
    mutating func word32(_ value: UInt32) {
        at.storeBytes(of: value, as: UInt32.self)
        at += 4
    }

    @_noAllocation @_noLocks
    mutating func word64(_ value: UInt64) {
        at.storeBytes(of: value, as: UInt64.self)
        at += 8
    }

    /// A property body: key, context, the value atom's header and its 8-byte padded body (a
    /// 4-byte value sits in the low half: the host is little-endian, as LV2 atoms are native).
    @_noAllocation @_noLocks
    mutating func property(_ key: UInt32, _ type: UInt32, _ size: UInt32, _ bits: UInt64) {
        word32(key)
        word32(0)
        word32(size)
        word32(type)
        word64(bits)
    }
}

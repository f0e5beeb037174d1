import CLilv
import Synchronization

// Atoms between an LV2 UI and the running plug-in (issue 30): two single-producer single-consumer
// rings, so neither side waits for the other. The UI's side (LV2PluginUI's idle, on a setup
// thread) writes what the UI wrote into `toPlugin`, tagged with the atom input's slot (its place
// among the atom inputs, in port order); the render thread puts those events at frame 0 of the
// next run. After each run, while a UI is open, the render thread copies every event of the atom
// outputs into `toUI`, tagged with the output's slot; the UI's side drains it. A message that
// does not fit (ring full, or an atom over maximumUIAtomSize) is dropped and counted.

/// The rings and counters for atoms to and from one unit's UI, allocated once with the unit.
/// Plain pointers only: the render thread holds a copy. Thread: see each member.
public struct LV2UIAtomLink {
    /// The largest atom (header and body) that crosses either way: AUHOST_ATOM_TEXT_MAX_ATOM, as
    /// a computed literal, so the render thread reads a constant (no lazy global, no class).
    /// Thread: any.
    public static var maximumAtomSize: Int {
        @_noAllocation @_noLocks get { 65_536 }
    }
    /// Bytes in each ring: a few hundred kilobytes of meters and waveforms between two idles.
    static let ringSize = 256 * 1024
    let toPlugin: LV2RingBuffer
    let toUI: LV2RingBuffer
    /// The render thread's copy of the message being delivered (a tag, then one atom).
    let scratch: UnsafeMutableRawPointer
    /// [0] a UI holds the link (1) or not (0); [1] atoms dropped on the way to the plug-in;
    /// [2] on the way to the UI.
    let counters: UnsafeMutablePointer<Atomic<Int>>

    /// Thread: setup.
    public static func allocate() -> LV2UIAtomLink {
        let counters = UnsafeMutablePointer<Atomic<Int>>.allocate(capacity: 3)
        for k in 0..<3 { (counters + k).initialize(to: Atomic(0)) }
        return LV2UIAtomLink(
            toPlugin: .allocate(minimumCapacity: ringSize), toUI: .allocate(minimumCapacity: ringSize),
            scratch: .allocate(byteCount: 4 + LV2UIAtomLink.maximumAtomSize, alignment: 16), counters: counters)
    }

    /// Thread: setup, once no render runs and no UI holds the link.
    public func deallocate() {
        toPlugin.deallocate()
        toUI.deallocate()
        scratch.deallocate()
        counters.deinitialize(count: 3)
        counters.deallocate()
    }

    /// Takes the link for one UI (true), or false when another UI holds it: atoms need one
    /// producer and one consumer on the UI's side. Events left in the ring by an earlier UI are
    /// dropped. From now on the render thread copies the plug-in's events for it. Thread: setup.
    public func claim() -> Bool {
        guard counters[0].compareExchange(expected: 0, desired: 1, ordering: .acquiringAndReleasing).exchanged else { return false }
        var nothing: UInt8 = 0
        while toUI.nextSize() != nil { _ = toUI.read(into: &nothing, capacity: 0) }  // too large for 0 bytes: dropped
        return true
    }

    /// Gives the link back: the render thread stops copying events. Thread: setup (the holder).
    public func release() { counters[0].store(0, ordering: .releasing) }

    /// Queues `atom` (header and body, `size` bytes) for atom input `slot`, for the next run;
    /// false, and counted as dropped, when the ring is full. Thread: setup (the holder).
    public func send(slot: Int, atom: UnsafeRawPointer, size: Int) -> Bool {
        guard size <= LV2UIAtomLink.maximumAtomSize, toPlugin.write(tag: UInt32(slot), atom, size: size) else {
            counters[1].add(1, ordering: .relaxed)
            return false
        }
        return true
    }

    /// Bytes `receive` needs: an output slot and padding (8 bytes), then the largest atom.
    public static let receiveBufferSize = 8 + LV2UIAtomLink.maximumAtomSize

    /// Takes the next event from the plug-in's atom outputs into `buffer` (`receiveBufferSize`
    /// bytes, 8-byte aligned): its output slot and its atom's size, the atom (header and body)
    /// being at `buffer + 8`, aligned as atoms are; nil when there is none. Thread: setup (the holder).
    public func receive(into buffer: UnsafeMutableRawPointer) -> (slot: Int, size: Int)? {
        while toUI.nextSize() != nil {
            let got = toUI.read(into: buffer, capacity: Self.receiveBufferSize - 4)
            // The render thread writes only whole atoms; anything else is skipped, never trusted.
            guard got >= 12, Int(buffer.load(fromByteOffset: 4, as: UInt32.self)) + 12 == got else { continue }
            (buffer + 8).copyMemory(from: buffer + 4, byteCount: got - 4)  // memmove: the regions overlap
            return (Int(buffer.load(as: UInt32.self)), got - 4)
        }
        return nil
    }

    /// Events the plug-in's outputs had that could not reach the UI, and the UI's atoms that could
    /// not reach the plug-in (full ring, or too large). Thread: any.
    public var droppedToUI: Int { counters[2].load(ordering: .relaxed) }
    /// Thread: any.
    public var droppedToPlugin: Int { counters[1].load(ordering: .relaxed) }
}

/// Puts the atoms the UI wrote at frame 0 of the next run, each into its atom input, before any
/// MIDI (so call it before the MIDI is queued). One that does not fit in what is left of its
/// input's buffer waits for the next run; one larger than the whole buffer, for an input that
/// does not exist, or malformed, is dropped and counted. Thread: render (real-time): between runs, on the thread that calls `lv2Run`.
@_noAllocation @_noLocks
public func lv2DeliverUIAtoms(_ context: UnsafeMutablePointer<LV2RenderContext>, _ link: LV2UIAtomLink) {
    lv2DeliverUIAtoms(
        inputs: context.pointee.atomInputs, capacities: context.pointee.atomInputCapacities, count: context.pointee.atomInputCount, link)
}

/// ``lv2DeliverUIAtoms(_:_:)`` on `count` atom input sequences of `capacities` bytes each, for
/// buffers that are no unit's (the UIMessages fuzz harness checks what lands in them).
/// Thread: render (real-time), or the only thread that touches `inputs` and the link's plug-in side.
@_noAllocation @_noLocks
public func lv2DeliverUIAtoms(
    inputs: UnsafeMutablePointer<UnsafeMutableRawPointer>, capacities: UnsafeMutablePointer<Int>, count: Int, _ link: LV2UIAtomLink
) {
    while let message = link.toPlugin.nextSize() {
        let atomSize = message - 4
        // Whether it fits is known before taking it: the tag comes first, the size is the message's.
        // One that would not fit even in an empty sequence is taken below and dropped.
        if atomSize >= 8 && atomSize <= LV2UIAtomLink.maximumAtomSize, let tag = link.toPlugin.nextTag(),
            Int(tag) < count
        {
            let sequence = inputs[Int(tag)].assumingMemoryBound(to: LV2_Atom_Sequence.self)
            let used = MemoryLayout<LV2_Atom>.size + Int(sequence.pointee.atom.size)
            let needed = 8 + ((atomSize + 7) & ~7), capacity = capacities[Int(tag)]
            if MemoryLayout<LV2_Atom_Sequence>.size + needed <= capacity && used + needed > capacity { return }  // full: next run
        }
        let got = link.toPlugin.read(into: link.scratch, capacity: 4 + LV2UIAtomLink.maximumAtomSize)
        let slot = got >= 12 ? Int(link.scratch.load(as: UInt32.self)) : -1
        let atom = link.scratch + 4
        guard slot >= 0, slot < count, Int(atom.load(fromByteOffset: 0, as: UInt32.self)) + 8 == got - 4 else {
            link.counters[1].add(1, ordering: .relaxed)
            continue
        }
        let buffer = inputs[slot]
        let sequence = buffer.assumingMemoryBound(to: LV2_Atom_Sequence.self)
        let used = MemoryLayout<LV2_Atom>.size + Int(sequence.pointee.atom.size)
        let size = got - 4
        let padded = (size + 7) & ~7
        guard used + 8 + padded <= capacities[slot] else {
            link.counters[1].add(1, ordering: .relaxed)  // larger than the input's whole buffer
            continue
        }
        let event = buffer + used
        event.storeBytes(of: Int64(0), as: Int64.self)  // frame 0
        (event + 8).copyMemory(from: atom, byteCount: size)
        (event + 8 + size).initializeMemory(as: UInt8.self, repeating: 0, count: padded - size)
        sequence.pointee.atom.size += UInt32(8 + padded)
    }
}

/// Copies every event the last run wrote on the plug-in's atom outputs into the UI's ring, while a
/// UI holds the link; an event that does not fit (ring full, or over maximumUIAtomSize) is
/// dropped and counted. Thread: render (real-time): after `lv2Run`, before the next.
@_noAllocation @_noLocks
public func lv2ForwardAtomOutputs(_ context: UnsafeMutablePointer<LV2RenderContext>, _ link: LV2UIAtomLink) {
    guard link.counters[0].load(ordering: .relaxed) != 0 else { return }
    let c = context.pointee
    for output in 0..<c.atomOutputCount {
        let buffer = UnsafeRawPointer(c.atomOutputs[output])
        let sequence = buffer.assumingMemoryBound(to: LV2_Atom.self)
        // A sequence the plug-in wrote (else the chunk the host offered), bounded by the buffer.
        guard sequence.pointee.type == c.sequenceType else { continue }
        let end = min(Int(sequence.pointee.size), c.atomOutputCapacities[output] - 8)
        var offset = MemoryLayout<LV2_Atom_Sequence_Body>.size
        while offset + 16 <= end {
            let atom = buffer + 8 + offset + 8
            let size = 8 + Int(atom.load(as: UInt32.self))
            guard offset + 8 + size <= end else { break }
            offset += (8 + size + 7) & ~7
            if size > LV2UIAtomLink.maximumAtomSize || !link.toUI.write(tag: UInt32(output), atom, size: size) {
                link.counters[2].add(1, ordering: .relaxed)
            }
        }
    }
}

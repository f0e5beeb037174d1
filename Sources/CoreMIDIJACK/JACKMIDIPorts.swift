import CAUHostAtomics
import CJACK
import CoreMIDI

// What the JACK process callback and the backend's other threads share: a fixed table of port
// slots, each a JACK MIDI port of the backend's client with a single-producer single-consumer
// ring of timestamped messages. Allocated once when the backend starts, freed when it stops.

/// One MIDI message (up to 16 bytes; longer system-exclusive messages are dropped and counted)
/// and its MIDITimeStamp (host nanoseconds; 0: now).
struct JACKMIDIEvent {
    var time: UInt64 = 0
    var length: UInt32 = 0
    var bytes: (UInt64, UInt64) = (0, 0)
}

/// One port: output slots carry messages from setup threads to JACK (the process callback reads),
/// input slots from JACK to the pump thread (the process callback writes).
struct JACKMIDISlot {
    static let capacity: UInt64 = 1024
    /// The JACK port while the slot is in use (stored last when a slot opens, first when it closes).
    var port: UnsafeMutableRawPointer?
    var isOutput: UInt64 = 0
    var events: UnsafeMutablePointer<JACKMIDIEvent>
    var written: UInt64 = 0
    var read: UInt64 = 0
    var dropped: UInt64 = 0
    /// Set by MIDIFlushOutput: the process callback drops what the ring holds.
    var flush: UInt64 = 0
}

/// The table and the clock relation, as the process callback sees them.
struct JACKMIDIShared {
    static let slotCount = 64
    var client: OpaquePointer?
    var slots: UnsafeMutablePointer<JACKMIDISlot>
    /// Host time minus JACK time, in nanoseconds (JACK's clock is in microseconds).
    var clockOffset: Int64
    /// Process cycles run (a closing slot waits for two before its port is unregistered).
    var cycles: UInt64 = 0
    /// The line between host time and frames (JACKMIDIClock.swift).
    var clock = JACKMIDIClock()

    static func allocate() -> UnsafeMutablePointer<JACKMIDIShared> {
        let slots = UnsafeMutablePointer<JACKMIDISlot>.allocate(capacity: slotCount)
        for i in 0..<slotCount { (slots + i).initialize(to: JACKMIDISlot(events: .allocate(capacity: Int(JACKMIDISlot.capacity)))) }
        let shared = UnsafeMutablePointer<JACKMIDIShared>.allocate(capacity: 1)
        shared.initialize(to: JACKMIDIShared(client: nil, slots: slots, clockOffset: 0))
        return shared
    }

    static func free(_ shared: UnsafeMutablePointer<JACKMIDIShared>) {
        for i in 0..<slotCount { shared.pointee.slots[i].events.deallocate() }
        shared.pointee.slots.deallocate()
        shared.deallocate()
    }
}

/// JACK's process callback: output slots first (so that a port of ours connected to another of
/// ours delivers in the same cycle), then input slots.
/// Thread: JACK's real-time thread (no allocation, no lock, no log).
let jackMIDIProcess: JackProcessCallback = { frames, arg in
    let shared = arg!.assumingMemoryBound(to: JACKMIDIShared.self)
    guard let client = shared.pointee.client else { return 0 }
    let cycleStart = jack_last_frame_time(client)
    withUnsafeMutablePointer(to: &shared.pointee.clock) { updateClock($0, client, cycleStart, shared.pointee.clockOffset) }
    let clock = shared.pointee.clock
    for pass in 0..<2 {
        for i in 0..<JACKMIDIShared.slotCount {
            let slot = shared.pointee.slots + i
            guard let port = auhost_atomic_load_pointer(&slot.pointee.port) else { continue }
            let isOutput = auhost_atomic_load_u64(&slot.pointee.isOutput) != 0
            guard isOutput == (pass == 0), let buffer = jack_port_get_buffer(OpaquePointer(port), frames) else { continue }
            if isOutput {
                writeOutput(slot, buffer, clock, cycleStart, frames)
            } else {
                readInput(slot, buffer, clock, cycleStart)
            }
        }
    }
    _ = auhost_atomic_add_u64(&shared.pointee.cycles, 1)
    return 0
}

/// The slot's messages due in this cycle into the port's buffer, at the frames their timestamps
/// map to (JACKMIDIClock); earlier ones at frame 0, later ones wait. Thread: JACK's.
@inline(__always)
private func writeOutput(
    _ slot: UnsafeMutablePointer<JACKMIDISlot>, _ buffer: UnsafeMutableRawPointer, _ clock: JACKMIDIClock, _ cycleStart: jack_nframes_t,
    _ frames: jack_nframes_t
) {
    let cycleFromAnchor = Int64(Int32(bitPattern: cycleStart &- jack_nframes_t(truncatingIfNeeded: clock.frame)))
    jack_midi_clear_buffer(buffer)
    let written = auhost_atomic_load_u64(&slot.pointee.written)
    var read = auhost_atomic_load_u64(&slot.pointee.read)
    if auhost_atomic_load_u64(&slot.pointee.flush) != 0 {
        read = written
        auhost_atomic_store_u64(&slot.pointee.flush, 0)
    }
    var lastOffset: UInt32 = 0
    while read < written {
        var event = slot.pointee.events[Int(read % JACKMIDISlot.capacity)]
        var offset: UInt32 = 0
        if event.time != 0 {
            let delta = clock.framesFromAnchor(event.time) - cycleFromAnchor
            if delta >= Int64(frames) { break }  // a later cycle's
            offset = delta > 0 ? UInt32(delta) : 0
        }
        offset = max(offset, lastOffset)  // JACK takes events in time order
        withUnsafeBytes(of: &event.bytes) { bytes in
            _ = jack_midi_event_write(buffer, offset, bytes.baseAddress!.assumingMemoryBound(to: jack_midi_data_t.self), Int(event.length))
        }
        lastOffset = offset
        read += 1
    }
    auhost_atomic_store_u64(&slot.pointee.read, read)
}

/// The port's events into the slot's ring, each timestamped with the host time of its frame
/// (JACKMIDIClock). Thread: JACK's.
@inline(__always)
private func readInput(
    _ slot: UnsafeMutablePointer<JACKMIDISlot>, _ buffer: UnsafeMutableRawPointer, _ clock: JACKMIDIClock, _ cycleStart: jack_nframes_t
) {
    let cycleFromAnchor = Int64(Int32(bitPattern: cycleStart &- jack_nframes_t(truncatingIfNeeded: clock.frame)))
    var jackEvent = jack_midi_event_t()
    for i in 0..<jack_midi_get_event_count(buffer) {
        guard jack_midi_event_get(&jackEvent, buffer, i) == 0, let data = jackEvent.buffer, jackEvent.size > 0 else { continue }
        let written = auhost_atomic_load_u64(&slot.pointee.written)
        guard jackEvent.size <= 16, written - auhost_atomic_load_u64(&slot.pointee.read) < JACKMIDISlot.capacity else {
            _ = auhost_atomic_add_u64(&slot.pointee.dropped, 1)
            continue
        }
        var event = JACKMIDIEvent()
        event.time = clock.hostTime(framesFromAnchor: cycleFromAnchor + Int64(jackEvent.time))
        event.length = UInt32(jackEvent.size)
        withUnsafeMutableBytes(of: &event.bytes) { $0.baseAddress!.copyMemory(from: data, byteCount: jackEvent.size) }
        slot.pointee.events[Int(written % JACKMIDISlot.capacity)] = event
        auhost_atomic_store_u64(&slot.pointee.written, written + 1)
    }
}

import AUHostCore
import CAUHostAtomics
import CJACK

// The JACK I/O unit as timebase master (kAUHostJACKProperty_TimebaseTempo): JACK calls the
// timebase callback on its process thread, once per cycle while the transport rolls and on every
// relocation, to fill bar, beat and tick for all its clients. 4/4, 1920 ticks a beat.

extension JACKIOUnit {
    /// Becomes timebase master at the tempo set (or gives the role up at 0); the client must exist.
    ///
    /// Thread: setup.
    func applyTimebase() throws {
        guard let client = io.pointee.client else { return }
        let tempo = Double(bitPattern: auhost_atomic_load_u64(&io.pointee.timebaseTempoBits))
        if tempo > 0 {
            guard jack_set_timebase_callback(client, 0, jackIOTimebase, UnsafeMutableRawPointer(io)) == 0 else {
                throw AudioError(
                    kAudioUnitErr_CannotDoInCurrentContext,
                    "JACK server \"\(serverName)\" refused to make \(actualClientName) its timebase master.")
            }
        } else {
            jack_release_timebase(client)
        }
    }
}

/// Fills the position's bar, beat and tick from its frame at the master's tempo.
/// Thread: JACK's process thread.
let jackIOTimebase: JackTimebaseCallback = { _, _, position, _, arg in
    guard let position, let arg else { return }
    jackIOFillBBT(arg.assumingMemoryBound(to: JACKIOContext.self), position)
}

@_noAllocation @_noLocks
func jackIOFillBBT(_ io: UnsafeMutablePointer<JACKIOContext>, _ position: UnsafeMutablePointer<jack_position_t>) {
    let tempo = Double(bitPattern: _unsafePerformance { auhost_atomic_load_u64(&io.pointee.timebaseTempoBits) })
    let rate = Double(position.pointee.frame_rate)
    guard tempo > 0, rate > 0 else { return }
    let ticksPerBeat = 1_920.0
    let beats = Double(position.pointee.frame) / rate * tempo / 60  // frames ≤ 2^32: finite, ≥ 0
    let wholeBeats = Int64(beats)
    position.pointee.bar = Int32(truncatingIfNeeded: wholeBeats / 4 + 1)
    position.pointee.beat = Int32(truncatingIfNeeded: wholeBeats % 4 + 1)
    position.pointee.tick = Int32((beats - Double(wholeBeats)) * ticksPerBeat)
    position.pointee.bar_start_tick = Double(wholeBeats / 4 * 4) * ticksPerBeat
    position.pointee.beats_per_bar = 4
    position.pointee.beat_type = 4
    position.pointee.ticks_per_beat = ticksPerBeat
    position.pointee.beats_per_minute = tempo
    position.pointee.valid = jack_position_bits_t(rawValue: position.pointee.valid.rawValue | JackPositionBBT.rawValue)
}

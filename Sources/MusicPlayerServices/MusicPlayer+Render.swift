import CAUHostAtomics
import AudioToolbox

// Everything the render thread touches: the flat schedule a player publishes, the player's render
// state, and the head's pre-render notification that delivers the events of each cycle. Nothing
// here allocates, locks or waits; the C calls into units are render-safe by their contract.

/// One event to deliver, already in samples from the schedule's start.
///
/// Thread: built on a setup thread, read on the render thread.
struct ScheduledEvent {
    enum Kind: UInt8 { case midi, sysEx, parameter, user }
    var sample: Int64
    var unit: AudioUnit?
    var kind: Kind
    var status: UInt8 = 0
    var data1: UInt8 = 0
    var data2: UInt8 = 0
    /// A note-on's note-off (its index in the schedule), -1 for anything else.
    var pairedOff: Int32 = -1
    var parameter = ParameterEvent(parameterID: 0, scope: 0, element: 0, value: 0)
    /// Bytes in the schedule's pool: sysex data, or a user event's MusicEventUserData.
    var dataOffset: Int = 0
    var dataLength: Int = 0
    var beat: Double = 0
    var track: MusicTrack?
    /// A Core MIDI destination instead of `unit` (0: none).
    var endpoint: MIDIEndpointRef = 0
}

/// A schedule as the render thread sees it: plain memory, immutable once published.
///
/// Thread: render (read only).
struct ScheduleView {
    var entries: UnsafeMutablePointer<ScheduledEvent>
    var count: Int
    var pool: UnsafeMutableRawPointer
    var generation: UInt64
    var sequence: MusicSequence?
    var userCallback: MusicSequenceUserCallback?
    var userClientData: UnsafeMutableRawPointer?
    /// The player's ring for endpoint tracks (nil when the schedule has none).
    var endpointRing: UnsafeMutablePointer<EndpointRing>?
    /// Beat and tempo for the host callbacks.
    var timeline: ScheduleTimeline
}

/// The shared words (atomics) and the render thread's own cursor.
///
/// Thread: the `shared` words are read and written with atomics by both sides; the rest is
/// the render thread's while the notification is installed, and the setup thread's otherwise.
struct PlayerRenderState {
    enum Word: Int { case published = 0, acknowledged, position }
    /// published: ScheduleView* bits; acknowledged: generation adopted; position: the low 16 bits
    /// of the generation played (bits 48…63) and the samples played into it (bits 0…47), in one
    /// word so that a reader never pairs one schedule's position with another's generation.
    var shared: UnsafeMutablePointer<UInt64>
    var current: UnsafeMutablePointer<ScheduleView>?
    /// Frames rendered since `current` was adopted: the head's cycles are the player's clock
    /// (counted, not read from time stamps, which offline callers do not always advance).
    var rendered: Int64 = 0
    var cursor: Int = 0
    /// Frames rendered before the cycle in progress, and whether it adopted a new schedule: what
    /// the host callbacks answer while the graph's units render this cycle.
    var cycleStart: Int64 = 0
    var adoptedThisCycle = false
    /// The host time of the cycle in progress (endpoint tracks' timestamps start from it).
    var cycleHostTime: UInt64 = 0

    static func make() -> UnsafeMutablePointer<PlayerRenderState> {
        let words = UnsafeMutablePointer<UInt64>.allocate(capacity: 3)
        words.initialize(repeating: 0, count: 3)
        let state = UnsafeMutablePointer<PlayerRenderState>.allocate(capacity: 1)
        state.initialize(to: PlayerRenderState(shared: words))
        return state
    }
}

extension UnsafeMutablePointer where Pointee == PlayerRenderState {
    // AUHostAtomics' functions are single lock-free instructions the checker cannot see into.
    @inline(__always) @_noAllocation @_noLocks
    func load(_ word: PlayerRenderState.Word) -> UInt64 {
        _unsafePerformance { auhost_atomic_load_u64(pointee.shared + word.rawValue) }
    }
    @inline(__always) @_noAllocation @_noLocks
    func store(_ word: PlayerRenderState.Word, _ value: UInt64) {
        _unsafePerformance { auhost_atomic_store_u64(pointee.shared + word.rawValue, value) }
    }
}

/// Sends a note-off for every note of `view` delivered before `cursor` whose note-off was not.
///
/// Thread: render (or setup once the notification is removed).
@_noAllocation @_noLocks
func releaseSoundingNotes(_ view: UnsafeMutablePointer<ScheduleView>, cursor: Int) {
    let entries = view.pointee.entries
    var i = 0
    while i < cursor {
        let e = entries[i]
        if e.pairedOff >= Int32(truncatingIfNeeded: cursor), e.endpoint != 0, let ring = view.pointee.endpointRing {
            pushEndpointMessage(ring, e.endpoint, 0x80 | (e.status & 0x0F), e.data1, 0, 0)
        }
        if e.pairedOff >= Int32(truncatingIfNeeded: cursor), let unit = e.unit {
            // The unit's MIDI queue is render-safe by MusicDeviceMIDIEvent's contract.
            _ = _unsafePerformance { MusicDeviceMIDIEvent(unit, UInt32(0x80 | (e.status & 0x0F)), UInt32(e.data1), 0, 0) }
        }
        i += 1
    }
}

/// The head's pre-render notification: adopts a newly published schedule, then delivers every
/// event whose sample falls in this cycle's [position, position + frames) at its offset.
///
/// Thread: render.
let musicPlayerRenderNotify: AURenderCallback = { refCon, flags, timeStamp, _, frames, _ in
    guard flags.pointee.contains(.unitRenderAction_PreRender) else { return noErr }
    let state = refCon.assumingMemoryBound(to: PlayerRenderState.self)
    let hostTimeValid = timeStamp.pointee.mFlags.rawValue & AudioTimeStampFlags.hostTimeValid.rawValue != 0
    state.pointee.cycleHostTime = hostTimeValid ? timeStamp.pointee.mHostTime : AudioGetCurrentHostTime()
    musicPlayerCycle(state, frames)
    return noErr
}

@_noAllocation @_noLocks
func musicPlayerCycle(_ state: UnsafeMutablePointer<PlayerRenderState>, _ frames: UInt32) {
    let published = UnsafeMutablePointer<ScheduleView>(bitPattern: UInt(state.load(.published)))
    state.pointee.adoptedThisCycle = published != state.pointee.current
    if published != state.pointee.current {
        if let old = state.pointee.current { releaseSoundingNotes(old, cursor: state.pointee.cursor) }
        state.pointee.current = published
        state.pointee.cursor = 0
        state.pointee.rendered = 0
        state.store(.acknowledged, published?.pointee.generation ?? 0)
    }
    guard let view = state.pointee.current else { return }
    let position = state.pointee.rendered
    state.pointee.cycleStart = position
    let end = position + Int64(frames)
    state.pointee.rendered = end
    let entries = view.pointee.entries
    let count = view.pointee.count
    var cursor = state.pointee.cursor
    while cursor < count, entries[cursor].sample < end {
        let e = entries[cursor]
        let offset = UInt32(truncatingIfNeeded: max(0, e.sample - position))
        if e.endpoint != 0, e.kind == .midi, let ring = view.pointee.endpointRing {
            let nanoseconds = Double(offset) * 1e9 / view.pointee.timeline.sampleRate + 0.5  // rounded (offset ≥ 0)
            pushEndpointMessage(ring, e.endpoint, e.status, e.data1, e.data2, state.pointee.cycleHostTime &+ UInt64(nanoseconds))
        }
        if let unit = e.unit {
            switch e.kind {
            case .midi:
                _ = _unsafePerformance { MusicDeviceMIDIEvent(unit, UInt32(e.status), UInt32(e.data1), UInt32(e.data2), offset) }
            case .sysEx:
                _ = _unsafePerformance {
                    MusicDeviceSysEx(
                        unit, view.pointee.pool.advanced(by: e.dataOffset).assumingMemoryBound(to: UInt8.self), UInt32(e.dataLength))
                }
            case .parameter:
                let p = e.parameter
                _ = _unsafePerformance { AudioUnitSetParameter(unit, p.parameterID, p.scope, p.element, p.value, offset) }
            case .user: break
            }
        }
        if e.kind == .user, let callback = view.pointee.userCallback, let sequence = view.pointee.sequence, let track = e.track {
            let data = view.pointee.pool.advanced(by: e.dataOffset).assumingMemoryBound(to: MusicEventUserData.self)
            _unsafePerformance { callback(view.pointee.userClientData, sequence, track, e.beat, data, e.beat, e.beat) }
        }
        cursor += 1
    }
    state.pointee.cursor = cursor
    state.store(.position, (view.pointee.generation & 0xFFFF) << 48 | (UInt64(bitPattern: end) & 0xFFFF_FFFF_FFFF))
}

import CAUHostAtomics
import CJACK

// How MIDITimeStamps (host nanoseconds) and JACK frames map to each other: a straight line at the
// server's sample rate through an anchor (a cycle's first frame and its host time by JACK's clock).
// JACK's own frame/time estimate (a delay-locked loop over the period wake-ups) wobbles with
// scheduling; a fixed line makes the mapping exact and the same in both directions, so a message
// sent at time t lands on frame(t) and one received on frame f carries hostTime(f). The process
// callback moves the anchor only when JACK's estimate has left the line by more than
// max(2 periods, 20 ms) (a device clock that drifts, a server that fell behind), or after 2^30
// frames; `generation` counts the moves.

/// The anchor, written by the process callback under a sequence count (odd while writing).
struct JACKMIDIClock {
    var sequence: UInt64 = 0
    var frame: UInt64 = 0
    var host: UInt64 = 0
    var generation: UInt64 = 0
    var rate: Double = 48_000
    var limitNs: Int64 = 20_000_000

    /// Frames from the anchor to host time `t` (rounded). Thread: any.
    @inline(__always)
    func framesFromAnchor(_ t: UInt64) -> Int64 {
        Int64((Double(Int64(bitPattern: t &- host)) * rate / 1e9).rounded())
    }

    /// Host time of the frame `frames` after the anchor (rounded ns). Thread: any.
    @inline(__always)
    func hostTime(framesFromAnchor frames: Int64) -> UInt64 {
        host &+ UInt64(bitPattern: Int64((Double(frames) * 1e9 / rate).rounded()))
    }
}

/// At the start of each cycle: anchors the line the first time, and again when JACK's estimate
/// left it. Thread: JACK's real-time thread.
@inline(__always)
func updateClock(_ clock: UnsafeMutablePointer<JACKMIDIClock>, _ client: OpaquePointer, _ cycleStart: jack_nframes_t, _ offsetNs: Int64) {
    let jackHost = UInt64(bitPattern: Int64(jack_frames_to_time(client, cycleStart)) * 1000 + offsetNs)
    let sinceAnchor = Int64(Int32(bitPattern: cycleStart &- jack_nframes_t(truncatingIfNeeded: clock.pointee.frame)))
    let onLine = clock.pointee.hostTime(framesFromAnchor: sinceAnchor)
    let off = Int64(bitPattern: jackHost &- onLine)
    guard clock.pointee.generation == 0 || abs(off) > clock.pointee.limitNs || sinceAnchor > 1 << 30 || sinceAnchor < 0 else { return }
    let sequence = auhost_atomic_load_u64(&clock.pointee.sequence)
    auhost_atomic_store_u64(&clock.pointee.sequence, sequence + 1)
    clock.pointee.frame = UInt64(cycleStart)
    clock.pointee.host = jackHost
    clock.pointee.generation += 1
    auhost_atomic_store_u64(&clock.pointee.sequence, sequence + 2)
}

/// A consistent copy of the anchor, from any thread but the process callback.
func readClock(_ clock: UnsafeMutablePointer<JACKMIDIClock>) -> JACKMIDIClock {
    while true {
        let before = auhost_atomic_load_u64(&clock.pointee.sequence)
        let copy = clock.pointee
        if before & 1 == 0, auhost_atomic_load_u64(&clock.pointee.sequence) == before { return copy }
    }
}

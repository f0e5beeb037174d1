import AUHostCore
import LV2Host

// Musical time for LV2 units: the host callbacks (kAudioUnitProperty_HostCallbacks) are asked at
// the start of each cycle, and a plug-in whose event input supports time:Position is sent one
// when the answer does not follow on from the last (the first cycle, a relocation, a change of
// tempo, meter or transport), at frame 0 of the cycle's first run, as jalv does from JACK's
// transport. A tempo change inside a cycle (AUHostTime.h: MusicPlayer tells where) splits the
// run there and is sent at the first frame of the second piece, so a plug-in that reads the
// position at the start of its run (DPF, JUCE) plays the new tempo from the right sample.
// Plug-ins run in fixed blocks from a FIFO take it at the next block.

/// What the unit last told its plug-in, and the position waiting for the next run.
struct LV2UnitTimeFollower {
    var known = false
    var last = HostMusicalContext(beat: 0, tempo: 120)
    var lastFrames = 0
    var pending: LV2TimePosition?
    /// Where the music was at this cycle's first frame (tempo changes inside it start from here).
    var cycleStart = HostMusicalContext(beat: 0, tempo: 120)
}

/// Asks the host where the music is and, when it does not follow on from the last answer,
/// leaves a time:Position for the cycle's first run.
///
/// Thread: render.
@_noAllocation @_noLocks
func lv2UnitFollowHostTime(_ r: UnsafeMutablePointer<LV2UnitRenderState>, _ au: UnsafeMutablePointer<RenderState>, frames: Int) {
    guard r.pointee.context.takesTimePosition, let now = au.hostMusicalContext() else { return }
    let follower = r.pointee.time
    let last = follower.last
    let advanced = last.isPlaying ? Double(follower.lastFrames) * last.tempo / 60 / au.pointee.sampleRate : 0
    let followsOn =
        follower.known && abs(now.beat - (last.beat + advanced)) < 1e-6 && now.tempo == last.tempo && now.isPlaying == last.isPlaying
        && now.numerator == last.numerator && now.denominator == last.denominator
    r.pointee.time.known = true
    r.pointee.time.last = now
    r.pointee.time.cycleStart = now
    r.pointee.time.lastFrames = frames
    if !followsOn { r.pointee.time.pending = lv2TimePosition(now) }
}

/// The first tempo change after frame `after` of this `frames`-frame cycle, when the plug-in
/// takes time:Position and the host says where its tempo changes.
///
/// Thread: render.
@_noAllocation @_noLocks
func lv2UnitNextTempoChange(
    _ r: UnsafeMutablePointer<LV2UnitRenderState>, _ au: UnsafeMutablePointer<RenderState>, after: Int, frames: Int
) -> (offset: Int, context: HostMusicalContext)? {
    guard r.pointee.context.takesTimePosition, r.pointee.time.known else { return nil }
    return au.hostTempoChange(after: after, frames: frames, from: r.pointee.time.cycleStart)
}

/// Leaves a time:Position for the run that starts at the tempo change, and follows on from it.
///
/// Thread: render.
@_noAllocation @_noLocks
func lv2UnitTempoChanged(_ r: UnsafeMutablePointer<LV2UnitRenderState>, _ context: HostMusicalContext, framesLeft: Int) {
    r.pointee.time.last = context
    r.pointee.time.lastFrames = framesLeft
    r.pointee.time.pending = lv2TimePosition(context)
}

/// LV2 Time's description of `context`: beats in the meter's note value (`beatUnit`), a quarter
/// note being the host callbacks' beat.
@_noAllocation @_noLocks
func lv2TimePosition(_ context: HostMusicalContext) -> LV2TimePosition {
    let perQuarter = Double(context.denominator) / 4
    let beatsPerBar = Double(context.numerator)
    return LV2TimePosition(
        frame: nearest(context.sampleInTimeLine), speed: context.isPlaying ? 1 : 0,
        bar: nearest(context.barStartBeat * perQuarter / beatsPerBar),
        barBeat: Float((context.beat - context.barStartBeat) * perQuarter), beat: context.beat * perQuarter,
        beatUnit: Int32(context.denominator), beatsPerBar: context.numerator, beatsPerMinute: Float(context.tempo * perQuarter))
}

/// `x` rounded half away from zero (clamped to Int64's range).
@_noAllocation @_noLocks
private func nearest(_ x: Double) -> Int64 {
    guard x.isFinite else { return 0 }
    return Int64(max(min(x + (x < 0 ? -0.5 : 0.5), 9.2e18), -9.2e18))
}

/// Queues the waiting time:Position, if any, at frame 0 of the run about to start.
///
/// Thread: render.
@inline(__always) @_noAllocation @_noLocks
func lv2UnitDeliverTime(_ r: UnsafeMutablePointer<LV2UnitRenderState>) {
    guard let position = r.pointee.time.pending else { return }
    r.pointee.time.pending = nil
    _ = lv2QueueTimePosition(r.pointee.context, frame: 0, position)
}

import AudioToolbox
import AUHostCore

// The host callbacks (kAudioUnitProperty_HostCallbacks) a player hands to every node of its
// sequence's graph: beat and tempo from the sequence's tempo map at the start of the cycle being
// rendered, the bar (4/4), and the transport. They read only the schedule the render thread
// adopted (immutable) and the render state's cycle start, written by the head's pre-render
// notification before any node renders.

/// A schedule's musical time: the tempo map flattened, where the schedule starts, how samples
/// turn into seconds, and whether it plays (the schedule Stop publishes stands still at its beat).
///
/// Thread: built on a setup thread, read on the render thread.
struct ScheduleTimeline {
    var segments: UnsafeMutablePointer<TempoMap.Segment>
    var segmentCount: Int
    var startSeconds: Double
    /// Seconds of the tempo map per sample rendered (play rate / sample rate).
    var secondsPerSample: Double
    var sampleRate: Double
    var playing: Bool

    /// Thread: setup.
    static func make(_ map: TempoMap, startBeat: Double, sampleRate: Double, rate: Double, playing: Bool) -> ScheduleTimeline {
        let segments = UnsafeMutablePointer<TempoMap.Segment>.allocate(capacity: map.segments.count)
        segments.initialize(from: map.segments, count: map.segments.count)
        return ScheduleTimeline(
            segments: segments, segmentCount: map.segments.count, startSeconds: map.seconds(forBeats: startBeat),
            secondsPerSample: rate / sampleRate, sampleRate: sampleRate, playing: playing)
    }

    /// Thread: setup.
    func free() { segments.deallocate() }

    /// The segment holding `seconds` (the first for negative times).
    @_noAllocation @_noLocks
    func segment(seconds: Double) -> TempoMap.Segment { segments[segmentIndex(seconds: seconds)] }

    /// The index of the segment holding `seconds` (binary search: a render-thread call on maps of
    /// any length).
    @_noAllocation @_noLocks
    func segmentIndex(seconds: Double) -> Int {
        var lo = 0, hi = segmentCount - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if segments[mid].seconds <= seconds { lo = mid } else { hi = mid - 1 }
        }
        return lo
    }

    /// The tempo map's seconds at the start of a cycle `played` samples into the schedule.
    @_noAllocation @_noLocks
    func seconds(afterSamples played: Int64) -> Double {
        playing ? startSeconds + Double(played) * secondsPerSample : startSeconds
    }
}

/// The schedule in force and the seconds at the start of this cycle; nil before the first Start.
@_noAllocation @_noLocks
private func timelineNow(_ userData: UnsafeMutableRawPointer?) -> (ScheduleTimeline, Double)? {
    guard let state = userData?.assumingMemoryBound(to: PlayerRenderState.self), let view = state.pointee.current else { return nil }
    let timeline = view.pointee.timeline
    return (timeline, timeline.seconds(afterSamples: state.pointee.cycleStart))
}

let musicPlayerBeatAndTempo: HostCallback_GetBeatAndTempo = { userData, outBeat, outTempo in
    guard let (timeline, seconds) = timelineNow(userData) else { return kAudioUnitErr_CannotDoInCurrentContext }
    let s = timeline.segment(seconds: seconds)
    outBeat?.pointee = s.beat + (seconds - s.seconds) / s.secondsPerBeat
    // Beats per minute of the time being rendered: the tempo map's, times the play rate.
    outTempo?.pointee = 60 / s.secondsPerBeat * timeline.secondsPerSample * timeline.sampleRate
    return noErr
}

/// Sequences here carry no meter: 4/4, bars from beat 0.
let musicPlayerMusicalTimeLocation: HostCallback_GetMusicalTimeLocation = {
    userData, outToNextBeat, outNumerator, outDenominator, outDownBeat in
    guard let (timeline, seconds) = timelineNow(userData) else { return kAudioUnitErr_CannotDoInCurrentContext }
    let s = timeline.segment(seconds: seconds)
    let beat = s.beat + (seconds - s.seconds) / s.secondsPerBeat
    if let outToNextBeat {
        // The next whole beat lies in this segment or at the start of a later one (tempo changes
        // fall on any beat); either way its seconds come from the segment that holds it.
        let next = beat.rounded(.down) + 1
        var holder = s
        var i = timeline.segmentIndex(seconds: seconds)  // the segments before it start earlier still
        while i < timeline.segmentCount, timeline.segments[i].beat <= next {
            holder = timeline.segments[i]
            i += 1
        }
        let samples = ((holder.seconds + (next - holder.beat) * holder.secondsPerBeat) - seconds) / timeline.secondsPerSample
        outToNextBeat.pointee = timeline.playing && samples.isFinite ? UInt32(max(0, min(samples.rounded(), Double(UInt32.max)))) : 0
    }
    outNumerator?.pointee = 4
    outDenominator?.pointee = 4
    outDownBeat?.pointee = (beat / 4).rounded(.down) * 4
    return noErr
}

let musicPlayerTransportState2: HostCallback_GetTransportState2 = {
    userData, outPlaying, outRecording, outChanged, outSample, outCycling, outCycleStart, outCycleEnd in
    guard let state = userData?.assumingMemoryBound(to: PlayerRenderState.self), let (timeline, seconds) = timelineNow(userData) else {
        return kAudioUnitErr_CannotDoInCurrentContext
    }
    outPlaying?.pointee = timeline.playing ? 1 : 0
    outRecording?.pointee = 0
    outChanged?.pointee = state.pointee.adoptedThisCycle ? 1 : 0
    outSample?.pointee = seconds * timeline.sampleRate
    outCycling?.pointee = 0
    outCycleStart?.pointee = 0
    outCycleEnd?.pointee = 0
    return noErr
}

let musicPlayerTransportState: HostCallback_GetTransportState = {
    userData, outPlaying, outChanged, outSample, outCycling, outCycleStart, outCycleEnd in
    musicPlayerTransportState2(userData, outPlaying, nil, outChanged, outSample, outCycling, outCycleStart, outCycleEnd)
}

/// AUHostTime.h's callback: the first segment of the tempo map that starts inside frames
/// (after, frames) of the cycle, as the first frame at its tempo (a change between two frames
/// belongs to the later one) with the beat and tempo there.
let musicPlayerTempoChange: AUHostCallback_GetTempoChange = { userData, after, frames, outOffset, outBeat, outTempo in
    guard let (timeline, seconds) = timelineNow(userData) else { return kAudioUnitErr_CannotDoInCurrentContext }
    outOffset.pointee = frames
    guard timeline.playing, timeline.secondsPerSample > 0 else { return noErr }
    let from = seconds + Double(after) * timeline.secondsPerSample
    let to = seconds + Double(frames) * timeline.secondsPerSample
    // From the segment holding `from` on (a binary search, not a walk from the start of the map).
    for i in timeline.segmentIndex(seconds: from)..<timeline.segmentCount {
        let segment = timeline.segments[i]
        guard segment.seconds > from else { continue }
        guard segment.seconds < to else { break }
        // 1e-6 of a frame: a change on a frame's time must not slip to the next one by rounding.
        let frame = ((segment.seconds - seconds) / timeline.secondsPerSample - 1e-6).rounded(.up)
        guard frame > Double(after), frame < Double(frames) else { continue }
        let at = seconds + frame * timeline.secondsPerSample
        let holder = timeline.segment(seconds: at)
        outOffset.pointee = UInt32(frame)
        outBeat.pointee = holder.beat + (at - holder.seconds) / holder.secondsPerBeat
        outTempo.pointee = 60 / holder.secondsPerBeat * timeline.secondsPerSample * timeline.sampleRate
        return noErr
    }
    return noErr
}

/// Hands the player's callbacks to every node of `graph` (nil `state`: takes them back). Units
/// that do not take the property are left as they are.
///
/// Thread: setup.
func installHostCallbacks(_ state: UnsafeMutablePointer<PlayerRenderState>?, in graph: AUGraph) {
    var info = HostCallbackInfo(
        hostUserData: state.map(UnsafeMutableRawPointer.init), beatAndTempoProc: musicPlayerBeatAndTempo,
        musicalTimeLocationProc: musicPlayerMusicalTimeLocation, transportStateProc: musicPlayerTransportState,
        transportStateProc2: musicPlayerTransportState2)
    var tempoChanges = AUHostTempoChangeInfo(hostUserData: state.map(UnsafeMutableRawPointer.init), tempoChangeProc: musicPlayerTempoChange)
    var count: UInt32 = 0
    guard AUGraphGetNodeCount(graph, &count) == noErr else { return }
    for i in 0..<count {
        var node: AUNode = 0
        var unit: AudioUnit?
        guard AUGraphGetIndNode(graph, i, &node) == noErr, AUGraphNodeInfo(graph, node, nil, &unit) == noErr, let unit,
            ComponentInstance.from(unit) != nil
        else { continue }
        if state == nil {
            AudioUnitSetProperty(unit, kAudioUnitProperty_HostCallbacks, kAudioUnitScope_Global, 0, nil, 0)
            AudioUnitSetProperty(unit, kAUHostProperty_TempoChangeCallback, kAudioUnitScope_Global, 0, nil, 0)
        } else {
            AudioUnitSetProperty(
                unit, kAudioUnitProperty_HostCallbacks, kAudioUnitScope_Global, 0, &info, UInt32(MemoryLayout<HostCallbackInfo>.size))
            AudioUnitSetProperty(
                unit, kAUHostProperty_TempoChangeCallback, kAudioUnitScope_Global, 0, &tempoChanges,
                UInt32(MemoryLayout<AUHostTempoChangeInfo>.size))
        }
    }
}

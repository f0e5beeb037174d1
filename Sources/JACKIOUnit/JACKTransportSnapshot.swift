import AUHostCore
import CJACK

/// The JACK transport as one cycle began (jack_transport_query at the top of the process
/// callback), in the terms the Audio Unit host callbacks answer in: quarter-note beats and
/// quarter-note tempo. Without a timebase master JACK gives only the frame and whether it rolls;
/// then the music is 120 BPM in 4/4 from frame 0.
struct JACKTransportSnapshot {
    var rolling = false
    var changed = false
    var frame: Double = 0
    var beat: Double = 0
    var tempo: Double = 120
    var beatsPerBar: Float = 4
    var beatType: UInt32 = 4
    var barStartBeat: Double = 0
    var cycles: UInt64 = 0

    /// Takes the transport for the cycle starting now.
    ///
    /// Thread: JACK's process thread.
    @_noAllocation @_noLocks
    mutating func update(from state: jack_transport_state_t, _ position: jack_position_t, sampleRate: Double) {
        let nowRolling = state == JackTransportRolling
        changed = cycles == 0 || nowRolling != rolling
        rolling = nowRolling
        cycles &+= 1
        frame = Double(position.frame)
        let hasBBT = position.valid.rawValue & JackPositionBBT.rawValue != 0
        if hasBBT, position.beats_per_bar > 0, position.beat_type > 0, position.ticks_per_beat > 0, position.beats_per_minute > 0 {
            let quartersPerBeat = 4 / Double(position.beat_type)
            let beatsBeforeBar = Double(position.bar - 1) * Double(position.beats_per_bar)
            let beatInBar = Double(position.beat - 1) + Double(position.tick) / position.ticks_per_beat
            beat = (beatsBeforeBar + beatInBar) * quartersPerBeat
            barStartBeat = beatsBeforeBar * quartersPerBeat
            tempo = position.beats_per_minute * quartersPerBeat
            beatsPerBar = position.beats_per_bar
            beatType = UInt32(position.beat_type)
        } else {
            tempo = 120
            beatsPerBar = 4
            beatType = 4
            beat = sampleRate > 0 ? frame / sampleRate * tempo / 60 : 0
            barStartBeat = Double(Int64(beat / 4)) * 4  // beat ≥ 0: frames count up from 0
        }
    }
}

extension UnsafeMutablePointer where Pointee == JACKIOContext {
    /// Callbacks answering from the transport of the cycle being rendered.
    ///
    /// Thread: any (the callbacks: render thread only).
    var hostCallbacks: HostCallbackInfo {
        HostCallbackInfo(
            hostUserData: UnsafeMutableRawPointer(self), beatAndTempoProc: jackBeatAndTempo,
            musicalTimeLocationProc: jackMusicalTimeLocation, transportStateProc: jackTransportState,
            transportStateProc2: jackTransportState2)
    }
}

private func snapshot(_ userData: UnsafeMutableRawPointer?) -> JACKTransportSnapshot? {
    userData?.assumingMemoryBound(to: JACKIOContext.self).pointee.transport
}

private let jackBeatAndTempo: HostCallback_GetBeatAndTempo = { userData, outBeat, outTempo in
    guard let t = snapshot(userData) else { return kAudioUnitErr_CannotDoInCurrentContext }
    outBeat?.pointee = t.beat
    outTempo?.pointee = t.tempo
    return noErr
}

private let jackMusicalTimeLocation: HostCallback_GetMusicalTimeLocation = {
    userData, outToNextBeat, outNumerator, outDenominator, outDownBeat in
    guard let t = snapshot(userData) else { return kAudioUnitErr_CannotDoInCurrentContext }
    let sampleRate = userData!.assumingMemoryBound(to: JACKIOContext.self).pointee.serverSampleRate
    let framesPerBeat = 60 / t.tempo * sampleRate
    let toNext = ((t.beat + 1).rounded(.down) - t.beat) * framesPerBeat
    outToNextBeat?.pointee = UInt32(max(0, min(toNext.rounded(), Double(UInt32.max))))
    outNumerator?.pointee = t.beatsPerBar
    outDenominator?.pointee = t.beatType
    outDownBeat?.pointee = t.barStartBeat
    return noErr
}

private let jackTransportState2: HostCallback_GetTransportState2 = {
    userData, outPlaying, outRecording, outChanged, outSample, outCycling, outCycleStart, outCycleEnd in
    guard let t = snapshot(userData) else { return kAudioUnitErr_CannotDoInCurrentContext }
    outPlaying?.pointee = t.rolling ? 1 : 0
    outRecording?.pointee = 0
    outChanged?.pointee = t.changed ? 1 : 0
    outSample?.pointee = t.frame
    outCycling?.pointee = 0
    outCycleStart?.pointee = 0
    outCycleEnd?.pointee = 0
    return noErr
}

private let jackTransportState: HostCallback_GetTransportState = {
    userData, outPlaying, outChanged, outSample, outCycling, outStart, outEnd in
    jackTransportState2(userData, outPlaying, nil, outChanged, outSample, outCycling, outStart, outEnd)
}

import AUHostCore

// A transport for hosts no MusicPlayer drives (AUGraphSetTempo, `auhost render --tempo`): the
// frames rendered are counted at the start of each cycle, and host callbacks answer beat, tempo,
// meter and transport from that count. A graph counts with a pre-render notification on its head.

/// The transport's render-side state: set up on a setup thread, then written only where cycles
/// begin (the head's notification, or a host's render loop) and read by the callbacks during the
/// same cycle.
public struct HostTransportState {
    var beatsPerMinute: Double
    var beatsPerBar: UInt32
    var beatUnit: UInt32
    var sampleRate: Double
    var rendered: Int64 = 0
    var cycleStart: Int64 = 0
    var cycles: UInt64 = 0

    /// A transport at `beatsPerMinute` in bars of `beatsPerBar` `beatUnit` notes, beat 0 at the
    /// first cycle. Free it with `deallocate()` once no unit holds its callbacks.
    ///
    /// Thread: setup.
    public static func make(beatsPerMinute: Double, beatsPerBar: UInt32, beatUnit: UInt32, sampleRate: Double)
        -> UnsafeMutablePointer<HostTransportState>
    {
        let state = UnsafeMutablePointer<HostTransportState>.allocate(capacity: 1)
        state.initialize(
            to: HostTransportState(beatsPerMinute: beatsPerMinute, beatsPerBar: beatsPerBar, beatUnit: beatUnit, sampleRate: sampleRate))
        return state
    }

    /// Starts a cycle of `frames` frames: the callbacks answer for its first frame.
    ///
    /// Thread: the one that renders, before the cycle's units render.
    @_noAllocation @_noLocks
    public mutating func beginCycle(frames: UInt32) {
        cycleStart = rendered
        rendered += Int64(frames)
        cycles += 1
    }

    /// Beats (quarter notes) at the start of the cycle in progress.
    var beat: Double {
        @_noAllocation @_noLocks get { Double(cycleStart) * beatsPerMinute / 60 / sampleRate }
    }
    /// Quarter notes in a bar.
    var quartersPerBar: Double {
        @_noAllocation @_noLocks get { Double(beatsPerBar) * 4 / Double(beatUnit) }
    }
}

let graphTransportNotify: AURenderCallback = { refCon, flags, _, _, frames, _ in
    guard flags.pointee.contains(.unitRenderAction_PreRender) else { return noErr }
    let state = refCon.assumingMemoryBound(to: HostTransportState.self)
    state.pointee.beginCycle(frames: frames)
    return noErr
}

extension UnsafeMutablePointer where Pointee == HostTransportState {
    /// The callbacks to hand units (kAudioUnitProperty_HostCallbacks), answering from this state.
    ///
    /// Thread: any.
    public var hostCallbacks: HostCallbackInfo {
        HostCallbackInfo(
            hostUserData: UnsafeMutableRawPointer(self), beatAndTempoProc: graphTransportBeatAndTempo,
            musicalTimeLocationProc: graphTransportMusicalTimeLocation, transportStateProc: graphTransportState,
            transportStateProc2: graphTransportState2)
    }
}

let graphTransportBeatAndTempo: HostCallback_GetBeatAndTempo = { userData, outBeat, outTempo in
    guard let state = userData?.assumingMemoryBound(to: HostTransportState.self) else { return kAudioUnitErr_CannotDoInCurrentContext }
    outBeat?.pointee = state.pointee.beat
    outTempo?.pointee = state.pointee.beatsPerMinute
    return noErr
}

let graphTransportMusicalTimeLocation: HostCallback_GetMusicalTimeLocation = {
    userData, outToNextBeat, outNumerator, outDenominator, outDownBeat in
    guard let state = userData?.assumingMemoryBound(to: HostTransportState.self) else { return kAudioUnitErr_CannotDoInCurrentContext }
    let s = state.pointee
    let beat = s.beat
    let framesPerBeat = 60 / s.beatsPerMinute * s.sampleRate
    let toNext = ((beat + 1).rounded(.down) - beat) * framesPerBeat
    outToNextBeat?.pointee = UInt32(max(0, min(toNext.rounded(), Double(UInt32.max))))
    outNumerator?.pointee = Float32(s.beatsPerBar)
    outDenominator?.pointee = s.beatUnit
    outDownBeat?.pointee = (beat / s.quartersPerBar).rounded(.down) * s.quartersPerBar
    return noErr
}

let graphTransportState2: HostCallback_GetTransportState2 = {
    userData, outPlaying, outRecording, outChanged, outSample, outCycling, outCycleStart, outCycleEnd in
    guard let state = userData?.assumingMemoryBound(to: HostTransportState.self) else { return kAudioUnitErr_CannotDoInCurrentContext }
    outPlaying?.pointee = 1
    outRecording?.pointee = 0
    outChanged?.pointee = state.pointee.cycles == 1 ? 1 : 0
    outSample?.pointee = Double(state.pointee.cycleStart)
    outCycling?.pointee = 0
    outCycleStart?.pointee = 0
    outCycleEnd?.pointee = 0
    return noErr
}

let graphTransportState: HostCallback_GetTransportState = { userData, outPlaying, outChanged, outSample, outCycling, outStart, outEnd in
    graphTransportState2(userData, outPlaying, nil, outChanged, outSample, outCycling, outStart, outEnd)
}

extension AudioGraph {
    /// AUGraphSetTempo: hands every node callbacks counting beats at `beatsPerMinute` from the
    /// next cycle, in bars of `beatsPerBar` `beatUnit` notes; 0 BPM takes them back.
    public func setTempo(_ beatsPerMinute: Double, beatsPerBar: UInt32 = 4, beatUnit: UInt32 = 4) throws {
        lock.lock()
        defer { lock.unlock() }
        if beatsPerMinute != 0 {
            guard beatsPerMinute.isFinite, beatsPerMinute > 0, beatsPerMinute <= 1_000 else {
                throw AudioError(
                    kAudio_ParamError, "A graph's tempo is more than 0 and at most 1000 BPM (or 0 for none), not \(beatsPerMinute).")
            }
            guard (1...64).contains(beatsPerBar), [1, 2, 4, 8, 16, 32].contains(beatUnit) else {
                throw AudioError(kAudio_ParamError, "A meter of \(beatsPerBar)/\(beatUnit): 1…64 beats of a 1, 2, 4, 8, 16 or 32 note.")
            }
        }
        let old = transport
        if let old { try removeRenderNotify(graphTransportNotify, UnsafeMutableRawPointer(old)) }
        transport = nil
        if beatsPerMinute != 0 {
            let fresh = HostTransportState.make(
                beatsPerMinute: beatsPerMinute, beatsPerBar: beatsPerBar, beatUnit: beatUnit, sampleRate: headSampleRate)
            transport = fresh
            try addRenderNotify(graphTransportNotify, UnsafeMutableRawPointer(fresh))
        }
        handTransportToNodes()
        // No render call can reach the old state now: the notification is off the head and every
        // unit's callbacks were replaced (both wait for render calls in progress).
        old?.deallocate()
    }

    /// Gives every node with a unit the transport's callbacks: the graph's own tempo, else the
    /// head's device transport (the JACK I/O unit's), else none. Called again at initialize, when
    /// the nodes' units and the head's rate are known.
    func handTransportToNodes() {
        let callbacks = transport?.hostCallbacks ?? headTransportCallbacks()
        for node in nodes {
            guard let unit = node.unit else { continue }
            if var info = callbacks {
                AudioUnitSetProperty(
                    unit, kAudioUnitProperty_HostCallbacks, kAudioUnitScope_Global, 0, &info, UInt32(MemoryLayout<HostCallbackInfo>.size))
            } else {
                AudioUnitSetProperty(unit, kAudioUnitProperty_HostCallbacks, kAudioUnitScope_Global, 0, nil, 0)
            }
        }
    }

    /// The callbacks a head whose device has a transport offers (AUHostJACK.h), or nil.
    func headTransportCallbacks() -> HostCallbackInfo? {
        guard let unit = head?.unit else { return nil }
        var info = HostCallbackInfo()
        var size = UInt32(MemoryLayout<HostCallbackInfo>.size)
        let status = AudioUnitGetProperty(unit, kAUHostJACKProperty_TransportHostCallbacks, kAudioUnitScope_Global, 0, &info, &size)
        return status == noErr ? info : nil
    }
}

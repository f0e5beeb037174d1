import AudioTypes

/// Where the music is at the start of the buffer being rendered, as the host's callbacks
/// (kAudioUnitProperty_HostCallbacks) answer: what tempo-synced units (delays, LFOs,
/// arpeggiators) and the LV2 units' time:Position read.
public struct HostMusicalContext: Equatable, Sendable {
    /// Beats from the start of the timeline (quarter notes in a MusicSequence).
    public var beat: Double
    /// Beats per minute.
    public var tempo: Double
    /// The time signature, and the beat on which the current bar began.
    public var numerator: Float = 4
    public var denominator: UInt32 = 4
    public var barStartBeat: Double = 0
    /// Whether the transport moves (false: the beat stands still).
    public var isPlaying: Bool = true
    /// Samples from the start of the timeline.
    public var sampleInTimeLine: Double = 0
    /// Whether the transport started, stopped or moved since the host was last asked.
    public var transportStateChanged: Bool = false
    /// Whether the host loops, and the beats its loop runs between.
    public var isCycling: Bool = false
    public var cycleStartBeat: Double = 0
    public var cycleEndBeat: Double = 0
    /// Whether the musical-time-location callback answered (else the meter is the 4/4 default),
    /// and whether a transport-state callback answered (else playing, sample 0, no loop).
    public var hasTimeSignature: Bool = false
    public var hasTransport: Bool = false

    public init(beat: Double, tempo: Double) {
        self.beat = beat
        self.tempo = tempo
    }
}

extension UnsafeMutablePointer where Pointee == RenderState {
    /// Asks the host's callbacks (the ones in force for this render call) where the music is.
    /// Nil when the host set none or its beat-and-tempo callback has no answer; the time
    /// signature and transport keep their defaults (4/4, playing) where those callbacks are
    /// missing or fail.
    ///
    /// Thread: render (the callbacks are render-safe by their contract).
    @_noAllocation @_noLocks
    public func hostMusicalContext() -> HostMusicalContext? {
        guard let configuration = pointee.channel.pointee.current else { return nil }
        let host = configuration.pointee.hostCallbacks
        guard let beatAndTempo = host.beatAndTempoProc else { return nil }
        var beat: Float64 = 0
        var tempo: Float64 = 0
        guard _unsafePerformance({ beatAndTempo(host.hostUserData, &beat, &tempo) }) == noErr, beat.isFinite, tempo.isFinite, tempo > 0
        else { return nil }
        var context = HostMusicalContext(beat: beat, tempo: tempo)
        if let location = host.musicalTimeLocationProc {
            var toNextBeat: UInt32 = 0
            var numerator: Float32 = 4
            var denominator: UInt32 = 4
            var downBeat: Float64 = 0
            let status = _unsafePerformance { location(host.hostUserData, &toNextBeat, &numerator, &denominator, &downBeat) }
            if status == noErr, numerator.isFinite, numerator > 0, denominator > 0, downBeat.isFinite {
                context.numerator = numerator
                context.denominator = denominator
                context.barStartBeat = downBeat
                context.hasTimeSignature = true
            }
        }
        // The newer callback when the host gives it; unwanted answers are NULL.
        var playing: UInt8 = 1
        var changed: UInt8 = 0
        var sample: Float64 = 0
        var cycling: UInt8 = 0
        var cycleStart: Float64 = 0
        var cycleEnd: Float64 = 0
        var status: OSStatus = kAudioUnitErr_InvalidProperty
        if let transport = host.transportStateProc2 {
            status = _unsafePerformance {
                transport(host.hostUserData, &playing, nil, &changed, &sample, &cycling, &cycleStart, &cycleEnd)
            }
        } else if let transport = host.transportStateProc {
            status = _unsafePerformance { transport(host.hostUserData, &playing, &changed, &sample, &cycling, &cycleStart, &cycleEnd) }
        }
        if status == noErr {
            context.isPlaying = playing != 0
            context.transportStateChanged = changed != 0
            context.sampleInTimeLine = sample.isFinite ? sample : 0
            context.isCycling = cycling != 0 && cycleStart.isFinite && cycleEnd.isFinite
            context.cycleStartBeat = context.isCycling ? cycleStart : 0
            context.cycleEndBeat = context.isCycling ? cycleEnd : 0
            context.hasTransport = true
        }
        return context
    }

    /// The first tempo change after frame `after` and before frame `frames` of this render call,
    /// from the host's kAUHostProperty_TempoChangeCallback (AUHostTime.h): the first frame at the
    /// new tempo and `start` (the cycle's context) carried there. Nil when the host set no such
    /// callback, it has no answer, or the tempo holds over the range.
    ///
    /// Thread: render.
    @_noAllocation @_noLocks
    public func hostTempoChange(after: Int, frames: Int, from start: HostMusicalContext) -> (offset: Int, context: HostMusicalContext)? {
        guard let configuration = pointee.channel.pointee.current, after >= 0, after < frames, frames <= Int(UInt32.max) else { return nil }
        let host = configuration.pointee.tempoChanges
        guard let proc = host.tempoChangeProc else { return nil }
        var offset: UInt32 = 0
        var beat: Float64 = 0
        var tempo: Float64 = 0
        let status = _unsafePerformance { proc(host.hostUserData, UInt32(after), UInt32(frames), &offset, &beat, &tempo) }
        guard status == noErr, Int(offset) > after, Int(offset) < frames, beat.isFinite, tempo.isFinite, tempo > 0 else { return nil }
        var context = start
        context.beat = beat
        context.tempo = tempo
        context.transportStateChanged = false
        context.sampleInTimeLine = start.sampleInTimeLine + Double(offset)
        let quartersPerBar = Double(start.numerator) * 4 / Double(start.denominator)
        let bars = (beat - start.barStartBeat) / quartersPerBar
        if bars.isFinite, abs(bars) < 1e15 {
            // Whole bars, rounded down (Int64 truncates toward zero).
            let whole = Double(Int64(bars)) - (bars < Double(Int64(bars)) ? 1 : 0)
            context.barStartBeat = start.barStartBeat + whole * quartersPerBar
        }
        return (Int(offset), context)
    }
}

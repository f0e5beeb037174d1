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
            }
        }
        // The newer callback when the host gives it; unwanted answers are NULL.
        var playing: UInt8 = 1
        var sample: Float64 = 0
        var status: OSStatus = kAudioUnitErr_InvalidProperty
        if let transport = host.transportStateProc2 {
            status = _unsafePerformance { transport(host.hostUserData, &playing, nil, nil, &sample, nil, nil, nil) }
        } else if let transport = host.transportStateProc {
            status = _unsafePerformance { transport(host.hostUserData, &playing, nil, &sample, nil, nil, nil) }
        }
        if status == noErr {
            context.isPlaying = playing != 0
            context.sampleInTimeLine = sample.isFinite ? sample : 0
        }
        return context
    }
}

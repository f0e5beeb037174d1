import AudioUnitBase

/// Where the host's music is at the first frame of the slice being processed: what a
/// tempo-synced delay, LFO or arpeggiator reads. It carries what Apple's host callbacks answer
/// (kAudioUnitProperty_HostCallbacks: beat and tempo, musical time location, transport state) and
/// what an LV2 host's time:Position says, read once per render call and carried to each slice.
/// The SDK also ends a slice where the host says the tempo changes (AUHostTime.h's tempo-change
/// callback, which MusicPlayer answers), so `tempo` holds for the whole slice and the new tempo
/// starts at its frame.
///
/// ```swift
/// let time = parameters.musicalContext
/// if time.providesBeatAndTempo {
///     let samplesPerBeat = 60 / time.tempo * sampleRate
///     let phase = time.beat(atFrame: i).truncatingRemainder(dividingBy: 1)   // 0..<1 within the beat
/// }
/// ```
///
/// Beats are quarter notes (a MusicSequence's beats, Apple's callbacks' beats) counted from the
/// start of the timeline. A host that answers nothing (no callbacks set, a plain AudioUnitRender
/// loop) gives ``notProvided``: every `provides…` flag false, tempo 0, beat 0, 4/4, playing.
///
/// Thread: any (a value; the SDK makes it on the render thread).
public struct MusicalContext: Equatable, Sendable {
    /// Whether the host answered beat and tempo. False: the other fields are the defaults.
    public var providesBeatAndTempo: Bool = false
    /// Whether the host answered the time signature and downbeat (else 4/4, bars from beat 0).
    public var providesTimeSignature: Bool = false
    /// Whether the host answered its transport state (else playing, sample time 0, no loop).
    public var providesTransport: Bool = false

    /// Beats (quarter notes) per minute; 0 when not provided.
    public var tempo: Double = 0
    /// Beats (quarter notes) from the start of the timeline at the slice's first frame.
    public var beat: Double = 0
    /// The time signature: `timeSignatureNumerator` notes of value 1/`timeSignatureDenominator`
    /// per bar.
    public var timeSignatureNumerator: Float = 4
    public var timeSignatureDenominator: UInt32 = 4
    /// The beat (quarter notes) on which the bar holding `beat` began (Apple's "downbeat").
    public var barStartBeat: Double = 0
    /// Whether the transport moves (false: `beat` and `sampleTime` stand still).
    public var isPlaying: Bool = true
    /// True in the first slice of a render call when the transport started, stopped or moved
    /// since the host was last asked.
    public var transportStateChanged: Bool = false
    /// Samples from the start of the timeline at the slice's first frame.
    public var sampleTime: Double = 0
    /// Whether the host loops, between `cycleStartBeat` and `cycleEndBeat`.
    public var isCycling: Bool = false
    public var cycleStartBeat: Double = 0
    public var cycleEndBeat: Double = 0
    /// The unit's sample rate (frames per second), for converting beats to frames.
    public var sampleRate: Double = 0

    /// What a kernel sees when the host gives no musical time.
    public static let notProvided = MusicalContext()

    /// Thread: any.
    public init() {}

    /// Beats (quarter notes) the music advances per frame: 0 when stopped or not provided.
    ///
    /// Thread: any.
    @inlinable
    public var beatsPerFrame: Double {
        @_noAllocation @_noLocks get {
            isPlaying && sampleRate > 0 ? tempo / 60 / sampleRate : 0
        }
    }

    /// The beat at frame `frame` of this slice (0 is the slice's first frame). Exact inside the
    /// slice: the tempo does not change within one.
    ///
    /// Thread: render.
    @inlinable @_noAllocation @_noLocks
    public func beat(atFrame frame: Int) -> Double { beat + Double(frame) * beatsPerFrame }

    /// Quarter notes per bar (4 in 4/4, 3 in 6/8).
    ///
    /// Thread: any.
    @inlinable
    public var beatsPerBar: Double {
        @_noAllocation @_noLocks get { Double(timeSignatureNumerator) * 4 / Double(timeSignatureDenominator) }
    }

    /// The bar holding `beat`, counted from 0 at the start of the timeline (LV2's time:bar).
    ///
    /// Thread: any.
    @inlinable
    public var bar: Int64 {
        @_noAllocation @_noLocks get {
            // Nearest whole bar (the bar start is a whole number of bars from beat 0).
            let bars = barStartBeat / beatsPerBar
            guard bars.isFinite, abs(bars) < 9e18 else { return 0 }
            return Int64(bars + (bars < 0 ? -0.5 : 0.5))
        }
    }

    /// Beats since the bar began, in the time signature's note value (LV2's time:barBeat: 0 ..< 6
    /// in 6/8).
    ///
    /// Thread: any.
    @inlinable
    public var beatInBar: Double {
        @_noAllocation @_noLocks get { (beat - barStartBeat) * Double(timeSignatureDenominator) / 4 }
    }
}

extension MusicalContext {
    /// The host's answer at frame 0 of a render call, for a unit running at `sampleRate`.
    ///
    /// Thread: render.
    @_noAllocation @_noLocks
    init(_ host: HostMusicalContext, sampleRate: Double) {
        providesBeatAndTempo = true
        providesTimeSignature = host.hasTimeSignature
        providesTransport = host.hasTransport
        tempo = host.tempo
        beat = host.beat
        timeSignatureNumerator = host.numerator
        timeSignatureDenominator = host.denominator
        barStartBeat = host.barStartBeat
        isPlaying = host.isPlaying
        transportStateChanged = host.transportStateChanged
        sampleTime = host.sampleInTimeLine
        isCycling = host.isCycling
        cycleStartBeat = host.cycleStartBeat
        cycleEndBeat = host.cycleEndBeat
        self.sampleRate = sampleRate
    }

    /// This context `frames` frames later at the same tempo: beat and sample time moved on (when
    /// playing), the bar start moved to the bar holding the new beat, the transport change kept
    /// only at the first frame.
    ///
    /// Thread: render.
    @_noAllocation @_noLocks
    func advanced(by frames: Int) -> MusicalContext {
        guard frames > 0, providesBeatAndTempo else { return self }
        var next = self
        next.transportStateChanged = false
        guard isPlaying else { return next }
        next.beat = beat(atFrame: frames)
        next.sampleTime = sampleTime + Double(frames)
        let perBar = beatsPerBar
        // Whole bars passed (truncation is the floor here: only forward moves count).
        let bars = (next.beat - barStartBeat) / perBar
        if bars.isFinite, bars >= 1, bars < 9e18 { next.barStartBeat = barStartBeat + Double(Int64(bars)) * perBar }
        return next
    }
}

/// The musical time of one render call as the SDK's render code follows it: the host's answer at
/// frame 0, the tempo change the host announced next, and the context from which slices are
/// measured (frame 0's, or the last tempo change's). Lives in the kernel's render memory.
struct MusicalTimeline {
    /// The context at `anchorFrame` of the current render call.
    var anchor = MusicalContext.notProvided
    var anchorFrame = 0
    /// The host's answer at frame 0 (tempo changes are measured from it).
    var cycleStart = HostMusicalContext(beat: 0, tempo: 120)
    /// The next tempo change inside the call (offset > anchorFrame), if the host announced one.
    var nextChangeOffset = Int.max
    var nextChange = HostMusicalContext(beat: 0, tempo: 120)
    /// Frames in the current render call.
    var cycleFrames = 0

    /// Asks the host where the music is at frame 0 of a `frames`-frame render call, and where its
    /// tempo first changes within it: once per render call, as Apple's units ask.
    ///
    /// Thread: render.
    @_noAllocation @_noLocks
    mutating func begin(_ au: UnsafeMutablePointer<RenderState>, frames: Int) {
        cycleFrames = frames
        anchorFrame = 0
        nextChangeOffset = Int.max
        guard let host = au.hostMusicalContext() else {
            anchor = MusicalContext.notProvided
            anchor.sampleRate = au.pointee.sampleRate
            return
        }
        cycleStart = host
        anchor = MusicalContext(host, sampleRate: au.pointee.sampleRate)
        findNextChange(au, after: 0)
    }

    /// The length of the slice starting at `position` (at most `count` frames): it ends at the
    /// next tempo change. At a tempo change, moves the anchor there and looks for the next one.
    ///
    /// Thread: render.
    @_noAllocation @_noLocks
    mutating func slice(_ au: UnsafeMutablePointer<RenderState>, at position: Int, count: Int) -> Int {
        if position == nextChangeOffset {
            anchor = MusicalContext(nextChange, sampleRate: anchor.sampleRate)
            anchor.transportStateChanged = false
            anchorFrame = position
            nextChangeOffset = Int.max
            findNextChange(au, after: position)
        }
        return nextChangeOffset > position ? min(count, nextChangeOffset - position) : count
    }

    /// The context at frame `position` of the render call.
    ///
    /// Thread: render.
    @_noAllocation @_noLocks
    func context(at position: Int) -> MusicalContext { anchor.advanced(by: position - anchorFrame) }

    @_noAllocation @_noLocks
    private mutating func findNextChange(_ au: UnsafeMutablePointer<RenderState>, after: Int) {
        guard anchor.providesBeatAndTempo, let change = au.hostTempoChange(after: after, frames: cycleFrames, from: cycleStart) else {
            return
        }
        nextChangeOffset = change.offset
        nextChange = change.context
    }
}

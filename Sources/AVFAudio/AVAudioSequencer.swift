import AudioToolbox
import Foundation

/// How a Standard MIDI File's tracks become sequencer tracks.
public struct AVMusicSequenceLoadOptions: OptionSet, Sendable {
    public let rawValue: UInt
    /// Thread: any.
    public init(rawValue: UInt) { self.rawValue = rawValue }
    /// The file's tracks as they are.
    public static let smf_PreserveTracks = AVMusicSequenceLoadOptions([])
    /// One track per MIDI channel.
    public static let smf_ChannelsToTracks = AVMusicSequenceLoadOptions(rawValue: 1)
}

/// A time in beats.
public typealias AVMusicTimeStamp = Double

/// One track of a sequencer (Apple's AVMusicTrack) over a MusicTrack.
///
/// Thread: setup.
public final class AVMusicTrack {
    let track: MusicTrack
    private weak var sequencer: AVAudioSequencer?
    private var destination: AVAudioUnit?

    init(track: MusicTrack, sequencer: AVAudioSequencer) {
        self.track = track
        self.sequencer = sequencer
    }

    /// The instrument the track plays (nil: the engine's first instrument).
    ///
    /// Thread: setup.
    public var destinationAudioUnit: AVAudioUnit? {
        get { destination }
        set {
            destination = newValue
            MusicTrackSetDestAudioUnit(track, newValue?.audioUnit)
        }
    }

    /// The track's length in beats.
    ///
    /// Thread: setup.
    public var lengthInBeats: AVMusicTimeStamp {
        get {
            var length: MusicTimeStamp = 0
            var size = UInt32(MemoryLayout<MusicTimeStamp>.size)
            MusicTrackGetProperty(track, kSequenceTrackProperty_TrackLength, &length, &size)
            return length
        }
        set {
            var length = newValue
            MusicTrackSetProperty(track, kSequenceTrackProperty_TrackLength, &length, UInt32(MemoryLayout<MusicTimeStamp>.size))
        }
    }

    /// Thread: setup.
    public var isMuted: Bool {
        get {
            var muted: UInt8 = 0
            var size = UInt32(1)
            MusicTrackGetProperty(track, kSequenceTrackProperty_MuteStatus, &muted, &size)
            return muted != 0
        }
        set {
            var muted: UInt8 = newValue ? 1 : 0
            MusicTrackSetProperty(track, kSequenceTrackProperty_MuteStatus, &muted, 1)
        }
    }
}

/// Plays Standard MIDI Files into an engine's instruments (Apple's AVAudioSequencer) over
/// MusicPlayer: the engine's graph is the sequence's AUGraph, and the player delivers each
/// cycle's events at their sample offsets from the output's pre-render notification.
///
/// Thread: setup for every member.
public final class AVAudioSequencer {
    private let engine: AVAudioEngine?
    private var sequence: MusicSequence?
    private var player: MusicPlayer?
    public private(set) var tracks: [AVMusicTrack] = []

    /// A sequencer that plays nowhere (load and inspect sequences).
    ///
    /// Thread: setup.
    public convenience init() { self.init(engine: nil) }

    /// A sequencer playing into `engine`'s instruments.
    ///
    /// Thread: setup.
    public convenience init(audioEngine engine: AVAudioEngine) { self.init(engine: engine) }

    private init(engine: AVAudioEngine?) {
        self.engine = engine
        NewMusicSequence(&sequence)
        NewMusicPlayer(&player)
        if let engine { MusicSequenceSetAUGraph(sequence!, engine.graphHandle) }
        MusicPlayerSetSequence(player!, sequence)
    }

    deinit {
        if let player {
            MusicPlayerStop(player)
            MusicPlayerSetSequence(player, nil)
            DisposeMusicPlayer(player)
        }
        if let sequence { DisposeMusicSequence(sequence) }
    }

    /// Replaces the sequence with a Standard MIDI File's.
    ///
    /// Thread: setup.
    public func load(from fileURL: URL, options: AVMusicSequenceLoadOptions = []) throws {
        let data = try Data(contentsOf: fileURL)
        try load(from: data, options: options)
    }

    /// Replaces the sequence with the Standard MIDI File in `data`.
    ///
    /// Thread: setup.
    public func load(from data: Data, options: AVMusicSequenceLoadOptions = []) throws {
        let cfData = data.withUnsafeBytes { CFDataCreate(nil, $0.bindMemory(to: UInt8.self).baseAddress, data.count)! }
        // A sequence a player holds cannot be replaced: the player lets go while it loads.
        MusicPlayerStop(player!)
        MusicPlayerSetSequence(player!, nil)
        defer { MusicPlayerSetSequence(player!, sequence) }
        try checkStatus(
            MusicSequenceFileLoadData(sequence!, cfData, .midiType, MusicSequenceLoadFlags(rawValue: UInt32(options.rawValue))),
            "The data is not a Standard MIDI File the sequencer can read")
        var count: UInt32 = 0
        MusicSequenceGetTrackCount(sequence!, &count)
        tracks = (0..<count).compactMap { i in
            var track: MusicTrack?
            MusicSequenceGetIndTrack(sequence!, i, &track)
            return track.map { AVMusicTrack(track: $0, sequencer: self) }
        }
    }

    /// The tempo track.
    ///
    /// Thread: setup.
    public var tempoTrack: AVMusicTrack {
        var track: MusicTrack?
        MusicSequenceGetTempoTrack(sequence!, &track)
        return AVMusicTrack(track: track!, sequencer: self)
    }

    /// Checks the destinations and readies the first events.
    ///
    /// Thread: setup.
    public func prepareToPlay() { MusicPlayerPreroll(player!) }

    /// Starts playing from ``currentPositionInBeats`` (the engine must have an instrument).
    ///
    /// Thread: setup.
    public func start() throws {
        guard engine != nil else {
            throw osStatusError(kAudioToolboxError_NoTrackDestination, "The sequencer has no engine: make it with init(audioEngine:)")
        }
        try checkStatus(MusicPlayerStart(player!), "The sequencer could not start")
    }

    /// Stops; sounding notes are released at the next cycle.
    ///
    /// Thread: setup.
    public func stop() { MusicPlayerStop(player!) }

    /// Thread: setup.
    public var isPlaying: Bool {
        var playing: DarwinBoolean = false
        MusicPlayerIsPlaying(player!, &playing)
        return playing.boolValue
    }

    /// Thread: setup.
    public var currentPositionInBeats: TimeInterval {
        get {
            var beats: MusicTimeStamp = 0
            MusicPlayerGetTime(player!, &beats)
            return beats
        }
        set { MusicPlayerSetTime(player!, newValue) }
    }

    /// Thread: setup.
    public var currentPositionInSeconds: TimeInterval {
        get { seconds(forBeats: currentPositionInBeats) }
        set { currentPositionInBeats = beats(forSeconds: newValue) }
    }

    /// The playback rate (1 = the tempo map's).
    ///
    /// Thread: setup.
    public var rate: Float {
        get {
            var r: Float64 = 1
            MusicPlayerGetPlayRateScalar(player!, &r)
            return Float(r)
        }
        set { MusicPlayerSetPlayRateScalar(player!, Float64(newValue)) }
    }

    /// Thread: setup.
    public func seconds(forBeats beats: AVMusicTimeStamp) -> TimeInterval {
        var s: Float64 = 0
        MusicSequenceGetSecondsForBeats(sequence!, beats, &s)
        return s
    }

    /// Thread: setup.
    public func beats(forSeconds seconds: TimeInterval) -> AVMusicTimeStamp {
        var b: MusicTimeStamp = 0
        MusicSequenceGetBeatsForSeconds(sequence!, seconds, &b)
        return b
    }
}

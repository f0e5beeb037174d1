import CAUHostAtomics
import AUHostCore
import AudioTypes
import Foundation

/// A music player: the sequence, the time and rate, and the schedules it has published to the
/// render thread through the graph's render notification.
///
/// Thread: setup (under `MusicServices.lock`).
final class PlayerModel {
    var sequence: SequenceModel? {
        didSet {
            oldValue?.players -= 1
            sequence?.players += 1
        }
    }
    /// Where playback starts (while stopped).
    var time: MusicTimeStamp = 0
    private(set) var rate: Double = 1
    private(set) var isPlaying = false
    let state = PlayerRenderState.make()
    private var attachedGraph: AUGraph?
    /// Published schedules the render thread may still read, by generation.
    private var live: [UInt64: PlaybackSchedule] = [:]
    private var generation: UInt64 = 0
    /// The Core MIDI sender of endpoint tracks (MusicTrackSetDestMIDIEndpoint), made when first needed.
    private var endpointSender: EndpointSender?
    /// The schedule last published (nil before the first Start).
    private var latest: PlaybackSchedule?

    var handle: MusicPlayer { MusicPlayer(Unmanaged.passUnretained(self).toOpaque()) }

    deinit {
        state.pointee.shared.deallocate()
        state.deallocate()
    }

    // MARK: Time

    /// The beat the render thread has reached (the time set, while stopped).
    var currentTime: MusicTimeStamp {
        guard isPlaying, let latest else { return time }
        let word = state.load(.position)
        let generation = word >> 48
        let samples = Int64(bitPattern: word & 0xFFFF_FFFF_FFFF)
        guard generation == latest.generation & 0xFFFF else { return latest.startBeat }  // not adopted yet
        return latest.beat(atSample: samples)
    }

    func setTime(_ beat: MusicTimeStamp) throws {
        guard beat.isFinite, beat >= 0 else {
            throw AudioError(kAudio_ParamError, "The player's time must be a finite beat ≥ 0 (got \(beat)).")
        }
        time = beat
        if isPlaying { try publish(from: beat) }
    }

    func setRate(_ rate: Double) throws {
        guard rate.isFinite, rate > 0 else { throw AudioError(kAudio_ParamError, "The play rate must be above 0 (got \(rate)).") }
        let now = currentTime
        self.rate = rate
        if isPlaying { try publish(from: now) }
    }

    // MARK: Transport

    /// Opens and initializes the graph, installs the notification, checks every destination.
    func preroll() throws {
        let (sequence, graph) = try sequenceAndGraph()
        try prepare(graph)
        _ = try makeSchedule(sequence, graph, from: time, generation: 0)
    }

    func start() throws {
        guard !isPlaying else { return }
        let (_, graph) = try sequenceAndGraph()
        try prepare(graph)
        try publish(from: time)
        isPlaying = true
        var running: DarwinBoolean = false
        try AudioError.check(AUGraphIsRunning(graph, &running), "AUGraphIsRunning")
        if !running.boolValue {
            let status = AUGraphStart(graph)
            if status != noErr {
                try? stop()
                throw AudioError(status, "The player could not start its graph: \(LastErrorMessage.current ?? "AUGraphStart failed").")
            }
        }
    }

    /// Stops; the render thread releases sounding notes at its next cycle.
    func stop() throws {
        guard isPlaying else { return }
        time = currentTime
        isPlaying = false
        generation += 1
        publish(PlaybackSchedule(generation: generation, stoppedAt: time, tempoMap: sequence?.tempoMap ?? TempoMap(tempos: [])))
    }

    /// Stops, removes the notification (so the render thread no longer runs it), releases what
    /// still sounds from this thread, and frees every schedule.
    func detach() {
        try? stop()
        guard let graph = attachedGraph else { return }
        AUGraphRemoveRenderNotify(graph, musicPlayerRenderNotify, UnsafeMutableRawPointer(state))
        installHostCallbacks(nil, in: graph)
        attachedGraph = nil
        if let current = state.pointee.current { releaseSoundingNotesOnLiveUnits(current, cursor: state.pointee.cursor) }
        state.pointee.current = nil
        state.pointee.cursor = 0
        state.store(.published, 0)
        state.store(.acknowledged, 0)
        live.removeAll()
        latest = nil
    }

    // MARK: Internals

    /// releaseSoundingNotes for a setup thread, skipping units already disposed (an application
    /// may dispose its graph before the player).
    private func releaseSoundingNotesOnLiveUnits(_ view: UnsafeMutablePointer<ScheduleView>, cursor: Int) {
        for i in 0..<cursor {
            let e = view.pointee.entries[i]
            guard e.pairedOff >= Int32(truncatingIfNeeded: cursor), let unit = e.unit, ComponentInstance.from(unit) != nil else { continue }
            MusicDeviceMIDIEvent(unit, UInt32(0x80 | (e.status & 0x0F)), UInt32(e.data1), 0, 0)
        }
    }

    private func sequenceAndGraph() throws -> (SequenceModel, AUGraph) {
        guard let sequence else { throw AudioError(kAudioToolboxErr_NoSequence, "The player has no sequence (MusicPlayerSetSequence).") }
        guard let graph = sequence.graph else {
            throw AudioError(
                kAudioToolboxError_NoTrackDestination,
                "The sequence has no graph to play to: AUHost creates no default graph; call MusicSequenceSetAUGraph with a graph holding an instrument ('aumu') node."
            )
        }
        return (sequence, graph)
    }

    private func prepare(_ graph: AUGraph) throws {
        if attachedGraph != graph {
            detach()
            var initialized: DarwinBoolean = false
            try AudioError.check(AUGraphIsInitialized(graph, &initialized), "AUGraphIsInitialized")
            if !initialized.boolValue {
                let status = AUGraphInitialize(graph)
                guard status == noErr else {
                    throw AudioError(
                        status, "The player could not initialize its graph: \(LastErrorMessage.current ?? "AUGraphInitialize failed").")
                }
            }
            try AudioError.check(
                AUGraphAddRenderNotify(graph, musicPlayerRenderNotify, UnsafeMutableRawPointer(state)),
                LastErrorMessage.current ?? "AUGraphAddRenderNotify failed")
            attachedGraph = graph
        }
        // Every time: nodes added since the last Start get them too.
        installHostCallbacks(state, in: graph)
    }

    private func publish(from beat: MusicTimeStamp) throws {
        let (sequence, graph) = try sequenceAndGraph()
        generation += 1
        publish(try makeSchedule(sequence, graph, from: beat, generation: generation))
    }

    private func publish(_ schedule: PlaybackSchedule) {
        live[schedule.generation] = schedule
        latest = schedule
        state.store(.published, UInt64(UInt(bitPattern: schedule.view)))
        // The render thread holds only the schedule it acknowledged last (or the one it is about to
        // adopt, published later): every older generation is free.
        let acknowledged = state.load(.acknowledged)
        for g in live.keys where g < acknowledged { live[g] = nil }
    }

    private func makeSchedule(_ sequence: SequenceModel, _ graph: AUGraph, from beat: MusicTimeStamp, generation: UInt64) throws
        -> PlaybackSchedule
    {
        let nodes = try GraphNodes(graph)
        if endpointSender == nil, sequence.tracks.contains(where: { $0.destEndpoint != 0 }) { endpointSender = try EndpointSender() }
        return try PlaybackSchedule(
            sequence: sequence, startBeat: beat, sampleRate: nodes.sampleRate, rate: rate, generation: generation,
            endpointRing: endpointSender?.ring
        ) { track in try nodes.unit(for: track) }
    }
}

/// The graph's nodes as the player needs them: the head's sample rate, each track's unit.
///
/// Thread: setup.
struct GraphNodes {
    let graph: AUGraph
    let sampleRate: Double
    let firstInstrument: AUNode?

    init(_ graph: AUGraph) throws {
        self.graph = graph
        var count: UInt32 = 0
        try AudioError.check(AUGraphGetNodeCount(graph, &count), "AUGraphGetNodeCount")
        var head: AudioUnit?
        var instrument: AUNode?
        for i in 0..<count {
            var node: AUNode = 0
            var desc = AudioComponentDescription()
            var unit: AudioUnit?
            guard AUGraphGetIndNode(graph, i, &node) == noErr, AUGraphNodeInfo(graph, node, &desc, &unit) == noErr else { continue }
            if desc.componentType == kAudioUnitType_Output { head = unit }
            if desc.componentType == kAudioUnitType_MusicDevice && instrument == nil { instrument = node }
        }
        guard let head else {
            throw AudioError(
                kAUGraphErr_OutputNodeErr, "The sequence's graph has no output unit; the player follows the output unit's render cycles.")
        }
        var format = AudioStreamBasicDescription()
        var size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
        try AudioError.check(
            AudioUnitGetProperty(head, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Input, 0, &format, &size),
            "The output unit's input stream format could not be read.")
        guard format.mSampleRate > 0 else { throw AudioError(kAudioUnitErr_FormatNotSupported, "The output unit has no sample rate.") }
        sampleRate = format.mSampleRate
        firstInstrument = instrument
    }

    func unit(for track: SequenceTrack) throws -> AudioUnit {
        if let unit = track.destUnit { return unit }
        guard let node = track.destNode ?? firstInstrument else {
            throw AudioError(
                kAudioToolboxError_NoTrackDestination,
                "A track with events has no destination: the graph holds no instrument ('aumu') node; call MusicTrackSetDestNode.")
        }
        var unit: AudioUnit?
        guard AUGraphNodeInfo(graph, node, nil, &unit) == noErr, let unit else {
            throw AudioError(
                kAudioToolboxErr_IllegalTrackDestination, "The track's destination node \(node) is not in the sequence's graph.")
        }
        return unit
    }
}

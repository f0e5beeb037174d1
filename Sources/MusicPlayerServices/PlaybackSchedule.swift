import AudioTypes
import Foundation

/// A sequence's events from a start beat, resolved to units and to samples, sorted, in memory the
/// render thread reads without allocating (`ScheduleView`). Built on a setup thread; immutable
/// once published; freed by the player once the render thread has moved past it.
///
/// Thread: setup.
final class PlaybackSchedule {
    let view: UnsafeMutablePointer<ScheduleView>
    let startBeat: MusicTimeStamp
    let startSeconds: Double
    let sampleRate: Double
    let rate: Double
    let tempoMap: TempoMap

    /// The most events one schedule holds (looped passes count; a track looping for ever stops
    /// repeating at half of it). 1,000,000 is 10 times the densest MIDI files (a schedule of
    /// 4,000,000 took 4 s to build in a debug build and more than 10 s under AddressSanitizer,
    /// on every Start and SetTime). Lowered only by ``musicPlayerSetMaximumScheduledEvents(_:)``.
    nonisolated(unsafe) static var maximumEvents = defaultMaximumEvents
    static let defaultMaximumEvents = 1_000_000
    /// How often a track looping for ever is repeated.
    static let foreverLoops = 10_000

    var generation: UInt64 { view.pointee.generation }

    /// An empty schedule standing still at `beat` (Stop publishes one so the render thread
    /// releases what sounds, and the host callbacks answer the beat where it stopped).
    init(generation: UInt64, stoppedAt beat: MusicTimeStamp = 0, tempoMap map: TempoMap = TempoMap(tempos: [])) {
        view = .allocate(capacity: 1)
        view.initialize(
            to: ScheduleView(
                entries: .allocate(capacity: 1), count: 0, pool: .allocate(byteCount: 1, alignment: 8), generation: generation,
                timeline: .make(map, startBeat: beat, sampleRate: 1, rate: 1, playing: false)))
        startBeat = beat
        startSeconds = map.seconds(forBeats: beat)
        sampleRate = 1
        rate = 1
        tempoMap = map
    }

    /// Every event of `sequence`'s playing tracks at or after `startBeat`.
    /// `destination` gives each track's unit (throws when a track with events has none); tracks
    /// with a MIDI endpoint play to it through `endpointRing` instead.
    init(
        sequence: SequenceModel, startBeat: MusicTimeStamp, sampleRate: Double, rate: Double, generation: UInt64,
        endpointRing: UnsafeMutablePointer<EndpointRing>? = nil, destination: (SequenceTrack) throws -> AudioUnit
    ) throws {
        let map = sequence.tempoMap
        let startSeconds = map.seconds(forBeats: startBeat)
        func sample(_ beat: Double) -> Int64 { PlaybackSchedule.sample(((map.seconds(forBeats: beat) - startSeconds) * sampleRate / rate)) }
        // Entries in the order they are made (a note-on's `pairedOff` is that order's index of its
        // note-off, the entry made right after it, until the sort renumbers them) and their sort keys.
        var staged: [ScheduledEvent] = []
        var keys: [SortKey] = []
        var pool: [UInt8] = []
        func stage(_ e: ScheduledEvent, rank: UInt64) {
            keys.append(SortKey(e.sample, rank: rank, order: staged.count))
            staged.append(e)
        }
        let soloing = sequence.tracks.contains { $0.soloed }
        let tracks = sequence.tracks.filter { !$0.muted && (!soloing || $0.soloed) && !$0.events.isEmpty }
        let plans = try tracks.map { track in
            let endpoint = endpointRing == nil ? 0 : track.destEndpoint
            return TrackPlan(
                track, startBeat: startBeat, unit: endpoint != 0 ? nil : try destination(track), endpoint: endpoint, pool: &pool)
        }
        let cap = PlaybackSchedule.maximumEvents + 2
        let bound = plans.reduce(0) { min($0 + min($1.entryBound, cap), cap) }
        staged.reserveCapacity(bound)
        keys.reserveCapacity(bound)
        for plan in plans {
            passes: for pass in plan.passes {
                let shift = plan.offset + Double(pass) * plan.loopDuration
                for template in pass == 0 ? plan.templates[...] : plan.templates[plan.loopRange] {
                    let beat = template.time + shift
                    guard beat >= startBeat else { continue }
                    var e = template.event
                    e.sample = sample(beat)
                    e.beat = beat
                    if template.duration >= 0 {
                        var off = template.off
                        off.sample = sample(beat + template.duration)
                        e.pairedOff = Int32(staged.count + 1)
                        stage(e, rank: 1)
                        stage(off, rank: off.sample == e.sample ? 2 : 0)
                    } else {
                        stage(e, rank: 1)
                    }
                    guard staged.count <= PlaybackSchedule.maximumEvents else {
                        throw AudioError(
                            kAudio_MemFullError,
                            "The sequence plays more than \(PlaybackSchedule.maximumEvents) events (looped tracks count each pass).")
                    }
                }
                if staged.count > PlaybackSchedule.maximumEvents / 2 && plan.loopsForever { break passes }
            }
        }
        // Sample order; at one sample note-offs first (unless their own note starts there), then
        // the order the tracks and events were given in.
        keys.sort()
        var position = [Int32](repeating: 0, count: keys.count)
        for (newIndex, key) in keys.enumerated() { position[key.order] = Int32(newIndex) }
        let buffer = UnsafeMutablePointer<ScheduledEvent>.allocate(capacity: max(1, staged.count))
        for (newIndex, key) in keys.enumerated() {
            var e = staged[key.order]
            if e.pairedOff >= 0 { e.pairedOff = position[Int(e.pairedOff)] }
            (buffer + newIndex).initialize(to: e)
        }
        let poolMemory = UnsafeMutableRawPointer.allocate(byteCount: max(8, pool.count), alignment: 8)
        pool.withUnsafeBytes { if let base = $0.baseAddress { poolMemory.copyMemory(from: base, byteCount: $0.count) } }
        view = .allocate(capacity: 1)
        view.initialize(
            to: ScheduleView(
                entries: buffer, count: staged.count, pool: poolMemory, generation: generation, sequence: sequence.handle,
                userCallback: sequence.userCallback, userClientData: sequence.userClientData, endpointRing: endpointRing,
                timeline: .make(map, startBeat: startBeat, sampleRate: sampleRate, rate: rate, playing: true)))
        self.startBeat = startBeat
        self.startSeconds = startSeconds
        self.sampleRate = sampleRate
        self.rate = rate
        self.tempoMap = map
    }

    deinit {
        view.pointee.timeline.free()
        view.pointee.entries.deinitialize(count: view.pointee.count)
        view.pointee.entries.deallocate()
        view.pointee.pool.deallocate()
        view.deinitialize(count: 1)
        view.deallocate()
    }

    /// Samples past ``horizon`` (2^53: 190 years at 1.5 MHz) are never reached; a time that far
    /// (a huge beat, note duration or loop, a tiny tempo or play rate) is scheduled at the horizon
    /// instead of trapping in Int64(_:), and a NaN (∞ − ∞ from such a tempo map) too.
    static let horizon = Double(1 << 53)

    /// `samples`, rounded and clamped to ±``horizon``. Thread: any.
    static func sample(_ samples: Double) -> Int64 {
        let rounded = samples.rounded()
        guard !rounded.isNaN else { return Int64(horizon) }
        return Int64(min(max(rounded, -horizon), horizon))
    }

    /// The beat `samples` into this schedule.
    func beat(atSample samples: Int64) -> MusicTimeStamp {
        tempoMap.beats(forSeconds: startSeconds + Double(samples) * rate / sampleRate)
    }
}

/// Lowers (or restores) the schedule bound for a fuzzing process: a million-event schedule takes
/// a second to build under AddressSanitizer, which holds a campaign to a few inputs a second; a
/// lower bound reaches the same code, the bound's own error included.
///
/// Thread: setup, before any sequence is played.
@_spi(Fuzzing) public func musicPlayerSetMaximumScheduledEvents(_ count: Int) {
    PlaybackSchedule.maximumEvents = max(2, min(count, PlaybackSchedule.defaultMaximumEvents))
}

/// An entry's place in the schedule: its sample, then its rank at that sample (0: a note-off whose
/// note starts earlier, 1: anything else, 2: a note-off at its own note's sample), then the order
/// it was made in (which also names it).
struct SortKey: Comparable {
    let sample: Int64
    let tie: UInt64

    init(_ sample: Int64, rank: UInt64, order: Int) {
        self.sample = sample
        tie = rank << 32 | UInt64(order)
    }

    var order: Int { Int(truncatingIfNeeded: tie & 0xFFFF_FFFF) }

    static func < (a: SortKey, b: SortKey) -> Bool { a.sample < b.sample || (a.sample == b.sample && a.tie < b.tie) }
}

/// One track's events decoded once into schedule entries (however many loop passes play them),
/// and the passes to walk from a start beat.
///
/// Thread: setup.
struct TrackPlan {
    /// A playable event: its entry (a note's note-on) without sample and beat; a note's note-off
    /// and duration (-1 for anything else).
    struct Template {
        var time: MusicTimeStamp
        var event: ScheduledEvent
        var off: ScheduledEvent
        var duration: Double
    }
    let templates: [Template]
    /// The templates inside the loop range [length − loopDuration, length): passes after the first play only these.
    let loopRange: Range<Int>
    let offset: MusicTimeStamp
    let loopDuration: MusicTimeStamp
    let loopsForever: Bool
    /// Pass 0, then the loop passes that can reach the start beat: 2^31 loops (or a start at beat
    /// 1e300) must not mean 2^31 walks over the track.
    let passes: FlattenSequence<[Range<Int>]>
    /// At most this many entries come from the track.
    let entryBound: Int

    /// `pool` receives raw-data and user events' bytes (once, however many passes play them).
    init(_ track: SequenceTrack, startBeat: MusicTimeStamp, unit: AudioUnit?, endpoint: MIDIEndpointRef, pool: inout [UInt8]) {
        let length = track.length
        let loop = track.loopInfo
        let loopStart = length - loop.loopDuration
        offset = track.offset
        loopDuration = loop.loopDuration
        loopsForever = loop.numberOfLoops == 0
        var templates: [Template] = []
        var loopStartIndex = 0, loopEndIndex = 0
        for event in track.events {
            guard let template = Self.template(event, track: track, unit: unit, endpoint: endpoint, pool: &pool) else { continue }
            templates.append(template)
            if event.time < loopStart { loopStartIndex = templates.count }
            if event.time < length { loopEndIndex = templates.count }
        }
        self.templates = templates
        loopRange = loopStartIndex..<max(loopStartIndex, loopEndIndex)
        let repeats = loop.loopDuration > 0 ? (loopsForever ? PlaybackSchedule.foreverLoops : Int(max(1, loop.numberOfLoops))) : 1
        // A start no pass reaches (beyond every pass, or a NaN or infinite beat that SetPlayRate's
        // current time gives with a hostile tempo map) skips them all: walking 2^31 passes that
        // each add nothing hung the player.
        let skipped = ((startBeat - track.offset - length) / loop.loopDuration).rounded(.down)
        let passesBefore = skipped.isNaN ? Double(repeats) : skipped
        let firstLoopPass = passesBefore > 1 ? Int(min(passesBefore, Double(repeats))) : 1
        let loopPasses = loop.loopDuration <= 0 || loopRange.isEmpty ? 0 : max(0, repeats - firstLoopPass)
        passes = [0..<1, firstLoopPass..<(firstLoopPass + loopPasses)].joined()
        func entries(_ c: ArraySlice<Template>) -> Int { c.reduce(0) { $0 + ($1.duration >= 0 ? 2 : 1) } }
        let (product, overflow) = entries(templates[loopRange]).multipliedReportingOverflow(by: loopPasses)
        entryBound = entries(templates[...]) + (overflow ? Int.max / 2 : product)
    }

    /// The entry `event` makes, nil for events the player does not play (meta, tempo).
    static func template(_ event: MusicEvent, track: SequenceTrack, unit: AudioUnit?, endpoint: MIDIEndpointRef, pool: inout [UInt8])
        -> Template?
    {
        var e = ScheduledEvent(sample: 0, unit: unit, kind: .midi)
        e.endpoint = endpoint
        var off = e
        var duration = -1.0
        if let n = event.note {
            e.status = 0x90 | n.channel
            e.data1 = n.note
            e.data2 = n.velocity
            off.status = 0x80 | n.channel
            off.data1 = n.note
            off.data2 = n.releaseVelocity
            duration = Double(n.duration)
        } else if let m = event.channelMessage {
            e.status = m.status
            e.data1 = m.data1
            e.data2 = m.data2
        } else if let p = event.parameterEvent {
            e.kind = .parameter
            e.parameter = p
        } else if event.type == UInt32(kMusicEventType_MIDIRawData) || event.type == UInt32(kMusicEventType_User) {
            let user = event.type == UInt32(kMusicEventType_User)
            e.kind = user ? .user : .sysEx
            e.track = track.handle
            while pool.count % 8 != 0 { pool.append(0) }
            e.dataOffset = pool.count + (user ? 0 : 4)
            e.dataLength = event.data.count
            pool += UnsafeRawBufferPointer(start: event.bytes, count: event.size)
        } else {
            return nil
        }
        return Template(time: event.time, event: e, off: off, duration: duration)
    }
}

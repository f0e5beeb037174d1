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
    /// on every Start and SetTime).
    static let maximumEvents = 1_000_000
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
        var entries: [(event: ScheduledEvent, rank: Int, order: Int, pair: Int)] = []
        var pool: [UInt8] = []
        // Where each raw-data or user event's bytes are in `pool`: kept once, however many loop
        // passes play the event (they were appended again on every pass).
        var poolOffsets: [ObjectIdentifier: Int] = [:]
        let soloing = sequence.tracks.contains { $0.soloed }
        for track in sequence.tracks where !track.muted && (!soloing || track.soloed) && !track.events.isEmpty {
            let endpoint = endpointRing == nil ? 0 : track.destEndpoint
            let unit: AudioUnit? = endpoint != 0 ? nil : try destination(track)
            let length = track.length
            let loop = track.loopInfo
            let loopStart = length - loop.loopDuration
            let repeats =
                loop.loopDuration > 0 ? (loop.numberOfLoops == 0 ? PlaybackSchedule.foreverLoops : Int(max(1, loop.numberOfLoops))) : 1
            // Passes after the first walk only the loop's events, none when the loop range is
            // empty, and start at the first pass that can reach `startBeat`: 2^31 loops (or a
            // start at beat 1e300) must not mean 2^31 walks over the track.
            let loopEvents = track.events.filter { $0.time >= loopStart && $0.time < length }
            let skipped = ((startBeat - track.offset - length) / loop.loopDuration).rounded(.down)
            let firstLoopPass = skipped.isFinite && skipped > 1 ? Int(min(skipped, Double(repeats))) : 1
            passes: for pass in [0..<1, firstLoopPass..<max(firstLoopPass, repeats)].joined() {
                let shift = track.offset + Double(pass) * loop.loopDuration
                for event in pass == 0 ? track.events : loopEvents {
                    let beat = event.time + shift
                    guard beat >= startBeat else { continue }
                    let order = entries.count
                    var e = ScheduledEvent(sample: sample(beat), unit: unit, kind: .midi)
                    e.endpoint = endpoint
                    e.beat = beat
                    if let n = event.note {
                        e.status = 0x90 | n.channel
                        e.data1 = n.note
                        e.data2 = n.velocity
                        let offSample = sample(beat + Double(n.duration))
                        entries.append((e, 1, order, order + 1))
                        var off = ScheduledEvent(sample: offSample, unit: unit, kind: .midi)
                        off.endpoint = endpoint
                        off.status = 0x80 | n.channel
                        off.data1 = n.note
                        off.data2 = n.releaseVelocity
                        entries.append((off, offSample == e.sample ? 2 : 0, order + 1, -1))
                    } else if let m = event.channelMessage {
                        e.status = m.status
                        e.data1 = m.data1
                        e.data2 = m.data2
                        entries.append((e, 1, order, -1))
                    } else if let p = event.parameterEvent {
                        e.kind = .parameter
                        e.parameter = p
                        entries.append((e, 1, order, -1))
                    } else if event.type == UInt32(kMusicEventType_MIDIRawData) || event.type == UInt32(kMusicEventType_User) {
                        let user = event.type == UInt32(kMusicEventType_User)
                        e.kind = user ? .user : .sysEx
                        e.track = track.handle
                        let start: Int
                        if let known = poolOffsets[ObjectIdentifier(event)] {
                            start = known
                        } else {
                            while pool.count % 8 != 0 { pool.append(0) }
                            start = pool.count
                            pool += UnsafeRawBufferPointer(start: event.bytes, count: event.size)
                            poolOffsets[ObjectIdentifier(event)] = start
                        }
                        e.dataOffset = start + (user ? 0 : 4)
                        e.dataLength = event.data.count
                        entries.append((e, 1, order, -1))
                    }
                    guard entries.count <= PlaybackSchedule.maximumEvents else {
                        throw AudioError(
                            kAudio_MemFullError,
                            "The sequence plays more than \(PlaybackSchedule.maximumEvents) events (looped tracks count each pass).")
                    }
                }
                if loop.loopDuration <= 0 || loopEvents.isEmpty { break passes }
                if entries.count > PlaybackSchedule.maximumEvents / 2 && loop.numberOfLoops == 0 { break passes }
            }
        }
        // Sample order; at one sample note-offs first (unless their own note starts there), then
        // the order the tracks and events were given in.
        let order = entries.indices.sorted {
            (entries[$0].event.sample, entries[$0].rank, entries[$0].order) < (
                entries[$1].event.sample, entries[$1].rank, entries[$1].order
            )
        }
        var position = [Int](repeating: 0, count: entries.count)
        for (newIndex, oldIndex) in order.enumerated() { position[oldIndex] = newIndex }
        let buffer = UnsafeMutablePointer<ScheduledEvent>.allocate(capacity: max(1, entries.count))
        for (newIndex, oldIndex) in order.enumerated() {
            var e = entries[oldIndex].event
            let pair = entries[oldIndex].pair
            e.pairedOff = pair >= 0 ? Int32(position[pair]) : -1
            (buffer + newIndex).initialize(to: e)
        }
        let poolMemory = UnsafeMutableRawPointer.allocate(byteCount: max(8, pool.count), alignment: 8)
        pool.withUnsafeBytes { if let base = $0.baseAddress { poolMemory.copyMemory(from: base, byteCount: $0.count) } }
        view = .allocate(capacity: 1)
        view.initialize(
            to: ScheduleView(
                entries: buffer, count: entries.count, pool: poolMemory, generation: generation, sequence: sequence.handle,
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

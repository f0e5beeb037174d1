import AudioTypes
import Foundation

/// A track: events sorted by time (events at one time keep the order they were added), and the
/// documented track properties.
///
/// Thread: setup (under `MusicServices.lock`).
final class SequenceTrack {
    weak var sequence: SequenceModel?
    let isTempoTrack: Bool
    private(set) var events: [MusicEvent] = []
    var loopInfo = MusicTrackLoopInfo(loopDuration: 0, numberOfLoops: 0)
    var offset: MusicTimeStamp = 0
    var muted = false
    var soloed = false
    var automatedParameters: UInt32 = 0
    /// The length set through kSequenceTrackProperty_TrackLength (or a file's end-of-track).
    var setLength: MusicTimeStamp = 0
    var destNode: AUNode?
    /// MusicTrackSetDestAudioUnit's unit (wins over `destNode`).
    var destUnit: AudioUnit?
    /// A Core MIDI destination the track plays to instead of a unit (0: none).
    var destEndpoint: MIDIEndpointRef = 0

    init(sequence: SequenceModel, isTempoTrack: Bool) {
        self.sequence = sequence
        self.isTempoTrack = isTempoTrack
    }

    /// The handle C code holds (the sequence keeps the track alive).
    var handle: MusicTrack { MusicTrack(Unmanaged.passUnretained(self).toOpaque()) }

    /// The documented TrackLength: the larger of the set length and the end of the last event.
    var length: MusicTimeStamp { events.reduce(setLength) { max($0, $1.end) } }

    /// Inserts after every event at the same or an earlier time; returns the index.
    @discardableResult
    func insert(_ event: MusicEvent) throws -> Int {
        guard event.time.isFinite, event.time >= 0, event.time < 1e12 else {
            throw AudioError(kAudio_ParamError, "An event's time must be a finite number of beats ≥ 0 (got \(event.time)).")
        }
        if isTempoTrack {
            let t = Int(event.type)
            guard t == Int(kMusicEventType_ExtendedTempo) || t == Int(kMusicEventType_Meta) else {
                throw AudioError(kAudioToolboxErr_InvalidEventType, "The tempo track holds only tempo and meta events.")
            }
        } else if event.type == UInt32(kMusicEventType_ExtendedTempo) {
            throw AudioError(kAudioToolboxErr_InvalidEventType, "Tempo events belong on the tempo track (MusicSequenceGetTempoTrack).")
        }
        let index = upperBound(event.time)
        events.insert(event, at: index)
        return index
    }

    /// The first index whose event is later than `time`.
    func upperBound(_ time: MusicTimeStamp) -> Int {
        var lo = 0, hi = events.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if events[mid].time <= time { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }

    /// The first index whose event is at or after `time`.
    func lowerBound(_ time: MusicTimeStamp) -> Int {
        var lo = 0, hi = events.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if events[mid].time < time { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }

    func remove(at index: Int) { events.remove(at: index) }

    func clear(from start: MusicTimeStamp, to end: MusicTimeStamp) {
        events.removeAll { $0.time >= start && $0.time < end }
    }

    /// Appends an event known to be in order (file import). Thread: setup.
    func append(_ event: MusicEvent) { events.append(event) }
}

extension SequenceTrack {
    /// Orders the events by time, keeping the order of events at one time (after appends).
    /// Thread: setup.
    func sortStably() {
        let sorted = events.enumerated().sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }.map(\.element)
        events = sorted
    }
}

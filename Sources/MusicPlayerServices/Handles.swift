import AudioTypes
import Foundation

/// The live handles C code holds: a handle is the object's address; setup calls look it up here,
/// so a NULL or disposed handle answers kAudio_ParamError instead of crashing. Each table keeps
/// its objects alive until they are disposed (tracks: until removed from their sequence).
///
/// Thread: setup (under `MusicServices.lock`).
struct HandleTable<Object: AnyObject> {
    let what: String
    private var objects: [UnsafeMutableRawPointer: Object] = [:]

    init(_ what: String) { self.what = what }

    mutating func add(_ object: Object) -> UnsafeMutableRawPointer {
        let key = Unmanaged.passUnretained(object).toOpaque()
        objects[key] = object
        return key
    }

    func get(_ handle: OpaquePointer?) throws -> Object {
        guard let handle, let object = objects[UnsafeMutableRawPointer(handle)] else {
            throw AudioError(kAudio_ParamError, "The \(what) is NULL or was disposed.")
        }
        return object
    }

    @discardableResult
    mutating func remove(_ object: Object) -> Object? {
        objects.removeValue(forKey: Unmanaged.passUnretained(object).toOpaque())
    }
}

/// Every live sequence, track, iterator and player. Thread: setup (under `MusicServices.lock`).
enum Handles {
    nonisolated(unsafe) static var sequences = HandleTable<SequenceModel>("MusicSequence")
    nonisolated(unsafe) static var tracks = HandleTable<SequenceTrack>("MusicTrack")
    nonisolated(unsafe) static var iterators = HandleTable<EventIterator>("MusicEventIterator")
    nonisolated(unsafe) static var players = HandleTable<PlayerModel>("MusicPlayer")

    static func sequence(_ h: MusicSequence?) throws -> SequenceModel { try sequences.get(h) }
    static func track(_ h: MusicTrack?) throws -> SequenceTrack { try tracks.get(h) }
    static func iterator(_ h: MusicEventIterator?) throws -> EventIterator { try iterators.get(h) }
    static func player(_ h: MusicPlayer?) throws -> PlayerModel { try players.get(h) }

    /// Registers every track of `sequence` (after creation or a file load).
    static func registerTracks(of sequence: SequenceModel) {
        _ = tracks.add(sequence.tempoTrack)
        for t in sequence.tracks { _ = tracks.add(t) }
    }

    static func unregisterTracks(of sequence: SequenceModel) {
        tracks.remove(sequence.tempoTrack)
        for t in sequence.tracks { tracks.remove(t) }
    }
}

/// A position in a track: an index, clamped when the track changed under it.
///
/// Thread: setup (under `MusicServices.lock`).
final class EventIterator {
    let track: SequenceTrack
    var index = 0

    init(track: SequenceTrack) { self.track = track }

    var handle: MusicEventIterator { MusicEventIterator(Unmanaged.passUnretained(self).toOpaque()) }

    /// The current event, or kAudioToolboxErr_EndOfTrack past the last one.
    func current() throws -> MusicEvent {
        index = min(index, track.events.count)
        guard index < track.events.count else {
            throw AudioError(kAudioToolboxErr_EndOfTrack, "The iterator is past the last event of its track.")
        }
        return track.events[index]
    }
}

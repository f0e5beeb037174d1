import AudioTypes
import Foundation

/// Everything Music Sequencing Services keeps is changed under this one lock (setup calls only;
/// the render thread reads the immutable schedules the player publishes, never these objects).
enum MusicServices {
    static let lock = NSRecursiveLock()

    /// Runs a C entry point's body under the lock, recording the error sentence.
    /// Thread: setup.
    static func call(_ body: () throws -> Void) -> OSStatus {
        lock.lock()
        defer { lock.unlock() }
        return LastErrorMessage.status(body)
    }
}

/// A sequence: the tempo track, the tracks, the graph they play to.
///
/// Thread: setup (under `MusicServices.lock`).
final class SequenceModel {
    private(set) var tempoTrack: SequenceTrack!
    private(set) var tracks: [SequenceTrack] = []
    var graph: AUGraph?
    var sequenceType = MusicSequenceType.beats
    /// Ticks per beat of the file loaded (kSequenceTrackProperty_TimeResolution), 480 by default.
    var timeResolution: Int16 = 480
    var userCallback: MusicSequenceUserCallback?
    var userClientData: UnsafeMutableRawPointer?
    /// Players using this sequence (it cannot be disposed meanwhile).
    var players = 0

    init() { tempoTrack = SequenceTrack(sequence: self, isTempoTrack: true) }

    var handle: MusicSequence { MusicSequence(Unmanaged.passUnretained(self).toOpaque()) }

    func newTrack() -> SequenceTrack {
        let track = SequenceTrack(sequence: self, isTempoTrack: false)
        tracks.append(track)
        return track
    }

    func removeTrack(_ track: SequenceTrack) throws {
        guard let index = tracks.firstIndex(where: { $0 === track }) else {
            throw AudioError(kAudioToolboxErr_TrackNotFound, "The track is not one of this sequence's tracks.")
        }
        tracks.remove(at: index)
        track.sequence = nil
    }

    /// Replaces tracks and tempo track (a file load). Thread: setup.
    func replaceContents(tempo: SequenceTrack, tracks newTracks: [SequenceTrack]) {
        for t in tracks { t.sequence = nil }
        tempoTrack.sequence = nil
        tempoTrack = tempo
        tracks = newTracks
    }

    /// The tempo map of the tempo track as it is now.
    var tempoMap: TempoMap {
        TempoMap(tempos: tempoTrack.events.compactMap { e in e.tempoBPM.map { (e.time, $0) } })
    }
}

import AUHost
import Foundation
import GraphFileFormat
import JACKMIDIInput

/// A graph file's `"midi"` source: the Standard MIDI File loaded into a MusicSequence attached to
/// the built graph (MusicSequenceSetAUGraph), every track sent to the instrument node
/// (MusicTrackSetDestNode), played by a MusicPlayer. On a generic output head the player's
/// events land on their exact samples as `run` pulls the graph; on a device head, in real time.
final class GraphMIDISource {
    let sequence: MusicSequence
    let player: MusicPlayer
    private var disposed = false
    /// The sequence's length in seconds (its longest track, tempo track included).
    let seconds: Double

    /// Loads the file and prerolls the player on `built` (open and initialized).
    ///
    /// Thread: setup.
    init(_ built: BuiltGraph, _ midi: GraphFile.MIDISource) throws {
        let file = built.file
        let node = built.nodes[midi.node]!
        try GraphMIDI.requireInstrument(built, midi.node, line: midi.line)
        var made: MusicSequence?
        try AudioError.check(NewMusicSequence(&made), "NewMusicSequence")
        sequence = made!
        var madePlayer: MusicPlayer?
        try AudioError.check(NewMusicPlayer(&madePlayer), "NewMusicPlayer")
        player = madePlayer!
        if let problem = GraphMIDI.unreadable(midi.file) {
            DisposeMusicPlayer(player); DisposeMusicSequence(sequence)
            throw file.error(midi.line, "\"midi\": \(problem.message)", status: problem.status)
        }
        do {
            guard let url = CFURLCreateFromFileSystemRepresentation(nil, midi.file, midi.file.utf8.count, false) else {
                throw AudioError(kAudio_BadFilePathError, "\(midi.file) is not a file path.")
            }
            try AudioError.check(
                MusicSequenceFileLoad(sequence, url, .anyType, []), LastErrorMessage.current ?? "Cannot load \(midi.file).")
            try AudioError.check(
                MusicSequenceSetAUGraph(sequence, built.handle.handle), LastErrorMessage.current ?? "MusicSequenceSetAUGraph")
            var count: UInt32 = 0
            MusicSequenceGetTrackCount(sequence, &count)
            for i in 0..<count {
                var track: MusicTrack?
                try AudioError.check(MusicSequenceGetIndTrack(sequence, i, &track), "MusicSequenceGetIndTrack")
                try AudioError.check(MusicTrackSetDestNode(track!, node), LastErrorMessage.current ?? "MusicTrackSetDestNode")
            }
            try AudioError.check(MusicPlayerSetSequence(player, sequence), LastErrorMessage.current ?? "MusicPlayerSetSequence")
            try AudioError.check(MusicPlayerPreroll(player), LastErrorMessage.current ?? "MusicPlayerPreroll failed.")
        } catch let e as AudioError {
            DisposeMusicPlayer(player); DisposeMusicSequence(sequence)
            throw file.error(midi.line, "\"midi\": \(e.message)", status: e.status)
        }
        seconds = GraphMIDI.length(of: sequence)
    }

    deinit { dispose() }

    /// Stops and disposes the player and sequence. Must run before the graph closes: disposing
    /// the player releases its sounding notes on the instrument's unit.
    ///
    /// Thread: setup.
    func dispose() {
        guard !disposed else { return }
        disposed = true
        MusicPlayerStop(player)
        DisposeMusicPlayer(player)
        DisposeMusicSequence(sequence)
    }

    /// Starts the player (on a stopped generic output head this also starts that head, which
    /// renders nothing by itself: `run` pulls it). Thread: setup.
    func start() throws {
        try AudioError.check(MusicPlayerStart(player), LastErrorMessage.current ?? "MusicPlayerStart failed.")
    }
}

/// A graph file's `"midiInputs"`: one JACK client per input ("auhost-NODE", port midi_in; see
/// GraphMIDI.clientName),
/// connected from the named port or client and routed to the instrument node. Live input needs
/// a device head: an offline run has no "now" for it to arrive in.
final class GraphMIDIInputs {
    private(set) var inputs: [JACKMIDIInput] = []

    /// Thread: setup.
    init(_ built: BuiltGraph) throws {
        let file = built.file
        for input in file.midiInputs {
            guard file.playsOnDevice else {
                throw file.error(
                    input.line,
                    "\"midiInputs\" take live MIDI and need a device head (\"output\": {\"device\": …}); an output file is rendered"
                        + " offline, faster than real time. Use \"midi\" with a file instead.",
                    status: kAudioUnitErr_InvalidPropertyValue)
            }
            try GraphMIDI.requireInstrument(built, input.node, line: input.line)
            do {
                let jack = try JACKMIDIInput(clientName: GraphMIDI.clientName(input.node), timeout: 2)
                try jack.connect(from: input.jack)
                try jack.route(to: built.handle.handle, node: built.nodes[input.node]!)
                inputs.append(jack)
            } catch let e as AudioError {
                throw file.error(input.line, "MIDI input \"\(GraphFile.shown(input.jack))\": \(e.message)", status: e.status)
            }
        }
    }
}

enum GraphMIDI {
    /// The largest MIDI file a graph plays (Standard MIDI Files are kilobytes; this bounds what
    /// MusicSequenceFileLoad reads into memory).
    static let maximumFileBytes = 16 << 20

    /// Why `path` cannot be loaded (missing, not a regular file — a FIFO would block the read —
    /// or too large), or nil.
    ///
    /// Thread: setup.
    static func unreadable(_ path: String) -> (message: String, status: OSStatus)? {
        var status = stat()
        guard stat(path, &status) == 0 else { return ("there is no MIDI file at \(path).", kAudio_FileNotFoundError) }
        guard (status.st_mode & S_IFMT) == S_IFREG else {
            return ("\(path) is not a regular file (a FIFO, socket, device or folder); give a Standard MIDI File.", kAudio_ParamError)
        }
        guard Int(status.st_size) <= maximumFileBytes else {
            return ("\(path) has \(status.st_size) bytes; a MIDI file may have at most \(maximumFileBytes).", kAudio_ParamError)
        }
        return nil
    }

    /// "auhost-NODE" as JACK takes client names: letters, digits, "-" and "_" (":" separates
    /// ports), at most 31 characters (JACK allows 63; it appends "-01" to a name in use).
    ///
    /// Thread: any.
    static func clientName(_ node: String) -> String {
        let safe = String(
            node.unicodeScalars.prefix(24).map { CharacterSet.alphanumerics.contains($0) && $0.isASCII || $0 == "_" ? Character($0) : "-" })
        return "auhost-" + safe
    }

    /// `render --graph` and `bench --graph` feed an audio file and play no MIDI:
    /// a graph file with MIDI keys is refused there rather than played silently without them.
    ///
    /// Thread: setup.
    static func refuse(_ file: GraphFile, in command: String) throws {
        guard let line = file.midi?.line ?? file.midiInputs.first?.line else { return }
        throw file.error(
            line, "`auhost \(command)` plays no MIDI; run a graph file with \"midi\" or \"midiInputs\" with `auhost run`.",
            status: kAudioUnitErr_InvalidPropertyValue)
    }

    /// MIDI plays into instruments ('aumu') only.
    ///
    /// Thread: setup.
    static func requireInstrument(_ built: BuiltGraph, _ name: String, line: Int) throws {
        let component = built.components[name]!
        guard component.description.componentType == kAudioUnitType_MusicDevice else {
            throw built.file.error(
                line,
                "node \"\(GraphFile.shown(name))\" is \(component.name) ('\(FourCC.string(component.description.componentType))'),"
                    + " not an instrument; MIDI plays into an 'aumu' unit.",
                status: kAudioToolboxErr_IllegalTrackDestination)
        }
    }

    /// Seconds until the longest track (tempo track included) ends.
    ///
    /// Thread: setup.
    static func length(of sequence: MusicSequence) -> Double {
        var count: UInt32 = 0
        MusicSequenceGetTrackCount(sequence, &count)
        var tracks: [MusicTrack?] = []
        var tempo: MusicTrack?
        MusicSequenceGetTempoTrack(sequence, &tempo)
        tracks.append(tempo)
        for i in 0..<count {
            var t: MusicTrack?
            MusicSequenceGetIndTrack(sequence, i, &t)
            tracks.append(t)
        }
        let beats =
            tracks.compactMap { $0 }.map { track -> Double in
                var length: MusicTimeStamp = 0
                var size = UInt32(8)
                MusicTrackGetProperty(track, UInt32(kSequenceTrackProperty_TrackLength), &length, &size)
                return length
            }.max() ?? 0
        var seconds: Float64 = 0
        MusicSequenceGetSecondsForBeats(sequence, beats, &seconds)
        return seconds
    }
}

import AudioTypes
import Foundation

// The @_cdecl implementation of MusicPlayer.h's sequence calls. Every entry takes
// MusicServices.lock and checks its handles (a NULL or disposed one answers kAudio_ParamError).

@_cdecl("NewMusicSequence")
public func _NewMusicSequence(_ out: UnsafeMutablePointer<OpaquePointer?>?) -> OSStatus {
    MusicServices.call {
        guard let out else { throw AudioError(kAudio_ParamError, "NewMusicSequence needs somewhere to put the sequence.") }
        let sequence = SequenceModel()
        out.pointee = OpaquePointer(Handles.sequences.add(sequence))
        Handles.registerTracks(of: sequence)
    }
}

@_cdecl("DisposeMusicSequence")
public func _DisposeMusicSequence(_ h: OpaquePointer?) -> OSStatus {
    MusicServices.call {
        let sequence = try Handles.sequence(h)
        guard sequence.players == 0 else {
            throw AudioError(
                kAudioToolboxErr_InvalidPlayerState,
                "A music player still uses the sequence; give the player another sequence (or NULL) first.")
        }
        Handles.unregisterTracks(of: sequence)
        Handles.sequences.remove(sequence)
    }
}

@_cdecl("MusicSequenceNewTrack")
public func _MusicSequenceNewTrack(_ h: OpaquePointer?, _ out: UnsafeMutablePointer<OpaquePointer?>?) -> OSStatus {
    MusicServices.call {
        let sequence = try Handles.sequence(h)
        guard let out else { throw AudioError(kAudio_ParamError, "MusicSequenceNewTrack needs somewhere to put the track.") }
        out.pointee = OpaquePointer(Handles.tracks.add(sequence.newTrack()))
    }
}

@_cdecl("MusicSequenceDisposeTrack")
public func _MusicSequenceDisposeTrack(_ h: OpaquePointer?, _ t: OpaquePointer?) -> OSStatus {
    MusicServices.call {
        let sequence = try Handles.sequence(h)
        let track = try Handles.track(t)
        try sequence.removeTrack(track)
        Handles.tracks.remove(track)
    }
}

@_cdecl("MusicSequenceGetTrackCount")
public func _MusicSequenceGetTrackCount(_ h: OpaquePointer?, _ out: UnsafeMutablePointer<UInt32>?) -> OSStatus {
    MusicServices.call {
        let sequence = try Handles.sequence(h)
        guard let out else { throw AudioError(kAudio_ParamError, "MusicSequenceGetTrackCount needs somewhere to put the count.") }
        out.pointee = UInt32(sequence.tracks.count)
    }
}

@_cdecl("MusicSequenceGetIndTrack")
public func _MusicSequenceGetIndTrack(_ h: OpaquePointer?, _ index: UInt32, _ out: UnsafeMutablePointer<OpaquePointer?>?) -> OSStatus {
    MusicServices.call {
        let sequence = try Handles.sequence(h)
        guard let out else { throw AudioError(kAudio_ParamError, "MusicSequenceGetIndTrack needs somewhere to put the track.") }
        guard Int(index) < sequence.tracks.count else {
            throw AudioError(
                kAudioToolboxErr_TrackIndexError, "Track \(index) does not exist: the sequence has \(sequence.tracks.count) tracks.")
        }
        out.pointee = sequence.tracks[Int(index)].handle
    }
}

@_cdecl("MusicSequenceGetTrackIndex")
public func _MusicSequenceGetTrackIndex(_ h: OpaquePointer?, _ t: OpaquePointer?, _ out: UnsafeMutablePointer<UInt32>?) -> OSStatus {
    MusicServices.call {
        let sequence = try Handles.sequence(h)
        let track = try Handles.track(t)
        guard let out else { throw AudioError(kAudio_ParamError, "MusicSequenceGetTrackIndex needs somewhere to put the index.") }
        guard let index = sequence.tracks.firstIndex(where: { $0 === track }) else {
            throw AudioError(
                kAudioToolboxErr_TrackNotFound, "The track is not one of this sequence's tracks (the tempo track has no index).")
        }
        out.pointee = UInt32(index)
    }
}

@_cdecl("MusicSequenceGetTempoTrack")
public func _MusicSequenceGetTempoTrack(_ h: OpaquePointer?, _ out: UnsafeMutablePointer<OpaquePointer?>?) -> OSStatus {
    MusicServices.call {
        let sequence = try Handles.sequence(h)
        guard let out else { throw AudioError(kAudio_ParamError, "MusicSequenceGetTempoTrack needs somewhere to put the track.") }
        out.pointee = sequence.tempoTrack.handle
    }
}

@_cdecl("MusicSequenceSetAUGraph")
public func _MusicSequenceSetAUGraph(_ h: OpaquePointer?, _ graph: OpaquePointer?) -> OSStatus {
    MusicServices.call { try Handles.sequence(h).graph = graph }
}

@_cdecl("MusicSequenceGetAUGraph")
public func _MusicSequenceGetAUGraph(_ h: OpaquePointer?, _ out: UnsafeMutablePointer<OpaquePointer?>?) -> OSStatus {
    MusicServices.call {
        let sequence = try Handles.sequence(h)
        guard let out else { throw AudioError(kAudio_ParamError, "MusicSequenceGetAUGraph needs somewhere to put the graph.") }
        out.pointee = sequence.graph
    }
}

@_cdecl("MusicSequenceSetSequenceType")
public func _MusicSequenceSetSequenceType(_ h: OpaquePointer?, _ type: UInt32) -> OSStatus {
    MusicServices.call {
        let sequence = try Handles.sequence(h)
        guard let type = MusicSequenceType(rawValue: type) else {
            throw AudioError(kAudioToolboxErr_InvalidSequenceType, "'\(FourCC.string(type))' is not a sequence type (beat, secs, samp).")
        }
        switch type {
        case MusicSequenceType.beats: break
        case MusicSequenceType.seconds, MusicSequenceType.samples:
            // Seconds: one 60 BPM tempo (beats are seconds). Samples are refused: AUHost's player
            // times events by the head's rate, so a samples timeline has no meaning of its own.
            guard type == MusicSequenceType.seconds else {
                throw AudioError(
                    kAudioToolboxErr_InvalidSequenceType, "AUHost's sequences are beats or seconds; samples sequences are not supported.")
            }
            guard !sequence.tempoTrack.events.contains(where: { $0.tempoBPM != nil && $0.tempoBPM != 60 }) else {
                throw AudioError(kAudioToolboxErr_InvalidSequenceType, "A sequence with tempo events cannot become a seconds sequence.")
            }
            if !sequence.tempoTrack.events.contains(where: { $0.tempoBPM != nil }) { try sequence.tempoTrack.insert(.tempo(0, bpm: 60)) }
        @unknown default:
            throw AudioError(
                kAudioToolboxErr_InvalidSequenceType, "'\(FourCC.string(type.rawValue))' is not a sequence type (beat, secs, samp).")
        }
        sequence.sequenceType = type
    }
}

@_cdecl("MusicSequenceGetSequenceType")
public func _MusicSequenceGetSequenceType(_ h: OpaquePointer?, _ out: UnsafeMutablePointer<UInt32>?) -> OSStatus {
    MusicServices.call {
        let sequence = try Handles.sequence(h)
        guard let out else { throw AudioError(kAudio_ParamError, "MusicSequenceGetSequenceType needs somewhere to put the type.") }
        out.pointee = sequence.sequenceType.rawValue
    }
}

/// Loads a Standard MIDI File's bytes into a sequence. Thread: setup (under the lock).
func loadSequence(_ sequence: SequenceModel, bytes: UnsafeRawBufferPointer, name: String, type: UInt32, flags: UInt32) throws {
    guard type == 0 || type == MusicSequenceFileTypeID.midiType.rawValue else {
        throw AudioError(kAudioFileUnsupportedFileTypeError, "AUHost reads Standard MIDI Files only, not '\(FourCC.string(type))'.")
    }
    guard flags & ~MusicSequenceLoadFlags.smf_ChannelsToTracks.rawValue == 0 else {
        throw AudioError(kAudio_ParamError, "Unknown load flags \(flags) (kMusicSequenceLoadSMF_ChannelsToTracks is the only one).")
    }
    guard sequence.players == 0 else {
        throw AudioError(
            kAudioToolboxErr_InvalidPlayerState,
            "A music player uses the sequence; load the file into another sequence, or detach the player first.")
    }
    let file = try StandardMIDIFile(bytes: bytes, name: name)
    Handles.unregisterTracks(of: sequence)
    defer { Handles.registerTracks(of: sequence) }
    try file.load(into: sequence, flags: MusicSequenceLoadFlags(rawValue: flags))
}

@_cdecl("MusicSequenceFileLoad")
public func _MusicSequenceFileLoad(_ h: OpaquePointer?, _ url: UnsafeRawPointer?, _ type: UInt32, _ flags: UInt32) -> OSStatus {
    MusicServices.call {
        let sequence = try Handles.sequence(h)
        let path = try midiFilePath(url)
        guard let data = FileManager.default.contents(atPath: path) else {
            throw AudioError(kAudio_FileNotFoundError, "Cannot read the MIDI file \(path): it does not exist or is not readable.")
        }
        try data.withUnsafeBytes { try loadSequence(sequence, bytes: $0, name: path, type: type, flags: flags) }
    }
}

@_cdecl("MusicSequenceFileLoadData")
public func _MusicSequenceFileLoadData(_ h: OpaquePointer?, _ data: UnsafeRawPointer?, _ type: UInt32, _ flags: UInt32) -> OSStatus {
    MusicServices.call {
        let sequence = try Handles.sequence(h)
        guard let data else { throw AudioError(kAudio_ParamError, "MusicSequenceFileLoadData needs data; NULL was passed.") }
        let bytes = Data(referencing: unsafeBitCast(data, to: NSData.self))
        try bytes.withUnsafeBytes { try loadSequence(sequence, bytes: $0, name: "the MIDI data", type: type, flags: flags) }
    }
}

/// The file's bytes for MusicSequenceFileCreate(Data). Thread: setup (under the lock).
func fileBytes(_ sequence: SequenceModel, type: UInt32, resolution: Int16) throws -> [UInt8] {
    guard type == 0 || type == MusicSequenceFileTypeID.midiType.rawValue else {
        throw AudioError(kAudioFileUnsupportedFileTypeError, "AUHost writes Standard MIDI Files only, not '\(FourCC.string(type))'.")
    }
    guard resolution >= 0 else { throw AudioError(kAudio_ParamError, "The resolution must be ≥ 0 ticks per beat (0: the sequence's own).") }
    return try StandardMIDIFile.bytes(of: sequence, ticksPerBeat: Int(resolution == 0 ? sequence.timeResolution : resolution))
}

@_cdecl("MusicSequenceFileCreate")
public func _MusicSequenceFileCreate(
    _ h: OpaquePointer?, _ url: UnsafeRawPointer?, _ type: UInt32, _ flags: UInt32, _ resolution: Int16
) -> OSStatus {
    MusicServices.call {
        let sequence = try Handles.sequence(h)
        let path = try midiFilePath(url)
        let bytes = try fileBytes(sequence, type: type, resolution: resolution)
        if flags & MusicSequenceFileFlags.eraseFile.rawValue == 0 && FileManager.default.fileExists(atPath: path) {
            throw AudioError(kAudio_FilePermissionError, "\(path) exists; pass kMusicSequenceFileFlags_EraseFile to replace it.")
        }
        // Written beside the target and renamed, so a failure never leaves half a file.
        let temporary = path + ".auhost-\(getpid()).tmp"
        guard FileManager.default.createFile(atPath: temporary, contents: Data(bytes)) else {
            throw AudioError(kAudio_FilePermissionError, "Cannot write \(path): its folder does not exist or is not writable.")
        }
        guard rename(temporary, path) == 0 else {
            unlink(temporary)
            throw AudioError(kAudio_FilePermissionError, "Cannot replace \(path): \(String(cString: strerror(errno))).")
        }
    }
}

@_cdecl("MusicSequenceFileCreateData")
public func _MusicSequenceFileCreateData(
    _ h: OpaquePointer?, _ type: UInt32, _ flags: UInt32, _ resolution: Int16, _ out: UnsafeMutablePointer<UnsafeRawPointer?>?
) -> OSStatus {
    MusicServices.call {
        let sequence = try Handles.sequence(h)
        guard let out else { throw AudioError(kAudio_ParamError, "MusicSequenceFileCreateData needs somewhere to put the data.") }
        let bytes = try fileBytes(sequence, type: type, resolution: resolution)
        let data = bytes.withUnsafeBytes { NSData(bytes: $0.baseAddress, length: $0.count) }
        out.pointee = UnsafeRawPointer(Unmanaged.passRetained(data).toOpaque())
    }
}

@_cdecl("MusicSequenceGetSecondsForBeats")
public func _MusicSequenceGetSecondsForBeats(_ h: OpaquePointer?, _ beats: Double, _ out: UnsafeMutablePointer<Double>?) -> OSStatus {
    MusicServices.call {
        let sequence = try Handles.sequence(h)
        guard let out else { throw AudioError(kAudio_ParamError, "MusicSequenceGetSecondsForBeats needs somewhere to put the seconds.") }
        guard beats.isFinite else { throw AudioError(kAudio_ParamError, "The beat must be finite (got \(beats)).") }
        out.pointee = sequence.tempoMap.seconds(forBeats: beats)
    }
}

@_cdecl("MusicSequenceGetBeatsForSeconds")
public func _MusicSequenceGetBeatsForSeconds(_ h: OpaquePointer?, _ seconds: Double, _ out: UnsafeMutablePointer<Double>?) -> OSStatus {
    MusicServices.call {
        let sequence = try Handles.sequence(h)
        guard let out else { throw AudioError(kAudio_ParamError, "MusicSequenceGetBeatsForSeconds needs somewhere to put the beats.") }
        guard seconds.isFinite else { throw AudioError(kAudio_ParamError, "The time must be finite (got \(seconds)).") }
        out.pointee = sequence.tempoMap.beats(forSeconds: seconds)
    }
}

@_cdecl("MusicSequenceSetUserCallback")
public func _MusicSequenceSetUserCallback(
    _ h: OpaquePointer?, _ callback: MusicSequenceUserCallback?, _ clientData: UnsafeMutableRawPointer?
) -> OSStatus {
    MusicServices.call {
        let sequence = try Handles.sequence(h)
        sequence.userCallback = callback
        sequence.userClientData = clientData
    }
}

/// The path of a file CFURL. Thread: setup.
func midiFilePath(_ url: UnsafeRawPointer?) throws -> String {
    guard let url else { throw AudioError(kAudio_ParamError, "The MIDI file URL is NULL.") }
    var buffer = [UInt8](repeating: 0, count: 4096)
    let cfURL = Unmanaged<CFURL>.fromOpaque(url).takeUnretainedValue()
    guard CFURLGetFileSystemRepresentation(cfURL, true, &buffer, buffer.count) else {
        throw AudioError(kAudio_BadFilePathError, "The URL does not name a local file path.")
    }
    return String(decoding: buffer.prefix { $0 != 0 }, as: UTF8.self)
}

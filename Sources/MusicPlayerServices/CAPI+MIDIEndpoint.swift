import AudioToolbox
import AudioTypes
import CoreMIDIServices

// Music Sequencing Services' Core MIDI destinations (MusicPlayer.h): tracks that play to a MIDI
// endpoint instead of a unit. Every function here is [setup].

/// `endpoint` checked to be a destination (0 passes: "play to units").
private func checkedDestination(_ endpoint: MIDIEndpointRef) throws {
    guard endpoint != 0 else { return }
    guard try MIDIServer.shared.endpoint(endpoint).isSource == false else {
        throw AudioError(kMIDIWrongEndpointType, "Endpoint \(endpoint) is a source; a track plays to a destination.")
    }
}

@_cdecl("MusicTrackSetDestMIDIEndpoint")
public func _MusicTrackSetDestMIDIEndpoint(_ t: OpaquePointer?, _ endpoint: MIDIEndpointRef) -> OSStatus {
    MusicServices.call {
        let track = try Handles.track(t)
        guard !track.isTempoTrack else {
            throw AudioError(kAudioToolboxErr_IllegalTrackDestination, "The tempo track plays to no endpoint.")
        }
        try checkedDestination(endpoint)
        track.destEndpoint = endpoint
    }
}

@_cdecl("MusicTrackGetDestMIDIEndpoint")
public func _MusicTrackGetDestMIDIEndpoint(_ t: OpaquePointer?, _ out: UnsafeMutablePointer<MIDIEndpointRef>?) -> OSStatus {
    MusicServices.call {
        let track = try Handles.track(t)
        guard let out else { throw AudioError(kAudio_ParamError, "MusicTrackGetDestMIDIEndpoint needs outEndpoint.") }
        guard track.destEndpoint != 0 else {
            throw AudioError(kAudioToolboxError_NoTrackDestination, "The track plays to a unit, not a MIDI endpoint.")
        }
        out.pointee = track.destEndpoint
    }
}

@_cdecl("MusicSequenceSetMIDIEndpoint")
public func _MusicSequenceSetMIDIEndpoint(_ s: OpaquePointer?, _ endpoint: MIDIEndpointRef) -> OSStatus {
    MusicServices.call {
        let sequence = try Handles.sequence(s)
        try checkedDestination(endpoint)
        for track in sequence.tracks where !track.isTempoTrack { track.destEndpoint = endpoint }
    }
}

import AudioTypes
import Foundation

// The @_cdecl implementation of MusicPlayer.h's track calls: properties, destinations, new events.

@_cdecl("MusicTrackGetSequence")
public func _MusicTrackGetSequence(_ t: OpaquePointer?, _ out: UnsafeMutablePointer<OpaquePointer?>?) -> OSStatus {
    MusicServices.call {
        let track = try Handles.track(t)
        guard let out else { throw AudioError(kAudio_ParamError, "MusicTrackGetSequence needs somewhere to put the sequence.") }
        guard let sequence = track.sequence else { throw AudioError(kAudioToolboxErr_TrackNotFound, "The track belongs to no sequence.") }
        out.pointee = sequence.handle
    }
}

@_cdecl("MusicTrackSetDestNode")
public func _MusicTrackSetDestNode(_ t: OpaquePointer?, _ node: AUNode) -> OSStatus {
    MusicServices.call {
        let track = try Handles.track(t)
        guard !track.isTempoTrack else { throw AudioError(kAudioToolboxErr_IllegalTrackDestination, "The tempo track plays to no unit.") }
        guard let graph = track.sequence?.graph else {
            throw AudioError(
                kAudioToolboxErr_IllegalTrackDestination, "Set the sequence's graph (MusicSequenceSetAUGraph) before a track's node.")
        }
        var desc = AudioComponentDescription()
        guard AUGraphNodeInfo(graph, node, &desc, nil) == noErr else {
            throw AudioError(kAudioToolboxErr_IllegalTrackDestination, "Node \(node) is not in the sequence's graph.")
        }
        track.destNode = node
    }
}

@_cdecl("MusicTrackGetDestNode")
public func _MusicTrackGetDestNode(_ t: OpaquePointer?, _ out: UnsafeMutablePointer<AUNode>?) -> OSStatus {
    MusicServices.call {
        let track = try Handles.track(t)
        guard let out else { throw AudioError(kAudio_ParamError, "MusicTrackGetDestNode needs somewhere to put the node.") }
        guard let node = track.destNode else {
            throw AudioError(
                kAudioToolboxError_NoTrackDestination, "The track has no destination node set (it plays to the graph's first instrument).")
        }
        out.pointee = node
    }
}

@_cdecl("MusicTrackSetDestAudioUnit")
public func _MusicTrackSetDestAudioUnit(_ t: OpaquePointer?, _ unit: AudioUnit?) -> OSStatus {
    MusicServices.call {
        let track = try Handles.track(t)
        guard !track.isTempoTrack else { throw AudioError(kAudioToolboxErr_IllegalTrackDestination, "The tempo track plays to no unit.") }
        if let unit {
            guard AudioComponentInstanceCanDo(unit, Int16(kMusicDeviceMIDIEventSelect)) != 0 else {
                throw AudioError(
                    kAudioToolboxErr_IllegalTrackDestination,
                    "The unit takes no MIDI (MusicDeviceMIDIEvent); a track plays to an instrument or a MIDI-driven effect.")
            }
        }
        track.destUnit = unit
    }
}

@_cdecl("MusicTrackGetDestAudioUnit")
public func _MusicTrackGetDestAudioUnit(_ t: OpaquePointer?, _ out: UnsafeMutablePointer<AudioUnit?>?) -> OSStatus {
    MusicServices.call {
        let track = try Handles.track(t)
        guard let out else { throw AudioError(kAudio_ParamError, "MusicTrackGetDestAudioUnit needs somewhere to put the unit.") }
        out.pointee = track.destUnit
    }
}

/// Size of each track property's value.
private func propertySize(_ id: UInt32) throws -> Int {
    switch Int(id) {
    case Int(kSequenceTrackProperty_LoopInfo): return MemoryLayout<MusicTrackLoopInfo>.size
    case Int(kSequenceTrackProperty_OffsetTime), Int(kSequenceTrackProperty_TrackLength): return 8
    case Int(kSequenceTrackProperty_MuteStatus), Int(kSequenceTrackProperty_SoloStatus): return 1
    case Int(kSequenceTrackProperty_AutomatedParameters): return 4
    case Int(kSequenceTrackProperty_TimeResolution): return 2
    default: throw AudioError(kAudioUnitErr_InvalidProperty, "Track property \(id) does not exist (0…6 do).")
    }
}

@_cdecl("MusicTrackSetProperty")
public func _MusicTrackSetProperty(_ t: OpaquePointer?, _ id: UInt32, _ data: UnsafeMutableRawPointer?, _ length: UInt32) -> OSStatus {
    MusicServices.call {
        let track = try Handles.track(t)
        let size = try propertySize(id)
        guard let data, Int(length) >= size else {
            throw AudioError(kAudioUnitErr_InvalidPropertyValue, "Track property \(id) takes \(size) bytes; \(length) were passed.")
        }
        switch Int(id) {
        case Int(kSequenceTrackProperty_LoopInfo):
            let info = data.loadUnaligned(as: MusicTrackLoopInfo.self)
            guard info.loopDuration.isFinite, info.loopDuration >= 0, info.numberOfLoops >= 0 else {
                throw AudioError(
                    kAudioUnitErr_InvalidPropertyValue, "A loop needs a duration ≥ 0 beats and a number of loops ≥ 0 (0: for ever).")
            }
            track.loopInfo = info
        case Int(kSequenceTrackProperty_OffsetTime):
            let v = data.loadUnaligned(as: Double.self)
            guard v.isFinite, abs(v) < 1e12 else { throw AudioError(kAudioUnitErr_InvalidPropertyValue, "A track offset must be finite.") }
            track.offset = v
        case Int(kSequenceTrackProperty_TrackLength):
            let v = data.loadUnaligned(as: Double.self)
            guard v.isFinite, v >= 0, v < 1e12 else {
                throw AudioError(kAudioUnitErr_InvalidPropertyValue, "A track length must be finite and ≥ 0.")
            }
            track.setLength = v
        case Int(kSequenceTrackProperty_MuteStatus): track.muted = data.load(as: UInt8.self) != 0
        case Int(kSequenceTrackProperty_SoloStatus): track.soloed = data.load(as: UInt8.self) != 0
        case Int(kSequenceTrackProperty_AutomatedParameters): track.automatedParameters = data.loadUnaligned(as: UInt32.self)
        default: throw AudioError(kAudioUnitErr_PropertyNotWritable, "kSequenceTrackProperty_TimeResolution is read only.")
        }
    }
}

@_cdecl("MusicTrackGetProperty")
public func _MusicTrackGetProperty(
    _ t: OpaquePointer?, _ id: UInt32, _ data: UnsafeMutableRawPointer?, _ length: UnsafeMutablePointer<UInt32>?
) -> OSStatus {
    MusicServices.call {
        let track = try Handles.track(t)
        let size = try propertySize(id)
        guard let length else { throw AudioError(kAudio_ParamError, "MusicTrackGetProperty needs the length of the buffer.") }
        guard let data else { length.pointee = UInt32(size); return }
        guard Int(length.pointee) >= size else {
            throw AudioError(
                kAudioUnitErr_InvalidPropertyValue, "Track property \(id) takes \(size) bytes; the buffer has \(length.pointee).")
        }
        switch Int(id) {
        case Int(kSequenceTrackProperty_LoopInfo): data.storeBytes(of: track.loopInfo, as: MusicTrackLoopInfo.self)
        case Int(kSequenceTrackProperty_OffsetTime): data.storeBytes(of: track.offset, as: Double.self)
        case Int(kSequenceTrackProperty_TrackLength): data.storeBytes(of: track.length, as: Double.self)
        case Int(kSequenceTrackProperty_MuteStatus): data.storeBytes(of: track.muted ? 1 : 0, as: UInt8.self)
        case Int(kSequenceTrackProperty_SoloStatus): data.storeBytes(of: track.soloed ? 1 : 0, as: UInt8.self)
        case Int(kSequenceTrackProperty_AutomatedParameters): data.storeBytes(of: track.automatedParameters, as: UInt32.self)
        default:
            guard track.isTempoTrack else {
                throw AudioError(kAudioUnitErr_InvalidProperty, "kSequenceTrackProperty_TimeResolution is a property of the tempo track.")
            }
            data.storeBytes(of: track.sequence?.timeResolution ?? 480, as: Int16.self)
        }
        length.pointee = UInt32(size)
    }
}

@_cdecl("MusicTrackClear")
public func _MusicTrackClear(_ t: OpaquePointer?, _ start: Double, _ end: Double) -> OSStatus {
    MusicServices.call {
        let track = try Handles.track(t)
        guard !start.isNaN, !end.isNaN, start <= end else {
            throw AudioError(kAudio_ParamError, "MusicTrackClear needs a start time before its end time (got \(start), \(end)).")
        }
        track.clear(from: start, to: end)
    }
}

/// Adds a C payload to a track. Thread: setup.
private func newEvent(_ t: OpaquePointer?, _ time: Double, _ type: Int32, _ data: UnsafeRawPointer?) -> OSStatus {
    MusicServices.call {
        let track = try Handles.track(t)
        guard let data else { throw AudioError(kAudio_ParamError, "The event's data is NULL.") }
        try track.insert(try MusicEvent.fromC(time, type: UInt32(type), data))
    }
}

@_cdecl("MusicTrackNewMIDINoteEvent")
public func _MusicTrackNewMIDINoteEvent(_ t: OpaquePointer?, _ time: Double, _ m: UnsafePointer<MIDINoteMessage>?) -> OSStatus {
    newEvent(t, time, Int32(kMusicEventType_MIDINoteMessage), m.map(UnsafeRawPointer.init))
}

@_cdecl("MusicTrackNewMIDIChannelEvent")
public func _MusicTrackNewMIDIChannelEvent(_ t: OpaquePointer?, _ time: Double, _ m: UnsafePointer<MIDIChannelMessage>?) -> OSStatus {
    newEvent(t, time, Int32(kMusicEventType_MIDIChannelMessage), m.map(UnsafeRawPointer.init))
}

@_cdecl("MusicTrackNewMIDIRawDataEvent")
public func _MusicTrackNewMIDIRawDataEvent(_ t: OpaquePointer?, _ time: Double, _ m: UnsafePointer<MIDIRawData>?) -> OSStatus {
    newEvent(t, time, Int32(kMusicEventType_MIDIRawData), m.map(UnsafeRawPointer.init))
}

@_cdecl("MusicTrackNewParameterEvent")
public func _MusicTrackNewParameterEvent(_ t: OpaquePointer?, _ time: Double, _ m: UnsafePointer<ParameterEvent>?) -> OSStatus {
    newEvent(t, time, Int32(kMusicEventType_Parameter), m.map(UnsafeRawPointer.init))
}

@_cdecl("MusicTrackNewExtendedTempoEvent")
public func _MusicTrackNewExtendedTempoEvent(_ t: OpaquePointer?, _ time: Double, _ bpm: Double) -> OSStatus {
    var event = ExtendedTempoEvent(bpm: bpm)
    return newEvent(t, time, Int32(kMusicEventType_ExtendedTempo), &event)
}

@_cdecl("MusicTrackNewMetaEvent")
public func _MusicTrackNewMetaEvent(_ t: OpaquePointer?, _ time: Double, _ m: UnsafePointer<MIDIMetaEvent>?) -> OSStatus {
    newEvent(t, time, Int32(kMusicEventType_Meta), m.map(UnsafeRawPointer.init))
}

@_cdecl("MusicTrackNewUserEvent")
public func _MusicTrackNewUserEvent(_ t: OpaquePointer?, _ time: Double, _ m: UnsafePointer<MusicEventUserData>?) -> OSStatus {
    newEvent(t, time, Int32(kMusicEventType_User), m.map(UnsafeRawPointer.init))
}

import AudioTypes
import Foundation

// The @_cdecl implementation of MusicPlayer.h's event iterators.

@_cdecl("NewMusicEventIterator")
public func _NewMusicEventIterator(_ t: OpaquePointer?, _ out: UnsafeMutablePointer<OpaquePointer?>?) -> OSStatus {
    MusicServices.call {
        let track = try Handles.track(t)
        guard let out else { throw AudioError(kAudio_ParamError, "NewMusicEventIterator needs somewhere to put the iterator.") }
        out.pointee = OpaquePointer(Handles.iterators.add(EventIterator(track: track)))
    }
}

@_cdecl("DisposeMusicEventIterator")
public func _DisposeMusicEventIterator(_ i: OpaquePointer?) -> OSStatus {
    MusicServices.call { Handles.iterators.remove(try Handles.iterator(i)) }
}

@_cdecl("MusicEventIteratorSeek")
public func _MusicEventIteratorSeek(_ i: OpaquePointer?, _ time: Double) -> OSStatus {
    MusicServices.call {
        let it = try Handles.iterator(i)
        guard !time.isNaN else { throw AudioError(kAudio_ParamError, "Cannot seek to NaN.") }
        it.index = it.track.lowerBound(time)
    }
}

@_cdecl("MusicEventIteratorNextEvent")
public func _MusicEventIteratorNextEvent(_ i: OpaquePointer?) -> OSStatus {
    MusicServices.call {
        let it = try Handles.iterator(i)
        guard it.index < it.track.events.count else {
            throw AudioError(kAudioToolboxErr_EndOfTrack, "The iterator is already past the last event.")
        }
        it.index += 1
    }
}

@_cdecl("MusicEventIteratorPreviousEvent")
public func _MusicEventIteratorPreviousEvent(_ i: OpaquePointer?) -> OSStatus {
    MusicServices.call {
        let it = try Handles.iterator(i)
        it.index = min(it.index, it.track.events.count)
        guard it.index > 0 else { throw AudioError(kAudioToolboxErr_StartOfTrack, "The iterator is on the first event.") }
        it.index -= 1
    }
}

@_cdecl("MusicEventIteratorGetEventInfo")
public func _MusicEventIteratorGetEventInfo(
    _ i: OpaquePointer?, _ time: UnsafeMutablePointer<Double>?, _ type: UnsafeMutablePointer<UInt32>?,
    _ data: UnsafeMutablePointer<UnsafeRawPointer?>?, _ size: UnsafeMutablePointer<UInt32>?
) -> OSStatus {
    MusicServices.call {
        let event = try Handles.iterator(i).current()
        time?.pointee = event.time
        type?.pointee = event.type
        data?.pointee = UnsafeRawPointer(event.bytes)
        size?.pointee = UInt32(event.size)
    }
}

@_cdecl("MusicEventIteratorSetEventInfo")
public func _MusicEventIteratorSetEventInfo(_ i: OpaquePointer?, _ type: UInt32, _ data: UnsafeRawPointer?) -> OSStatus {
    MusicServices.call {
        let it = try Handles.iterator(i)
        let old = try it.current()
        guard let data else { throw AudioError(kAudio_ParamError, "The event's data is NULL.") }
        let new = try MusicEvent.fromC(old.time, type: type, data)
        it.track.remove(at: it.index)
        do { it.index = try it.track.insert(new) } catch {
            it.index = try it.track.insert(old)
            throw error
        }
    }
}

@_cdecl("MusicEventIteratorSetEventTime")
public func _MusicEventIteratorSetEventTime(_ i: OpaquePointer?, _ time: Double) -> OSStatus {
    MusicServices.call {
        let it = try Handles.iterator(i)
        let event = try it.current()
        guard time.isFinite, time >= 0 else {
            throw AudioError(kAudio_ParamError, "An event's time must be a finite beat ≥ 0 (got \(time)).")
        }
        it.track.remove(at: it.index)
        let old = event.time
        event.time = time
        do { it.index = try it.track.insert(event) } catch {
            event.time = old
            it.index = try it.track.insert(event)
            throw error
        }
    }
}

@_cdecl("MusicEventIteratorDeleteEvent")
public func _MusicEventIteratorDeleteEvent(_ i: OpaquePointer?) -> OSStatus {
    MusicServices.call {
        let it = try Handles.iterator(i)
        _ = try it.current()
        it.track.remove(at: it.index)  // now on the event after it
    }
}

@_cdecl("MusicEventIteratorHasPreviousEvent")
public func _MusicEventIteratorHasPreviousEvent(_ i: OpaquePointer?, _ out: UnsafeMutablePointer<UInt8>?) -> OSStatus {
    MusicServices.call {
        let it = try Handles.iterator(i)
        guard let out else { throw AudioError(kAudio_ParamError, "The Boolean out-pointer is NULL.") }
        out.pointee = min(it.index, it.track.events.count) > 0 ? 1 : 0
    }
}

/// As Apple's implementation does (and code written for it relies on), true while the iterator
/// is on an event, including the last: `while hasNext { GetEventInfo; NextEvent; HasNextEvent }`
/// visits every event.
@_cdecl("MusicEventIteratorHasNextEvent")
public func _MusicEventIteratorHasNextEvent(_ i: OpaquePointer?, _ out: UnsafeMutablePointer<UInt8>?) -> OSStatus {
    _MusicEventIteratorHasCurrentEvent(i, out)
}

@_cdecl("MusicEventIteratorHasCurrentEvent")
public func _MusicEventIteratorHasCurrentEvent(_ i: OpaquePointer?, _ out: UnsafeMutablePointer<UInt8>?) -> OSStatus {
    MusicServices.call {
        let it = try Handles.iterator(i)
        guard let out else { throw AudioError(kAudio_ParamError, "The Boolean out-pointer is NULL.") }
        out.pointee = it.index < it.track.events.count ? 1 : 0
    }
}

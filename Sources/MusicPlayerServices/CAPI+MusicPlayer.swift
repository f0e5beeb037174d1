import AudioTypes
import Foundation

// The @_cdecl implementation of MusicPlayer.h's player calls.

@_cdecl("NewMusicPlayer")
public func _NewMusicPlayer(_ out: UnsafeMutablePointer<OpaquePointer?>?) -> OSStatus {
    MusicServices.call {
        guard let out else { throw AudioError(kAudio_ParamError, "NewMusicPlayer needs somewhere to put the player.") }
        out.pointee = OpaquePointer(Handles.players.add(PlayerModel()))
    }
}

@_cdecl("DisposeMusicPlayer")
public func _DisposeMusicPlayer(_ p: OpaquePointer?) -> OSStatus {
    MusicServices.call {
        let player = try Handles.player(p)
        player.detach()
        player.sequence = nil
        Handles.players.remove(player)
    }
}

@_cdecl("MusicPlayerSetSequence")
public func _MusicPlayerSetSequence(_ p: OpaquePointer?, _ s: OpaquePointer?) -> OSStatus {
    MusicServices.call {
        let player = try Handles.player(p)
        let sequence = try s.map { try Handles.sequence($0) }
        player.detach()
        player.sequence = sequence
        player.time = 0
    }
}

@_cdecl("MusicPlayerGetSequence")
public func _MusicPlayerGetSequence(_ p: OpaquePointer?, _ out: UnsafeMutablePointer<OpaquePointer?>?) -> OSStatus {
    MusicServices.call {
        let player = try Handles.player(p)
        guard let out else { throw AudioError(kAudio_ParamError, "MusicPlayerGetSequence needs somewhere to put the sequence.") }
        guard let sequence = player.sequence else { throw AudioError(kAudioToolboxErr_NoSequence, "The player has no sequence.") }
        out.pointee = sequence.handle
    }
}

@_cdecl("MusicPlayerSetTime")
public func _MusicPlayerSetTime(_ p: OpaquePointer?, _ time: Double) -> OSStatus {
    MusicServices.call { try Handles.player(p).setTime(time) }
}

@_cdecl("MusicPlayerGetTime")
public func _MusicPlayerGetTime(_ p: OpaquePointer?, _ out: UnsafeMutablePointer<Double>?) -> OSStatus {
    MusicServices.call {
        let player = try Handles.player(p)
        guard let out else { throw AudioError(kAudio_ParamError, "MusicPlayerGetTime needs somewhere to put the time.") }
        out.pointee = player.currentTime
    }
}

@_cdecl("MusicPlayerPreroll")
public func _MusicPlayerPreroll(_ p: OpaquePointer?) -> OSStatus { MusicServices.call { try Handles.player(p).preroll() } }

@_cdecl("MusicPlayerStart")
public func _MusicPlayerStart(_ p: OpaquePointer?) -> OSStatus { MusicServices.call { try Handles.player(p).start() } }

@_cdecl("MusicPlayerStop")
public func _MusicPlayerStop(_ p: OpaquePointer?) -> OSStatus { MusicServices.call { try Handles.player(p).stop() } }

@_cdecl("MusicPlayerIsPlaying")
public func _MusicPlayerIsPlaying(_ p: OpaquePointer?, _ out: UnsafeMutablePointer<UInt8>?) -> OSStatus {
    MusicServices.call {
        let player = try Handles.player(p)
        guard let out else { throw AudioError(kAudio_ParamError, "The Boolean out-pointer is NULL.") }
        out.pointee = player.isPlaying ? 1 : 0
    }
}

@_cdecl("MusicPlayerSetPlayRateScalar")
public func _MusicPlayerSetPlayRateScalar(_ p: OpaquePointer?, _ rate: Double) -> OSStatus {
    MusicServices.call { try Handles.player(p).setRate(rate) }
}

@_cdecl("MusicPlayerGetPlayRateScalar")
public func _MusicPlayerGetPlayRateScalar(_ p: OpaquePointer?, _ out: UnsafeMutablePointer<Double>?) -> OSStatus {
    MusicServices.call {
        let player = try Handles.player(p)
        guard let out else { throw AudioError(kAudio_ParamError, "MusicPlayerGetPlayRateScalar needs somewhere to put the rate.") }
        out.pointee = player.rate
    }
}

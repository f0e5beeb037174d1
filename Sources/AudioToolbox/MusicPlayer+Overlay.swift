@_weakLinked import CAudioToolbox

// MusicPlayer.h's `Boolean *` out-parameters with Apple's `DarwinBoolean`, as
// DarwinBoolean+Overlay.swift gives the AUGraph calls (see there for why).

/// MusicPlayerIsPlaying with Apple's `DarwinBoolean` out-parameter. Thread: setup.
@_alwaysEmitIntoClient
@discardableResult
public func MusicPlayerIsPlaying(_ inPlayer: MusicPlayer, _ outIsPlaying: UnsafeMutablePointer<DarwinBoolean>) -> OSStatus {
    outIsPlaying.withMemoryRebound(to: UInt8.self, capacity: 1) { CAudioToolbox.MusicPlayerIsPlaying(inPlayer, $0) }
}

/// MusicEventIteratorHasPreviousEvent with Apple's `DarwinBoolean` out-parameter. Thread: setup.
@_alwaysEmitIntoClient
@discardableResult
public func MusicEventIteratorHasPreviousEvent(_ inIterator: MusicEventIterator, _ out: UnsafeMutablePointer<DarwinBoolean>) -> OSStatus {
    out.withMemoryRebound(to: UInt8.self, capacity: 1) { CAudioToolbox.MusicEventIteratorHasPreviousEvent(inIterator, $0) }
}

/// MusicEventIteratorHasNextEvent with Apple's `DarwinBoolean` out-parameter. Thread: setup.
@_alwaysEmitIntoClient
@discardableResult
public func MusicEventIteratorHasNextEvent(_ inIterator: MusicEventIterator, _ out: UnsafeMutablePointer<DarwinBoolean>) -> OSStatus {
    out.withMemoryRebound(to: UInt8.self, capacity: 1) { CAudioToolbox.MusicEventIteratorHasNextEvent(inIterator, $0) }
}

/// MusicEventIteratorHasCurrentEvent with Apple's `DarwinBoolean` out-parameter. Thread: setup.
@_alwaysEmitIntoClient
@discardableResult
public func MusicEventIteratorHasCurrentEvent(_ inIterator: MusicEventIterator, _ out: UnsafeMutablePointer<DarwinBoolean>) -> OSStatus {
    out.withMemoryRebound(to: UInt8.self, capacity: 1) { CAudioToolbox.MusicEventIteratorHasCurrentEvent(inIterator, $0) }
}

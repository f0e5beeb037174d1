import AudioTypes
import CoreMIDI
import Foundation

// AUHostMIDI.h: MIDIInstrumentConnection for C. Every function here is [setup].

/// The connections handed to C, so that a stale or foreign handle is refused, not released.
private let liveLock = NSLock()
nonisolated(unsafe) private var live: Set<UnsafeRawPointer> = []

private func handle(_ connection: MIDIInstrumentConnection) -> OpaquePointer {
    let pointer = Unmanaged.passRetained(connection).toOpaque()
    liveLock.withLock { _ = live.insert(UnsafeRawPointer(pointer)) }
    return OpaquePointer(pointer)
}

@_cdecl("AUHostMIDIInstrumentConnectSource")
public func _AUHostMIDIInstrumentConnectSource(
    _ source: MIDIEndpointRef, _ instrument: AudioUnit?, _ out: UnsafeMutablePointer<OpaquePointer?>?
) -> OSStatus {
    LastErrorMessage.status {
        guard let instrument, let out else { throw AudioError(kAudio_ParamError, "Give an instrument and outConnection.") }
        out.pointee = handle(try MIDIInstrumentConnection(source: source, instrument: instrument))
    }
}

@_cdecl("AUHostMIDIInstrumentDestinationCreate")
public func _AUHostMIDIInstrumentDestinationCreate(
    _ name: UnsafeRawPointer?, _ instrument: AudioUnit?, _ outDestination: UnsafeMutablePointer<MIDIEndpointRef>?,
    _ out: UnsafeMutablePointer<OpaquePointer?>?
) -> OSStatus {
    LastErrorMessage.status {
        guard let instrument, let outDestination, let out else {
            throw AudioError(kAudio_ParamError, "Give an instrument, outDestination and outConnection.")
        }
        let connection = try MIDIInstrumentConnection(destinationName: string(name), instrument: instrument)
        outDestination.pointee = connection.destination
        out.pointee = handle(connection)
    }
}

@_cdecl("AUHostMIDIInstrumentConnectionDispose")
public func _AUHostMIDIInstrumentConnectionDispose(_ connection: OpaquePointer?) -> OSStatus {
    LastErrorMessage.status {
        guard let connection, liveLock.withLock({ live.remove(UnsafeRawPointer(connection)) != nil }) else {
            throw AudioError(kAudio_ParamError, "Not a connection AUHostMIDIInstrument… made (or disposed already).")
        }
        Unmanaged<MIDIInstrumentConnection>.fromOpaque(UnsafeRawPointer(connection)).release()
    }
}

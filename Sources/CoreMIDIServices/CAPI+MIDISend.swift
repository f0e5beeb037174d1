import AudioTypes
import CoreMIDI
import Foundation

// Core MIDI's C API (MIDIServices.h): sending and receiving. Every function here is [setup]
// (any thread but a real-time one: they copy the list and lock).

private func checkedSize(_ list: UnsafePointer<MIDIPacketList>?) throws -> (UnsafePointer<MIDIPacketList>, Int) {
    guard let list else { throw AudioError(kAudio_ParamError, "The packet list is missing.") }
    guard let size = packetListByteCount(list) else {
        throw AudioError(kMIDIMessageSendErr, "The packet list is malformed: its \(list.pointee.numPackets) packets run past 65536 bytes.")
    }
    return (list, size)
}

/// Thread: setup. A virtual destination's read proc gets the list on its client's MIDI thread,
/// with the timestamps as given; a backend destination gets the packets at their timestamps.
@_cdecl("MIDISend")
public func _MIDISend(_ portRef: MIDIPortRef, _ dest: MIDIEndpointRef, _ list: UnsafePointer<MIDIPacketList>?) -> OSStatus {
    LastErrorMessage.status {
        let server = MIDIServer.shared
        let port = try server.port(portRef)
        guard !port.isInput else { throw AudioError(kMIDIInvalidPort, "Port \(portRef) is an input port; send through an output port.") }
        let endpoint = try server.endpoint(dest)
        guard !endpoint.isSource else {
            throw AudioError(kMIDIWrongEndpointType, "Endpoint \(dest) is a source; MIDISend goes to destinations.")
        }
        let (list, size) = try checkedSize(list)
        if let owner = endpoint.owner, let readProc = endpoint.readProc {
            let refCon = endpoint.refCon
            server.deliver(list, byteCount: size, on: owner) { readProc($0, refCon, nil) }
        } else if let backend = server.backend {
            try AudioError.check(backend.send(list, through: endpoint), "The backend could not send to \(endpoint.name).")
        } else {
            throw AudioError(kMIDINoConnection, "Destination \(endpoint.name) has no backend to reach it.")
        }
    }
}

/// Thread: setup. To every input port connected to the virtual source, and out of its backend port.
@_cdecl("MIDIReceived")
public func _MIDIReceived(_ src: MIDIEndpointRef, _ list: UnsafePointer<MIDIPacketList>?) -> OSStatus {
    LastErrorMessage.status {
        let server = MIDIServer.shared
        let endpoint = try server.endpoint(src)
        guard endpoint.isSource, endpoint.isVirtual else {
            throw AudioError(kMIDIWrongEndpointType, "MIDIReceived takes a virtual source (MIDISourceCreate); \(endpoint.name) is not one.")
        }
        let (list, size) = try checkedSize(list)
        server.received(list, byteCount: size, from: src)
        if endpoint.backendHandle != nil, let backend = server.backend {
            try AudioError.check(backend.send(list, through: endpoint), "The backend could not send from \(endpoint.name).")
        }
    }
}

/// Thread: setup. Drops packets the backend still holds for `dest` (0: every destination).
@_cdecl("MIDIFlushOutput")
public func _MIDIFlushOutput(_ dest: MIDIEndpointRef) -> OSStatus {
    LastErrorMessage.status {
        let server = MIDIServer.shared
        let endpoint = dest == 0 ? nil : try server.endpoint(dest)
        server.backend?.flush(endpoint)
    }
}

/// Thread: setup.
@_cdecl("MIDIRestart")
public func _MIDIRestart() -> OSStatus {
    LastErrorMessage.status { MIDIServer.shared.backend?.rescan() }
}

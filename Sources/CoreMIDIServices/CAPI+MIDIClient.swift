import AudioTypes
import CoreMIDI
import Foundation

// Core MIDI's C API (MIDIServices.h): clients and ports. Every function here is [setup].

/// A CFStringRef argument as a Swift string ("" for NULL).
func string(_ ref: UnsafeRawPointer?) -> String {
    String(cfString: ref.map { Unmanaged<CFString>.fromOpaque($0).takeUnretainedValue() }) ?? ""
}

/// Thread: setup. The notify proc runs on the run loop current now, when its thread runs it.
@_cdecl("MIDIClientCreate")
public func _MIDIClientCreate(
    _ name: UnsafeRawPointer?, _ notifyProc: MIDINotifyProc?, _ refCon: UnsafeMutableRawPointer?,
    _ outClient: UnsafeMutablePointer<MIDIClientRef>?
) -> OSStatus {
    LastErrorMessage.status {
        guard let outClient else { throw AudioError(kAudio_ParamError, "MIDIClientCreate needs outClient.") }
        let server = MIDIServer.shared
        server.startBackendIfNeeded()
        let client = MIDIClient(ref: server.newRef(), name: string(name), notifyProc: notifyProc, refCon: refCon)
        server.add(client)
        outClient.pointee = client.ref
    }
}

/// Thread: setup. Its ports and virtual endpoints go too; no read proc of it runs once this returns
/// (unless called from one of them: that one finishes).
@_cdecl("MIDIClientDispose")
public func _MIDIClientDispose(_ ref: MIDIClientRef) -> OSStatus {
    LastErrorMessage.status {
        let server = MIDIServer.shared
        let client = try server.client(ref)
        let owned = server.lock.withLock {
            server.objects.values.filter { ($0 as? MIDIPort)?.client === client || ($0 as? MIDIEndpoint)?.owner === client }
        }
        for object in owned {
            if let endpoint = object as? MIDIEndpoint {
                try disposeEndpoint(endpoint)
            } else {
                server.lock.withLock { server.objects[object.ref] = nil }
            }
        }
        server.lock.withLock { server.objects[ref] = nil }
        client.notifications?.cancel()
        if !client.isCurrentQueue { client.queue.sync {} }
    }
}

/// Thread: setup.
@_cdecl("MIDIInputPortCreate")
public func _MIDIInputPortCreate(
    _ clientRef: MIDIClientRef, _ name: UnsafeRawPointer?, _ readProc: MIDIReadProc?, _ refCon: UnsafeMutableRawPointer?,
    _ outPort: UnsafeMutablePointer<MIDIPortRef>?
) -> OSStatus {
    LastErrorMessage.status {
        let server = MIDIServer.shared
        let client = try server.client(clientRef)
        guard let readProc, let outPort else { throw AudioError(kAudio_ParamError, "MIDIInputPortCreate needs a read proc and outPort.") }
        let port = MIDIPort(ref: server.newRef(), client: client, name: string(name), readProc: readProc, refCon: refCon)
        server.add(port)
        outPort.pointee = port.ref
    }
}

/// Thread: setup.
@_cdecl("MIDIOutputPortCreate")
public func _MIDIOutputPortCreate(_ clientRef: MIDIClientRef, _ name: UnsafeRawPointer?, _ outPort: UnsafeMutablePointer<MIDIPortRef>?)
    -> OSStatus
{
    LastErrorMessage.status {
        let server = MIDIServer.shared
        let client = try server.client(clientRef)
        guard let outPort else { throw AudioError(kAudio_ParamError, "MIDIOutputPortCreate needs outPort.") }
        let port = MIDIPort(ref: server.newRef(), client: client, name: string(name), readProc: nil, refCon: nil)
        server.add(port)
        outPort.pointee = port.ref
    }
}

/// Thread: setup.
@_cdecl("MIDIPortDispose")
public func _MIDIPortDispose(_ ref: MIDIPortRef) -> OSStatus {
    LastErrorMessage.status {
        let server = MIDIServer.shared
        let port = try server.port(ref)
        server.lock.withLock { server.objects[ref] = nil }
        if !port.client.isCurrentQueue { port.client.queue.sync {} }
    }
}

/// Thread: setup.
@_cdecl("MIDIPortConnectSource")
public func _MIDIPortConnectSource(_ ref: MIDIPortRef, _ source: MIDIEndpointRef, _ connRefCon: UnsafeMutableRawPointer?) -> OSStatus {
    LastErrorMessage.status {
        let server = MIDIServer.shared
        let port = try server.port(ref)
        guard port.isInput else { throw AudioError(kMIDIInvalidPort, "Port \(ref) is an output port; connect sources to an input port.") }
        let endpoint = try server.endpoint(source)
        guard endpoint.isSource else { throw AudioError(kMIDIWrongEndpointType, "Endpoint \(source) is a destination, not a source.") }
        server.lock.withLock { port.connections[source] = .some(connRefCon) }
        if !endpoint.isVirtual { server.backend?.listen(to: endpoint) }
    }
}

/// Thread: setup.
@_cdecl("MIDIPortDisconnectSource")
public func _MIDIPortDisconnectSource(_ ref: MIDIPortRef, _ source: MIDIEndpointRef) -> OSStatus {
    LastErrorMessage.status {
        let server = MIDIServer.shared
        let port = try server.port(ref)
        let removed = server.lock.withLock { port.connections.removeValue(forKey: source) != nil }
        guard removed else { throw AudioError(kMIDINoConnection, "Source \(source) is not connected to port \(ref).") }
    }
}

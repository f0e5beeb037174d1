import AudioTypes
import CoreMIDI
import Foundation

// Core MIDI's C API (MIDIServices.h): virtual endpoints, and the lists of devices, entities,
// sources and destinations. Every function here is [setup]. Out-of-range indices and unknown
// objects give 0, as on Apple.

/// Removes a virtual endpoint (and its backend port).
func disposeEndpoint(_ endpoint: MIDIEndpoint) throws {
    guard endpoint.isVirtual else {
        throw AudioError(
            kMIDINotPermitted,
            "Endpoint \(endpoint.ref) (\(endpoint.name)) belongs to another program; only virtual endpoints are disposed.")
    }
    let server = MIDIServer.shared
    server.backend?.unpublish(endpoint)
    server.unregister(endpoint)
}

func createVirtual(
    _ clientRef: MIDIClientRef, _ name: UnsafeRawPointer?, isSource: Bool, _ readProc: MIDIReadProc?,
    _ refCon: UnsafeMutableRawPointer?
) throws -> MIDIEndpoint {
    let server = MIDIServer.shared
    let client = try server.client(clientRef)
    let endpoint = MIDIEndpoint(
        ref: server.newRef(), isSource: isSource, name: string(name), owner: client, readProc: readProc, refCon: refCon)
    server.register(endpoint)
    server.backend?.publish(endpoint)
    return endpoint
}

/// Thread: setup.
@_cdecl("MIDISourceCreate")
public func _MIDISourceCreate(_ client: MIDIClientRef, _ name: UnsafeRawPointer?, _ outSrc: UnsafeMutablePointer<MIDIEndpointRef>?)
    -> OSStatus
{
    LastErrorMessage.status {
        guard let outSrc else { throw AudioError(kAudio_ParamError, "MIDISourceCreate needs outSrc.") }
        outSrc.pointee = try createVirtual(client, name, isSource: true, nil, nil).ref
    }
}

/// Thread: setup. The read proc runs on `client`'s MIDI thread.
@_cdecl("MIDIDestinationCreate")
public func _MIDIDestinationCreate(
    _ client: MIDIClientRef, _ name: UnsafeRawPointer?, _ readProc: MIDIReadProc?, _ refCon: UnsafeMutableRawPointer?,
    _ outDest: UnsafeMutablePointer<MIDIEndpointRef>?
) -> OSStatus {
    LastErrorMessage.status {
        guard let readProc, let outDest else { throw AudioError(kAudio_ParamError, "MIDIDestinationCreate needs a read proc and outDest.") }
        outDest.pointee = try createVirtual(client, name, isSource: false, readProc, refCon).ref
    }
}

/// Thread: setup.
@_cdecl("MIDIEndpointDispose")
public func _MIDIEndpointDispose(_ ref: MIDIEndpointRef) -> OSStatus {
    LastErrorMessage.status { try disposeEndpoint(try MIDIServer.shared.endpoint(ref)) }
}

/// The endpoints of a list without the private ones.
private func visible(_ refs: [MIDIEndpointRef]) -> [MIDIEndpointRef] {
    let server = MIDIServer.shared
    return server.lock.withLock { refs.filter { (server.objects[$0]?.integers["private"] ?? 0) == 0 } }
}

private func element(_ list: [MIDIObjectRef], _ index: Int) -> MIDIObjectRef { index >= 0 && index < list.count ? list[index] : 0 }

/// Thread: setup.
@_cdecl("MIDIGetNumberOfSources")
public func _MIDIGetNumberOfSources() -> Int { visible(MIDIServer.shared.lock.withLock { MIDIServer.shared.sources }).count }

/// Thread: setup.
@_cdecl("MIDIGetSource")
public func _MIDIGetSource(_ index: Int) -> MIDIEndpointRef {
    element(visible(MIDIServer.shared.lock.withLock { MIDIServer.shared.sources }), index)
}

/// Thread: setup.
@_cdecl("MIDIGetNumberOfDestinations")
public func _MIDIGetNumberOfDestinations() -> Int { visible(MIDIServer.shared.lock.withLock { MIDIServer.shared.destinations }).count }

/// Thread: setup.
@_cdecl("MIDIGetDestination")
public func _MIDIGetDestination(_ index: Int) -> MIDIEndpointRef {
    element(visible(MIDIServer.shared.lock.withLock { MIDIServer.shared.destinations }), index)
}

/// Thread: setup.
@_cdecl("MIDIGetNumberOfDevices")
public func _MIDIGetNumberOfDevices() -> Int { MIDIServer.shared.deviceRefs.count }

/// Thread: setup.
@_cdecl("MIDIGetDevice")
public func _MIDIGetDevice(_ index: Int) -> MIDIDeviceRef { element(MIDIServer.shared.deviceRefs, index) }

private func entities(of device: MIDIDeviceRef) -> [MIDIEntityRef] {
    let server = MIDIServer.shared
    return server.lock.withLock { (server.objects[device] as? MIDIDevice)?.entities ?? [] }
}

private func entity(_ ref: MIDIEntityRef) -> MIDIEntity? { MIDIServer.shared.object(ref, as: MIDIEntity.self) }

/// Thread: setup.
@_cdecl("MIDIDeviceGetNumberOfEntities")
public func _MIDIDeviceGetNumberOfEntities(_ device: MIDIDeviceRef) -> Int { entities(of: device).count }

/// Thread: setup.
@_cdecl("MIDIDeviceGetEntity")
public func _MIDIDeviceGetEntity(_ device: MIDIDeviceRef, _ index: Int) -> MIDIEntityRef { element(entities(of: device), index) }

/// Thread: setup.
@_cdecl("MIDIEntityGetNumberOfSources")
public func _MIDIEntityGetNumberOfSources(_ ref: MIDIEntityRef) -> Int {
    MIDIServer.shared.lock.withLock { entity(ref)?.sources.count ?? 0 }
}

/// Thread: setup.
@_cdecl("MIDIEntityGetSource")
public func _MIDIEntityGetSource(_ ref: MIDIEntityRef, _ index: Int) -> MIDIEndpointRef {
    MIDIServer.shared.lock.withLock { element(entity(ref)?.sources ?? [], index) }
}

/// Thread: setup.
@_cdecl("MIDIEntityGetNumberOfDestinations")
public func _MIDIEntityGetNumberOfDestinations(_ ref: MIDIEntityRef) -> Int {
    MIDIServer.shared.lock.withLock { entity(ref)?.destinations.count ?? 0 }
}

/// Thread: setup.
@_cdecl("MIDIEntityGetDestination")
public func _MIDIEntityGetDestination(_ ref: MIDIEntityRef, _ index: Int) -> MIDIEndpointRef {
    MIDIServer.shared.lock.withLock { element(entity(ref)?.destinations ?? [], index) }
}

/// Thread: setup.
@_cdecl("MIDIEntityGetDevice")
public func _MIDIEntityGetDevice(_ ref: MIDIEntityRef, _ outDevice: UnsafeMutablePointer<MIDIDeviceRef>?) -> OSStatus {
    LastErrorMessage.status {
        guard let found = entity(ref) else { throw AudioError(kMIDIObjectNotFound, "\(ref) is not a MIDI entity.") }
        outDevice?.pointee = found.device
    }
}

/// Thread: setup. Virtual endpoints have no entity (0, noErr), as on Apple.
@_cdecl("MIDIEndpointGetEntity")
public func _MIDIEndpointGetEntity(_ ref: MIDIEndpointRef, _ outEntity: UnsafeMutablePointer<MIDIEntityRef>?) -> OSStatus {
    LastErrorMessage.status { outEntity?.pointee = try MIDIServer.shared.endpoint(ref).entity }
}

import AudioTypes
import CAUHostHooks
import CoreMIDI
import Foundation

/// What carries MIDI beyond this process (JACK MIDI: Sources/CoreMIDIJACK). The server calls it
/// outside its lock; the backend calls the server back (addDevice, removeDevice, received) from
/// any non-real-time thread.
public protocol MIDIBackend: AnyObject {
    /// A virtual endpoint was created: give it a port other programs see.
    func publish(_ endpoint: MIDIEndpoint)
    /// A virtual endpoint goes away.
    func unpublish(_ endpoint: MIDIEndpoint)
    /// Packets for a backend destination (MIDISend) or out of a published virtual source
    /// (MIDIReceived), at their timestamps. The list is valid during the call only.
    func send(_ list: UnsafePointer<MIDIPacketList>, through endpoint: MIDIEndpoint) -> OSStatus
    /// An input port of this process was connected to `source`, one of the backend's: start
    /// bringing its messages in (MIDIServer.received).
    func listen(to source: MIDIEndpoint)
    /// Drops what is not yet delivered to `endpoint` (nil: to every endpoint).
    func flush(_ endpoint: MIDIEndpoint?)
    /// Looks at the other programs' ports again (MIDIRestart).
    func rescan()
}

/// Core MIDI's state in this process: every object by number, the order of devices, sources and
/// destinations, and the backend. One lock guards it; callbacks run outside it.
///
/// Thread: setup and the MIDI threads (every method takes the lock).
public final class MIDIServer: @unchecked Sendable {
    /// The process's one Core MIDI. Thread: any.
    public static let shared = MIDIServer()

    let lock = NSRecursiveLock()
    var objects: [MIDIObjectRef: MIDIObject] = [:]
    var devices: [MIDIDeviceRef] = []
    var sources: [MIDIEndpointRef] = []
    var destinations: [MIDIEndpointRef] = []
    private var nextRef: MIDIObjectRef = 0x4D00_0001
    private var backendStorage: MIDIBackend?

    /// The backend in use (nil: in process only). Thread: any non-real-time.
    public var backend: MIDIBackend? { lock.withLock { backendStorage } }

    /// Installs the backend (the JACK backend's install function calls this). Thread: setup.
    public func install(backend: MIDIBackend) {
        lock.withLock { backendStorage = backend }
    }

    /// Forgets the backend (its server went away) with the devices it added; virtual endpoints stay.
    ///
    /// Thread: setup (the backend's thread).
    public func uninstall(backend: MIDIBackend) {
        guard lock.withLock({ backendStorage === backend }) else { return }
        for device in deviceRefs { removeDevice(device) }
        lock.withLock {
            backendStorage = nil
            for case let endpoint as MIDIEndpoint in objects.values { endpoint.backendHandle = nil }
        }
    }

    /// At each MIDIClientCreate while no backend runs: lets a linked backend install itself (weak
    /// hook, CAUHostHooks), so a JACK server started after the program is found by its next client.
    func startBackendIfNeeded() {
        if backend == nil { _ = AUHostCoreMIDICallInstallBackends() }
    }

    // MARK: Object table

    func newRef() -> MIDIObjectRef {
        lock.withLock {
            defer { nextRef += 1 }
            return nextRef
        }
    }

    /// A unique ID not used by any object (never 0, kMIDIInvalidUniqueID).
    func newUniqueID() -> Int32 {
        lock.withLock {
            while true {
                let id = Int32.random(in: 1...Int32.max)
                if !objects.values.contains(where: { $0.integers["uniqueID"] == id }) { return id }
            }
        }
    }

    func add(_ object: MIDIObject) {
        object.integers["uniqueID"] = newUniqueID()
        lock.withLock { objects[object.ref] = object }
    }

    func object<T: MIDIObject>(_ ref: MIDIObjectRef, as type: T.Type) -> T? {
        lock.withLock { objects[ref] as? T }
    }

    /// The client `ref`, or kMIDIInvalidClient.
    func client(_ ref: MIDIClientRef) throws -> MIDIClient {
        guard let client = object(ref, as: MIDIClient.self) else {
            throw AudioError(kMIDIInvalidClient, "\(ref) is not a Core MIDI client of this process (MIDIClientCreate makes one).")
        }
        return client
    }

    /// The port `ref`, or kMIDIInvalidPort.
    func port(_ ref: MIDIPortRef) throws -> MIDIPort {
        guard let port = object(ref, as: MIDIPort.self) else {
            throw AudioError(kMIDIInvalidPort, "\(ref) is not a Core MIDI port (MIDIInputPortCreate or MIDIOutputPortCreate makes one).")
        }
        return port
    }

    /// The endpoint `ref`, or kMIDIUnknownEndpoint.
    public func endpoint(_ ref: MIDIEndpointRef) throws -> MIDIEndpoint {
        guard let endpoint = object(ref, as: MIDIEndpoint.self) else {
            throw AudioError(kMIDIUnknownEndpoint, "\(ref) is not a MIDI source or destination (it may have been disposed).")
        }
        return endpoint
    }

    // MARK: Endpoints and devices

    /// Adds an endpoint to the lists and tells the clients.
    func register(_ endpoint: MIDIEndpoint) {
        add(endpoint)
        lock.withLock {
            if endpoint.isSource { sources.append(endpoint.ref) } else { destinations.append(endpoint.ref) }
        }
        notifyAddedOrRemoved(MIDINotificationMessageID.msgObjectAdded, parent: 0, parentType: MIDIObjectType.other, child: endpoint)
    }

    /// Removes an endpoint: no port stays connected to it; the clients are told.
    func unregister(_ endpoint: MIDIEndpoint) {
        lock.withLock {
            objects[endpoint.ref] = nil
            sources.removeAll { $0 == endpoint.ref }
            destinations.removeAll { $0 == endpoint.ref }
            for case let port as MIDIPort in objects.values { port.connections[endpoint.ref] = nil }
        }
        notifyAddedOrRemoved(
            MIDINotificationMessageID.msgObjectRemoved, parent: endpoint.entity, parentType: MIDIObjectType.entity, child: endpoint)
    }

    /// A device of the backend's with one entity holding `sources` and `destinations` (names and
    /// backend handles). Returns the endpoints made, sources first.
    ///
    /// Thread: setup (the backend's thread).
    public func addDevice(
        name: String, manufacturer: String, sources: [(String, AnyObject)], destinations: [(String, AnyObject)]
    ) -> [MIDIEndpoint] {
        let device = MIDIDevice(ref: newRef(), type: MIDIObjectType.device, name: name, ownedHere: false)
        device.strings["manufacturer"] = manufacturer
        device.strings["model"] = name
        add(device)
        let entity = MIDIEntity(ref: newRef(), device: device.ref, name: name)
        add(entity)
        var made: [MIDIEndpoint] = []
        for (isSource, list) in [(true, sources), (false, destinations)] {
            for (portName, handle) in list {
                let endpoint = MIDIEndpoint(ref: newRef(), isSource: isSource, name: portName, owner: nil)
                endpoint.entity = entity.ref
                endpoint.backendHandle = handle
                endpoint.strings["manufacturer"] = manufacturer
                made.append(endpoint)
            }
        }
        lock.withLock {
            device.entities = [entity.ref]
            entity.sources = made.filter(\.isSource).map(\.ref)
            entity.destinations = made.filter { !$0.isSource }.map(\.ref)
            devices.append(device.ref)
        }
        notifyAddedOrRemoved(
            MIDINotificationMessageID.msgObjectAdded, parent: 0, parentType: MIDIObjectType.other, child: device, setupChanged: false)
        for endpoint in made { register(endpoint) }
        return made
    }

    /// Removes a backend device, its entity and endpoints.
    ///
    /// Thread: setup (the backend's thread).
    public func removeDevice(_ ref: MIDIDeviceRef) {
        guard let device = object(ref, as: MIDIDevice.self) else { return }
        let endpoints = lock.withLock { () -> [MIDIEndpoint] in
            let entities = device.entities.compactMap { objects[$0] as? MIDIEntity }
            return entities.flatMap { $0.sources + $0.destinations }.compactMap { objects[$0] as? MIDIEndpoint }
        }
        for endpoint in endpoints { unregister(endpoint) }
        lock.withLock {
            for entity in device.entities { objects[entity] = nil }
            objects[ref] = nil
            devices.removeAll { $0 == ref }
        }
        notifyAddedOrRemoved(MIDINotificationMessageID.msgObjectRemoved, parent: 0, parentType: MIDIObjectType.other, child: device)
    }

    /// The device of a backend endpoint (0 for virtual endpoints).
    ///
    /// Thread: setup.
    public func device(of endpoint: MIDIEndpoint) -> MIDIDeviceRef {
        lock.withLock { (objects[endpoint.entity] as? MIDIEntity)?.device ?? 0 }
    }

    /// Every backend device's number, in order. Thread: setup.
    public var deviceRefs: [MIDIDeviceRef] { lock.withLock { devices } }

    // MARK: Notifications

    /// ObjectAdded / ObjectRemoved, then SetupChanged, to every client with a notify proc, on its run loop.
    func notifyAddedOrRemoved(
        _ id: MIDINotificationMessageID, parent: MIDIObjectRef, parentType: MIDIObjectType, child: MIDIObject, setupChanged: Bool = true
    ) {
        let clients = lock.withLock { objects.values.compactMap { $0 as? MIDIClient } }
        for client in clients {
            guard let proc = client.notifyProc, let callbacks = client.notifications else { continue }
            let refCon = client.notifyRefCon
            let childRef = child.ref
            let childType = child.type
            callbacks.post {
                var message = MIDIObjectAddRemoveNotification(
                    messageID: id, messageSize: UInt32(MemoryLayout<MIDIObjectAddRemoveNotification>.size), parent: parent,
                    parentType: parentType, child: childRef, childType: childType)
                withUnsafePointer(to: &message) { $0.withMemoryRebound(to: MIDINotification.self, capacity: 1) { proc($0, refCon) } }
                if setupChanged {
                    var changed = MIDINotification(
                        messageID: MIDINotificationMessageID.msgSetupChanged, messageSize: UInt32(MemoryLayout<MIDINotification>.size))
                    proc(&changed, refCon)
                }
            }
        }
    }

    /// MIDINotificationMessageID.msgPropertyChanged to every client.
    func notifyPropertyChanged(_ object: MIDIObject, _ property: String) {
        let clients = lock.withLock { objects.values.compactMap { $0 as? MIDIClient } }
        for client in clients {
            guard let proc = client.notifyProc, let callbacks = client.notifications else { continue }
            let refCon = client.notifyRefCon
            let ref = object.ref
            let type = object.type
            callbacks.post {
                let name = CFBridge.string(property)
                defer { name.release() }
                var message = MIDIObjectPropertyChangeNotification(
                    messageID: MIDINotificationMessageID.msgPropertyChanged,
                    messageSize: UInt32(MemoryLayout<MIDIObjectPropertyChangeNotification>.size),
                    object: ref, objectType: type, propertyName: name)
                withUnsafePointer(to: &message) { $0.withMemoryRebound(to: MIDINotification.self, capacity: 1) { proc($0, refCon) } }
            }
        }
    }

    // MARK: Delivery

    /// Packets from `source` (a virtual source's MIDIReceived, or the backend's input) to every
    /// input port connected to it, each on its client's MIDI thread with a copy of the list.
    ///
    /// Thread: setup or the backend's non-real-time thread.
    public func received(_ list: UnsafePointer<MIDIPacketList>, byteCount: Int, from source: MIDIEndpointRef) {
        let ports = lock.withLock { objects.values.compactMap { $0 as? MIDIPort }.filter { $0.connections[source] != nil } }
        for port in ports {
            guard let readProc = port.readProc else { continue }
            let connRefCon = lock.withLock { port.connections[source] ?? nil }
            deliver(list, byteCount: byteCount, on: port.client) { readProc($0, port.refCon, connRefCon) }
        }
    }

    /// Packets the backend received for a virtual destination, to its read proc on its client's MIDI thread.
    ///
    /// Thread: the backend's non-real-time thread.
    public func deliver(_ list: UnsafePointer<MIDIPacketList>, byteCount: Int, toDestination ref: MIDIEndpointRef) {
        guard let endpoint = object(ref, as: MIDIEndpoint.self), let owner = endpoint.owner, let readProc = endpoint.readProc else {
            return
        }
        let refCon = endpoint.refCon
        deliver(list, byteCount: byteCount, on: owner) { readProc($0, refCon, nil) }
    }

    /// Sets a backend endpoint's display name (the backend's full port name). Thread: setup.
    public func setDisplayName(_ name: String, of endpoint: MIDIEndpoint) {
        lock.withLock { endpoint.strings["displayName"] = name }
    }

    /// Runs `call` with a copy of the list on `client`'s MIDI thread.
    func deliver(
        _ list: UnsafePointer<MIDIPacketList>, byteCount: Int, on client: MIDIClient,
        _ call: @escaping (UnsafePointer<MIDIPacketList>) -> Void
    ) {
        let copy = UnsafeMutableRawPointer.allocate(byteCount: max(byteCount, MemoryLayout<MIDIPacketList>.size), alignment: 8)
        copy.copyMemory(from: list, byteCount: byteCount)
        let address = Int(bitPattern: copy)  // the copy belongs to the delivery alone
        client.queue.async {
            let copy = UnsafeMutableRawPointer(bitPattern: address)!
            call(copy.assumingMemoryBound(to: MIDIPacketList.self))
            copy.deallocate()
        }
    }
}

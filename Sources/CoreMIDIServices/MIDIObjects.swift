import AudioTypes
import CoreMIDI
import Foundation

// The objects Core MIDI hands out as MIDIObjectRef numbers: clients, ports, devices, entities and
// endpoints, each with its properties. They live in MIDIServer's table and are touched only under
// its lock (setup threads and the MIDI threads).

/// Any Core MIDI object: its number, type and properties.
public class MIDIObject {
    /// Its MIDIObjectRef and type. Thread: any.
    public let ref: MIDIObjectRef
    public let type: MIDIObjectType
    var strings: [String: String] = [:]
    var integers: [String: Int32] = [:]
    /// Whether this process may change the properties (false for other programs' endpoints).
    let ownedHere: Bool

    init(ref: MIDIObjectRef, type: MIDIObjectType, name: String, ownedHere: Bool) {
        self.ref = ref
        self.type = type
        self.ownedHere = ownedHere
        strings["name"] = name
    }

    /// Thread: setup (under the server's lock).
    public var name: String { strings["name"] ?? "" }
}

/// A client: its notify proc, the run loop that gets the notifications, and the serial queue its
/// read procs run on (the client's "MIDI thread").
final class MIDIClient: MIDIObject {
    let notifyProc: MIDINotifyProc?
    let notifyRefCon: UnsafeMutableRawPointer?
    let notifications: RunLoopCallbacks?
    let queue: DispatchQueue
    static let queueKey = DispatchSpecificKey<MIDIObjectRef>()

    init(ref: MIDIObjectRef, name: String, notifyProc: MIDINotifyProc?, refCon: UnsafeMutableRawPointer?) {
        self.notifyProc = notifyProc
        notifyRefCon = refCon
        notifications = notifyProc.map { _ in RunLoopCallbacks(runLoop: CFRunLoopGetCurrent(), mode: nil) }
        queue = DispatchQueue(label: "CoreMIDI client \(name)")
        super.init(ref: ref, type: MIDIObjectType.other, name: name, ownedHere: true)
        queue.setSpecific(key: Self.queueKey, value: ref)
    }

    /// Whether the caller runs on this client's MIDI thread (inside one of its read procs).
    var isCurrentQueue: Bool { DispatchQueue.getSpecific(key: Self.queueKey) == ref }
}

/// An input or output port of a client; an input port's connected sources with their refCons.
final class MIDIPort: MIDIObject {
    let client: MIDIClient
    let readProc: MIDIReadProc?
    let refCon: UnsafeMutableRawPointer?
    var connections: [MIDIEndpointRef: UnsafeMutableRawPointer?] = [:]

    init(ref: MIDIObjectRef, client: MIDIClient, name: String, readProc: MIDIReadProc?, refCon: UnsafeMutableRawPointer?) {
        self.client = client
        self.readProc = readProc
        self.refCon = refCon
        super.init(ref: ref, type: MIDIObjectType.other, name: name, ownedHere: true)
    }

    var isInput: Bool { readProc != nil }
}

/// A source or destination: virtual (a client of this process owns it) or the backend's.
public final class MIDIEndpoint: MIDIObject {
    /// The client that made it with MIDISourceCreate / MIDIDestinationCreate (nil: the backend's).
    let owner: MIDIClient?
    /// A virtual destination's read proc and refCon.
    let readProc: MIDIReadProc?
    let refCon: UnsafeMutableRawPointer?
    /// The entity it belongs to (0: none, as virtual endpoints).
    var entity: MIDIEntityRef = 0
    /// The backend's handle (its port) for this endpoint, if the backend knows it.
    public var backendHandle: AnyObject?

    init(
        ref: MIDIObjectRef, isSource: Bool, name: String, owner: MIDIClient?, readProc: MIDIReadProc? = nil,
        refCon: UnsafeMutableRawPointer? = nil
    ) {
        self.owner = owner
        self.readProc = readProc
        self.refCon = refCon
        super.init(ref: ref, type: isSource ? MIDIObjectType.source : MIDIObjectType.destination, name: name, ownedHere: owner != nil)
    }

    /// A source (else a destination), and whether a client of this process made it. Thread: any.
    public var isSource: Bool { type == MIDIObjectType.source }
    public var isVirtual: Bool { owner != nil }
}

/// A device (one per program on the backend's side) and its entities.
final class MIDIDevice: MIDIObject {
    var entities: [MIDIEntityRef] = []
}

/// An entity: a device's group of sources and destinations.
final class MIDIEntity: MIDIObject {
    let device: MIDIDeviceRef
    var sources: [MIDIEndpointRef] = []
    var destinations: [MIDIEndpointRef] = []

    init(ref: MIDIObjectRef, device: MIDIDeviceRef, name: String) {
        self.device = device
        super.init(ref: ref, type: MIDIObjectType.entity, name: name, ownedHere: false)
    }
}

import AudioToolbox
import AudioTypes
import CAUHostAtomics
import Foundation

// Tracks that play to Core MIDI destinations (MusicTrackSetDestMIDIEndpoint): the render thread
// puts each message with its host time in a lock-free single-producer ring; a sender thread of the
// player takes them out every millisecond and sends them with MIDISend, timestamps intact.

/// One message for an endpoint. Thread: written on the render thread, read on the sender's.
struct EndpointMessage {
    var endpoint: MIDIEndpointRef
    var packed: UInt32
    var time: UInt64
}

/// The ring between the render thread (producer) and the sender (consumer).
struct EndpointRing {
    static let capacity: UInt64 = 4096
    var messages: UnsafeMutablePointer<EndpointMessage>
    var written: UInt64 = 0
    var read: UInt64 = 0
    var dropped: UInt64 = 0
}

/// Adds a message; counts it dropped when the ring is full. Thread: render (no allocation, no lock).
@inline(__always) @_noAllocation @_noLocks
func pushEndpointMessage(
    _ ring: UnsafeMutablePointer<EndpointRing>, _ endpoint: MIDIEndpointRef, _ status: UInt8, _ data1: UInt8,
    _ data2: UInt8, _ time: UInt64
) {
    _unsafePerformance {
        let written = auhost_atomic_load_u64(&ring.pointee.written)
        guard written - auhost_atomic_load_u64(&ring.pointee.read) < EndpointRing.capacity else {
            _ = auhost_atomic_add_u64(&ring.pointee.dropped, 1)
            return
        }
        let packed = UInt32(status) | UInt32(data1) << 8 | UInt32(data2) << 16
        ring.pointee.messages[Int(written % EndpointRing.capacity)] = EndpointMessage(endpoint: endpoint, packed: packed, time: time)
        auhost_atomic_store_u64(&ring.pointee.written, written + 1)
    }
}

/// The player's Core MIDI client, output port and sender thread (made when a schedule first has
/// endpoint tracks). Thread: setup, unless noted.
final class EndpointSender {
    let ring: UnsafeMutablePointer<EndpointRing>
    private var client: MIDIClientRef = 0
    private var port: MIDIPortRef = 0
    private let running = UnsafeMutablePointer<UInt64>.allocate(capacity: 1)
    private var thread: Thread?

    init() throws {
        ring = .allocate(capacity: 1)
        ring.initialize(to: EndpointRing(messages: .allocate(capacity: Int(EndpointRing.capacity))))
        running.initialize(to: 1)
        // From here a throw runs deinit (every stored property is set), which frees what was made.
        try AudioError.check(
            MIDIClientCreate(AUHostConstantString("MusicPlayer").takeUnretainedValue(), nil, nil, &client),
            LastErrorMessage.current ?? "MIDIClientCreate")
        try AudioError.check(
            MIDIOutputPortCreate(client, AUHostConstantString("out").takeUnretainedValue(), &port),
            LastErrorMessage.current ?? "MIDIOutputPortCreate")
        // The thread's pointers as addresses: it owns no part of them (deinit waits for it).
        let ringAddress = Int(bitPattern: ring), runningAddress = Int(bitPattern: running), port = self.port
        let thread = Thread {
            let ring = UnsafeMutablePointer<EndpointRing>(bitPattern: ringAddress)!
            let running = UnsafeMutablePointer<UInt64>(bitPattern: runningAddress)!
            var storage = [UInt8](repeating: 0, count: 4096)
            while auhost_atomic_load_u64(running) != 0 {
                sendPending(ring, port, &storage)
                usleep(1_000)
            }
            sendPending(ring, port, &storage)
        }
        thread.name = "MusicPlayer MIDI out"
        self.thread = thread
        thread.start()
    }

    /// Stops the thread once the render thread no longer pushes (the player removed its notification).
    deinit {
        auhost_atomic_store_u64(running, 0)
        while thread?.isFinished == false { usleep(1_000) }
        if client != 0 { MIDIClientDispose(client) }
        ring.pointee.messages.deallocate()
        ring.deallocate()
        running.deallocate()
    }
}

/// Every waiting message, one MIDISend per run of messages to the same endpoint.
/// Thread: the sender's.
private func sendPending(_ ring: UnsafeMutablePointer<EndpointRing>, _ port: MIDIPortRef, _ storage: inout [UInt8]) {
    let written = auhost_atomic_load_u64(&ring.pointee.written)
    var read = auhost_atomic_load_u64(&ring.pointee.read)
    storage.withUnsafeMutableBytes { raw in
        let list = raw.baseAddress!.assumingMemoryBound(to: MIDIPacketList.self)
        while read < written {
            let endpoint = ring.pointee.messages[Int(read % EndpointRing.capacity)].endpoint
            var packet: UnsafeMutablePointer<MIDIPacket>? = MIDIPacketListInit(list)
            while read < written, let current = packet {
                let message = ring.pointee.messages[Int(read % EndpointRing.capacity)]
                guard message.endpoint == endpoint else { break }
                var bytes = [UInt8(message.packed & 0xFF), UInt8(message.packed >> 8 & 0xFF), UInt8(message.packed >> 16 & 0xFF)]
                let length = (0xC0...0xDF).contains(bytes[0]) ? 2 : 3
                guard let added = MIDIPacketListAdd(list, raw.count, current, message.time, length, &bytes) else { break }
                packet = added
                read += 1
            }
            _ = MIDISend(port, endpoint, list)
            auhost_atomic_store_u64(&ring.pointee.read, read)
        }
    }
}

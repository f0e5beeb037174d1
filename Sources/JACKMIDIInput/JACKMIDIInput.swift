import AUHost
import CAUHostAtomics
import CJACK
import Foundation

/// Live MIDI from a JACK MIDI port into an instrument of a running graph (an AUHost extension;
/// Apple's hosts take MIDI from Core MIDI). A JACK client with one MIDI input port copies each
/// channel message (1 to 3 bytes; system-exclusive and real-time bytes are skipped) into a
/// lock-free single-producer ring in JACK's process callback; the graph head's pre-render
/// notification drains the ring into the instrument with MusicDeviceMIDIEvent at offset 0. So a
/// message reaches the instrument in the first graph cycle that starts after JACK's cycle
/// delivered it: within one period of the graph. (JACK's and the graph's clocks are unrelated,
/// so the offset inside the cycle carries no meaning here.)
///
/// Thread: setup, unless noted.
public final class JACKMIDIInput {
    /// The ring and counters both real-time threads share (one allocation, freed after both stop).
    struct Shared {
        static let capacity: UInt64 = 4096
        var events: UnsafeMutablePointer<UInt32>
        var written: UInt64 = 0
        var read: UInt64 = 0
        /// Messages JACK delivered (written), and those dropped because the ring was full.
        var received: UInt64 = 0
        var dropped: UInt64 = 0
        var port: OpaquePointer?
        var unit: AudioUnit?
    }

    let client: OpaquePointer
    private let shared: UnsafeMutablePointer<Shared>
    private var routedGraph: AUGraph?
    /// The input port's full name ("client:midi_in"), for jack_connect.
    public let portName: String

    /// Opens a JACK client called `clientName` on the default server (JACK_DEFAULT_SERVER), with a
    /// MIDI input port `port`, and activates it. Waits up to `timeout` seconds for a server that
    /// is starting. Errors: kAudioUnitErr_NoConnection when no server answers.
    public init(clientName: String, port: String = "midi_in", timeout: Double = 5) throws {
        var opened: OpaquePointer?
        let deadline = Date().addingTimeInterval(timeout)
        repeat {
            var status = jack_status_t(0)
            opened = clientName.withCString { auhost_jack_client_open($0, JackNoStartServer, &status) }
            if opened == nil { usleep(50_000) }
        } while opened == nil && Date() < deadline
        guard let opened else {
            throw AudioError(
                kAudioUnitErr_NoConnection,
                "No JACK server answered within \(timeout) s (JACK_DEFAULT_SERVER=\(ProcessInfo.processInfo.environment["JACK_DEFAULT_SERVER"] ?? "default"))."
            )
        }
        client = opened
        shared = .allocate(capacity: 1)
        shared.initialize(to: Shared(events: .allocate(capacity: Int(Shared.capacity))))
        guard let registered = jack_port_register(client, port, JACK_DEFAULT_MIDI_TYPE, UInt(JackPortIsInput.rawValue), 0) else {
            jack_client_close(client)
            throw AudioError(kAudioUnitErr_NoConnection, "JACK refused the MIDI input port \(port).")
        }
        shared.pointee.port = registered
        portName = String(cString: jack_port_name(registered))
        jack_set_process_callback(client, jackMIDIProcess, UnsafeMutableRawPointer(shared))
        guard jack_activate(client) == 0 else {
            jack_client_close(client)
            throw AudioError(kAudioUnitErr_NoConnection, "JACK did not activate the client \(clientName).")
        }
    }

    deinit {
        jack_deactivate(client)
        jack_client_close(client)
        if let routedGraph { AUGraphRemoveRenderNotify(routedGraph, jackMIDIDrain, UnsafeMutableRawPointer(shared)) }
        shared.pointee.events.deallocate()
        shared.deallocate()
    }

    /// Sends what arrives to `node`'s unit of `graph`, from the graph's next cycle on.
    public func route(to graph: AUGraph, node: AUNode) throws {
        var unit: AudioUnit?
        try AudioError.check(AUGraphNodeInfo(graph, node, nil, &unit), "Node \(node) is not in the graph.")
        guard let unit else { throw AudioError(kAUGraphErr_InvalidAudioUnit, "Open the graph before routing MIDI to it.") }
        if let routedGraph { AUGraphRemoveRenderNotify(routedGraph, jackMIDIDrain, UnsafeMutableRawPointer(shared)) }
        routedGraph = nil
        shared.pointee.unit = unit  // no notification runs now: a plain store is safe
        try AudioError.check(
            AUGraphAddRenderNotify(graph, jackMIDIDrain, UnsafeMutableRawPointer(shared)),
            LastErrorMessage.current ?? "AUGraphAddRenderNotify")
        routedGraph = graph
    }

    /// Messages received from JACK so far, and dropped for want of room. Thread: any.
    public var received: UInt64 { auhost_atomic_load_u64(&shared.pointee.received) }
    public var dropped: UInt64 { auhost_atomic_load_u64(&shared.pointee.dropped) }
}

/// JACK's process callback: the port's channel messages into the ring.
/// Thread: JACK's real-time thread (no allocation, no lock).
private let jackMIDIProcess: JackProcessCallback = { frames, arg in
    let shared = arg!.assumingMemoryBound(to: JACKMIDIInput.Shared.self)
    guard let port = shared.pointee.port, let buffer = jack_port_get_buffer(port, frames) else { return 0 }
    let count = jack_midi_get_event_count(buffer)
    var event = jack_midi_event_t()
    for i in 0..<count {
        guard jack_midi_event_get(&event, buffer, i) == 0, event.size >= 1, event.size <= 3, let bytes = event.buffer else { continue }
        let status = bytes[0]
        guard status >= 0x80, status < 0xF0 else { continue }
        let packed = UInt32(status) | (event.size > 1 ? UInt32(bytes[1]) << 8 : 0) | (event.size > 2 ? UInt32(bytes[2]) << 16 : 0)
        let written = auhost_atomic_load_u64(&shared.pointee.written)
        if written - auhost_atomic_load_u64(&shared.pointee.read) >= JACKMIDIInput.Shared.capacity {
            _ = auhost_atomic_add_u64(&shared.pointee.dropped, 1)
            continue
        }
        shared.pointee.events[Int(written % JACKMIDIInput.Shared.capacity)] = packed
        auhost_atomic_store_u64(&shared.pointee.written, written + 1)
        _ = auhost_atomic_add_u64(&shared.pointee.received, 1)
    }
    return 0
}

/// The graph head's pre-render notification: every message in the ring to the instrument.
/// Thread: render (no allocation, no lock).
private let jackMIDIDrain: AURenderCallback = { refCon, flags, _, _, _, _ in
    guard flags.pointee.contains(.unitRenderAction_PreRender) else { return noErr }
    let shared = refCon.assumingMemoryBound(to: JACKMIDIInput.Shared.self)
    guard let unit = shared.pointee.unit else { return noErr }
    let written = auhost_atomic_load_u64(&shared.pointee.written)
    var read = auhost_atomic_load_u64(&shared.pointee.read)
    while read < written {
        let packed = shared.pointee.events[Int(read % JACKMIDIInput.Shared.capacity)]
        _ = MusicDeviceMIDIEvent(unit, packed & 0xFF, packed >> 8 & 0xFF, packed >> 16 & 0xFF, 0)
        read += 1
    }
    auhost_atomic_store_u64(&shared.pointee.read, read)
    return noErr
}

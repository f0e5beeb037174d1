import AudioTypes
import CAUHostAtomics
import CJACK
import CoreMIDI
import CoreMIDIServices
import Foundation

/// Core MIDI over JACK MIDI. One JACK client per process ("auhost-coremidi", or what the server
/// grants); every other client with MIDI ports is a device with one entity whose sources are its
/// MIDI output ports and destinations its MIDI input ports. Virtual endpoints become ports of our
/// client (a source: an output port; a destination: an input port). MIDISend to another client's
/// port goes through an output port of ours connected to it ("to <port>"); connecting an input
/// port to another client's source makes an input port of ours connected from it ("from <port>").
///
/// Timestamps: host nanoseconds = JACK microseconds × 1000 + an offset measured at start (both
/// clocks are monotonic); an outgoing message lands on the frame jack_time_to_frames gives, an
/// incoming one carries the time of its frame (jack_frames_to_time).
///
/// Threads: the process callback (JACK's real-time thread) only moves messages between port
/// buffers and rings; a pump thread polls the input rings every millisecond and hands packet lists
/// to Core MIDI; port changes are looked at on a queue of the backend's.
public final class JACKMIDIBackend: MIDIBackend {
    enum Use {
        case publishedSource(MIDIEndpointRef), publishedDestination(MIDIEndpointRef)
        case toDestination(MIDIEndpointRef), fromSource(MIDIEndpointRef)
    }
    /// The backend handle of an endpoint: the other program's full port name, and the slot of ours
    /// that carries it (published endpoints: their own port; others: made when first needed).
    final class PortHandle {
        let fullName: String?
        var slot: Int?
        init(fullName: String?, slot: Int?) {
            self.fullName = fullName
            self.slot = slot
        }
    }

    let client: OpaquePointer
    let shared: UnsafeMutablePointer<JACKMIDIShared>
    /// The JACK client's name as the server granted it. Thread: any.
    public let clientName: String
    private let lock = NSLock()
    private var uses: [Int: Use] = [:]
    private var devicesByClient: [String: (device: MIDIDeviceRef, ports: [String])] = [:]
    private let queue = DispatchQueue(label: "CoreMIDI JACK backend")
    private var pump: Thread?
    private var running = true

    /// Opens the client on a running server (none: nil, and Core MIDI stays in process).
    ///
    /// Thread: setup.
    public static func start() -> JACKMIDIBackend? {
        var status = jack_status_t(0)
        // Every MIDIClientCreate looks for a server while none runs: libjack's "cannot connect"
        // lines are silenced for that look, and JACK's errors go to standard error again after.
        jack_set_error_function { _ in }
        defer { jack_set_error_function { message in if let message { fputs(String(cString: message) + "\n", stderr) } } }
        guard let client = auhost_jack_client_open("auhost-coremidi", JackNoStartServer, &status) else { return nil }
        let backend = JACKMIDIBackend(client: client)
        guard jack_activate(client) == 0 else {
            jack_client_close(client)
            return nil
        }
        backend.startPump()
        backend.rescan()
        return backend
    }

    private init(client: OpaquePointer) {
        self.client = client
        clientName = String(cString: jack_get_client_name(client))
        shared = JACKMIDIShared.allocate()
        shared.pointee.clockOffset = Int64(bitPattern: AudioGetCurrentHostTime()) - Int64(jack_get_time()) * 1000
        shared.pointee.client = client
        let rate = Double(jack_get_sample_rate(client))
        shared.pointee.clock.rate = rate
        shared.pointee.clock.limitNs = max(20_000_000, Int64(2 * Double(jack_get_buffer_size(client)) * 1e9 / rate))
        let me = Unmanaged.passUnretained(self).toOpaque()
        jack_set_process_callback(client, jackMIDIProcess, UnsafeMutableRawPointer(shared))
        jack_set_port_registration_callback(
            client,
            { _, _, arg in
                let backend = Unmanaged<JACKMIDIBackend>.fromOpaque(arg!).takeUnretainedValue()
                backend.queue.asyncAfter(deadline: .now() + .milliseconds(5)) { backend.rescan() }
            }, me)
        jack_on_shutdown(
            client,
            { arg in
                let backend = Unmanaged<JACKMIDIBackend>.fromOpaque(arg!).takeUnretainedValue()
                backend.queue.async { backend.serverWentAway() }
            }, me)
    }

    /// Closes the client (if still open) and frees what the process callback shared.
    deinit {
        stop()
        JACKMIDIShared.free(shared)
    }

    /// The JACK frame a MIDITimeStamp maps to, and the timestamp of a frame (JACKMIDIClock.swift);
    /// nil before the first cycle. `generation` changes when the line is re-anchored.
    ///
    /// Thread: any non-real-time.
    public func frame(ofHostTime time: UInt64) -> (frame: UInt32, generation: UInt64)? {
        let clock = readClock(&shared.pointee.clock)
        guard clock.generation > 0 else { return nil }
        return (UInt32(truncatingIfNeeded: Int64(clock.frame) + clock.framesFromAnchor(time)), clock.generation)
    }

    /// The MIDITimeStamp of JACK frame `frame` (see frame(ofHostTime:)). Thread: any non-real-time.
    public func hostTime(ofFrame frame: UInt32) -> (time: UInt64, generation: UInt64)? {
        let clock = readClock(&shared.pointee.clock)
        guard clock.generation > 0 else { return nil }
        let frames = Int64(Int32(bitPattern: frame &- UInt32(truncatingIfNeeded: clock.frame)))
        return (clock.hostTime(framesFromAnchor: frames), clock.generation)
    }

    // MARK: Slots

    /// A free slot with a new port of ours (nil: no slot or JACK refused the port).
    private func openSlot(named name: String, output: Bool, use: Use) -> Int? {
        lock.lock()
        defer { lock.unlock() }
        guard let index = (0..<JACKMIDIShared.slotCount).first(where: { uses[$0] == nil }) else { return nil }
        var port: OpaquePointer?
        for attempt in 1...16 where port == nil {
            let candidate = attempt == 1 ? name : "\(name) \(attempt)"
            port = jack_port_register(
                client, candidate, JACK_DEFAULT_MIDI_TYPE, UInt((output ? JackPortIsOutput : JackPortIsInput).rawValue), 0)
        }
        guard let port else { return nil }
        let slot = shared.pointee.slots + index
        slot.pointee.written = 0
        slot.pointee.read = 0
        auhost_atomic_store_u64(&slot.pointee.isOutput, output ? 1 : 0)
        auhost_atomic_store_pointer(&slot.pointee.port, UnsafeMutableRawPointer(port))
        uses[index] = use
        return index
    }

    /// Takes the port out of the process callback's sight, waits two cycles, unregisters it.
    private func closeSlot(_ index: Int) {
        let slot = shared.pointee.slots + index
        guard let port = auhost_atomic_exchange_pointer(&slot.pointee.port, nil) else { return }
        let cycles = auhost_atomic_load_u64(&shared.pointee.cycles)
        let deadline = Date().addingTimeInterval(1)
        while auhost_atomic_load_u64(&shared.pointee.cycles) < cycles + 2, Date() < deadline { usleep(500) }
        jack_port_unregister(client, OpaquePointer(port))
        lock.withLock { uses[index] = nil }
    }

    private func fullName(ofSlot index: Int) -> String? {
        guard let port = auhost_atomic_load_pointer(&shared.pointee.slots[index].port) else { return nil }
        return String(cString: jack_port_name(OpaquePointer(port)))
    }

    // MARK: MIDIBackend

    /// A virtual endpoint's port of ours (MIDIBackend). Thread: setup.
    public func publish(_ endpoint: MIDIEndpoint) {
        let use: Use = endpoint.isSource ? .publishedSource(endpoint.ref) : .publishedDestination(endpoint.ref)
        guard let slot = openSlot(named: endpoint.name.isEmpty ? "midi" : endpoint.name, output: endpoint.isSource, use: use) else {
            return
        }
        endpoint.backendHandle = PortHandle(fullName: nil, slot: slot)
    }

    /// Thread: setup.
    public func unpublish(_ endpoint: MIDIEndpoint) {
        guard let handle = endpoint.backendHandle as? PortHandle, handle.fullName == nil, let slot = handle.slot else { return }
        closeSlot(slot)
        endpoint.backendHandle = nil
    }

    /// Queues the messages for the process callback (up to 1024 waiting per port; longer than 16
    /// bytes: dropped, kMIDIMessageSendErr). Thread: setup.
    public func send(_ list: UnsafePointer<MIDIPacketList>, through endpoint: MIDIEndpoint) -> OSStatus {
        guard let handle = endpoint.backendHandle as? PortHandle else { return kMIDINoConnection }
        if handle.slot == nil, let target = handle.fullName {
            // Another program's destination: an output port of ours connected to it.
            guard let slot = openSlot(named: "to " + endpoint.name, output: true, use: .toDestination(endpoint.ref)) else {
                return kMIDIMessageSendErr
            }
            if let ours = fullName(ofSlot: slot) { jack_connect(client, ours, target) }
            handle.slot = slot
        }
        guard let index = handle.slot else { return kMIDINoConnection }
        let slot = shared.pointee.slots + index
        var status = noErr
        forEachPacket(list) { packet in
            forEachMessage(packet.bytes) { message in
                let written = auhost_atomic_load_u64(&slot.pointee.written)
                guard message.count <= 16, written - auhost_atomic_load_u64(&slot.pointee.read) < JACKMIDISlot.capacity else {
                    _ = auhost_atomic_add_u64(&slot.pointee.dropped, 1)
                    status = kMIDIMessageSendErr
                    return
                }
                var event = JACKMIDIEvent(time: packet.timeStamp, length: UInt32(message.count))
                withUnsafeMutableBytes(of: &event.bytes) { $0.copyMemory(from: message) }
                slot.pointee.events[Int(written % JACKMIDISlot.capacity)] = event
                auhost_atomic_store_u64(&slot.pointee.written, written + 1)
            }
        }
        return status
    }

    /// Thread: setup.
    public func listen(to source: MIDIEndpoint) {
        guard let handle = source.backendHandle as? PortHandle, handle.slot == nil, let target = handle.fullName else { return }
        guard let slot = openSlot(named: "from " + source.name, output: false, use: .fromSource(source.ref)) else { return }
        if let ours = fullName(ofSlot: slot) { jack_connect(client, target, ours) }
        handle.slot = slot
    }

    /// Thread: setup.
    public func flush(_ endpoint: MIDIEndpoint?) {
        let slots: [Int]
        if let endpoint {
            slots = [(endpoint.backendHandle as? PortHandle)?.slot].compactMap { $0 }
        } else {
            slots = lock.withLock { Array(uses.keys) }
        }
        for index in slots { auhost_atomic_store_u64(&shared.pointee.slots[index].flush, 1) }
    }

    /// Thread: setup (the backend's queue, or MIDIRestart's caller).
    /// Every other client's MIDI ports, as devices (one per client), added or replaced where they changed.
    public func rescan() {
        guard lock.withLock({ running }) else { return }
        var byClient: [String: [(name: String, output: Bool)]] = [:]
        if let list = jack_get_ports(client, nil, JACK_DEFAULT_MIDI_TYPE, 0) {
            var i = 0
            while let cName = list[i] {
                let name = String(cString: cName)
                i += 1
                guard let colon = name.firstIndex(of: ":"), !name.hasPrefix(clientName + ":"),
                    let port = jack_port_by_name(client, cName)
                else { continue }
                let output = Int32(jack_port_flags(port)) & Int32(JackPortIsOutput.rawValue) != 0
                byClient[String(name[..<colon]), default: []].append((name, output))
            }
            jack_free(UnsafeMutableRawPointer(mutating: list))
        }
        let server = MIDIServer.shared
        let known = lock.withLock { devicesByClient }
        for (name, entry) in known where byClient[name].map({ $0.map(\.name).sorted() }) != entry.ports.sorted() {
            server.removeDevice(entry.device)
            lock.withLock { devicesByClient[name] = nil }
        }
        for (name, ports) in byClient.sorted(by: { $0.key < $1.key }) where lock.withLock({ devicesByClient[name] == nil }) {
            func endpoints(_ output: Bool) -> [(String, AnyObject)] {
                ports.filter { $0.output == output }.map {
                    (String($0.name.split(separator: ":", maxSplits: 1).last ?? ""), PortHandle(fullName: $0.name, slot: nil))
                }
            }
            let made = server.addDevice(name: name, manufacturer: "JACK", sources: endpoints(true), destinations: endpoints(false))
            for endpoint in made {
                if let handle = endpoint.backendHandle as? PortHandle, let full = handle.fullName {
                    server.setDisplayName(full, of: endpoint)
                }
            }
            if let device = made.first.map({ server.device(of: $0) }) {
                lock.withLock { devicesByClient[name] = (device, ports.map(\.name)) }
            }
        }
    }

    // MARK: Input pump and shutdown

    private func startPump() {
        let thread = Thread { [unowned self] in
            var storage = [UInt8](repeating: 0, count: 65_536)
            while self.lock.withLock({ self.running }) {
                self.drainInputs(&storage)
                usleep(1_000)
            }
        }
        thread.name = "CoreMIDI JACK input"
        pump = thread
        thread.start()
    }

    /// Every input slot's messages as one packet list per slot, to Core MIDI. Thread: the pump's.
    private func drainInputs(_ storage: inout [UInt8]) {
        let inputs = lock.withLock {
            uses.filter {
                if case .publishedSource = $0.value { return false }; if case .toDestination = $0.value { return false }; return true
            }
        }
        for (index, use) in inputs {
            let slot = shared.pointee.slots + index
            let written = auhost_atomic_load_u64(&slot.pointee.written)
            var read = auhost_atomic_load_u64(&slot.pointee.read)
            guard read < written else { continue }
            storage.withUnsafeMutableBytes { raw in
                let list = raw.baseAddress!.assumingMemoryBound(to: MIDIPacketList.self)
                var packet: UnsafeMutablePointer<MIDIPacket>? = MIDIPacketListInit(list)
                while read < written, let current = packet {
                    var event = slot.pointee.events[Int(read % JACKMIDISlot.capacity)]
                    let added = withUnsafeBytes(of: &event.bytes) {
                        MIDIPacketListAdd(
                            list, raw.count, current, event.time, Int(event.length), $0.baseAddress!.assumingMemoryBound(to: UInt8.self))
                    }
                    guard let added else { break }  // full: the rest goes in the next list
                    packet = added
                    read += 1
                }
                auhost_atomic_store_u64(&slot.pointee.read, read)
                let size = packetListByteCount(list) ?? 0
                switch use {
                case .fromSource(let source): MIDIServer.shared.received(list, byteCount: size, from: source)
                case .publishedDestination(let destination): MIDIServer.shared.deliver(list, byteCount: size, toDestination: destination)
                default: break
                }
            }
        }
    }

    /// The server stopped: Core MIDI forgets this backend and its devices (virtual endpoints stay, in process).
    private func serverWentAway() {
        stop()
        MIDIServer.shared.uninstall(backend: self)
    }

    /// Stops the pump and closes the client. Thread: setup.
    public func stop() {
        let wasRunning = lock.withLock { () -> Bool in
            defer { running = false }
            return running
        }
        guard wasRunning else { return }
        jack_deactivate(client)
        jack_client_close(client)
        while pump?.isFinished == false { usleep(1_000) }
    }
}

/// Called by Core MIDI's weak hook (CAUHostHooks) at a MIDIClientCreate while no backend runs: the
/// JACK backend when a server answers.
@_cdecl("AUHostCoreMIDIInstallJACKBackend")
public func _AUHostCoreMIDIInstallJACKBackend() {
    if let backend = JACKMIDIBackend.start() { MIDIServer.shared.install(backend: backend) }
}

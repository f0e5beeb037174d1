import ALSATestSupport
import AUHost
import CAUHostAtomics
import CJACK
import CoreMIDI
import CoreMIDIJACK
import CoreMIDIServices
import Foundation
import TestSupport
import XCTest

/// The bar through JACK MIDI (this machine has no ALSA sequencer): a virtual Core MIDI source,
/// published as a JACK MIDI output port, connected in JACK to the instrument's virtual
/// destination (a JACK MIDI input port); the notes start at the frames their timestamps give.
final class JACKMIDIBackendTests: XCTestCase {
    /// A JACK client with a MIDI input port that records the absolute frame of each event.
    final class Probe {
        struct State {
            var port: OpaquePointer?
            var client: OpaquePointer?
            var count: UInt64 = 0
            var frames: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
        }
        let client: OpaquePointer
        let state: UnsafeMutablePointer<State>
        let portName: String

        init() throws {
            var status = jack_status_t(0)
            client = try XCTUnwrap(auhost_jack_client_open("auhost-midi-probe", JackNoStartServer, &status), "a JACK client")
            state = .allocate(capacity: 1)
            state.initialize(to: State())
            let port = try XCTUnwrap(jack_port_register(client, "in", JACK_DEFAULT_MIDI_TYPE, UInt(JackPortIsInput.rawValue), 0))
            state.pointee.port = port
            state.pointee.client = client
            portName = String(cString: jack_port_name(port))
            jack_set_process_callback(
                client,
                { frames, arg in
                    let state = arg!.assumingMemoryBound(to: State.self)
                    guard let buffer = jack_port_get_buffer(state.pointee.port, frames) else { return 0 }
                    var event = jack_midi_event_t()
                    let start = UInt64(jack_last_frame_time(state.pointee.client))
                    for i in 0..<jack_midi_get_event_count(buffer) where jack_midi_event_get(&event, buffer, i) == 0 {
                        let n = auhost_atomic_load_u64(&state.pointee.count)
                        guard n < 4 else { break }
                        withUnsafeMutableBytes(of: &state.pointee.frames) {
                            $0.storeBytes(of: start + UInt64(event.time), toByteOffset: Int(n) * 8, as: UInt64.self)
                        }
                        auhost_atomic_store_u64(&state.pointee.count, n + 1)
                    }
                    return 0
                }, UnsafeMutableRawPointer(state))
            XCTAssertEqual(jack_activate(client), 0)
        }

        deinit {
            jack_deactivate(client)
            jack_client_close(client)
            state.deallocate()
        }

        var count: Int { Int(auhost_atomic_load_u64(&state.pointee.count)) }
        var frames: [UInt64] { withUnsafeBytes(of: state.pointee.frames) { Array($0.bindMemory(to: UInt64.self).prefix(count)) } }
    }

    /// The server has a fixed name and is stopped with SIGINT (DummyJACKServer.interrupt says why).
    func testAVirtualSourcePlaysAnInstrumentThroughJACKMIDIAtTheFramesItsTimestampsGive() throws {
        let server = try DummyJACKServer.ready(name: "auhost-coremidi-test", periodFrames: 256)
        defer { server.interrupt() }
        try playThroughJACK()  // closes its JACK clients before the server stops
        server.interrupt()
        XCTAssertTrue(eventually { MIDIServer.shared.backend == nil }, "the backend goes when the server does")
        XCTAssertEqual(MIDIGetNumberOfDevices(), 0, "with the server's devices")
    }

    func playThroughJACK() throws {
        let instrument = try OnsetInstrument()
        let connection = try MIDIInstrumentConnection(destinationName: "onset synth", instrument: instrument.unit)
        let backend = try XCTUnwrap(MIDIServer.shared.backend as? JACKMIDIBackend, "Core MIDI found the JACK server")
        var client: MIDIClientRef = 0
        XCTAssertEqual(MIDIClientCreate(cf("keyboard"), nil, nil, &client), noErr)
        defer { MIDIClientDispose(client) }
        var source: MIDIEndpointRef = 0
        XCTAssertEqual(MIDISourceCreate(client, cf("keys"), &source), noErr)

        // Another JACK program's port is a destination of a device named after its client.
        let probe = try Probe()
        XCTAssertTrue(eventually { probeDestination() != nil }, "the probe's MIDI input is a Core MIDI destination")
        if let destination = probeDestination() {
            var entity: MIDIEntityRef = 0
            var device: MIDIDeviceRef = 0
            XCTAssertEqual(MIDIEndpointGetEntity(destination, &entity), noErr)
            XCTAssertEqual(MIDIEntityGetDevice(entity, &device), noErr)
            XCTAssertEqual(stringProperty(device, kMIDIPropertyName), "auhost-midi-probe")
            XCTAssertEqual(MIDIDeviceGetNumberOfEntities(device), 1)
            XCTAssertEqual(MIDIEntityGetNumberOfDestinations(entity), 1)
            XCTAssertEqual(MIDIEntityGetNumberOfSources(entity), 0)
            XCTAssertEqual(MIDIObjectSetIntegerProperty(destination, kMIDIPropertyPrivate, 1), kMIDINotPermitted)
        }

        let keys = "\(backend.clientName):keys"
        XCTAssertEqual(jack_connect(probe.client, keys, "\(backend.clientName):onset synth"), 0)
        XCTAssertEqual(jack_connect(probe.client, keys, probe.portName), 0)

        let on = AudioGetCurrentHostTime() + 100_000_000
        let off = hostTime(on, frame: 480)
        var list = packetList([(on, [0x90, 60, 100]), (off, [0x80, 60, 0])])
        XCTAssertEqual(
            list.withUnsafeMutableBytes { MIDIReceived(source, $0.baseAddress!.assumingMemoryBound(to: MIDIPacketList.self)) }, noErr)
        XCTAssertTrue(eventually { connection.received == 2 && probe.count == 2 }, "JACK carried both messages")
        let frames = probe.frames
        guard frames.count == 2 else { return XCTFail("the probe saw \(frames)") }

        // JACK put each message on the frame its timestamp maps to (the backend's line, JACKMIDIClock).
        let onFrame = try XCTUnwrap(backend.frame(ofHostTime: on))
        let offFrame = try XCTUnwrap(backend.frame(ofHostTime: off))
        XCTAssertEqual(frames, [UInt64(onFrame.frame), UInt64(offFrame.frame)], "frames of the note-on and note-off")
        XCTAssertEqual(frames[1] - frames[0], 480, "10 ms apart at 48 kHz")

        // The instrument, rendered in JACK's frame clock (cycle k's host time is that of its first
        // frame), starts and stops on those frames.
        let origin = UInt32(truncatingIfNeeded: frames[0] - frames[0] % 256 - 256)
        var generations: Set<UInt64> = [onFrame.generation]
        let output = try instrument.render(cycles: Int(UInt32(truncatingIfNeeded: frames[1]) - origin) / 256 + 2, frames: 256) {
            let mapped = backend.hostTime(ofFrame: origin &+ UInt32($0))!
            generations.insert(mapped.generation)
            return mapped.time
        }
        XCTAssertEqual(
            generations.count, 1, "JACK's clock left the line during the test (a cycle over 20 ms late); see JACKMIDIClock.swift")
        XCTAssertEqual(edges(output).map(\.0), [Int(frames[0]) - Int(origin), Int(frames[1]) - Int(origin)])
        XCTAssertEqual(connection.dropped, 0)
    }

    private func probeDestination() -> MIDIEndpointRef? {
        (0..<MIDIGetNumberOfDestinations()).map { MIDIGetDestination($0) }.first {
            stringProperty($0, kMIDIPropertyDisplayName) == "auhost-midi-probe:in"
        }
    }
}

func stringProperty(_ object: MIDIObjectRef, _ key: CFString) -> String? {
    var value: Unmanaged<CFString>?
    guard MIDIObjectGetStringProperty(object, key, &value) == noErr else { return nil }
    return value.map { String(cfString: $0.takeRetainedValue()) } ?? nil
}

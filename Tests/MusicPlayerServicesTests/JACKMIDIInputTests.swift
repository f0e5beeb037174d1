import ALSATestSupport
import AUHost
import CAUHostAtomics
import CJACK
import JACKMIDIInput
import TestSupport
import XCTest

/// Live MIDI: a JACK client sends notes to JACKMIDIInput's port on a dummy-backend server of this
/// test's own (JACK_DEFAULT_SERVER); the graph's first cycle after JACK delivered them plays them.
final class JACKMIDIInputTests: XCTestCase {
    /// A JACK client with a MIDI output port that writes one queued message per process cycle.
    final class Sender {
        struct State {
            var port: OpaquePointer?
            /// The message to send (status | data1 << 8 | data2 << 16 | 1 << 24), 0 when none.
            var pending: UInt64 = 0
        }
        let client: OpaquePointer
        let state: UnsafeMutablePointer<State>
        let portName: String

        init() throws {
            var status = jack_status_t(0)
            client = try XCTUnwrap(auhost_jack_client_open("auhost-midi-sender", JackNoStartServer, &status), "a JACK client")
            state = .allocate(capacity: 1)
            state.initialize(to: State())
            let port = try XCTUnwrap(jack_port_register(client, "out", JACK_DEFAULT_MIDI_TYPE, UInt(JackPortIsOutput.rawValue), 0))
            state.pointee.port = port
            portName = String(cString: jack_port_name(port))
            jack_set_process_callback(
                client,
                { frames, arg in
                    let state = arg!.assumingMemoryBound(to: State.self)
                    guard let buffer = jack_port_get_buffer(state.pointee.port, frames) else { return 0 }
                    jack_midi_clear_buffer(buffer)
                    let message = auhost_atomic_load_u64(&state.pointee.pending)
                    if message != 0, let bytes = jack_midi_event_reserve(buffer, 0, 3) {
                        bytes[0] = UInt8(message & 0xFF)
                        bytes[1] = UInt8(message >> 8 & 0xFF)
                        bytes[2] = UInt8(message >> 16 & 0xFF)
                        auhost_atomic_store_u64(&state.pointee.pending, 0)
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

        func send(_ status: UInt8, _ data1: UInt8, _ data2: UInt8) {
            auhost_atomic_store_u64(&state.pointee.pending, UInt64(status) | UInt64(data1) << 8 | UInt64(data2) << 16 | 1 << 24)
        }
    }

    /// The server has a fixed name and is stopped with SIGINT (DummyJACKServer.interrupt says why).
    func testNotesFromAJACKClientReachTheGraphsInstrumentInTheNextCycle() throws {
        let server = try DummyJACKServer.ready(name: "auhost-music-midi-test", periodFrames: 256)
        defer { server.interrupt() }
        try playNotesThroughJACK()  // closes its JACK clients before the server stops
    }

    func playNotesThroughJACK() throws {
        let input = try JACKMIDIInput(clientName: "auhost-midi-in")
        let sender = try Sender()
        XCTAssertEqual(jack_connect(sender.client, sender.portName, input.portName), 0, "\(sender.portName) → \(input.portName)")

        let fs = 48_000.0
        let graph = try InstrumentGraph(try BuiltPlugIns.sineSynth(), sampleRate: fs)
        for (id, value) in [(AudioUnitParameterID(0), Float(0)), (1, 0), (2, 0)] {  // no attack, no release, 0 dB
            try AudioError.check(AudioUnitSetParameter(graph.unit(graph.instrument), id, kAudioUnitScope_Global, 0, value, 0), "parameter")
        }
        try input.route(to: graph.graph!, node: graph.instrument)
        XCTAssertEqual(AUGraphStart(graph.graph!), noErr, "a running graph (its generic output head pulled by this test, period 256)")
        XCTAssertEqual(try graph.render(256, block: 256), [Float](repeating: 0, count: 256), "silent before any note")

        sender.send(0x90, 69, 127)
        guard waitUntil(timeout: 5, { input.received == 1 }) else { return XCTFail("JACK did not deliver the note-on within 5 s") }
        let sounding = try graph.render(256, block: 256)
        let expected = (0..<256).map { sin(2 * .pi * 440 * Double($0) / fs) }
        let worst = zip(sounding, expected).map { abs(Double($0) - $1) }.max() ?? .infinity
        XCTAssertLessThan(worst, 1e-5, "A4 from the first frame of the next cycle: \(Array(sounding.prefix(4)))")
        sender.send(0x80, 69, 0)
        guard waitUntil(timeout: 5, { input.received == 2 }) else { return XCTFail("JACK did not deliver the note-off within 5 s") }
        XCTAssertEqual(try graph.render(256, block: 256), [Float](repeating: 0, count: 256), "released in the next cycle")
        XCTAssertEqual(input.dropped, 0)
    }
}

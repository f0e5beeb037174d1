import ALSATestSupport
import AUHost
import CJACK
import JACKMIDIInput
import XCTest

/// JACKMIDIInput.connect(from:), which graph files' "midiInputs" use: a port by full name, a
/// client by name (all its MIDI output ports), and a clear error for a source JACK does not have.
final class JACKMIDIInputConnectTests: XCTestCase {
    /// Its own fixed server name, stopped with SIGINT (see JACKMIDIInputTests).
    func testConnectsFromAPortOrAClientAndNamesAMissingSource() throws {
        let server = try DummyJACKServer(name: "auhost-midi-connect-test", periodFrames: 256)
        defer {
            if server.process.isRunning {
                kill(server.process.processIdentifier, SIGINT)
                server.process.waitUntilExit()
            }
        }
        usleep(300_000)
        guard server.process.isRunning else {
            throw XCTSkip("jackd exited at once (status \(server.process.terminationStatus)); see scripts/reset-jack-state.sh")
        }
        try connectAndCheck()  // closes its JACK clients before the server stops
    }

    /// JACK tells a client about new connections asynchronously: up to 5 s for `condition`.
    func eventually(_ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(5)
        while !condition() && Date() < deadline { usleep(10_000) }
        return condition()
    }

    func connectAndCheck() throws {
        // The server may still be starting on a busy machine: a few seconds for the first client.
        var opened: OpaquePointer?
        let deadline = Date().addingTimeInterval(5)
        while opened == nil && Date() < deadline {
            var status = jack_status_t(0)
            opened = auhost_jack_client_open("auhost-connect-sender", JackNoStartServer, &status)
            if opened == nil { usleep(50_000) }
        }
        let sender = try XCTUnwrap(opened, "a JACK client within 5 s")
        defer { jack_client_close(sender) }
        let a = try XCTUnwrap(jack_port_register(sender, "a", JACK_DEFAULT_MIDI_TYPE, UInt(JackPortIsOutput.rawValue), 0))
        let b = try XCTUnwrap(jack_port_register(sender, "b", JACK_DEFAULT_MIDI_TYPE, UInt(JackPortIsOutput.rawValue), 0))
        XCTAssertEqual(jack_activate(sender), 0)

        let byPort = try JACKMIDIInput(clientName: "auhost-connect-port")
        try byPort.connect(from: "auhost-connect-sender:a")
        XCTAssertTrue(eventually { jack_port_connected_to(a, byPort.portName) == 1 }, "port a feeds the input")
        XCTAssertEqual(jack_port_connected_to(b, byPort.portName), 0, "only the port named")

        let byClient = try JACKMIDIInput(clientName: "auhost-connect-client")
        try byClient.connect(from: "auhost-connect-sender")
        XCTAssertTrue(
            eventually { jack_port_connected_to(a, byClient.portName) == 1 && jack_port_connected_to(b, byClient.portName) == 1 },
            "every MIDI output port of the client feeds the input")
        try byClient.connect(from: "auhost-connect-sender")  // connecting twice is not an error

        XCTAssertThrowsError(try byPort.connect(from: "no-such-client")) { error in
            let e = error as? AudioError
            XCTAssertEqual(e?.status, kAudioUnitErr_NoConnection)
            XCTAssertTrue(e?.message.contains("No JACK MIDI output port belongs to \"no-such-client\"") == true, e?.message ?? "")
            XCTAssertTrue(e?.message.contains("auhost-connect-sender:a") == true, "the ports JACK has are listed: \(e?.message ?? "")")
        }
    }
}

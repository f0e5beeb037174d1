import ALSATestSupport
import AUHost
import CJACK
import JACKMIDIInput
import TestSupport
import XCTest

/// JACKMIDIInput.connect(from:), which graph files' "midiInputs" use: a port by full name, a
/// client by name (all its MIDI output ports), and a clear error for a source JACK does not have.
final class JACKMIDIInputConnectTests: XCTestCase {
    /// Its own fixed server name, stopped with SIGINT (see JACKMIDIInputTests).
    func testConnectsFromAPortOrAClientAndNamesAMissingSource() throws {
        let server = try DummyJACKServer.ready(name: "auhost-midi-connect-test", periodFrames: 256)
        defer { server.interrupt() }
        try connectAndCheck()  // closes its JACK clients before the server stops
    }

    func connectAndCheck() throws {
        var status = jack_status_t(0)
        let sender = try XCTUnwrap(auhost_jack_client_open("auhost-connect-sender", JackNoStartServer, &status), "a JACK client")
        defer { jack_client_close(sender) }
        let a = try XCTUnwrap(jack_port_register(sender, "a", JACK_DEFAULT_MIDI_TYPE, UInt(JackPortIsOutput.rawValue), 0))
        let b = try XCTUnwrap(jack_port_register(sender, "b", JACK_DEFAULT_MIDI_TYPE, UInt(JackPortIsOutput.rawValue), 0))
        XCTAssertEqual(jack_activate(sender), 0)

        let byPort = try JACKMIDIInput(clientName: "auhost-connect-port")
        try byPort.connect(from: "auhost-connect-sender:a")
        // JACK tells a client about new connections asynchronously: up to 5 s for each.
        XCTAssertTrue(waitUntil(timeout: 5) { jack_port_connected_to(a, byPort.portName) == 1 }, "port a feeds the input")
        XCTAssertEqual(jack_port_connected_to(b, byPort.portName), 0, "only the port named")

        let byClient = try JACKMIDIInput(clientName: "auhost-connect-client")
        try byClient.connect(from: "auhost-connect-sender")
        XCTAssertTrue(
            waitUntil(timeout: 5) {
                jack_port_connected_to(a, byClient.portName) == 1 && jack_port_connected_to(b, byClient.portName) == 1
            },
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

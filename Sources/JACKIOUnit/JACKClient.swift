import AUHostCore
import CJACK
import Foundation

/// The JACK calls the unit makes on setup threads: opening a client, registering ports,
/// connecting to the physical ports, asking a server's rate.
enum JACKClient {
    /// Opens a client called `name` on `server` ("default": $JACK_DEFAULT_SERVER, else JACK's
    /// default) without starting a server. Errors: kAudioUnitErr_NoConnection naming the server.
    ///
    /// Thread: setup.
    static func open(name: String, server: String) throws -> OpaquePointer {
        var status = jack_status_t(0)
        let client =
            server == "default"
            ? name.withCString { auhost_jack_client_open($0, JackNoStartServer, &status) }
            : name.withCString { n in server.withCString { auhost_jack_client_open_server(n, JackNoStartServer, &status, $0) } }
        guard let client else {
            let shown =
                server == "default"
                ? "the default JACK server (JACK_DEFAULT_SERVER=\(ProcessInfo.processInfo.environment["JACK_DEFAULT_SERVER"] ?? "unset"))"
                : "JACK server \"\(server)\""
            throw AudioError(
                kAudioUnitErr_NoConnection,
                "No answer from \(shown) for client \"\(name)\" (jack_status 0x\(String(status.rawValue, radix: 16))); is jackd (or PipeWire's JACK) running?"
            )
        }
        return client
    }

    /// Registers one audio port. Thread: setup.
    static func register(_ client: OpaquePointer, _ name: String, output: Bool) throws -> OpaquePointer {
        let flags = UInt(output ? JackPortIsOutput.rawValue : JackPortIsInput.rawValue)
        guard let port = jack_port_register(client, name, JACK_DEFAULT_AUDIO_TYPE, flags, 0) else {
            throw AudioError(kAudioUnitErr_FailedInitialization, "JACK refused the port \(name).")
        }
        return port
    }

    /// Connects out_N to the N-th physical playback port and the N-th physical capture port to
    /// in_N, as far as both exist (jack_connect's refusals are ignored: a port may already be
    /// connected by a session manager). Thread: setup, client active.
    static func connectToPhysicalPorts(_ client: OpaquePointer, _ io: UnsafeMutablePointer<JACKIOContext>) {
        let playback = physicalPorts(client, JackPortIsInput)
        for c in 0..<min(io.pointee.outputCount, playback.count) {
            guard let port = io.pointee.outputPorts[c] else { continue }
            _ = jack_connect(client, jack_port_name(port), playback[c])
        }
        let capture = physicalPorts(client, JackPortIsOutput)
        for c in 0..<min(io.pointee.inputCount, capture.count) {
            guard let port = io.pointee.inputPorts[c] else { continue }
            _ = jack_connect(client, capture[c], jack_port_name(port))
        }
    }

    /// The names of the server's physical audio ports with `direction` (as seen from the port).
    static func physicalPorts(_ client: OpaquePointer, _ direction: JackPortFlags) -> [String] {
        guard let names = jack_get_ports(client, nil, JACK_DEFAULT_AUDIO_TYPE, UInt(direction.rawValue | JackPortIsPhysical.rawValue))
        else {
            return []
        }
        defer { jack_free(names) }
        var result: [String] = []
        var i = 0
        while let name = names[i] {
            result.append(String(cString: name))
            i += 1
        }
        return result
    }

    /// The sample rate of `server`, asked through a short-lived client (hosts size their graphs
    /// with it before the unit exists). Thread: setup.
    static func sampleRate(server: String) throws -> Double {
        let client = try open(name: "auhost-probe", server: server)
        defer { jack_client_close(client) }
        return Double(jack_get_sample_rate(client))
    }
}

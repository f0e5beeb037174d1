import ALSATestSupport
import CJACK
import XCTest

extension DummyJACKServer {
    /// Whether the server took a client within `timeout` seconds (it is ready then), instead of a
    /// fixed sleep that a busy machine outlasts. Throws XCTSkip when jackd exited instead.
    ///
    /// Thread: setup (the test's).
    public func acceptsClients(within timeout: Double = 30) throws -> Bool {
        let ready = waitUntil(timeout: timeout, poll: 50_000) { !process.isRunning || Self.takesAClient() }
        guard process.isRunning else {
            // jackd itself refused to start: on this machine that is JACK's registry in /dev/shm
            // filled by servers other tests killed ("Too many servers already active");
            // scripts/reset-jack-state.sh (run by `make test`) clears it when no jackd runs.
            throw XCTSkip("jackd exited at once (status \(process.terminationStatus)); see scripts/reset-jack-state.sh")
        }
        return ready
    }

    /// Opens and closes a client on the JACK_DEFAULT_SERVER this server set.
    private static func takesAClient() -> Bool {
        var status = jack_status_t(0)
        guard let client = auhost_jack_client_open("auhost-ready-probe", JackNoStartServer, &status) else { return false }
        jack_client_close(client)
        return true
    }
}

extension DummyJACKServer {
    /// A started server that takes clients; one that takes none within 30 s fails the test (a
    /// thrown error), and XCTSkip comes only where ``acceptsClients(within:)`` says.
    ///
    /// Thread: setup (the test's).
    public static func ready(name: String, periodFrames: Int = 256) throws -> DummyJACKServer {
        let server = try DummyJACKServer(name: name, periodFrames: periodFrames)
        guard try server.acceptsClients(within: 30) else { throw JACKServerNotReady(name: name) }
        return server
    }

    /// Stops the server with SIGINT, so that it leaves JACK's registry in /dev/shm as it found it
    /// (a killed server keeps its slot until one of the same name starts; after eight such slots
    /// no server starts at all).
    ///
    /// Thread: setup (the test's).
    public func interrupt() {
        guard process.isRunning else { return }
        Foundation.kill(process.processIdentifier, SIGINT)
        process.waitUntilExit()
    }
}

/// A JACK server that started but took no client within 30 s.
public struct JACKServerNotReady: Error, CustomStringConvertible {
    public let name: String
    public var description: String { "jackd \(name) took no client within 30 s" }
}

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

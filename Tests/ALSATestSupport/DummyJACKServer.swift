import Foundation
import XCTest

/// A JACK server on the dummy backend (it keeps real time without a sound card), named for this
/// test process and made the default for JACK clients. Killing it is how the device-disappears
/// tests make a device vanish; it is killed on deinit in any case.
public final class DummyJACKServer {
    public let process = Process()

    /// Starts the server, or skips the test when jackd is not installed. Thread: setup.
    public init(name: String, periodFrames: Int = 256) throws {
        guard let jackd = ["/usr/bin/jackd", "/usr/local/bin/jackd"].first(where: { FileManager.default.isExecutableFile(atPath: $0) })
        else {
            throw XCTSkip("jackd is not installed (apt-get install jackd2)")
        }
        setenv("JACK_DEFAULT_SERVER", name, 1)
        setenv("JACK_NO_START_SERVER", "1", 1)
        process.executableURL = URL(fileURLWithPath: jackd)
        process.arguments = ["--no-realtime", "-n", name, "-d", "dummy", "-r", "48000", "-p", String(periodFrames)]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
    }

    /// Kills the server at once (the device disappears). Thread: setup.
    public func kill() {
        guard process.isRunning else { return }
        Foundation.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    deinit { kill() }
}

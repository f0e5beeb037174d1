import CALSA
import Foundation
import XCTest

/// Points alsa-lib at the fixture asoundrc (through a temporary HOME) once per test process and
/// owns the socket behind `alsadev_socket_in`.
enum ALSATestEnvironment {
    /// The temporary directory holding `.asoundrc` and the PCMs' files.
    static let directory: URL = setUp()
    /// The descriptor `alsadev_socket_in` reads (fixed number so the config can name it).
    static let socketReadDescriptor: Int32 = 900
    /// The test's end of that socket.
    nonisolated(unsafe) static var socketPeer: Int32 = -1

    static func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    private static func setUp() -> URL {
        signal(SIGPIPE, SIG_IGN)
        let dir = URL(fileURLWithPath: NSTemporaryDirectory())
            .appendingPathComponent("alsadevice-tests-\(getpid())")
        try? FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let fixture = Bundle.module.url(forResource: "Fixtures/asoundrc", withExtension: nil)!
        let text = try! String(contentsOf: fixture, encoding: .utf8)
            .replacingOccurrences(of: "@DIR@", with: dir.path)
            .replacingOccurrences(of: "@FD@", with: String(socketReadDescriptor))
        try! text.write(to: dir.appendingPathComponent(".asoundrc"), atomically: true, encoding: .utf8)
        setenv("HOME", dir.path, 1)
        unsetenv("ALSA_CONFIG_PATH")
        unsetenv("XDG_CONFIG_HOME")
        snd_config_update_free_global()   // drop any config read before HOME changed
        return dir
    }

    /// Makes a fresh socket pair; descriptor 900 becomes the PCM's end. Call before opening
    /// `alsadev_socket_in` (the file plugin takes the descriptor at open).
    static func makeSocket() -> Int32 {
        _ = directory
        var fds: [Int32] = [-1, -1]
        precondition(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &fds) == 0)
        precondition(dup2(fds[0], socketReadDescriptor) == socketReadDescriptor)
        close(fds[0])
        socketPeer = fds[1]
        return fds[1]
    }

    /// Writes `bytes` to `name` in the directory.
    static func write(_ bytes: [UInt8], to name: String) {
        _ = directory
        _ = FileManager.default.createFile(atPath: path(name), contents: Data(bytes))
    }

    /// Reads `name` from the directory.
    static func read(_ name: String) -> [UInt8] {
        [UInt8](FileManager.default.contents(atPath: path(name)) ?? Data())
    }

    /// Waits (polling, no timing assertion) until `condition` holds or `limit` seconds pass.
    static func wait(upTo limit: Double = 20, until condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(limit)
        while !condition() {
            if Date() > deadline { return false }
            usleep(1_000)
        }
        return true
    }
}

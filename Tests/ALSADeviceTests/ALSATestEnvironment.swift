import CALSA
import Foundation
import XCTest

/// Points alsa-lib at the fixture asoundrc (through a temporary HOME) once per test process.
enum ALSATestEnvironment {
    /// The temporary directory holding `.asoundrc` and the PCMs' files.
    static let directory: URL = setUp()

    static func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    private static func setUp() -> URL {
        signal(SIGPIPE, SIG_IGN)
        let dir = URL(fileURLWithPath: NSTemporaryDirectory())
            .appendingPathComponent("alsadevice-tests-\(getpid())")
        try? FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let fixture = Bundle.module.url(forResource: "Fixtures/asoundrc", withExtension: nil)!
        let text = try! String(contentsOf: fixture, encoding: .utf8)
            .replacingOccurrences(of: "@DIR@", with: dir.path)
        try! text.write(to: dir.appendingPathComponent(".asoundrc"), atomically: true, encoding: .utf8)
        setenv("HOME", dir.path, 1)
        unsetenv("ALSA_CONFIG_PATH")
        unsetenv("XDG_CONFIG_HOME")
        snd_config_update_free_global()   // drop any config read before HOME changed
        return dir
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

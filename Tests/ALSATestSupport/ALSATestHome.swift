import CALSA
import Foundation

/// A temporary HOME holding a fixture asoundrc (with `@DIR@` replaced by the folder) and the
/// files its PCMs read and write. Making one points alsa-lib at it for the whole test process.
public final class ALSATestHome {
    /// The folder holding `.asoundrc` and the PCMs' files.
    public let directory: URL

    /// Thread: setup (once per test process: it changes HOME).
    public init(prefix: String, asoundrc fixture: URL) {
        signal(SIGPIPE, SIG_IGN)
        directory = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("\(prefix)-\(getpid())")
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let text = try! String(contentsOf: fixture, encoding: .utf8).replacingOccurrences(of: "@DIR@", with: directory.path)
        try! text.write(to: directory.appendingPathComponent(".asoundrc"), atomically: true, encoding: .utf8)
        setenv("HOME", directory.path, 1)
        unsetenv("ALSA_CONFIG_PATH")
        unsetenv("XDG_CONFIG_HOME")
        snd_config_update_free_global()  // drop any config read before HOME changed
    }

    /// Thread: setup.
    public func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    /// Writes `bytes` to `name` in the folder. Thread: setup.
    public func write(_ bytes: [UInt8], to name: String) {
        _ = FileManager.default.createFile(atPath: path(name), contents: Data(bytes))
    }

    /// Reads `name` from the folder. Thread: setup.
    public func read(_ name: String) -> [UInt8] {
        [UInt8](FileManager.default.contents(atPath: path(name)) ?? Data())
    }

    /// Waits (polling, no timing assertion) until `condition` holds or `limit` seconds pass.
    /// Thread: setup.
    public func wait(upTo limit: Double = 20, until condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(limit)
        while !condition() {
            if Date() > deadline { return false }
            usleep(1_000)
        }
        return true
    }
}

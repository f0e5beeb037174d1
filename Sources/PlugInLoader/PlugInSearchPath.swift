import Foundation

/// Where AUHost looks for plug-in manifests, in order (the first manifest that claims a triple wins):
///
/// 1. every folder in `$AUHOST_PLUGIN_PATH` (colon-separated),
/// 2. `~/.local/lib/auhost/plugins` (per user),
/// 3. `/usr/local/lib/auhost/plugins`, then `/usr/lib/auhost/plugins` (system),
/// 4. during development, this checkout's own `Plugins/.build/release` and `Plugins/.build/debug`
///    (where `Plugins/build.sh` leaves the plug-ins with their manifests), when they exist.
public enum PlugInSearchPath {
    /// The folders above, for the given environment (default: the process's two variables that
    /// matter, read alone: the whole environment as a dictionary is a copy of every variable).
    ///
    /// Thread: setup.
    public static func folders(
        environment: [String: String] = ["AUHOST_PLUGIN_PATH", "HOME"].reduce(into: [:]) { found, name in
            found[name] = getenv(name).map { String(cString: $0) }
        }
    ) -> [String] {
        var folders: [String] = []
        if let path = environment["AUHOST_PLUGIN_PATH"] {
            folders += path.split(separator: ":").map(String.init).filter { !$0.isEmpty }
        }
        let home = environment["HOME"] ?? NSHomeDirectory()
        folders.append((home as NSString).appendingPathComponent(".local/lib/auhost/plugins"))
        folders += ["/usr/local/lib/auhost/plugins", "/usr/lib/auhost/plugins"]
        folders += developmentFolders
        return folders
    }

    /// This checkout's Plugins build folders (found from this source file's location), if built.
    static var developmentFolders: [String] {
        let checkout = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        return ["release", "debug"].map { checkout.appendingPathComponent("Plugins/.build/\($0)").path }
            .filter { FileManager.default.fileExists(atPath: $0) }
    }

    /// The manifests in one folder, sorted by name (a missing folder has none).
    ///
    /// Thread: setup.
    public static func manifests(in folder: String) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return names.filter { $0.hasSuffix(PlugInManifest.suffix) }.sorted()
            .map { (folder as NSString).appendingPathComponent($0) }
    }
}

import Foundation

/// Where AUHost looks for plug-in manifests, in order (the first manifest that claims a triple wins):
///
/// 1. every folder in `$AUHOST_PLUGIN_PATH` (colon-separated),
/// 2. `~/.local/lib/auhost/plugins` (per user),
/// 3. `/usr/local/lib/auhost/plugins`, then `/usr/lib/auhost/plugins` (system),
/// 4. during development, this checkout's own `Plugins/.build/release` and `Plugins/.build/debug`
///    (where `Plugins/build.sh` leaves the plug-ins with their manifests), when they exist.
public enum PlugInSearchPath {
    /// The folders above, for the given environment (default: the process's, read a variable at
    /// a time).
    ///
    /// Thread: setup.
    public static func folders(environment: [String: String]? = nil) -> [String] {
        func value(_ name: String) -> String? {
            if let environment { return environment[name] }
            return getenv(name).map { String(cString: $0) }
        }
        var folders: [String] = []
        if let path = value("AUHOST_PLUGIN_PATH") {
            folders += path.split(separator: ":").map(String.init).filter { !$0.isEmpty }
        }
        let home = value("HOME") ?? NSHomeDirectory()
        folders.append((home.hasSuffix("/") ? home : home + "/") + ".local/lib/auhost/plugins")
        folders += ["/usr/local/lib/auhost/plugins", "/usr/lib/auhost/plugins"]
        folders += developmentFolders
        return folders
    }

    /// This checkout's Plugins build folders (found from this source file's location), if built.
    /// Plain string and `access` calls: URL and FileManager's first use cost 0.3 ms of every start.
    static var developmentFolders: [String] {
        let checkout = #filePath.split(separator: "/", omittingEmptySubsequences: false).dropLast(3).joined(separator: "/")
        return ["release", "debug"].map { checkout + "/Plugins/.build/" + $0 }.filter { access($0, F_OK) == 0 }
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

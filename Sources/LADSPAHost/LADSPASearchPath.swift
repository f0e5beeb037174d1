import Foundation

/// The folders LADSPA libraries are looked for in: `LADSPA_PATH` (colon-separated) when set,
/// else /usr/lib/ladspa, /usr/local/lib/ladspa and ~/.ladspa, as ladspa-sdk's tools search.
public struct LADSPASearchPath: Equatable, Sendable {
    public let folders: [String]

    /// The path from `ladspaPath`, else `$LADSPA_PATH`, else the default. Thread: any.
    public init(ladspaPath: String? = nil) {
        let text = ladspaPath ?? ProcessInfo.processInfo.environment["LADSPA_PATH"]
        if let text, !text.isEmpty {
            folders = text.split(separator: ":").map(String.init)
        } else {
            let home = ProcessInfo.processInfo.environment["HOME"] ?? ""
            folders = ["/usr/lib/ladspa", "/usr/local/lib/ladspa"] + (home.isEmpty ? [] : [home + "/.ladspa"])
        }
    }

    /// The path as text (the cache file is named after it). Thread: any.
    public var text: String { folders.joined(separator: ":") }

    /// Every `.so` file in the folders, in path order and by name within a folder (a missing
    /// folder is no error: most of the defaults usually are). Thread: setup (reads folders).
    public func libraries() -> [String] {
        var seen = Set<String>()
        var found: [String] = []
        for folder in folders {
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { continue }
            for name in names.sorted() where name.hasSuffix(".so") {
                let path = folder.hasSuffix("/") ? folder + name : folder + "/" + name
                if seen.insert(path).inserted { found.append(path) }
            }
        }
        return found
    }

    /// "size:mtime-ns" of the file `path` (following links), or nil when it is not a regular file.
    /// Thread: setup (stat).
    public static func fingerprint(_ path: String) -> String? {
        var s = stat()
        guard stat(path, &s) == 0, s.st_mode & S_IFMT == S_IFREG else { return nil }
        return "\(s.st_size):\(s.st_mtim.tv_sec * 1_000_000_000 + s.st_mtim.tv_nsec)"
    }
}

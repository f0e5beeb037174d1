import Foundation
import LV2Host

/// The folders LADSPA and DSSI libraries are looked for in: `LADSPA_PATH` (colon-separated) when
/// set, else /usr/lib/ladspa, /usr/local/lib/ladspa and ~/.ladspa, as ladspa-sdk's tools search;
/// then `DSSI_PATH`, else /usr/lib/dssi, /usr/local/lib/dssi and ~/.dssi, as dssi's host does.
public struct LADSPASearchPath: Equatable, Sendable {
    /// LADSPA folders, then DSSI folders.
    public let folders: [String]
    private let ladspaText: String, dssiText: String

    /// The path from `ladspaPath` / `dssiPath`, else the environment, else the defaults.
    /// Thread: any.
    public init(ladspaPath: String? = nil, dssiPath: String? = nil) {
        let home = ProcessEnvironment.value("HOME") ?? ""
        func folders(_ text: String?, _ kind: String) -> [String] {
            if let text, !text.isEmpty { return text.split(separator: ":").map(String.init) }
            return ["/usr/lib/\(kind)", "/usr/local/lib/\(kind)"] + (home.isEmpty ? [] : [home + "/.\(kind)"])
        }
        let ladspa = folders(ladspaPath ?? ProcessEnvironment.value("LADSPA_PATH"), "ladspa")
        let dssi = folders(dssiPath ?? ProcessEnvironment.value("DSSI_PATH"), "dssi")
        self.folders = ladspa + dssi
        ladspaText = ladspa.joined(separator: ":")
        dssiText = dssi.joined(separator: ":")
    }

    /// The path as text (the cache file is named after it). Thread: any.
    public var text: String { ladspaText + "|dssi:" + dssiText }

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

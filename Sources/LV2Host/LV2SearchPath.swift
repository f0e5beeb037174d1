import Foundation

/// The folders lilv searches for bundles, and the bundles in them, read without lilv: the
/// catalog cache decides from this alone which bundles it must read again.
///
/// `LV2_PATH` (colon-separated) when set, else lilv's built-in default path; `~` is the home folder,
/// as lilv expands it.
public struct LV2SearchPath: Equatable, Sendable {
    /// lilv's default path on this platform (liblilv-0 0.24, Debian multiarch build).
    public static let lilvDefault = "~/.lv2:/usr/lib/x86_64-linux-gnu/lv2:/usr/lib/lv2:/usr/local/lib/lv2"

    /// The path as given (LV2_PATH syntax).
    public let text: String
    /// The folders, `~` expanded, in search order.
    public let folders: [String]

    /// The path `lv2Path`, else `LV2_PATH`, else lilv's default. Thread: any.
    public init(lv2Path: String? = nil) {
        let text = lv2Path ?? ProcessInfo.processInfo.environment["LV2_PATH"] ?? Self.lilvDefault
        self.text = text
        let home = ProcessInfo.processInfo.environment["HOME"] ?? ""
        folders = text.split(separator: ":", omittingEmptySubsequences: true).map { part in
            part.hasPrefix("~") ? home + part.dropFirst() : String(part)
        }
    }

    /// Every bundle (a folder with a manifest.ttl) directly inside the folders, in search order,
    /// folders' entries sorted by name; a bundle path seen twice (the same folder listed twice)
    /// counts once. Thread: setup (reads the file system).
    public func bundles() -> [String] {
        var seen = Set<String>()
        var result: [String] = []
        for folder in folders {
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { continue }
            for name in names.sorted() {
                let bundle = (folder.hasSuffix("/") ? folder : folder + "/") + name + "/"
                guard access(bundle + "manifest.ttl", R_OK) == 0, seen.insert(bundle).inserted else { continue }
                result.append(bundle)
            }
        }
        return result
    }
}

/// A bundle's identity for the cache: the sizes and modification times of every file in it (and
/// its sub-folders, to a depth of 4), hashed. Any file added, removed, resized or touched changes it.
public enum LV2BundleFingerprint {
    /// The fingerprint of the bundle folder `path` (ending in "/"), or nil when it cannot be read.
    /// Thread: setup (reads the file system).
    public static func of(_ path: String) -> String? {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        var files = 0
        func mix(_ text: String) {
            for byte in text.utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        }
        func walk(_ folder: String, relative: String, depth: Int) -> Bool {
            guard let dir = opendir(folder) else { return false }
            defer { closedir(dir) }
            var names: [String] = []
            while let entry = readdir(dir) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                    String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
                }
                if name != "." && name != ".." { names.append(name) }
            }
            for name in names.sorted() {
                var info = stat()
                guard stat(folder + name, &info) == 0 else { continue }
                if info.st_mode & S_IFMT == S_IFDIR {
                    if depth < 4 { _ = walk(folder + name + "/", relative: relative + name + "/", depth: depth + 1) }
                    continue
                }
                files += 1
                mix("\(relative)\(name)\t\(info.st_size)\t\(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec)\n")
            }
            return true
        }
        guard walk(path, relative: "", depth: 0) else { return nil }
        return String(hash, radix: 16) + "-\(files)"
    }
}

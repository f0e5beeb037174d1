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

    /// Every possible bundle directly inside the folders (each entry but "." and ".."), in search
    /// order, folders' entries sorted by name; a path seen twice (the same folder listed twice)
    /// counts once. Whether it is a bundle (a folder with a manifest.ttl) is decided by
    /// ``LV2BundleFingerprint/of(_:)``, which reads the folder anyway. Thread: setup.
    public func bundles() -> [String] {
        var seen = Set<String>()
        var result: [String] = []
        for folder in folders {
            guard let dir = opendir(folder) else { continue }
            var names: [String] = []
            while let entry = readdir(dir) {
                let type = entry.pointee.d_type
                guard type == DT_DIR || type == DT_LNK || type == DT_UNKNOWN else { continue }
                let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
                if name != "." && name != ".." { names.append(name) }
            }
            closedir(dir)
            for name in names.sorted() {
                let bundle = (folder.hasSuffix("/") ? folder : folder + "/") + name + "/"
                if seen.insert(bundle).inserted { result.append(bundle) }
            }
        }
        return result
    }
}

/// A bundle's identity for the cache: the names, sizes and modification times of every file in it
/// (and its sub-folders, to a depth of 4), hashed. Any file added, removed, resized or touched
/// changes it. Each file's record is hashed alone and the hashes summed, so the order the file
/// system lists them in does not matter (and nothing is sorted: this runs for every bundle on
/// every start).
public enum LV2BundleFingerprint {
    /// The fingerprint of the bundle folder `path` (ending in "/"), or nil when it cannot be read
    /// or has no manifest.ttl (it is not a bundle). Thread: setup (reads the file system).
    public static func of(_ path: String) -> String? {
        let folder = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard folder >= 0 else { return nil }
        guard faccessat(folder, "manifest.ttl", R_OK, 0) == 0 else { close(folder); return nil }
        var sum: UInt64 = 0
        var files = 0
        walk(folder, prefix: 0xCBF2_9CE4_8422_2325, depth: 0, sum: &sum, files: &files)
        return String(sum, radix: 16) + "-\(files)"
    }

    /// Adds the records of the files under the open folder `fd` (closed here) to `sum`.
    private static func walk(_ fd: Int32, prefix: UInt64, depth: Int, sum: inout UInt64, files: inout Int) {
        guard let dir = fdopendir(fd) else { close(fd); return }
        defer { closedir(dir) }
        while let entry = readdir(dir) {
            var hash = prefix
            var isDot = false
            withUnsafeBytes(of: entry.pointee.d_name) { raw in
                let name = raw.prefix { $0 != 0 }
                isDot = name.count <= 2 && name.allSatisfy { $0 == UInt8(ascii: ".") }
                for byte in name { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
            }
            if isDot { continue }
            var info = stat()
            let statted = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                fstatat(fd, raw.baseAddress!.assumingMemoryBound(to: CChar.self), &info, 0) == 0
            }
            guard statted else { continue }
            if info.st_mode & S_IFMT == S_IFDIR {
                guard depth < 4 else { continue }
                let child = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                    openat(fd, raw.baseAddress!.assumingMemoryBound(to: CChar.self), O_RDONLY | O_DIRECTORY | O_CLOEXEC)
                }
                if child >= 0 { walk(child, prefix: (hash ^ 0x2F) &* 0x0000_0100_0000_01B3, depth: depth + 1, sum: &sum, files: &files) }
                continue
            }
            func mix(_ value: Int) {
                hash = (hash ^ UInt64(bitPattern: Int64(value))) &* 0x0000_0100_0000_01B3
                hash ^= hash >> 29
            }
            mix(Int(info.st_size))
            mix(Int(info.st_mtim.tv_sec))
            mix(Int(info.st_mtim.tv_nsec))
            sum = sum &+ hash
            files += 1
        }
    }
}

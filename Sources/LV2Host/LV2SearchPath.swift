import CDirectoryEntries
import Foundation

/// The folders lilv searches for bundles, and the bundles in them, read without lilv: the
/// catalog cache decides from this alone which bundles it must read again.
///
/// `LV2_PATH` (colon-separated) when set, else lilv's built-in default path; `~` is the home folder
/// and a leading `$NAME` that variable, as lilv expands them; a relative folder is taken from the
/// working directory. lilv is given only absolute folders (``lilvPath``): it makes each a file URI,
/// and lilv 0.24 dereferences the invalid URI a relative one makes (`LV2_PATH=plugins lv2ls` is a
/// segmentation fault).
public struct LV2SearchPath: Equatable, Sendable {
    /// lilv's default path on this platform (liblilv-0 0.24, Debian multiarch build).
    public static let lilvDefault = "~/.lv2:/usr/lib/x86_64-linux-gnu/lv2:/usr/lib/lv2:/usr/local/lib/lv2"

    /// The path as given (LV2_PATH syntax).
    public let text: String
    /// The folders, `~` expanded and absolute, in search order.
    public let folders: [String]
    /// The folders in LV2_PATH syntax, for lilv.
    public var lilvPath: String { folders.joined(separator: ":") }

    /// The path `lv2Path`, else `LV2_PATH`, else lilv's default. Thread: any.
    public init(lv2Path: String? = nil) {
        let text = lv2Path ?? ProcessEnvironment.value("LV2_PATH") ?? Self.lilvDefault
        self.text = text
        let home = ProcessEnvironment.value("HOME") ?? ""
        folders = text.split(separator: ":", omittingEmptySubsequences: true).map { part in
            Self.absolute(part.hasPrefix("~") ? home + part.dropFirst() : Self.expandingVariable(part))
        }
    }

    private static func expandingVariable(_ part: Substring) -> String {
        guard part.hasPrefix("$") else { return String(part) }
        let name = part.dropFirst().prefix { $0 == "_" || $0.isASCII && ($0.isLetter || $0.isNumber) }
        return (ProcessEnvironment.value(String(name)) ?? "") + part.dropFirst(1 + name.count)
    }

    /// `path` from the working directory when it is relative. Thread: any.
    public static func absolute(_ path: String) -> String {
        guard !path.hasPrefix("/") else { return path }
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        guard getcwd(&buffer, buffer.count) != nil else { return path }
        let folder = String(cString: buffer)
        return (folder.hasSuffix("/") ? folder : folder + "/") + path
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

/// A bundle's identity for the cache: the name of every file in it (and in its sub-folders, to a
/// depth of 4), and the size and modification time of every file but its shared libraries, hashed.
/// Any file added, removed or renamed, and any data file resized or touched, changes it. A library
/// rewritten in place does not: the catalog reads nothing from it (lilv reads only Turtle), and
/// skipping its stat saves a third of the walk's calls. Each file's record is hashed alone and the
/// hashes summed, so the order the file system lists them in does not matter (and nothing is
/// sorted: this runs for every bundle on every start). A folder costs an open, its getdents64
/// reads and a close (readdir on a descriptor, and asking for the manifest apart, were four more
/// calls a bundle).
public enum LV2BundleFingerprint {
    /// The fingerprint of the bundle folder `path` (ending in "/"), or nil when it cannot be read
    /// or has no manifest.ttl (it is not a bundle). Thread: setup (reads the file system).
    public static func of(_ path: String) -> String? {
        let folder = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard folder >= 0 else { return nil }
        var walk = Walk()
        walk.folder(folder, prefix: 0xCBF2_9CE4_8422_2325, depth: 0)
        guard walk.hasManifest else { return nil }
        return String(walk.sum, radix: 16) + "-\(walk.files)"
    }

    private struct Walk {
        var sum: UInt64 = 0
        var files = 0
        var hasManifest = false

        /// Adds the records of the files under the open folder `fd` (closed here).
        mutating func folder(_ fd: Int32, prefix: UInt64, depth: Int) {
            defer { close(fd) }
            withUnsafeTemporaryAllocation(byteCount: 16_384, alignment: 8) { buffer in
                while true {
                    let filled = auhost_read_directory_entries(fd, buffer.baseAddress!, buffer.count)
                    guard filled > 0 else { return }
                    var offset = 0
                    while offset < filled {
                        let record = buffer.baseAddress! + offset
                        let entry = record.assumingMemoryBound(to: auhost_directory_entry.self)
                        offset += Int(entry.pointee.length)
                        self.entry(auhost_directory_entry_name(entry), type: entry.pointee.type, in: fd, prefix: prefix, depth: depth)
                    }
                }
            }
        }

        private mutating func entry(_ name: UnsafePointer<CChar>, type: UInt8, in fd: Int32, prefix: UInt64, depth: Int) {
            let length = strlen(name)
            if length <= 2 && (0..<length).allSatisfy({ name[$0] == CChar(UInt8(ascii: ".")) }) { return }
            var hash = prefix
            for i in 0..<length { hash = (hash ^ UInt64(UInt8(bitPattern: name[i]))) &* 0x0000_0100_0000_01B3 }
            var info = stat()
            if type == UInt8(DT_REG) && length > 3 && strcmp(name + length - 3, ".so") == 0 {
                sum = sum &+ (hash ^ 0x1F) &* 0x0000_0100_0000_01B3
                files += 1
                return
            }
            // A listed folder needs no stat (only a link's target does).
            let isFolder: Bool
            if type == UInt8(DT_DIR) {
                isFolder = true
            } else {
                guard fstatat(fd, name, &info, 0) == 0 else { return }
                isFolder = info.st_mode & S_IFMT == S_IFDIR
            }
            if isFolder {
                guard depth < 4 else { return }
                let child = openat(fd, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
                if child >= 0 { folder(child, prefix: (hash ^ 0x2F) &* 0x0000_0100_0000_01B3, depth: depth + 1) }
                return
            }
            if depth == 0 && strcmp(name, "manifest.ttl") == 0 { hasManifest = true }
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

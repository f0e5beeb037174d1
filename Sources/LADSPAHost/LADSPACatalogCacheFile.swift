import Foundation
import LV2Host

/// The LADSPA catalog's file, beside the LV2 catalog's (`$XDG_CACHE_HOME/auhost`): one per search
/// path, refused whole when truncated, corrupt or of another version, written through a temporary
/// file and a rename, as ``LV2CatalogCacheFile`` is.
///
/// ```
/// auhost-ladspa-catalog 2
/// library PATH FINGERPRINT
/// warning TEXT                     (a library skipped: why)
/// plugin … / port … / program …    (LADSPADescriptionLines)
/// end CHECKSUM(FNV-1a 64 of every line before, hex)
/// ```
public enum LADSPACatalogCacheFile {
    /// Version 2: DSSI plug-ins (kind field, program lines) and the DSSI path.
    static let header = "auhost-ladspa-catalog 2"

    /// The file for search path `path`. Thread: any.
    public static func file(for path: LADSPASearchPath) -> String {
        LV2CatalogCacheFile.folder + "/ladspa-catalog-" + String(LV2CatalogCacheFile.fnv1a64(path.text), radix: 16) + ".txt"
    }

    /// The records in `file`, or nil when it is missing or cannot be trusted. Thread: setup.
    public static func read(_ file: String) -> [LADSPALibraryRecord]? {
        guard let data = FileManager.default.contents(atPath: file) else { return nil }
        let text = String(decoding: data, as: UTF8.self)
        guard text.hasSuffix("\n") else { return nil }
        var lines = text.dropLast().split(separator: "\n", omittingEmptySubsequences: false)
        guard lines.count >= 2, lines[0] == header, let footer = lines.popLast() else { return nil }
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for line in lines { hash = LV2CatalogCacheFile.fnv1a64(line + "\n", seed: hash) }
        guard footer == "end " + String(hash, radix: 16) else { return nil }
        var records: [LADSPALibraryRecord] = []
        for line in lines.dropFirst() {
            let f = LADSPADescriptionLines.fields(line)
            switch (f.first, f.count) {
            case ("library", 3): records.append(LADSPALibraryRecord(path: f[1], fingerprint: f[2], plugins: [], warning: nil))
            case ("warning", 2) where !records.isEmpty: records[records.count - 1].warning = f[1]
            default:
                guard let last = records.indices.last,
                    LADSPADescriptionLines.apply(f, library: records[last].path, to: &records[last].plugins)
                else { return nil }
            }
        }
        return records
    }

    /// Writes `records` to `file` (temporary file, then rename). Thread: setup.
    public static func write(_ records: [LADSPALibraryRecord], to file: String) throws {
        var lines = [header]
        for record in records {
            lines.append(LV2CatalogCacheFile.join(["library", record.path, record.fingerprint]))
            if let warning = record.warning { lines.append(LV2CatalogCacheFile.join(["warning", warning])) }
            for plugin in record.plugins { lines += LADSPADescriptionLines.lines(plugin) }
        }
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for line in lines { hash = LV2CatalogCacheFile.fnv1a64(line + "\n", seed: hash) }
        lines.append("end " + String(hash, radix: 16))
        let folder = (file as NSString).deletingLastPathComponent
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let temporary = file + ".\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp"
        guard FileManager.default.createFile(atPath: temporary, contents: Data((lines.joined(separator: "\n") + "\n").utf8)) else {
            throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: temporary])
        }
        guard rename(temporary, file) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: file, NSLocalizedDescriptionKey: reason])
        }
    }
}

/// One library as the cache keeps it: path, fingerprint when described, its plug-ins, and the
/// warning it gave when it was skipped.
public struct LADSPALibraryRecord: Equatable, Sendable {
    public var path: String
    public var fingerprint: String
    public var plugins: [LADSPAPluginInfo]
    public var warning: String?

    /// Thread: any.
    public init(path: String, fingerprint: String, plugins: [LADSPAPluginInfo], warning: String?) {
        self.path = path; self.fingerprint = fingerprint; self.plugins = plugins; self.warning = warning
    }
}

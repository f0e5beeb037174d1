import Foundation
import LV2Host

/// The LADSPA catalog's file, beside the LV2 catalog's (`$XDG_CACHE_HOME/auhost`): one per search
/// path, refused whole when truncated, corrupt or of another version, written through a temporary
/// file and a rename, as ``LV2CatalogCacheFile`` is.
///
/// ```
/// auhost-ladspa-catalog 4
/// library PATH FINGERPRINT
/// warning TEXT                      (a library skipped: why)
/// plugin …                          (LADSPADescriptionLines)
/// ports COUNT AUDIO-IN AUDIO-OUT CONTROL-IN CONTROL-OUT
/// port …  (COUNT lines), program …  (LADSPADescriptionLines)
/// end CHECKSUM(``checksum(_:count:)`` of every byte before, hex)
/// ```
public enum LADSPACatalogCacheFile {
    /// Version 2: DSSI plug-ins (kind field, program lines) and the DSSI path. Version 3: the
    /// checksum takes eight bytes a step in four lanes (FNV-1a byte by byte was a tenth of a warm
    /// `auhost list` over the 1.4 MB file). Version 4: a "ports" line before each plug-in's
    /// ports, so that a read steps over them (their parsing was most of the rest). Version 5: a
    /// plug-in with run_multiple_synths alone is a synth (kind "1"), so version 4 files are stale.
    /// Version 6: earlier versions recorded "cannot start the describing child" as a library's
    /// verdict (a program linking the installed library, which had no child): described again.
    static let header = "auhost-ladspa-catalog 6"

    /// FNV-1a's multiply over 8-byte little-endian words in four interleaved lanes, then the tail
    /// bytes: a check against truncation and corruption, not a cryptographic hash. Thread: any.
    public static func checksum(_ bytes: UnsafePointer<UInt8>, count: Int) -> UInt64 {
        let prime: UInt64 = 0x0000_0100_0000_01B3
        var lanes: (UInt64, UInt64, UInt64, UInt64) = (0xCBF2_9CE4_8422_2325, 1, 2, 3)
        let raw = UnsafeRawPointer(bytes)
        var i = 0
        while i + 32 <= count {
            lanes.0 = (lanes.0 ^ UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: i, as: UInt64.self))) &* prime
            lanes.1 = (lanes.1 ^ UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: i + 8, as: UInt64.self))) &* prime
            lanes.2 = (lanes.2 ^ UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: i + 16, as: UInt64.self))) &* prime
            lanes.3 = (lanes.3 ^ UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: i + 24, as: UInt64.self))) &* prime
            i += 32
        }
        var hash = ((lanes.0 &* 31 ^ lanes.1) &* 31 ^ lanes.2) &* 31 ^ lanes.3
        while i < count {
            hash = (hash ^ UInt64(bytes[i])) &* prime
            i += 1
        }
        return hash ^ UInt64(count)
    }

    /// The file for search path `path`. Thread: any.
    public static func file(for path: LADSPASearchPath) -> String {
        LV2CatalogCacheFile.folder + "/ladspa-catalog-" + String(LV2CatalogCacheFile.fnv1a64(path.text), radix: 16) + ".txt"
    }

    /// The records in `file`, or nil when it is missing or cannot be trusted. Read as bytes, as
    /// the LV2 cache is: every start reads it, and LSP's plug-ins alone bring ~29,000 port lines
    /// (1.4 MB); String splitting took 0.95 s of a warm `auhost list` in a debug build.
    /// Thread: setup.
    public static func read(_ file: String) -> [LADSPALibraryRecord]? {
        guard let data = LV2CatalogCacheFile.contents(of: file) else { return nil }
        return data.withUnsafeBufferPointer { buffer -> [LADSPALibraryRecord]? in
            // A plain pointer, not buffer slices: slices are generic and slow in debug builds.
            guard let bytes = buffer.baseAddress else { return nil }
            let count = buffer.count
            let newline = UInt8(ascii: "\n"), tab = UInt8(ascii: "\t")
            guard count > 0, bytes[count - 1] == newline else { return nil }
            var footerStart = count - 1
            while footerStart > 0 && bytes[footerStart - 1] != newline { footerStart -= 1 }
            guard footerStart > 0 else { return nil }
            let hash = checksum(bytes, count: footerStart)
            let footer = String(decoding: UnsafeBufferPointer(start: bytes + footerStart, count: count - 1 - footerStart), as: UTF8.self)
            guard footer == "end " + String(hash, radix: 16) else { return nil }
            var records: [LADSPALibraryRecord] = []
            var lineStart = 0
            var first = true
            var ranges: [Range<Int>] = []
            func text(_ r: Range<Int>) -> String {
                let slice = UnsafeBufferPointer(start: bytes + r.lowerBound, count: r.count)
                let string = String(decoding: slice, as: UTF8.self)
                return slice.contains(UInt8(ascii: "\\")) ? LV2CatalogCacheFile.unescape(Substring(string)) : string
            }
            func integer(_ r: Range<Int>) -> UInt64? {
                guard !r.isEmpty, r.count <= 19 else { return nil }
                var value: UInt64 = 0
                for i in r {
                    guard bytes[i] >= UInt8(ascii: "0") && bytes[i] <= UInt8(ascii: "9") else { return nil }
                    value = value * 10 + UInt64(bytes[i] - UInt8(ascii: "0"))
                }
                return value
            }
            // Lines and fields are found with memchr (vectorised in libc): a byte-by-byte scan,
            // twice over each line, was half of this function's time in a warm `auhost list`.
            func find(_ byte: UInt8, from start: Int, to end: Int) -> Int {
                guard let hit = memchr(bytes + start, Int32(byte), end - start) else { return end }
                return UnsafeRawPointer(hit) - UnsafeRawPointer(bytes)
            }
            while lineStart < footerStart {
                let lineEnd = find(newline, from: lineStart, to: footerStart)
                ranges.removeAll(keepingCapacity: true)
                var fieldStart = lineStart
                while true {
                    let fieldEnd = find(tab, from: fieldStart, to: lineEnd)
                    ranges.append(fieldStart..<fieldEnd)
                    if fieldEnd == lineEnd { break }
                    fieldStart = fieldEnd + 1
                }
                lineStart = lineEnd + 1
                if first {
                    guard ranges.count == 1, text(ranges[0]) == header else { return nil }
                    first = false
                    continue
                }
                if ranges[0].count == 5 && memcmp(bytes + ranges[0].lowerBound, "ports", 5) == 0 {
                    // A plug-in's port lines are kept as they are, read when its ports are asked for.
                    guard ranges.count == 6, let last = records.indices.last, !records[last].plugins.isEmpty,
                        let count = integer(ranges[1]), count <= 1 << 20
                    else { return nil }
                    let counts = ranges[2...].map { integer($0).map(Int.init) ?? -1 }
                    guard !counts.contains(-1) else { return nil }
                    let portsStart = lineStart
                    for _ in 0..<count {
                        guard lineStart < footerStart, footerStart - lineStart > 5, memcmp(bytes + lineStart, "port\t", 5) == 0 else {
                            return nil
                        }
                        lineStart = find(newline, from: lineStart, to: footerStart) + 1
                    }
                    records[last].plugins[records[last].plugins.count - 1].portTable = LADSPAPortTable(
                        lines: data[portsStart..<lineStart],
                        counts: LADSPAPortCounts(
                            audioInputs: counts[0], audioOutputs: counts[1], controlInputs: counts[2], controlOutputs: counts[3]))
                    continue
                }
                let fields = ranges.map(text)
                switch (fields[0], fields.count) {
                case ("library", 3): records.append(LADSPALibraryRecord(path: fields[1], fingerprint: fields[2], plugins: [], warning: nil))
                case ("warning", 2) where !records.isEmpty: records[records.count - 1].warning = fields[1]
                default:
                    guard let last = records.indices.last,
                        LADSPADescriptionLines.apply(fields, library: records[last].path, to: &records[last].plugins)
                    else { return nil }
                }
            }
            return first ? nil : records
        }
    }

    /// Writes `records` to `file` (temporary file, then rename). Thread: setup.
    public static func write(_ records: [LADSPALibraryRecord], to file: String) throws {
        var lines = [header]
        for record in records {
            lines.append(LV2CatalogCacheFile.join(["library", record.path, record.fingerprint]))
            if let warning = record.warning { lines.append(LV2CatalogCacheFile.join(["warning", warning])) }
            for plugin in record.plugins {
                // The plug-in line, then how many port lines follow and the counts a listing needs
                // (so that a read can step over the ports), the ports, its programs.
                var described = LADSPADescriptionLines.lines(plugin)
                let c = plugin.portTable.counts
                let numbers = [plugin.ports.count, c.audioInputs, c.audioOutputs, c.controlInputs, c.controlOutputs]
                described.insert((["ports"] + numbers.map { String($0) }).joined(separator: "\t"), at: 1)
                lines += described
            }
        }
        var body = Array((lines.joined(separator: "\n") + "\n").utf8)
        let hash = body.withUnsafeBufferPointer { checksum($0.baseAddress!, count: $0.count) }
        body += Array(("end " + String(hash, radix: 16) + "\n").utf8)
        let folder = (file as NSString).deletingLastPathComponent
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let temporary = file + ".\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp"
        guard FileManager.default.createFile(atPath: temporary, contents: Data(body)) else {
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

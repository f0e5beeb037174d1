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
/// end CHECKSUM(``checksum(_:count:)`` of every byte before, hex)
/// ```
public enum LADSPACatalogCacheFile {
    /// Version 2: DSSI plug-ins (kind field, program lines) and the DSSI path. Version 3: the
    /// checksum takes eight bytes a step in four lanes (FNV-1a byte by byte was a tenth of a warm
    /// `auhost list` over the 1.4 MB file).
    static let header = "auhost-ladspa-catalog 3"

    /// FNV-1a's multiply over 8-byte little-endian words in four interleaved lanes, then the tail
    /// bytes: a check against truncation and corruption, not a cryptographic hash. Thread: any.
    static func checksum(_ bytes: UnsafePointer<UInt8>, count: Int) -> UInt64 {
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
            // The ports of the plug-in being read, gathered here and moved into it once: appending
            // through records[r].plugins[p] checked uniqueness at every level for every port, and
            // copying them in (`+=`) retained every name again.
            var ports: [LADSPAPortInfo] = []
            var portsOwner = (record: -1, plugin: -1)
            func flushPorts() {
                guard !ports.isEmpty else { return }
                if records[portsOwner.record].plugins[portsOwner.plugin].ports.isEmpty {
                    swap(&records[portsOwner.record].plugins[portsOwner.plugin].ports, &ports)
                } else {
                    records[portsOwner.record].plugins[portsOwner.plugin].ports += ports
                    ports.removeAll(keepingCapacity: true)
                }
            }
            func text(_ r: Range<Int>) -> String {
                let slice = UnsafeBufferPointer(start: bytes + r.lowerBound, count: r.count)
                let string = String(decoding: slice, as: UTF8.self)
                return slice.contains(UInt8(ascii: "\\")) ? LV2CatalogCacheFile.unescape(Substring(string)) : string
            }
            func integer(_ r: Range<Int>, radix: UInt64 = 10) -> UInt64? {
                guard !r.isEmpty, r.count <= 20 else { return nil }
                var value: UInt64 = 0
                var i = r.lowerBound
                while i < r.upperBound {
                    let b = bytes[i]
                    i += 1
                    let digit: UInt64
                    switch b {
                    case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt64(b - UInt8(ascii: "0"))
                    case UInt8(ascii: "a")...UInt8(ascii: "f") where radix == 16: digit = UInt64(b - UInt8(ascii: "a") + 10)
                    default: return nil
                    }
                    let (m, o1) = value.multipliedReportingOverflow(by: radix)
                    let (a, o2) = m.addingReportingOverflow(digit)
                    guard !o1, !o2 else { return nil }
                    value = a
                }
                return value
            }
            func signed(_ r: Range<Int>) -> Int32? {
                guard let first = r.first else { return nil }
                if bytes[first] == UInt8(ascii: "-") {
                    return integer((first + 1)..<r.upperBound).flatMap {
                        $0 <= UInt64(Int32.max) + 1 ? Int32(truncatingIfNeeded: 0 &- Int64($0)) : nil
                    }
                }
                return integer(r).flatMap { $0 <= UInt64(Int32.max) ? Int32($0) : nil }
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
                let r0 = ranges[0]
                if r0.count == 4 && bytes[r0.lowerBound] == UInt8(ascii: "p") && bytes[r0.lowerBound + 1] == UInt8(ascii: "o")
                    && bytes[r0.lowerBound + 2] == UInt8(ascii: "r") && bytes[r0.lowerBound + 3] == UInt8(ascii: "t")
                {
                    // The hot path: no String but the port's name.
                    guard ranges.count == 6, let last = records.indices.last, !records[last].plugins.isEmpty,
                        let descriptor = signed(ranges[1]), let hints = signed(ranges[2]),
                        let low = integer(ranges[3], radix: 16), low <= UInt64(UInt32.max),
                        let high = integer(ranges[4], radix: 16), high <= UInt64(UInt32.max)
                    else { return nil }
                    let owner = (record: last, plugin: records[last].plugins.count - 1)
                    if owner != portsOwner {
                        flushPorts()
                        portsOwner = owner
                    }
                    ports.append(
                        LADSPAPortInfo(
                            descriptor: descriptor, hints: hints, lowerBound: Float(bitPattern: UInt32(low)),
                            upperBound: Float(bitPattern: UInt32(high)), name: text(ranges[5])))
                    continue
                }
                flushPorts()
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
            flushPorts()
            return first ? nil : records
        }
    }

    /// Writes `records` to `file` (temporary file, then rename). Thread: setup.
    public static func write(_ records: [LADSPALibraryRecord], to file: String) throws {
        var lines = [header]
        for record in records {
            lines.append(LV2CatalogCacheFile.join(["library", record.path, record.fingerprint]))
            if let warning = record.warning { lines.append(LV2CatalogCacheFile.join(["warning", warning])) }
            for plugin in record.plugins { lines += LADSPADescriptionLines.lines(plugin) }
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

import Foundation

/// The catalog's file under `$XDG_CACHE_HOME/auhost` (else `~/.cache/auhost`): one per search
/// path, a line-based text format with a version header and a checksum footer. A file that is
/// truncated, corrupt or of another version is refused whole (and then rebuilt), never half-used.
/// Writes go to a temporary file in the same folder, renamed over the old one, so concurrent
/// writers each leave a complete file and readers never see a partial one.
///
/// Format (fields tab-separated, `\` `\t` `\n` escaped):
/// ```
/// auhost-lv2-catalog 2
/// bundle PATH FINGERPRINT
/// warning TEXT
/// plugin URI NAME MANUFACTURER BUNDLE-URI MIXER(0/1) AI AO CI CO MI MO ATOM CVI CVO UNKNOWN
/// preset LABEL
/// end CHECKSUM(FNV-1a 64 of every line before, hex)
/// ```
public enum LV2CatalogCacheFile {
    /// Version 2: records read with the duplicate-URI rule (LV2World+SharedURIs.swift); a cache
    /// of version 1 may list a plug-in under a bundle that no longer stands for it, so it is rebuilt.
    static let header = "auhost-lv2-catalog 2"

    /// The cache folder: `$XDG_CACHE_HOME/auhost`, else `$HOME/.cache/auhost`. Thread: any.
    public static var folder: String {
        if let xdg = ProcessEnvironment.value("XDG_CACHE_HOME"), xdg.hasPrefix("/") { return xdg + "/auhost" }
        return (ProcessEnvironment.value("HOME") ?? NSTemporaryDirectory()) + "/.cache/auhost"
    }

    /// The file for search path `path` (named by a hash of its text). Thread: any.
    public static func file(for path: LV2SearchPath) -> String {
        folder + "/lv2-catalog-" + String(fnv1a64(path.text), radix: 16) + ".txt"
    }

    /// The bytes of `file` (nil when it cannot be read whole), with one open, fstat and read:
    /// FileManager's `contents(atPath:)` was 3 % of a warm `auhost list` over the 1.4 MB LADSPA
    /// cache. Thread: any.
    public static func contents(of file: String) -> [UInt8]? {
        let fd = open(file, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_size > 0, info.st_size < 1 << 30 else { return nil }
        let size = Int(info.st_size)
        var done = 0
        let bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
            while done < size {
                let n = Foundation.read(fd, buffer.baseAddress.unsafelyUnwrapped + done, size - done)
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else { break }
                done += n
            }
            count = done
        }
        return done == size ? bytes : nil
    }

    /// The records in `file`, or nil when it is missing, truncated, corrupt or of another version.
    /// Thread: setup (reads the file).
    public static func read(_ file: String) -> [LV2BundleRecord]? {
        contents(of: file).flatMap(records(in:))
    }

    /// The records in `data` (the file's bytes), or nil when it is truncated, corrupt or of
    /// another version. Thread: any.
    package static func records(in data: [UInt8]) -> [LV2BundleRecord]? {
        // Bytes, not Characters: this runs on every start over ~100 KB.
        data.withUnsafeBufferPointer { bytes -> [LV2BundleRecord]? in
            let newline = UInt8(ascii: "\n"), tab = UInt8(ascii: "\t")
            guard bytes.count > 0, bytes[bytes.count - 1] == newline else { return nil }
            var footerStart = bytes.count - 1
            while footerStart > 0 && bytes[footerStart - 1] != newline { footerStart -= 1 }
            guard footerStart > 0 else { return nil }
            var hash: UInt64 = 0xCBF2_9CE4_8422_2325
            for byte in bytes[0..<footerStart] { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
            let footer = String(decoding: UnsafeBufferPointer(rebasing: bytes[footerStart..<(bytes.count - 1)]), as: UTF8.self)
            guard footer == "end " + String(hash, radix: 16) else { return nil }

            var records: [LV2BundleRecord] = []
            var lineStart = 0
            var first = true
            var fields: [String] = []
            while lineStart < footerStart {
                var lineEnd = lineStart
                while bytes[lineEnd] != newline { lineEnd += 1 }
                fields.removeAll(keepingCapacity: true)
                var fieldStart = lineStart
                for i in lineStart...lineEnd where i == lineEnd || bytes[i] == tab {
                    let slice = UnsafeBufferPointer(rebasing: bytes[fieldStart..<i])
                    let text = String(decoding: slice, as: UTF8.self)
                    fields.append(slice.contains(UInt8(ascii: "\\")) ? unescape(Substring(text)) : text)
                    fieldStart = i + 1
                }
                lineStart = lineEnd + 1
                if first {
                    guard fields == [header] else { return nil }
                    first = false
                    continue
                }
                guard apply(fields, to: &records) else { return nil }
            }
            return first ? nil : records
        }
    }

    /// Adds one line's fields to `records`; false for a line that does not belong.
    private static func apply(_ fields: [String], to records: inout [LV2BundleRecord]) -> Bool {
        switch (fields[0], fields.count) {
        case ("bundle", 3):
            records.append(LV2BundleRecord(path: fields[1], fingerprint: fields[2], plugins: [], warnings: []))
        case ("warning", 2) where !records.isEmpty:
            records[records.count - 1].warnings.append(fields[1])
        case ("plugin", 16) where !records.isEmpty:
            let n = fields[6...].compactMap { Int($0) }
            guard n.count == 10, fields[5] == "0" || fields[5] == "1" else { return false }
            var s = LV2PortSummary(ports: [])
            (s.audioInputs, s.audioOutputs, s.controlInputs, s.controlOutputs, s.midiInputs) = (n[0], n[1], n[2], n[3], n[4])
            (s.midiOutputs, s.otherAtomPorts, s.cvInputs, s.cvOutputs, s.unknownPorts) = (n[5], n[6], n[7], n[8], n[9])
            records[records.count - 1].plugins.append(
                LV2CatalogPlugin(
                    uri: fields[1], name: fields[2], manufacturerName: fields[3], summary: s, isMixer: fields[5] == "1",
                    bundleURI: fields[4], presetNames: []))
        case ("preset", 2) where !(records.last?.plugins.isEmpty ?? true):
            records[records.count - 1].plugins[records[records.count - 1].plugins.count - 1].presetNames.append(fields[1])
        default:
            return false
        }
        return true
    }

    /// Writes `records` to `file` through a temporary file and a rename. Throws when the folder
    /// cannot be made or written. Thread: setup (writes the file).
    public static func write(_ records: [LV2BundleRecord], to file: String) throws {
        let folder = (file as NSString).deletingLastPathComponent
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let temporary = file + ".\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp"
        guard FileManager.default.createFile(atPath: temporary, contents: Data(text(of: records).utf8)) else {
            throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: temporary])
        }
        guard rename(temporary, file) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: file, NSLocalizedDescriptionKey: reason])
        }
    }

    /// The file's text for `records`, from the version line to the checksum. Thread: any.
    package static func text(of records: [LV2BundleRecord]) -> String {
        var lines = [header]
        for record in records {
            lines.append(join(["bundle", record.path, record.fingerprint]))
            for warning in record.warnings { lines.append(join(["warning", warning])) }
            for p in record.plugins {
                let s = p.summary
                let counts = [
                    s.audioInputs, s.audioOutputs, s.controlInputs, s.controlOutputs, s.midiInputs, s.midiOutputs,
                    s.otherAtomPorts, s.cvInputs, s.cvOutputs, s.unknownPorts,
                ].map(String.init)
                lines.append(join(["plugin", p.uri, p.name, p.manufacturerName, p.bundleURI, p.isMixer ? "1" : "0"] + counts))
                for preset in p.presetNames { lines.append(join(["preset", preset])) }
            }
        }
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for line in lines { hash = fnv1a64(line + "\n", seed: hash) }
        lines.append("end " + String(hash, radix: 16))
        return lines.joined(separator: "\n") + "\n"
    }

    /// Fields joined by tabs, each escaped; the LADSPA catalog shares this format. Thread: any.
    public static func join(_ fields: [String]) -> String { fields.map(escape).joined(separator: "\t") }

    /// `\`, tab, newline and return escaped. Thread: any.
    public static func escape(_ s: String) -> String {
        guard s.unicodeScalars.contains(where: { $0 == "\\" || $0 == "\t" || $0 == "\n" || $0 == "\r" }) else { return s }
        var out = String.UnicodeScalarView()
        for c in s.unicodeScalars {
            switch c {
            case "\\": out.append(contentsOf: "\\\\".unicodeScalars)
            case "\t": out.append(contentsOf: "\\t".unicodeScalars)
            case "\n": out.append(contentsOf: "\\n".unicodeScalars)
            case "\r": out.append(contentsOf: "\\r".unicodeScalars)
            default: out.append(c)
            }
        }
        return String(out)
    }

    /// The inverse of ``escape(_:)``. Thread: any.
    public static func unescape(_ s: Substring) -> String {
        guard s.contains("\\") else { return String(s) }
        var out = String.UnicodeScalarView()
        var escaping = false
        for c in s.unicodeScalars {
            if escaping {
                out.append(c == "t" ? "\t" : c == "n" ? "\n" : c == "r" ? "\r" : c)
                escaping = false
            } else if c == "\\" {
                escaping = true
            } else {
                out.append(c)
            }
        }
        return String(out)
    }

    /// FNV-1a, 64-bit, over the UTF-8 bytes (the cache files' checksum). Thread: any.
    public static func fnv1a64<S: StringProtocol>(_ s: S, seed: UInt64 = 0xCBF2_9CE4_8422_2325) -> UInt64 {
        var hash = seed
        for byte in s.utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        return hash
    }
}

import Foundation
import LADSPAHost

/// The two readers of text that a LADSPA library's own words reach: the catalog cache file
/// (`LADSPACatalogCacheFile.read`; the bytes are its body, under the footer of their own checksum
/// so that the check does not turn every input away) and the describing child's lines
/// (`LADSPADescriptionLines`, the same bytes). A plug-in's label, name, maker and port names are
/// anything its library says. Checked: whatever the cache reader accepts, ports read through the
/// lazy table included, is written and read back to the same file; whatever lines are read as
/// plug-ins are written and read back as the same lines.
public enum LADSPACatalogFuzz {
    /// Thread: any (one at a time).
    public static func run(_ data: UnsafeRawBufferPointer) {
        cacheFile(Array(data))
        descriptionLines(String(decoding: data, as: UTF8.self))
    }

    private static func cacheFile(_ input: [UInt8]) {
        var body = input
        if body.last != UInt8(ascii: "\n") { body.append(UInt8(ascii: "\n")) }
        let footer = "end " + String(LADSPACatalogCacheFile.checksum(body, count: body.count), radix: 16) + "\n"
        var template = Array("/tmp/auhost-fuzz-ladspa-XXXXXX".utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else { return }
        let folder = String(cString: made)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        guard FileManager.default.createFile(atPath: folder + "/in.txt", contents: Data(body + Array(footer.utf8))),
            let records = LADSPACatalogCacheFile.read(folder + "/in.txt")
        else { return }
        for plugin in records.flatMap(\.plugins) {
            _ = (plugin.ports, plugin.audioInputs, plugin.controlOutputs, plugin.programs, plugin.isInPlaceBroken)
        }
        do {
            try LADSPACatalogCacheFile.write(records, to: folder + "/once.txt")
            let again = LADSPACatalogCacheFile.read(folder + "/once.txt")
            precondition(again != nil, "the cache file written from accepted records is refused")
            try LADSPACatalogCacheFile.write(again!, to: folder + "/twice.txt")
        } catch {
            preconditionFailure("writing accepted records failed: \(error)")
        }
        let once = FileManager.default.contents(atPath: folder + "/once.txt")
        precondition(once == FileManager.default.contents(atPath: folder + "/twice.txt"), "the cache does not read back as written")
    }

    private static func descriptionLines(_ text: String) {
        var plugins: [LADSPAPluginInfo] = []
        for line in text.split(separator: "\n") {
            guard LADSPADescriptionLines.apply(LADSPADescriptionLines.fields(line), library: "/fuzz/lib.so", to: &plugins) else { break }
        }
        let written = plugins.flatMap(LADSPADescriptionLines.lines)
        var again: [LADSPAPluginInfo] = []
        for line in written {
            precondition(
                LADSPADescriptionLines.apply(LADSPADescriptionLines.fields(Substring(line)), library: "/fuzz/lib.so", to: &again),
                "a line it wrote does not read: \(line)")
        }
        precondition(again.flatMap(LADSPADescriptionLines.lines) == written, "description lines do not read back as written")
    }
}

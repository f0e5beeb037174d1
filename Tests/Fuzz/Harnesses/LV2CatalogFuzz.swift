import Foundation
import LV2Host

/// The two readers of text that an LV2 plug-in's own words, or a user's LV2_PATH, reach: the
/// catalog's file format (`LV2CatalogCacheFile`), which is both the cache file and the answer of
/// the child that reads a share of a cold catalog (the bytes are its body, under a footer of
/// their own checksum so that the check does not turn every input away), and the search path
/// (`LV2SearchPath`: `~`, a leading `$NAME`, relative folders). A plug-in's name, maker and
/// preset labels are anything its data says. Checked: whatever the reader accepts is written
/// and read back as the same records and the same text; every folder lilv is given is absolute,
/// one per non-empty entry of the path.
public enum LV2CatalogFuzz {
    /// Thread: any (one at a time).
    public static func run(_ data: UnsafeRawBufferPointer) {
        catalogText(Array(data))
        searchPath(String(decoding: data, as: UTF8.self))
    }

    private static func catalogText(_ input: [UInt8]) {
        var body = input
        if body.last != UInt8(ascii: "\n") { body.append(UInt8(ascii: "\n")) }
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in body { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        guard let records = LV2CatalogCacheFile.records(in: body + Array("end \(String(hash, radix: 16))\n".utf8)) else { return }
        let text = LV2CatalogCacheFile.text(of: records)
        let again = LV2CatalogCacheFile.records(in: Array(text.utf8))
        precondition(again == records, "the catalog's records do not read back as written")
        precondition(LV2CatalogCacheFile.text(of: again!) == text, "the catalog's text is not written the same twice")
    }

    private static func searchPath(_ text: String) {
        let path = LV2SearchPath(lv2Path: text)
        precondition(path.folders.count == text.split(separator: ":").count, "a folder lost or made up: \(text)")
        for folder in path.folders { precondition(folder.hasPrefix("/"), "lilv would be given a relative folder: \(folder)") }
    }
}

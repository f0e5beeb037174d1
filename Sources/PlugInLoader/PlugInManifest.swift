import AUHostCore
import Foundation

/// A plug-in's manifest: the JSON file (`<Name>.auplugin.json`) beside its shared object that
/// says what it contains, so that listing never opens a binary (the role of the `AudioComponents`
/// entry of an Info.plist).
///
/// ```json
/// { "abiVersion": 1, "binary": "libTremolo.so",
///   "components": [ { "type": "aufx", "subtype": "trem", "manufacturer": "AUSd",
///                     "name": "AUHost SDK: Tremolo", "version": "1.0.0",
///                     "factoryFunction": "TremoloFactory" } ] }
/// ```
///
/// `binary` is relative to the manifest's folder (or absolute); `version` is "major.minor.bugfix"
/// or the packed integer 0xMMMMmmDD.
public struct PlugInManifest {
    public struct Entry {
        public var description: AudioComponentDescription
        public var name: String
        public var version: UInt32
        public var factoryFunction: String
    }

    /// The manifest file.
    public var path: String
    /// The C ABI version the plug-in was built against (AUHOST_PLUGIN_ABI_VERSION).
    public var abiVersion: Int
    /// The shared object, as an absolute path.
    public var binaryPath: String
    public var components: [Entry]

    /// File names ending in this are manifests.
    public static let suffix = ".auplugin.json"

    /// Reads and checks a manifest; throws an AudioError naming the file and the fault.
    ///
    /// Thread: setup.
    public init(contentsOf path: String) throws {
        self.path = path
        func bad(_ why: String) -> AudioError {
            AudioError(kAudioUnitErr_InvalidFile, "plug-in manifest \(path): \(why).")
        }
        guard let data = FileManager.default.contents(atPath: path) else { throw bad("cannot be read") }
        let json: Any
        do { json = try JSONSerialization.jsonObject(with: data) } catch { throw bad("is not valid JSON") }
        guard let root = json as? [String: Any] else { throw bad("must be a JSON object") }
        guard let abi = root["abiVersion"] as? Int else { throw bad("needs an integer \"abiVersion\"") }
        guard let binary = root["binary"] as? String, !binary.isEmpty else {
            throw bad("needs a \"binary\" (the shared object's file name)")
        }
        guard let entries = root["components"] as? [[String: Any]], !entries.isEmpty else {
            throw bad("needs a non-empty \"components\" array")
        }
        abiVersion = abi
        let folder = (path as NSString).deletingLastPathComponent
        binaryPath = binary.hasPrefix("/") ? binary : (folder as NSString).appendingPathComponent(binary)
        components = try entries.enumerated().map { i, e in
            func code(_ key: String) throws -> OSType {
                guard let s = e[key] as? String, let c = FourCC.code(s), c != 0 else {
                    throw bad("component \(i) needs a four-character \"\(key)\"")
                }
                return c
            }
            let d = AudioComponentDescription(type: try code("type"), subType: try code("subtype"), manufacturer: try code("manufacturer"))
            guard let name = e["name"] as? String, !name.isEmpty else { throw bad("component \(i) needs a \"name\"") }
            guard let factory = e["factoryFunction"] as? String, !factory.isEmpty else {
                throw bad("component \(i) needs a \"factoryFunction\" (the exported C symbol)")
            }
            guard let version = PlugInManifest.version(e["version"]) else {
                throw bad("component \(i) needs a \"version\": \"major.minor.bugfix\" or an integer")
            }
            return Entry(description: d, name: name, version: version, factoryFunction: factory)
        }
    }

    /// "1.2.3" → 0x00010203; an integer as is.
    static func version(_ value: Any?) -> UInt32? {
        if let n = value as? Int, let v = UInt32(exactly: n) { return v }
        guard let s = value as? String else { return nil }
        let parts = s.split(separator: ".").map { UInt32($0) }
        guard (1...3).contains(parts.count), parts.allSatisfy({ $0 != nil }) else { return nil }
        let p = parts.map { $0! } + Array(repeating: 0, count: 3 - parts.count)
        guard p[0] <= 0xFFFF, p[1] <= 0xFF, p[2] <= 0xFF else { return nil }
        return p[0] << 16 | p[1] << 8 | p[2]
    }
}

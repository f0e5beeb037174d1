import ArgumentParser
import AUHost
import Foundation
import LADSPAUnits
import LV2Units

/// `auhost list [TYPE [SUBTYPE [MANUFACTURER]]]`: every unit, one line each, as `auval -a` prints:
/// type subtype manufacturer  -  Vendor: Name  (origin: built-in, plug-in path, or LV2 URI and bundle).
struct ListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List units matching a description (0 or omitted: any).")

    @Argument(help: "Four-character type, subtype and manufacturer codes, e.g. aufx dely; 0 matches any.")
    var codes: [String] = []

    @Flag(help: "Print JSON instead of text.")
    var json = false

    @Flag(help: "Re-read every LV2 bundle and rewrite the plug-in catalog cache ($XDG_CACHE_HOME/auhost).")
    var refresh = false

    func validate() throws {
        guard codes.count <= 3 else { throw ValidationError("At most three codes: TYPE SUBTYPE MANUFACTURER.") }
        for code in codes where code != "0" && FourCC.code(code) == nil {
            throw ValidationError("\"\(code)\" is not a four-character code (e.g. aufx) or 0.")
        }
    }

    func run() throws {
        LV2Provider.refreshCache = refresh
        LADSPAProvider.refreshCache = refresh
        var parts = codes.map { $0 == "0" ? 0 : FourCC.code($0)! }
        while parts.count < 3 { parts.append(0) }
        let found = ComponentRegistry.shared.find(AudioComponentDescription(type: parts[0], subType: parts[1], manufacturer: parts[2]))
        if json {
            let rows = found.map { c -> [String: String] in
                var row = [
                    "type": FourCC.string(c.description.componentType), "subtype": FourCC.string(c.description.componentSubType),
                    "manufacturer": FourCC.string(c.description.componentManufacturer), "name": c.name, "origin": c.origin,
                ]
                if c.origin.hasPrefix("lv2 ") { row["uri"] = String(c.origin.split(separator: " ")[1]) }
                if c.origin.hasPrefix("ladspa ") {
                    let fields = c.origin.split(separator: " ", maxSplits: 3)
                    (row["label"], row["uniqueID"]) = (String(fields[1]), String(fields[2]))
                }
                return row
            }
            let data = try JSONSerialization.data(withJSONObject: rows, options: [.prettyPrinted, .sortedKeys])
            print(String(decoding: data, as: UTF8.self))
        } else {
            var text = ""
            for c in found { text += "\(c.description.tripleString)  -  \(c.name)  (\(c.origin))\n" }
            print(text, terminator: "")
        }
    }
}

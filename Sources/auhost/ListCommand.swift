import ArgumentParser
import AUHost
import Foundation

/// `auhost list [TYPE [SUBTYPE [MANUFACTURER]]]`: every unit, one line each, as `auval -a` prints.
struct ListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List units matching a description (0 or omitted: any).")

    @Argument(help: "Four-character type, subtype and manufacturer codes, e.g. aufx dely.")
    var codes: [String] = []

    @Flag(help: "Print JSON instead of text.")
    var json = false

    func run() throws {
        guard codes.count <= 3 else { throw ValidationError("At most three codes: TYPE SUBTYPE MANUFACTURER.") }
        var parts: [OSType] = []
        for code in codes {
            guard let c = code == "0" ? 0 : FourCC.code(code) else {
                throw ValidationError("\"\(code)\" is not a four-character code (e.g. aufx) or 0.")
            }
            parts.append(c)
        }
        while parts.count < 3 { parts.append(0) }
        let found = ComponentRegistry.shared.find(AudioComponentDescription(type: parts[0], subType: parts[1], manufacturer: parts[2]))
        if json {
            let rows = found.map { ["triple": $0.description.tripleString, "name": $0.name, "origin": $0.origin] }
            let data = try JSONSerialization.data(withJSONObject: rows, options: [.prettyPrinted, .sortedKeys])
            print(String(decoding: data, as: UTF8.self))
        } else {
            for c in found { print("\(c.description.tripleString)  -  \(c.name)  (\(c.origin))") }
        }
    }
}

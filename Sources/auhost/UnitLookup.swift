import AUHost
import Foundation
import LADSPAUnits
import LV2Units

/// Turns the UNIT argument of `info`, `render`, `validate` and `bench` into a component: a triple
/// of four-character codes ("aufx dely AUHs", no wildcards needed but allowed), an LV2 URI, a
/// LADSPA label ("amp_mono", or "ladspa:gate" where another unit is called that) or unique ID
/// ("1048"), or a fragment of the name that only one unit has. Unknown units are refused with the nearest names.
enum UnitLookup {
    /// The component `text` names.
    ///
    /// Thread: setup.
    static func component(_ text: String) throws -> Component {
        // No unit name, URI or triple is longer; a longer text is named in messages cut short.
        guard text.utf8.count <= maximumNameBytes else {
            throw AudioError(
                kAudioComponentErr_UnsupportedType,
                "No unit is called \"\(shown(text))\" (\(text.utf8.count) bytes; unit names, URIs and triples are at most \(maximumNameBytes))."
            )
        }
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed.hasPrefix("ladspa:") {
            // "ladspa:LABEL" names a LADSPA/DSSI plug-in by label even when another unit has that name.
            let label = String(trimmed.dropFirst("ladspa:".count))
            if let c = LADSPAProvider.component(label: label) { return c }
            throw AudioError(
                kAudioComponentErr_UnsupportedType,
                "No LADSPA or DSSI plug-in is labelled \"\(Self.shown(label))\"; `auhost list` shows them with their labels.")
        }
        if trimmed.contains(":") && !trimmed.contains(" "), let c = LV2Provider.component(uri: trimmed) { return c }
        if let search = triple(trimmed) {
            guard let found = ComponentRegistry.shared.findNext(after: nil, matching: search) else {
                throw AudioError(
                    kAudioComponentErr_UnsupportedType,
                    "No unit is \(search.tripleString); `auhost list` shows the installed units.")
            }
            return found
        }
        let all = ComponentRegistry.shared.all
        let needle = trimmed.lowercased()
        if let exact = all.first(where: { $0.name.lowercased() == needle || shortName($0) == needle }) { return exact }
        if !trimmed.contains(" ") {
            if let id = UInt(trimmed), let c = LADSPAProvider.component(uniqueID: id) { return c }
            if let c = LADSPAProvider.component(label: trimmed) { return c }
        }
        let matches = all.filter { $0.name.lowercased().contains(needle) || $0.origin.lowercased().contains(needle) }
        if matches.count == 1 { return matches[0] }
        if matches.count > 1 {
            let shown = matches.prefix(8).map { "  \($0.description.tripleString)  \($0.name)" }.joined(separator: "\n")
            throw AudioError(
                kAudioComponentErr_UnsupportedType,
                "\"\(Self.shown(text))\" matches \(matches.count) units; name one by its triple or URI:\n\(shown)")
        }
        let nearest = all.map { ($0, distance(needle, shortName($0))) }.sorted { $0.1 < $1.1 }.prefix(3)
        let hint = nearest.map { "  \($0.0.description.tripleString)  \($0.0.name)" }.joined(separator: "\n")
        throw AudioError(kAudioComponentErr_UnsupportedType, "No unit is called \"\(Self.shown(text))\". Nearest names:\n\(hint)")
    }

    /// "aufx dely AUHs" (or with 0 for a wildcard) as a search description, or nil when `text` is
    /// not two or three four-character codes.
    ///
    /// Thread: any.
    static func triple(_ text: String) -> AudioComponentDescription? {
        let parts = text.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        guard (2...3).contains(parts.count) else { return nil }
        var codes: [OSType] = []
        for p in parts {
            guard let c = p == "0" ? 0 : FourCC.code(p) else { return nil }
            codes.append(c)
        }
        while codes.count < 3 { codes.append(0) }
        return AudioComponentDescription(type: codes[0], subType: codes[1], manufacturer: codes[2])
    }

    /// The name without its "Manufacturer: " prefix, lowercased.
    static func shortName(_ c: Component) -> String {
        let name = c.name.lowercased()
        guard let colon = name.range(of: ": ") else { return name }
        return String(name[colon.upperBound...])
    }

    /// The longest text taken as a unit's name (4 KB: an LV2 URI is far shorter).
    static let maximumNameBytes = 4096

    /// `text` for a message: at most 60 characters, then "…".
    static func shown(_ text: String) -> String { text.count <= 60 ? text : String(text.prefix(60)) + "…" }

    /// Characters of each name the nearest-name search compares: enough to rank real names, and
    /// it keeps the search linear in the number of units (the distance is quadratic in length).
    static let comparedCharacters = 64

    /// Levenshtein distance between the first `comparedCharacters` of `a` and of `b`.
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a.prefix(comparedCharacters)), b = Array(b.prefix(comparedCharacters))
        if a.isEmpty { return b.count }
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in stride(from: 1, through: b.count, by: 1) {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }
}

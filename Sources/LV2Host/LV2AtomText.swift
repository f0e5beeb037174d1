import CAUHostAtomText

// Atoms as one line of Turtle (CAUHostAtomText, sratom) for the LV2 UI child, whose URID map is
// its own: the line spells URIDs as URIs, and each side reads it back with its own map.

extension LV2URIDMap {
    /// The largest atom (header and body) that crosses to or from a UI; larger ones are dropped.
    /// Thread: any.
    public static var maximumUIAtomSize: Int { LV2UIAtomLink.maximumAtomSize }

    /// The atom at `atom` (an LV2_Atom header, its body after it) as one line with no line break,
    /// URIDs unmapped with this map; nil if it is over `maximumUIAtomSize` or sratom cannot
    /// write it. Thread: setup (sratom allocates).
    public func line(forAtom atom: UnsafeRawPointer) -> String? {
        guard let line = auhost_atom_to_line(mapFeature, unmapFeature, atom.assumingMemoryBound(to: LV2_Atom.self)) else {
            return nil
        }
        defer { auhost_atom_text_free(line) }
        return String(cString: line)
    }

    /// The atom (header and body) a line from ``line(forAtom:)`` describes, its URIDs mapped with
    /// this map; nil for a line that is not one (garbage, over 1 MiB, or an atom over
    /// `maximumUIAtomSize`). Thread: setup (sratom allocates).
    public func atom(fromLine line: String) -> [UInt8]? {
        guard let atom = auhost_atom_from_line(mapFeature, line) else { return nil }
        defer { auhost_atom_text_free(atom) }
        let size = 8 + Int(atom.pointee.size)
        return [UInt8](UnsafeRawBufferPointer(start: atom, count: size))
    }
}

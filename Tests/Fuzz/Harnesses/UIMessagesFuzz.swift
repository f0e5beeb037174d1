import LV2Host
import LV2Units

/// What a broken or hostile UI child sends the host (ui_host_child.h): the bytes as lines, each
/// read by LV2UIMessage as LV2PluginUI reads it; `a` lines on to the host's URID map (sratom) as
/// LV2PluginUIAtoms reads them, those it accepts through an LV2UIAtomLink ring into two atom input
/// sequences this harness owns (64 and 1,024 bytes) by `lv2DeliverUIAtoms`, as the render thread
/// does. Checked: a line is read whole or not at all; an atom the map accepts is one atom no larger
/// than the protocol's limit and written back as one line; a sequence never exceeds its capacity,
/// holds only whole frame-0 events, and only atoms sent for its own port, in order.
/// No child, display or unit is needed (`p` lines are applied by the unit, as from any caller).
public enum UIMessagesFuzz {
    /// The atom inputs: port index → slot, as LV2PluginUIAtoms makes it for a unit.
    static let inputSlots: [UInt32: Int] = [3: 0, 5: 1]
    static let capacities = [64, 1024]
    /// One map for every run, as a unit's world keeps one (URIDs only grow).
    static let map = LV2URIDMap()

    /// Thread: any (one at a time).
    public static func run(_ data: UnsafeRawBufferPointer) {
        let text = String(decoding: data, as: UTF8.self)
        let link = LV2UIAtomLink.allocate()
        defer { link.deallocate() }
        var sent: [[[UInt8]]] = [[], []]
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let message = LV2UIMessage(line: String(line))
            check(message, line: line)
            guard case .atom(let port, let atomText) = message, let port = UInt32(port), let slot = inputSlots[port] else { continue }
            guard let atom = map.atom(fromLine: String(atomText)) else { continue }
            precondition(atom.count >= 8 && atom.count <= LV2URIDMap.maximumUIAtomSize, "an atom of \(atom.count) bytes")
            let bodySize = atom.withUnsafeBytes { $0.load(as: UInt32.self) }
            precondition(Int(bodySize) + 8 == atom.count, "an atom whose header says \(bodySize) in \(atom.count) bytes")
            atom.withUnsafeBytes { bytes in
                // Back to the UI it goes as one line, or not at all.
                if let back = map.line(forAtom: bytes.baseAddress!) { precondition(!back.contains("\n"), "an atom line with a line break") }
                if link.send(slot: slot, atom: bytes.baseAddress!, size: bytes.count) { sent[slot].append(atom) }
            }
        }
        deliver(link, sent: sent)
    }

    /// What the reader gave for `line` matches the line's own words.
    private static func check(_ message: LV2UIMessage, line: Substring) {
        switch message {
        case .atom(let port, let text): precondition(line.hasPrefix("a ") && !port.isEmpty && !text.isEmpty)
        case .malformedAtom: precondition(line.hasPrefix("a "))
        case .value(let port, _), .gesture(let port, _):
            let words = line.split(separator: " ")
            precondition(words.count == 3 && UInt32(words[1]) == port, "a port the line does not name: \(port)")
        case .requestValue(let key, let type):
            // The key and type are the line's own words, never the whole line or spaces.
            let words = line.split(separator: " ")
            precondition(words.first == "r" && words.count == (type.isEmpty ? 2 : 3) && words[1] == key, "a key the line does not name")
            precondition(type.isEmpty || words[2] == type)
        // Spaces around words are skipped, as the host always did (the child never sends them).
        case .closed: precondition(line.split(separator: " ").first == "closed")
        case .ready: precondition(line.split(separator: " ").first == "ready")
        default: break
        }
    }

    /// Runs the delivery until the ring is empty, checking the sequences after each run.
    private static func deliver(_ link: LV2UIAtomLink, sent: [[[UInt8]]]) {
        let sequenceType = map.map("http://lv2plug.in/ns/ext/atom#Sequence")
        let inputs = UnsafeMutablePointer<UnsafeMutableRawPointer>.allocate(capacity: 2)
        let sizes = UnsafeMutablePointer<Int>.allocate(capacity: 2)
        for k in 0..<2 {
            inputs[k] = .allocate(byteCount: capacities[k], alignment: 16)
            sizes[k] = capacities[k]
        }
        defer {
            for k in 0..<2 { inputs[k].deallocate() }
            inputs.deallocate()
            sizes.deallocate()
        }
        var next = [0, 0]
        while true {
            for k in 0..<2 {
                inputs[k].initializeMemory(as: UInt8.self, repeating: 0xA5, count: capacities[k])
                inputs[k].storeBytes(of: 8, as: UInt32.self)  // an empty sequence: its body header only
                inputs[k].storeBytes(of: sequenceType, toByteOffset: 4, as: UInt32.self)
                inputs[k].storeBytes(of: 0, toByteOffset: 8, as: UInt64.self)
            }
            lv2DeliverUIAtoms(inputs: inputs, capacities: sizes, count: 2, link)
            var delivered = 0
            for k in 0..<2 {
                let buffer = UnsafeRawPointer(inputs[k])
                let size = Int(buffer.load(as: UInt32.self))
                precondition(8 + size <= capacities[k], "a sequence of \(8 + size) bytes in \(capacities[k])")
                var offset = 16
                while offset < 8 + size {
                    precondition(buffer.load(fromByteOffset: offset, as: Int64.self) == 0, "an event not at frame 0")
                    let atomSize = 8 + Int(buffer.load(fromByteOffset: offset + 8, as: UInt32.self))
                    precondition(offset + 8 + atomSize <= 8 + size, "an event past its sequence's end")
                    let atom = [UInt8](UnsafeRawBufferPointer(start: buffer + offset + 8, count: atomSize))
                    // Only what was sent for this port, in order (some may have been dropped).
                    while next[k] < sent[k].count && sent[k][next[k]] != atom { next[k] += 1 }
                    precondition(next[k] < sent[k].count, "an atom input \(k) was not sent")
                    next[k] += 1
                    offset += 8 + ((atomSize + 7) & ~7)
                    delivered += 1
                }
            }
            if delivered == 0 { break }
        }
    }
}

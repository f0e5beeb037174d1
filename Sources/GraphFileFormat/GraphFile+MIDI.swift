import AudioTypes
import Foundation

/// The graph file's MIDI keys (docs/GRAPH-FILES.md): `"midi"`, a Standard MIDI File played by
/// MusicPlayer into one instrument node, and `"midiInputs"`, JACK MIDI sources routed live to
/// instrument nodes. Only the shape and the node names are checked here; whether a node is an
/// instrument, and whether the head can take live input, is checked when the graph is built.
extension GraphFile {
    /// `{"file": "song.mid", "node": "piano"}`. Thread: any.
    public struct MIDISource: Equatable {
        /// The file (resolved against the graph file's folder).
        public var file: String
        /// The node every track plays into.
        public var node: String
        public var line: Int
    }

    /// `{"jack": "client:port" or "client", "node": "piano"}`. Thread: any.
    public struct MIDIInput: Equatable {
        /// A JACK MIDI output port ("client:port"), or a client whose MIDI output ports all connect.
        public var jack: String
        public var node: String
        public var line: Int
    }

    /// The most MIDI inputs a graph file may name.
    public static let maximumMIDIInputs = 64

    func parseMIDI(_ m: LinedJSON.Member) throws -> MIDISource {
        guard case .object(let fields) = m.value.kind else {
            throw error(m.value.line, "\"midi\" must be {\"file\": \"song.mid\", \"node\": \"instrument\"}, not \(m.value.typeName).")
        }
        var file: String?, node: String?
        for f in fields {
            switch f.key {
            case "file": file = resolve(try string(f))
            case "node": node = try string(f)
            default: throw error(f.line, "unknown key \"\(Self.shown(f.key))\" in \"midi\"; it has file and node.")
            }
        }
        guard let file, let node else {
            throw error(m.value.line, "\"midi\" needs both \"file\" (a Standard MIDI File) and \"node\" (the instrument it plays).")
        }
        return MIDISource(file: file, node: node, line: m.value.line)
    }

    func parseMIDIInputs(_ m: LinedJSON.Member) throws -> [MIDIInput] {
        guard case .array(let items) = m.value.kind else {
            throw error(m.value.line, "\"midiInputs\" must be an array of {\"jack\": …, \"node\": …}, not \(m.value.typeName).")
        }
        guard items.count <= Self.maximumMIDIInputs else {
            throw error(m.value.line, "the graph has \(items.count) MIDI inputs; a graph file may have at most \(Self.maximumMIDIInputs).")
        }
        return try items.map { item in
            guard case .object(let fields) = item.kind else {
                throw error(item.line, "a MIDI input must be an object {\"jack\": …, \"node\": …}, not \(item.typeName).")
            }
            var jack: String?, node: String?
            for f in fields {
                switch f.key {
                case "jack": jack = try string(f)
                case "node": node = try string(f)
                default: throw error(f.line, "unknown key \"\(Self.shown(f.key))\" in a MIDI input; it has jack and node.")
                }
            }
            guard let jack, let node else {
                throw error(item.line, "a MIDI input needs both \"jack\" (a port or client) and \"node\" (the instrument).")
            }
            return MIDIInput(jack: jack, node: node, line: item.line)
        }
    }

    /// The MIDI keys name nodes of the graph.
    func checkMIDINodes() throws {
        let known = Set(nodes.map(\.name))
        let named = (midi.map { [($0.node, $0.line)] } ?? []) + midiInputs.map { ($0.node, $0.line) }
        for (node, line) in named where !known.contains(node) {
            let names = nodes.prefix(20).map { Self.shown($0.name) }.joined(separator: ", ") + (nodes.count > 20 ? ", …" : "")
            throw error(line, "\"node\" names no node \"\(Self.shown(node))\"; the nodes are \(names).")
        }
    }

    /// Whether the file has a MIDI key. Thread: any.
    public var hasMIDI: Bool { midi != nil || !midiInputs.isEmpty }
}

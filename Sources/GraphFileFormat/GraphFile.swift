import AudioFiles
import AudioTypes
import Foundation

/// A graph file (docs/GRAPH-FILES.md): nodes (a unit each, by triple, LV2 URI or unique name, with
/// parameters and a preset), connections between them, and the head — an output file rendered
/// offline through a generic output, or an ALSA device played through the ALSA I/O unit. Every
/// item keeps its line so that later failures (an unknown unit, a refused parameter) name it too.
public struct GraphFile {
    public struct Node {
        public var name: String
        public var unit: String
        /// NAME=VALUE, in file order (as `-p` takes them).
        public var parameters: [String] = []
        public var preset: String?
        /// `"isolated": true`: the unit lives in a child process of its own (AUHostIsolation.h).
        public var isolated = false
        public var line: Int

        /// Thread: any.
        public init(name: String, unit: String, parameters: [String] = [], preset: String? = nil, line: Int) {
            self.name = name; self.unit = unit; self.parameters = parameters; self.preset = preset; self.line = line
        }
    }

    public struct Connection {
        public var from: String
        public var fromBus: UInt32
        public var to: String
        public var toBus: UInt32
        public var line: Int

        /// Thread: any.
        public init(from: String, fromBus: UInt32, to: String, toBus: UInt32, line: Int) {
            self.from = from; self.fromBus = fromBus; self.to = to; self.toBus = toBus; self.line = line
        }
    }

    public enum Head: Equatable {
        case file(String)
        case device(String)
    }

    /// The name connections use for the head.
    public static let headName = "output"

    public var path: String
    public var sampleRate = 48_000.0
    public var channels = 2
    public var block: UInt32 = 512
    /// How long `run` renders or plays; nil: the input's length plus the tail.
    public var seconds: Double?
    /// A file fed to the source nodes by `run` (`render -i` replaces it).
    public var input: String?
    /// The line of "input" (errors reading the input file name it).
    public var inputLine = 1
    public var nodes: [Node] = []
    public var connections: [Connection] = []
    public var head: Head = .file("out.wav")
    public var headLine = 1
    /// `"output": {"device": …, "voiceProcessing": {"record": "mic.wav", "agc": false}}`: the head
    /// is the voice-processing I/O unit, what the graph plays is the echo reference, and the
    /// processed microphone is recorded into `record` (resolved); nil for the plain ALSA unit.
    public var voiceProcessing: VoiceProcessingHead?
    /// `"midi": {"file": "song.mid", "node": "piano"}`: a Standard MIDI File every track of which
    /// plays into one instrument node (GraphFile+MIDI.swift).
    public var midi: MIDISource?
    /// `"midiInputs": [{"jack": "client:port", "node": "piano"}]`: live JACK MIDI into instruments.
    public var midiInputs: [MIDIInput] = []
    /// `"threads": N`: threads that render the graph, the head's included (0 serial, at most 64);
    /// nil keeps the graph's default (one per core). AUGraphSetRenderThreadCount.
    public var threads: Int?
    /// `"tempo": 120` and `"meter": "3/4"`: the graph's transport (AUGraphSetTempo): every node
    /// learns beat, tempo and bar through its host callbacks; nil: no tempo (meter 4/4 if only a tempo).
    public var tempo: Double?
    public var meter = Meter(beatsPerBar: 4, beatUnit: 4)

    /// A time signature: `beatsPerBar` notes of 1/`beatUnit`.
    public struct Meter: Equatable {
        public var beatsPerBar: UInt32
        public var beatUnit: UInt32

        public init(beatsPerBar: UInt32, beatUnit: UInt32) {
            self.beatsPerBar = beatsPerBar
            self.beatUnit = beatUnit
        }

        /// "3/4" → 3 beats of a quarter note; nil for anything else than 1…64 over 1, 2, 4, 8, 16 or 32.
        ///
        /// Thread: any.
        public init?(_ text: String) {
            let parts = text.split(separator: "/", omittingEmptySubsequences: false)
            guard parts.count == 2, let count = UInt32(parts[0]), let unit = UInt32(parts[1]), (1...64).contains(count),
                [1, 2, 4, 8, 16, 32].contains(unit)
            else { return nil }
            self.init(beatsPerBar: count, beatUnit: unit)
        }
    }

    /// The voice-processing head's settings (docs/GRAPH-FILES.md).
    public struct VoiceProcessingHead: Equatable {
        /// Where the processed microphone is recorded (a path; its extension picks the type).
        public var record: String
        /// Automatic gain control (default on, as Apple's unit has it).
        public var gainControl = true
    }

    /// An empty graph named `path` (empty: made from the command line). Thread: any.
    public init(path: String) { self.path = path }

    /// Whether the head is an ALSA device (not an output file).
    public var playsOnDevice: Bool {
        if case .device = head { return true }
        return false
    }

    /// An error in the file: "FILE:LINE: what is wrong" (only the sentence for a graph made from
    /// the command line, whose path is empty).
    ///
    /// Thread: any.
    public func error(_ line: Int, _ reason: String, status: OSStatus = kAudio_ParamError) -> AudioError {
        AudioError(status, path.isEmpty ? reason.prefix(1).uppercased() + reason.dropFirst() : "\(path):\(line): \(reason)")
    }

    /// Reads and checks the graph file at `path`.
    ///
    /// Thread: setup.
    public static func load(_ path: String) throws -> GraphFile {
        // Regular files only (a FIFO would block), and at most maximumBytes of them.
        var status = stat()
        guard stat(path, &status) == 0 else { throw AudioError(kAudio_FileNotFoundError, "There is no graph file at \(path).") }
        guard (status.st_mode & S_IFMT) == S_IFREG else {
            throw AudioError(kAudio_ParamError, "\(path) is not a regular file (a FIFO, socket, device or folder); give a graph file.")
        }
        guard Int(status.st_size) <= LinedJSON.Limits.maximumBytes else {
            throw AudioError(
                kAudio_ParamError,
                "\(path):1: the graph file is \(status.st_size) bytes; graph files may have at most \(LinedJSON.Limits.maximumBytes).")
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw AudioError(kAudio_FileNotFoundError, "There is no graph file at \(path).")
        }
        return try parse(String(decoding: data, as: UTF8.self), path: path)
    }

    /// `text` for a message: at most 60 characters, then "…" (a 4 MB name is not echoed).
    ///
    /// Thread: any.
    public static func shown(_ text: String) -> String {
        text.count <= 60 ? text : String(text.prefix(60)) + "…"
    }

    /// Parses graph-file text; `path` names it in messages and anchors relative file names.
    ///
    /// Thread: setup.
    public static func parse(_ text: String, path: String) throws -> GraphFile {
        var file = GraphFile(path: path)
        let root: LinedJSON
        do { root = try LinedJSON.parse(text) } catch let e as LinedJSON.SyntaxError { throw file.error(e.line, e.reason + ".") }
        guard case .object(let members) = root.kind else {
            throw file.error(root.line, "a graph file is a JSON object, not \(root.typeName).")
        }
        var sawNodes = false, sawHead = false
        for m in members {
            switch m.key {
            case "sampleRate":
                let rate = try file.number(m)
                guard (8_000...384_000).contains(rate) else {
                    throw file.error(m.line, "\"sampleRate\" must be 8000…384000 Hz, not \(rate).")
                }
                file.sampleRate = rate
            case "channels": file.channels = Int(try file.integer(m, in: 1...64))
            case "block": file.block = UInt32(try file.integer(m, in: 1...65_536))
            case "seconds":
                let s = try file.number(m)
                guard s > 0 && s <= 86_400 else {
                    throw file.error(m.line, "\"seconds\" must be more than 0 (and at most a day), not \(s).")
                }
                file.seconds = s
            case "input": file.input = file.resolve(try file.string(m)); file.inputLine = m.line
            case "nodes": file.nodes = try file.parseNodes(m); sawNodes = true
            case "connections": file.connections = try file.parseConnections(m)
            case "output": file.head = try file.parseHead(m); file.headLine = m.line; sawHead = true
            case "midi": file.midi = try file.parseMIDI(m)
            case "midiInputs": file.midiInputs = try file.parseMIDIInputs(m)
            case "threads": file.threads = try file.integer(m, in: 0...64)
            case "tempo":
                let bpm = try file.number(m)
                guard bpm > 0 && bpm <= 1_000 else {
                    throw file.error(m.line, "\"tempo\" must be more than 0 and at most 1000 BPM, not \(bpm).")
                }
                file.tempo = bpm
            case "meter":
                guard let meter = Meter(try file.string(m)) else {
                    throw file.error(m.line, "\"meter\" is \"N/D\": 1…64 beats of a 1, 2, 4, 8, 16 or 32 note, as \"3/4\".")
                }
                file.meter = meter
            default:
                throw file.error(
                    m.line,
                    "unknown key \"\(Self.shown(m.key))\"; a graph file has sampleRate, channels, block, seconds, input, nodes, connections,"
                        + " output, midi, midiInputs, threads, tempo and meter."
                )
            }
        }
        guard sawNodes, !file.nodes.isEmpty else { throw file.error(root.line, "the graph has no \"nodes\"; give at least one unit.") }
        guard sawHead else {
            throw file.error(root.line, "the graph has no \"output\"; give {\"file\": \"out.wav\"} or {\"device\": \"default\"}.")
        }
        try file.checkConnections()
        try file.checkMIDINodes()
        return file
    }

    /// The container type an output path's extension names (wav, aif(f), caf, flac, ogg).
    ///
    /// Thread: any.
    public static func fileType(_ path: String) -> AudioFileType? {
        switch (path as NSString).pathExtension.lowercased() {
        case "wav", "wave": .wave
        case "aif", "aiff", "aifc": .aiff
        case "caf": .caf
        case "flac": .flac
        case "ogg", "oga": .ogg
        default: nil
        }
    }

    /// A path relative to the graph file's folder.
    public func resolve(_ name: String) -> String {
        name.hasPrefix("/") ? name : ((path as NSString).deletingLastPathComponent as NSString).appendingPathComponent(name)
    }

    private func number(_ m: LinedJSON.Member) throws -> Double {
        guard case .number(let n) = m.value.kind else {
            throw error(m.value.line, "\"\(m.key)\" must be a number, not \(m.value.typeName).")
        }
        return n
    }

    private func integer(_ m: LinedJSON.Member, in range: ClosedRange<Int>) throws -> Int {
        let n = try number(m)
        // Compared as doubles first: Int(1e19) would trap.
        guard n.rounded() == n, n >= Double(range.lowerBound), n <= Double(range.upperBound) else {
            throw error(m.value.line, "\"\(m.key)\" must be a whole number \(range.lowerBound)…\(range.upperBound), not \(n).")
        }
        return Int(n)
    }

    func string(_ m: LinedJSON.Member) throws -> String {
        guard case .string(let s) = m.value.kind, !s.isEmpty else {
            throw error(m.value.line, "\"\(m.key)\" must be a non-empty string, not \(m.value.typeName).")
        }
        return s
    }

    private func parseNodes(_ m: LinedJSON.Member) throws -> [Node] {
        guard case .array(let items) = m.value.kind else {
            throw error(m.value.line, "\"nodes\" must be an array of objects, not \(m.value.typeName).")
        }
        guard items.count <= LinedJSON.Limits.maximumNodes else {
            throw error(m.value.line, "the graph has \(items.count) nodes; a graph file may have at most \(LinedJSON.Limits.maximumNodes).")
        }
        var nodes: [Node] = []
        var names = Set<String>()
        for (i, item) in items.enumerated() {
            guard case .object(let fields) = item.kind else {
                throw error(item.line, "node \(i + 1) must be an object, not \(item.typeName).")
            }
            var node = Node(name: "", unit: "", line: item.line)
            for f in fields {
                switch f.key {
                case "name": node.name = try string(f)
                case "unit": node.unit = try string(f)
                case "preset":
                    switch f.value.kind {
                    case .string(let s): node.preset = s
                    case .number(let n):
                        guard n.rounded() == n, n >= 0, n <= Double(Int32.max) else {
                            throw error(f.value.line, "\"preset\" must be a preset's name or a whole number 0…\(Int32.max), not \(n).")
                        }
                        node.preset = String(Int(n))
                    default: throw error(f.value.line, "\"preset\" must be a preset's name or number, not \(f.value.typeName).")
                    }
                case "isolated":
                    guard case .bool(let b) = f.value.kind else {
                        throw error(f.value.line, "\"isolated\" must be true or false, not \(f.value.typeName).")
                    }
                    node.isolated = b
                case "parameters":
                    guard case .object(let values) = f.value.kind else {
                        throw error(f.value.line, "\"parameters\" must be an object of NAME: VALUE, not \(f.value.typeName).")
                    }
                    for v in values {
                        switch v.value.kind {
                        case .number(let n): node.parameters.append("\(v.key)=\(n)")
                        case .string(let s): node.parameters.append("\(v.key)=\(s)")
                        case .bool(let b): node.parameters.append("\(v.key)=\(b ? 1 : 0)")
                        default:
                            throw error(
                                v.line, "parameter \"\(Self.shown(v.key))\" must be a number or a value string, not \(v.value.typeName).")
                        }
                    }
                default:
                    throw error(
                        f.line, "unknown key \"\(Self.shown(f.key))\" in a node; a node has name, unit, parameters, preset and isolated.")
                }
            }
            guard !node.unit.isEmpty else {
                throw error(item.line, "node \(i + 1) has no \"unit\" (a triple, an LV2 URI or a unique name).")
            }
            if node.name.isEmpty { node.name = "node\(i + 1)" }
            guard node.name != Self.headName else {
                throw error(item.line, "\"\(Self.headName)\" names the head; call the node something else.")
            }
            guard names.insert(node.name).inserted else {
                throw error(item.line, "two nodes are called \"\(Self.shown(node.name))\"; names must be unique.")
            }
            nodes.append(node)
        }
        return nodes
    }

    private func parseConnections(_ m: LinedJSON.Member) throws -> [Connection] {
        guard case .array(let items) = m.value.kind else {
            throw error(m.value.line, "\"connections\" must be an array of {\"from\": …, \"to\": …}, not \(m.value.typeName).")
        }
        guard items.count <= LinedJSON.Limits.maximumConnections else {
            throw error(
                m.value.line,
                "the graph has \(items.count) connections; a graph file may have at most \(LinedJSON.Limits.maximumConnections).")
        }
        return try items.map { item in
            guard case .object(let fields) = item.kind else {
                throw error(item.line, "a connection must be an object, not \(item.typeName).")
            }
            var from: (String, UInt32)?, to: (String, UInt32)?
            for f in fields {
                switch f.key {
                case "from": from = try endpoint(f)
                case "to": to = try endpoint(f)
                default: throw error(f.line, "unknown key \"\(Self.shown(f.key))\" in a connection; a connection has from and to.")
                }
            }
            guard let from, let to else {
                throw error(item.line, "a connection needs both \"from\" and \"to\" (\"node\" or \"node:bus\").")
            }
            return Connection(from: from.0, fromBus: from.1, to: to.0, toBus: to.1, line: item.line)
        }
    }

    /// "delay" (bus 0) or "mixer:1".
    private func endpoint(_ f: LinedJSON.Member) throws -> (String, UInt32) {
        let text = try string(f)
        guard let colon = text.lastIndex(of: ":") else { return (text, 0) }
        guard let bus = UInt32(text[text.index(after: colon)...]) else {
            throw error(f.value.line, "\"\(Self.shown(text))\" is not \"node\" or \"node:bus\" (the bus a whole number).")
        }
        return (String(text[..<colon]), bus)
    }

    private mutating func parseHead(_ m: LinedJSON.Member) throws -> Head {
        if case .object(let fields) = m.value.kind, fields.count == 2, let vp = fields.first(where: { $0.key == "voiceProcessing" }),
            let device = fields.first(where: { $0.key == "device" })
        {
            voiceProcessing = try parseVoiceProcessing(vp)
            return .device(try string(device))
        }
        guard case .object(let fields) = m.value.kind, fields.count == 1, let f = fields.first else {
            throw error(
                m.value.line,
                "\"output\" must be {\"file\": \"out.wav\"}, {\"device\": \"PCM name\"} or {\"device\": \"PCM name\", \"voiceProcessing\": {\"record\": \"mic.wav\"}}."
            )
        }
        switch f.key {
        case "file":
            let name = try string(f)
            guard Self.fileType(name) != nil else {
                throw error(
                    f.value.line, "cannot tell the file type from \"\(Self.shown(name))\"; end it in .wav, .aiff, .caf, .flac or .ogg.")
            }
            return .file(resolve(name))
        case "device": return .device(try string(f))
        default: throw error(f.line, "unknown key \"\(Self.shown(f.key))\" in \"output\"; use \"file\" or \"device\".")
        }
    }

    /// `{"record": "mic.wav", "agc": true}` (record required).
    private func parseVoiceProcessing(_ m: LinedJSON.Member) throws -> VoiceProcessingHead {
        guard case .object(let fields) = m.value.kind else {
            throw error(
                m.value.line,
                "\"voiceProcessing\" must be {\"record\": \"mic.wav\"} (and optionally \"agc\": false), not \(m.value.typeName).")
        }
        var record: String?
        var gainControl = true
        for f in fields {
            switch f.key {
            case "record":
                let name = try string(f)
                guard Self.fileType(name) != nil else {
                    throw error(
                        f.value.line, "cannot tell the file type from \"\(Self.shown(name))\"; end it in .wav, .aiff, .caf, .flac or .ogg.")
                }
                record = resolve(name)
            case "agc":
                guard case .bool(let b) = f.value.kind else {
                    throw error(f.value.line, "\"agc\" must be true or false, not \(f.value.typeName).")
                }
                gainControl = b
            default:
                throw error(f.line, "unknown key \"\(Self.shown(f.key))\" in \"voiceProcessing\"; use \"record\" and \"agc\".")
            }
        }
        guard let record else {
            throw error(m.value.line, "\"voiceProcessing\" needs \"record\": the file the processed microphone goes to.")
        }
        return VoiceProcessingHead(record: record, gainControl: gainControl)
    }

    /// Every connection names known nodes; at most one connection feeds an input.
    private func checkConnections() throws {
        var fed = Set<String>()
        let known = Set(nodes.map(\.name))
        for c in connections {
            let names = nodes.prefix(20).map { Self.shown($0.name) }.joined(separator: ", ") + (nodes.count > 20 ? ", …" : "")
            guard known.contains(c.from) else {
                throw error(c.line, "\"from\" names no node \"\(Self.shown(c.from))\"; the nodes are \(names).")
            }
            guard c.to == Self.headName || known.contains(c.to) else {
                throw error(c.line, "\"to\" names no node \"\(Self.shown(c.to))\"; the nodes are \(names) and \(Self.headName).")
            }
            guard fed.insert("\(c.to):\(c.toBus)").inserted else {
                throw error(c.line, "\(Self.shown(c.to)) input \(c.toBus) is already connected.")
            }
        }
    }
}

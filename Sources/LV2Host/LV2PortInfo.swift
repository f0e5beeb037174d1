import CLilv

/// What one port of a plug-in is, as its Turtle data declares it (no plug-in code is run).
public struct LV2PortInfo: Equatable, Sendable {
    /// The kind of data the port carries.
    public enum Kind: String, Sendable {
        case audio, control, cv, atom
        /// A port class this host does not know (e.g. the old event extension).
        case unknown
    }

    /// Which way the data flows, seen from the plug-in.
    public enum Direction: String, Sendable { case input, output, unknown }

    /// The port index used by connect_port.
    public let index: Int
    /// The port's symbol (unique within the plug-in, stable across versions).
    public let symbol: String
    /// The human-readable name, or the symbol when none is declared.
    public let name: String
    public let kind: Kind
    public let direction: Direction
    /// An atom port that declares `atom:supports midi:MidiEvent`.
    public let supportsMIDI: Bool
    /// An atom input that declares `atom:supports time:Position`: the host tells it the musical time.
    public var supportsTimePosition = false
    /// An atom input that declares `atom:supports patch:Message`: patch:Set reaches the plug-in there.
    public var supportsPatchMessage = false
    /// The plug-in allows the port to be left unconnected (connected to NULL).
    public let connectionOptional: Bool
    /// `rsz:minimumSize` in bytes for atom ports, 0 when not declared.
    public let minimumBufferSize: Int
    /// A control output designated as the plug-in's latency in frames.
    public let reportsLatency: Bool
    /// The `pg:group` URI the port belongs to, if declared.
    public let groupURI: String?
}

extension LV2PortInfo {
    /// Reads port `index` of `plugin` from the world's data; nil if the index has no port.
    /// Thread: setup (non-real-time).
    static func read(plugin: OpaquePointer, index: Int, vocabulary v: LV2Vocabulary) -> LV2PortInfo? {
        guard let port = lilv_plugin_get_port_by_index(plugin, UInt32(index)) else { return nil }
        func isA(_ node: OpaquePointer) -> Bool { lilv_port_is_a(plugin, port, node) }
        func has(_ node: OpaquePointer) -> Bool { lilv_port_has_property(plugin, port, node) }

        let symbol = LV2Vocabulary.string(lilv_port_get_symbol(plugin, port)) ?? "port\(index)"
        let name = LV2Vocabulary.takeString(lilv_port_get_name(plugin, port)) ?? symbol
        let kind: Kind =
            isA(v.audioPort)
            ? .audio
            : isA(v.controlPort)
                ? .control
                : isA(v.cvPort) ? .cv : isA(v.atomPort) ? .atom : .unknown
        let direction: Direction = isA(v.inputPort) ? .input : isA(v.outputPort) ? .output : .unknown
        let minimumSize = value(plugin, port, v.rszMinimumSize).number.map { Int($0) } ?? 0
        let designation = value(plugin, port, v.designation).string
        let latencyDesignated = designation == LV2Vocabulary.string(v.latency)
        var info = LV2PortInfo(
            index: index, symbol: symbol, name: name, kind: kind, direction: direction,
            supportsMIDI: kind == .atom && lilv_port_supports_event(plugin, port, v.midiEvent),
            connectionOptional: has(v.connectionOptional),
            minimumBufferSize: minimumSize,
            reportsLatency: kind == .control && direction == .output && (has(v.reportsLatency) || latencyDesignated),
            groupURI: value(plugin, port, v.portGroup).string)
        info.supportsTimePosition = kind == .atom && direction == .input && lilv_port_supports_event(plugin, port, v.timePosition)
        info.supportsPatchMessage = kind == .atom && direction == .input && lilv_port_supports_event(plugin, port, v.patchMessage)
        return info
    }

    /// The first value of `predicate` on the port as a string and as a number (the node lilv
    /// returns is owned by the caller and freed here). Thread: setup (non-real-time).
    static func value(
        _ plugin: OpaquePointer, _ port: OpaquePointer,
        _ predicate: OpaquePointer
    ) -> (string: String?, number: Float?) {
        guard let node = lilv_port_get(plugin, port, predicate) else { return (nil, nil) }
        defer { lilv_node_free(node) }
        return (LV2Vocabulary.string(node), LV2Vocabulary.float(node))
    }
}

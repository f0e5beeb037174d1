import CLilv

/// One installed plug-in as its Turtle data describes it. Only the URI is read eagerly; every
/// other property is read from lilv on first use, so loading hundreds of plug-ins stays fast.
///
/// Thread: setup (non-real-time). lilv worlds are not thread-safe: use one world, and its
/// descriptors, from one thread at a time.
public final class LV2PluginDescriptor {
    /// The plug-in's URI, its identity.
    public let uri: String
    /// The lilv world that owns the plug-in's data (kept alive by the descriptor).
    public let world: LV2WorldData
    /// The lilv plug-in as the manifest made it: its URI and bundle only.
    let unreadPlugin: OpaquePointer
    private var dataRead = false

    /// The lilv plug-in with its data files read. lilv reads them on the first query that needs
    /// them; that read is made here, holding ``LV2TurtleReads``' lock.
    var plugin: OpaquePointer {
        if !dataRead {
            // lilv_plugin_get_class reads the data (lilv_plugin_load_if_necessary is private).
            LV2TurtleReads.withLock { _ = lilv_plugin_get_class(unreadPlugin) }
            dataRead = true
        }
        return unreadPlugin
    }

    init(world: LV2WorldData, plugin: OpaquePointer) {
        self.world = world
        unreadPlugin = plugin
        self.uri = LV2Vocabulary.string(lilv_plugin_get_uri(plugin)) ?? ""
    }

    /// The `doap:name`, or the URI when none is declared.
    public private(set) lazy var name: String = LV2Vocabulary.takeString(lilv_plugin_get_name(plugin)) ?? uri

    /// The maker: the project's `doap:name`, else the author's name, else the URI's host.
    public private(set) lazy var projectName: String = {
        if let project = lilv_plugin_get_project(plugin) {
            defer { lilv_node_free(project) }
            if let name = world.firstValue(subject: project, predicate: world.vocabulary.doapName) { return name }
        }
        if let author = LV2Vocabulary.takeString(lilv_plugin_get_author_name(plugin)) { return author }
        return LV2PluginDescriptor.authority(of: uri)
    }()

    /// The plug-in class URI, e.g. `http://lv2plug.in/ns/lv2core#DelayPlugin`.
    public private(set) lazy var classURI: String =
        LV2Vocabulary.string(lilv_plugin_class_get_uri(lilv_plugin_get_class(plugin))) ?? LV2URI.plugin

    /// The plug-in class label, e.g. "Delay".
    public private(set) lazy var className: String =
        LV2Vocabulary.string(lilv_plugin_class_get_label(lilv_plugin_get_class(plugin))) ?? "Plugin"

    /// The bundle directory URI (file://…/name.lv2/).
    public private(set) lazy var bundleURI: String = LV2Vocabulary.string(lilv_plugin_get_bundle_uri(unreadPlugin)) ?? ""

    /// The shared object's file path, nil if the data names none or it is not a file URI.
    public private(set) lazy var binaryPath: String? = {
        guard let uri = lilv_plugin_get_library_uri(plugin),
            let path = lilv_file_uri_parse(lilv_node_as_uri(uri), nil)
        else { return nil }
        defer { lilv_free(path) }
        return String(cString: path)
    }()

    /// Every port, by index. A hole in the indices (the data skips one) appears as a port of
    /// kind `.unknown` with symbol "" so instantiation can reject it with a clear error.
    public private(set) lazy var ports: [LV2PortInfo] = {
        // lilv sizes its port array by the largest lv2:index without checking it: never let it
        // see data whose indices are not small non-negative integers.
        guard portDataProblem == nil else { return [] }
        let count = Int(lilv_plugin_get_num_ports(plugin))
        return (0..<count).map { index in
            LV2PortInfo.read(plugin: plugin, index: index, vocabulary: world.vocabulary)
                ?? LV2PortInfo(
                    index: index, symbol: "", name: "", kind: .unknown, direction: .unknown,
                    supportsMIDI: false, connectionOptional: false, minimumBufferSize: 0,
                    reportsLatency: false, groupURI: nil)
        }
    }()

    /// Why the port data cannot be trusted, or nil: every `lv2:port` must have an `lv2:index`
    /// that is a non-negative integer below the number of ports, each index used once. lilv checks
    /// none of this (an index of 4294967295 or -1 crashes it), so nothing reads the ports of a
    /// plug-in whose data fails here. Reads Turtle data only. Thread: setup (non-real-time).
    public private(set) lazy var portDataProblem: String? = {
        let v = world.vocabulary
        guard let nodes = lilv_plugin_get_value(plugin, v.port) else { return nil }
        defer { lilv_nodes_free(nodes) }
        let count = Int(lilv_nodes_size(nodes))
        var seen = Set<Int>()
        var iterator = lilv_nodes_begin(nodes)
        while !lilv_nodes_is_end(nodes, iterator) {
            defer { iterator = lilv_nodes_next(nodes, iterator) }
            guard let port = lilv_nodes_get(nodes, iterator) else { continue }
            let text = LV2Vocabulary.takeString(lilv_world_get(world.world, port, v.index, nil))
            guard let text else { return "a port has no lv2:index" }
            guard let index = Int(text), index >= 0, index < count else {
                return "port index \(text) is not an integer in 0..<\(count) (it declares \(count) ports)"
            }
            guard seen.insert(index).inserted else { return "port index \(index) is used twice" }
        }
        return nil
    }()

    /// Port counts by kind and direction.
    public private(set) lazy var portSummary = LV2PortSummary(ports: ports)

    /// The same counts as ``portSummary``, read with only the queries they need (kind, direction,
    /// MIDI support; no names, sizes, designations or groups): the catalog reads this for every
    /// installed plug-in. Empty for a plug-in with broken port data, as ``ports`` is.
    /// Thread: setup (non-real-time).
    public var catalogPortSummary: LV2PortSummary {
        var summary = LV2PortSummary(ports: [])
        guard portDataProblem == nil else { return summary }
        let v = world.vocabulary
        for index in 0..<Int(lilv_plugin_get_num_ports(plugin)) {
            guard let port = lilv_plugin_get_port_by_index(plugin, UInt32(index)) else {
                summary.count(.unknown, .unknown, supportsMIDI: false)
                continue
            }
            func isA(_ node: OpaquePointer) -> Bool { lilv_port_is_a(plugin, port, node) }
            let kind: LV2PortInfo.Kind =
                isA(v.audioPort)
                ? .audio
                : isA(v.controlPort)
                    ? .control
                    : isA(v.cvPort) ? .cv : isA(v.atomPort) ? .atom : .unknown
            let direction: LV2PortInfo.Direction = isA(v.inputPort) ? .input : isA(v.outputPort) ? .output : .unknown
            summary.count(kind, direction, supportsMIDI: kind == .atom && lilv_port_supports_event(plugin, port, v.midiEvent))
        }
        return summary
    }

    /// Feature URIs the plug-in cannot run without.
    public private(set) lazy var requiredFeatures: [String] = LV2World.strings(lilv_plugin_get_required_features(plugin))

    /// The plug-in requires `lv2:isLive` (a real-time host): only a live instance can load it.
    /// Thread: setup (non-real-time).
    public var requiresLive: Bool { requiredFeatures.contains(LV2URI.isLive) }

    /// Feature URIs the plug-in uses when the host offers them.
    public private(set) lazy var optionalFeatures: [String] = LV2World.strings(lilv_plugin_get_optional_features(plugin))

    /// Extension-data interfaces the plug-in provides (state, worker, options, …).
    public private(set) lazy var extensionData: [String] = LV2World.strings(lilv_plugin_get_extension_data(plugin))

    /// Options the plug-in requires the host to pass (`opts:requiredOption`).
    public private(set) lazy var requiredOptions: [String] = {
        LV2World.strings(lilv_plugin_get_value(plugin, world.vocabulary.requiredOption))
    }()

    /// What the plug-in requires of block lengths, so a caller can re-block its audio to suit.
    public private(set) lazy var blockLengthRequirements = LV2BlockLengthRequirements(requiredFeatures: requiredFeatures)

    /// The plug-in is in `lv2:MixerPlugin` (or a subclass).
    public private(set) lazy var isMixer: Bool = {
        // lilv has no subclass query for plug-ins; MixerPlugin has no subclasses in lv2core.
        classURI == LV2URI.mixerPlugin
    }()

    /// "scheme://host" of a URI, or the URI itself; the maker of last resort.
    static func authority(of uri: String) -> String {
        let parts = uri.split(separator: "/", omittingEmptySubsequences: true)
        if uri.contains("://"), parts.count >= 2 { return String(parts[1].prefix { $0 != "#" }) }
        return String(uri.split(separator: ":").prefix(2).joined(separator: ":"))
    }
}

/// The buf-size features a plug-in requires.
public struct LV2BlockLengthRequirements: Equatable, Sendable {
    /// `bufsz:boundedBlockLength`: the host must state a maximum and never exceed it.
    public var bounded: Bool
    /// `bufsz:fixedBlockLength`: every run must have the same frame count (the nominal length).
    public var fixed: Bool
    /// `bufsz:powerOf2BlockLength`: every run's frame count must be a power of two.
    public var powerOf2: Bool

    /// Reads the requirements from a list of required feature URIs. Thread: any.
    public init(requiredFeatures: [String]) {
        bounded = requiredFeatures.contains(LV2URI.boundedBlockLength)
        fixed = requiredFeatures.contains(LV2URI.fixedBlockLength)
        powerOf2 = requiredFeatures.contains(LV2URI.powerOf2BlockLength)
    }
}

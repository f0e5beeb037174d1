import CLilv

/// All installed LV2 plug-ins, loaded through lilv without running any plug-in code.
///
/// ```swift
/// let world = LV2World()                       // LV2_PATH, else lilv's default path
/// let amp = try world.plugin(uri: "http://lv2plug.in/plugins/eg-amp")
/// print(amp.name, amp.portSummary)
/// ```
///
/// Thread: setup (non-real-time). A world and its descriptors are used from one thread at a time.
public final class LV2World {
    /// The lilv world, its vocabulary and URID map: what the descriptors hold, so that a
    /// descriptor outlives this object and this object's descriptors do not keep it alive.
    public let data: LV2WorldData
    var world: OpaquePointer { data.world }
    var vocabulary: LV2Vocabulary { data.vocabulary }
    /// The search path used, nil when lilv's default (LV2_PATH or the system path) applied.
    public let lv2Path: String?
    /// Every plug-in found, ordered by URI.
    public private(set) var plugins: [LV2PluginDescriptor] = []
    private var byURI: [String: LV2PluginDescriptor] = [:]
    /// Bundles that claimed a URI another bundle's data stands for (LV2World+SharedURIs.swift).
    public internal(set) var ignoredClaims: [LV2IgnoredClaim] = []
    /// The URID map every instance, state and preset of this world shares.
    public var uridMap: LV2URIDMap { data.uridMap }

    /// Loads every bundle on `lv2Path` (a colon-separated list of directories), or when nil on
    /// `LV2_PATH` if set, else lilv's default path. Thread: setup (non-real-time).
    public init(lv2Path: String? = nil) {
        let world = lilv_world_new()!
        self.lv2Path = lv2Path
        // Never LV2_PATH as the user wrote it: lilv crashes on a relative folder (LV2SearchPath).
        let node = lilv_new_string(world, LV2SearchPath(lv2Path: lv2Path).lilvPath)
        lilv_world_set_option(world, LILV_OPTION_LV2_PATH, node)
        lilv_node_free(node)
        LV2TurtleReads.withLock { lilv_world_load_all(world) }
        data = LV2WorldData(world: world)
        addNewPlugins()
        resolveSharedURIs()
    }

    /// A world holding only the bundles at `supportBundles` (folder paths ending in "/":
    /// specifications and preset bundles, which hold no plug-ins), their specifications and plug-in
    /// classes; plug-in bundles join with ``load(bundle:)`` when a unit needs one. This is how a
    /// host that knows its plug-ins from the catalog cache avoids reading every bundle.
    /// Thread: setup (non-real-time).
    public init(supportBundles: [String], lv2Path: String?) {
        data = LV2WorldData(world: lilv_world_new()!)
        self.lv2Path = lv2Path
        for bundle in supportBundles { loadBundleData(bundle) }
        LV2TurtleReads.withLock { lilv_world_load_specifications(world) }
        lilv_world_load_plugin_classes(world)
        addNewPlugins()
    }

    /// Loads the bundle folder `path` (ending in "/") if it is not loaded yet, and adds its plug-ins.
    /// Thread: setup (non-real-time).
    public func load(bundle path: String) {
        guard !loadedBundles.contains(path) else { return }
        loadBundleData(path)
        addNewPlugins()
    }

    private var loadedBundles = Set<String>()

    private func loadBundleData(_ path: String) {
        guard loadedBundles.insert(path).inserted, let node = lilv_new_file_uri(world, nil, path) else { return }
        LV2TurtleReads.withLock { lilv_world_load_bundle(world, node) }
        lilv_node_free(node)
    }

    /// Makes descriptors for plug-ins lilv knows that have none yet; keeps `plugins` sorted by URI.
    private func addNewPlugins() {
        let all = lilv_world_get_all_plugins(world)
        var iterator = lilv_plugins_begin(all)
        var found: [LV2PluginDescriptor] = []
        while !lilv_plugins_is_end(all, iterator) {
            if let plugin = lilv_plugins_get(all, iterator), let uri = LV2Vocabulary.string(lilv_plugin_get_uri(plugin)),
                byURI[uri] == nil
            {
                found.append(LV2PluginDescriptor(world: data, plugin: plugin))
            }
            iterator = lilv_plugins_next(all, iterator)
        }
        guard !found.isEmpty else { return }
        for descriptor in found { byURI[descriptor.uri] = descriptor }
        plugins = (plugins + found).sorted { $0.uri < $1.uri }
    }

    /// Puts `replacement` (from a world holding one bundle) where `descriptor` was. Thread: setup.
    func replace(_ descriptor: LV2PluginDescriptor, with replacement: LV2PluginDescriptor) {
        byURI[descriptor.uri] = replacement
        plugins = plugins.map { $0 === descriptor ? replacement : $0 }
    }

    /// The plug-in with `uri`; throws `kAudioUnitErr_ExtensionNotFound` when none is installed.
    /// Thread: setup (non-real-time).
    public func plugin(uri: String) throws -> LV2PluginDescriptor {
        guard let descriptor = byURI[uri] else {
            throw LV2HostError(
                LV2Status.pluginNotFound,
                "No LV2 plug-in with URI <\(uri)> is installed; check LV2_PATH or install its bundle.")
        }
        return descriptor
    }

    /// The strings of a node collection lilv hands over, freeing it.
    static func strings(_ nodes: UnsafeMutableRawPointer?) -> [String] {
        guard let nodes else { return [] }
        defer { lilv_nodes_free(nodes) }
        var result: [String] = []
        var iterator = lilv_nodes_begin(nodes)
        while !lilv_nodes_is_end(nodes, iterator) {
            if let string = LV2Vocabulary.string(lilv_nodes_get(nodes, iterator)) { result.append(string) }
            iterator = lilv_nodes_next(nodes, iterator)
        }
        return result
    }
}

/// A lilv world with the nodes and URID map made for it, freed when the last holder — the
/// ``LV2World`` or any of its descriptors and instances — lets go. (Held by the world object
/// itself, with the world holding its descriptors and the descriptors holding the world, no world
/// with a plug-in was ever freed.) Thread: setup (non-real-time), one thread at a time.
public final class LV2WorldData {
    let world: OpaquePointer
    let vocabulary: LV2Vocabulary
    /// The URID map every instance, state and preset of this world shares.
    public let uridMap = LV2URIDMap()

    init(world: OpaquePointer) {
        self.world = world
        vocabulary = LV2Vocabulary(world: world)
    }

    deinit {
        // The vocabulary's nodes belong to the world: freed first.
        vocabulary.free()
        lilv_world_free(world)
    }

    /// Reads the data files that describe `resource` (a preset) into the world.
    /// Thread: setup (non-real-time).
    func loadResource(_ resource: OpaquePointer?) {
        LV2TurtleReads.withLock { _ = lilv_world_load_resource(world, resource) }
    }

    /// The first value of `predicate` on `subject` as a string. Thread: setup (non-real-time).
    func firstValue(subject: OpaquePointer, predicate: OpaquePointer) -> String? {
        LV2Vocabulary.takeString(lilv_world_get(world, subject, predicate, nil))
    }

    /// How many `lv2:port` statements the plug-in's data makes (lilv drops ports whose indices
    /// leave holes, so this can differ from the port count). Thread: setup (non-real-time).
    func declaredPortCount(_ plugin: LV2PluginDescriptor) -> Int {
        let port = lilv_new_uri(world, LV2URI.core + "port")
        defer { lilv_node_free(port) }
        guard let nodes = lilv_world_find_nodes(world, lilv_plugin_get_uri(plugin.plugin), port, nil) else { return 0 }
        defer { lilv_nodes_free(nodes) }
        return Int(lilv_nodes_size(nodes))
    }
}

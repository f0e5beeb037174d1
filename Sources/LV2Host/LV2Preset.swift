import CLilv

/// A preset a plug-in's bundles declare (`pset:Preset`).
public struct LV2Preset: Equatable, Sendable {
    public let uri: String
    /// The `rdfs:label`, or the URI when none is declared.
    public let label: String
}

extension LV2PluginDescriptor {
    /// The plug-in's presets, sorted by label; loads each preset's data into the world.
    /// Thread: setup (non-real-time).
    public var presets: [LV2Preset] {
        let v = world.vocabulary
        guard let related = lilv_plugin_get_related(plugin, v.presetClass) else { return [] }
        defer { lilv_nodes_free(related) }
        var result: [LV2Preset] = []
        var iterator = lilv_nodes_begin(related)
        while !lilv_nodes_is_end(related, iterator) {
            if let node = lilv_nodes_get(related, iterator), let uri = LV2Vocabulary.string(node) {
                world.loadResource(node)
                let label = world.firstValue(subject: node, predicate: v.rdfsLabel) ?? uri
                result.append(LV2Preset(uri: uri, label: label))
            }
            iterator = lilv_nodes_next(related, iterator)
        }
        return result.sorted { ($0.label, $0.uri) < ($1.label, $1.uri) }
    }
}

import CLilv

/// A control input port seen as a parameter: its range, default, unit and presentation hints.
public struct LV2ParameterDescriptor: Equatable, Sendable {
    /// A named value of an enumerated (or annotated) control.
    public struct ScalePoint: Equatable, Sendable {
        public let value: Float
        public let label: String
    }

    public let portIndex: Int
    public let symbol: String
    public let name: String
    /// The declared range; 0…1 when the data declares none. Multiply by the sample rate when
    /// `isSampleRateRelative`.
    public let minimum: Float
    public let maximum: Float
    /// The declared default, else the minimum (clamped into the range).
    public let defaultValue: Float
    /// The unit's symbol ("dB", "Hz", "ms", …) if the port declares `units:unit`.
    public let unit: String?
    public let scalePoints: [ScalePoint]
    public let isToggled: Bool
    public let isInteger: Bool
    public let isEnumeration: Bool
    public let isLogarithmic: Bool
    public let isSampleRateRelative: Bool

    /// The scale point label for `value`, or nil. Thread: any.
    public func label(for value: Float) -> String? {
        scalePoints.first { $0.value == value }?.label
    }

    /// The descriptors of every control input of `plugin`, in port order. Thread: setup (non-real-time).
    public static func read(_ plugin: LV2PluginDescriptor) -> [LV2ParameterDescriptor] {
        let v = plugin.world.vocabulary
        return plugin.ports.filter { $0.kind == .control && $0.direction == .input }.compactMap { info -> LV2ParameterDescriptor? in
            guard let port = lilv_plugin_get_port_by_index(plugin.plugin, UInt32(info.index)) else { return nil }
            var defaultNode: OpaquePointer?, minNode: OpaquePointer?, maxNode: OpaquePointer?
            lilv_port_get_range(plugin.plugin, port, &defaultNode, &minNode, &maxNode)
            defer { [defaultNode, minNode, maxNode].forEach { if let node = $0 { lilv_node_free(node) } } }
            let minimum = LV2Vocabulary.float(minNode) ?? 0
            let maximum = LV2Vocabulary.float(maxNode) ?? max(minimum, 1)
            var defaultValue = LV2Vocabulary.float(defaultNode) ?? minimum
            if !defaultValue.isFinite { defaultValue = minimum }
            defaultValue = Swift.min(Swift.max(defaultValue, Swift.min(minimum, maximum)), Swift.max(minimum, maximum))
            func has(_ node: OpaquePointer) -> Bool { lilv_port_has_property(plugin.plugin, port, node) }
            return LV2ParameterDescriptor(
                portIndex: info.index, symbol: info.symbol, name: info.name,
                minimum: minimum, maximum: maximum, defaultValue: defaultValue,
                unit: unitSymbol(plugin, port), scalePoints: scalePoints(plugin, port),
                isToggled: has(v.toggled), isInteger: has(v.integer), isEnumeration: has(v.enumeration),
                isLogarithmic: has(v.logarithmic), isSampleRateRelative: has(v.sampleRateProperty))
        }
    }

    /// The port's scale points that have both an rdf:value (a number) and an rdfs:label, by value.
    /// Read with world queries, not lilv_port_get_scale_points: that asserts, aborting the host,
    /// when a port has scale points but none with both (Tests/Fuzz/Crashes/LV2Descriptor/crash-053f…).
    private static func scalePoints(_ plugin: LV2PluginDescriptor, _ port: OpaquePointer) -> [ScalePoint] {
        let world = plugin.world.world
        let scalePoint = lilv_new_uri(world, LV2URI.core + "scalePoint"), rdfValue = lilv_new_uri(world, LV2URI.rdfValue)
        defer { [scalePoint, rdfValue].forEach { lilv_node_free($0) } }
        guard let node = lilv_port_get_node(plugin.plugin, port), let points = lilv_world_find_nodes(world, node, scalePoint, nil) else {
            return []
        }
        defer { lilv_nodes_free(points) }
        var result: [ScalePoint] = []
        var iterator = lilv_nodes_begin(points)
        while !lilv_nodes_is_end(points, iterator) {
            defer { iterator = lilv_nodes_next(points, iterator) }
            guard let point = lilv_nodes_get(points, iterator) else { continue }
            let value = lilv_world_get(world, point, rdfValue, nil)
            let label = lilv_world_get(world, point, plugin.world.vocabulary.rdfsLabel, nil)
            defer { [value, label].forEach { if let node = $0 { lilv_node_free(node) } } }
            if let number = LV2Vocabulary.float(value), let label {
                result.append(ScalePoint(value: number, label: LV2Vocabulary.string(label) ?? "\(number)"))
            }
        }
        return result.sorted { $0.value < $1.value }
    }

    /// The unit's `units:symbol`, else its `rdfs:label`, else the URI's fragment.
    private static func unitSymbol(_ plugin: LV2PluginDescriptor, _ port: OpaquePointer) -> String? {
        let v = plugin.world.vocabulary
        guard let unit = lilv_port_get(plugin.plugin, port, v.unitsUnit) else { return nil }
        defer { lilv_node_free(unit) }
        if !lilv_node_is_uri(unit) {
            // An inline unit description (a blank node): read its symbol directly.
            return plugin.world.firstValue(subject: unit, predicate: v.unitsSymbol)
        }
        return plugin.world.firstValue(subject: unit, predicate: v.unitsSymbol)
            ?? plugin.world.firstValue(subject: unit, predicate: v.rdfsLabel)
            ?? LV2Vocabulary.string(unit)?.split(separator: "#").last.map(String.init)
    }
}

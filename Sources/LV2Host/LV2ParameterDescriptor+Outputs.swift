import CLilv

/// The ranges control outputs (meters, the latency port) declare.
extension LV2ParameterDescriptor {
    /// The range each control output declares with `lv2:minimum` / `lv2:maximum`, by port index.
    /// A bound that is not declared (or not a finite number) is ±`greatestFiniteMagnitude`: an
    /// output that declares nothing may write any value (a latency in frames, a level in dB), so
    /// no bound can be assumed for it, unlike a control input's 0…1 default. An output that
    /// declares neither bound, bounds the wrong way round, or `lv2:sampleRate` bounds (multiples
    /// of a rate this reader does not know) is left out. Thread: setup (non-real-time).
    public static func declaredOutputRanges(_ plugin: LV2PluginDescriptor) -> [Int: ClosedRange<Float>] {
        let v = plugin.world.vocabulary
        var ranges: [Int: ClosedRange<Float>] = [:]
        for info in plugin.ports where info.kind == .control && info.direction == .output {
            guard let port = lilv_plugin_get_port_by_index(plugin.plugin, UInt32(info.index)),
                !lilv_port_has_property(plugin.plugin, port, v.sampleRateProperty)
            else { continue }
            var defaultNode: OpaquePointer?, minNode: OpaquePointer?, maxNode: OpaquePointer?
            lilv_port_get_range(plugin.plugin, port, &defaultNode, &minNode, &maxNode)
            defer { [defaultNode, minNode, maxNode].forEach { if let node = $0 { lilv_node_free(node) } } }
            let minimum = LV2Vocabulary.float(minNode).flatMap { $0.isFinite ? $0 : nil }
            let maximum = LV2Vocabulary.float(maxNode).flatMap { $0.isFinite ? $0 : nil }
            guard minimum != nil || maximum != nil else { continue }
            let low = minimum ?? -.greatestFiniteMagnitude, high = maximum ?? .greatestFiniteMagnitude
            if low <= high { ranges[info.index] = low...high }
        }
        return ranges
    }
}

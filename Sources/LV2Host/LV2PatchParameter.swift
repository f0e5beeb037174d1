import CLilv

/// A plug-in setting reached through patch messages instead of a control port (`patch:writable`
/// or `patch:readable` on the plug-in, an `lv2:Parameter` with `rdfs:range`): numbers and
/// switches, and paths or strings (an eg-sampler's sample, an LSP convolver's impulse file).
public struct LV2PatchParameter: Equatable, Sendable {
    /// The value's atom type (`rdfs:range`).
    public enum Kind: String, Sendable {
        case float = "Float", double = "Double", int = "Int", long = "Long", bool = "Bool", path = "Path", string = "String"

        /// A number or switch (a parameter), not text (a path or string).
        public var isNumeric: Bool { self != .path && self != .string }
        /// The atom type's URI (its `rdfs:range`), e.g. atom:Path. Thread: any.
        public var typeURI: String { LV2URI.atom + rawValue }
    }

    public let uri: String
    /// `rdfs:label`, else the URI's last part.
    public let label: String
    public let kind: Kind
    /// Numbers: the declared range and default (0…1 and the minimum when none is declared;
    /// 0…1 for a switch).
    public let minimum: Float
    public let maximum: Float
    public let defaultValue: Float
    /// The unit's symbol ("dB", …) if `units:unit` is declared.
    public let unit: String?
    /// Declared `patch:writable` (a host may set it); otherwise only `patch:readable`.
    public let isWritable: Bool

    /// Every patch parameter `plugin` declares with a range this host can send: writable ones
    /// first, each in URI order. Thread: setup (non-real-time).
    public static func read(_ plugin: LV2PluginDescriptor) -> [LV2PatchParameter] {
        let world = plugin.world
        func uri(_ string: String) -> OpaquePointer { lilv_new_uri(world.world, string) }
        let writable = uri(LV2URI.patch + "writable"), readable = uri(LV2URI.patch + "readable")
        let range = uri(LV2URI.rdfs + "range"), label = uri(LV2URI.rdfs + "label")
        let minimum = uri(LV2URI.core + "minimum"), maximum = uri(LV2URI.core + "maximum"), defaultNode = uri(LV2URI.core + "default")
        defer { [writable, readable, range, label, minimum, maximum, defaultNode].forEach { lilv_node_free($0) } }
        let subject = lilv_plugin_get_uri(plugin.plugin)
        let writables = LV2World.strings(lilv_world_find_nodes(world.world, subject, writable, nil)).sorted()
        let readables = LV2World.strings(lilv_world_find_nodes(world.world, subject, readable, nil)).sorted().filter {
            !writables.contains($0)
        }
        return (writables.map { ($0, true) } + readables.map { ($0, false) }).compactMap { (parameter, isWritable) in
            let node = uri(parameter)
            defer { lilv_node_free(node) }
            func value(_ predicate: OpaquePointer) -> OpaquePointer? { lilv_world_get(world.world, node, predicate, nil) }
            func number(_ predicate: OpaquePointer) -> Float? {
                let n = value(predicate)
                defer { if let n { lilv_node_free(n) } }
                return LV2Vocabulary.float(n).flatMap { $0.isFinite ? $0 : nil }
            }
            guard let rangeURI = LV2Vocabulary.takeString(value(range)), rangeURI.hasPrefix(LV2URI.atom),
                let kind = Kind(rawValue: String(rangeURI.dropFirst(LV2URI.atom.count)))
            else { return nil }
            let name = LV2Vocabulary.takeString(value(label)) ?? String(parameter.split(whereSeparator: { "#/".contains($0) }).last ?? "")
            var low = kind == .bool ? 0 : number(minimum) ?? 0
            var high = kind == .bool ? 1 : number(maximum) ?? Swift.max(low, 1)
            if high < low { (low, high) = (high, low) }
            let initial = Swift.min(Swift.max(number(defaultNode) ?? low, low), high)
            return LV2PatchParameter(
                uri: parameter, label: name, kind: kind, minimum: low, maximum: high, defaultValue: initial,
                unit: unitSymbol(world, node), isWritable: isWritable)
        }
    }

    private static func unitSymbol(_ world: LV2WorldData, _ parameter: OpaquePointer) -> String? {
        let v = world.vocabulary
        guard let unit = lilv_world_get(world.world, parameter, v.unitsUnit, nil) else { return nil }
        defer { lilv_node_free(unit) }
        return LV2Vocabulary.takeString(lilv_world_get(world.world, unit, v.unitsSymbol, nil))
    }
}

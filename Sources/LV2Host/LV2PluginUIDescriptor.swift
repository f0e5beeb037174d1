import CLilv

/// One UI a plug-in's data declares (`ui:ui`): what a host needs to load it, read without
/// running any UI code.
public struct LV2PluginUIDescriptor: Equatable, Sendable {
    /// The UI's URI, its identity.
    public let uri: String
    /// Its kind, a class URI such as `http://lv2plug.in/ns/extensions/ui#X11UI` (`ui:GtkUI`,
    /// `ui:Qt5UI`, kx:Widget …): the first class the data gives.
    public let kindURI: String
    /// The bundle folder (a path ending in "/"), as suil expects it.
    public let bundlePath: String
    /// The UI's shared object.
    public let binaryPath: String
    /// The features it cannot run without (`lv2:requiredFeature`).
    public let requiredFeatures: [String]

    /// The kind's short name: the URI's fragment ("X11UI", "GtkUI", "Widget"). Thread: any.
    public var kindName: String {
        String(kindURI.split(whereSeparator: { $0 == "#" || $0 == "/" }).last ?? Substring(kindURI))
    }
}

extension LV2PluginDescriptor {
    /// The UIs the plug-in's data declares, in the order lilv gives them (sorted by URI). A UI
    /// whose bundle or binary is not a file is left out. Thread: setup.
    public var uis: [LV2PluginUIDescriptor] {
        guard let uis = lilv_plugin_get_uis(plugin) else { return [] }
        defer { lilv_uis_free(uis) }
        var result: [LV2PluginUIDescriptor] = []
        var iterator = lilv_uis_begin(uis)
        while !lilv_uis_is_end(uis, iterator) {
            defer { iterator = lilv_uis_next(uis, iterator) }
            guard let ui = lilv_uis_get(uis, iterator),
                let uri = LV2Vocabulary.string(lilv_ui_get_uri(ui)),
                let bundle = Self.filePath(lilv_ui_get_bundle_uri(ui)),
                let binary = Self.filePath(lilv_ui_get_binary_uri(ui))
            else { continue }
            let classes = lilv_ui_get_classes(ui)
            var kind = ""
            if let classes, !lilv_nodes_is_end(classes, lilv_nodes_begin(classes)) {
                kind = LV2Vocabulary.string(lilv_nodes_get(classes, lilv_nodes_begin(classes))) ?? ""
            }
            let required = lilv_new_uri(world.world, LV2URI.core + "requiredFeature")
            defer { lilv_node_free(required) }
            let features = LV2World.strings(lilv_world_find_nodes(world.world, lilv_ui_get_uri(ui), required, nil))
            result.append(
                .init(
                    uri: uri, kindURI: kind, bundlePath: bundle.hasSuffix("/") ? bundle : bundle + "/", binaryPath: binary,
                    requiredFeatures: features))
        }
        return result
    }

    private static func filePath(_ node: OpaquePointer?) -> String? {
        guard let node, let uri = lilv_node_as_uri(node), let path = lilv_file_uri_parse(uri, nil) else { return nil }
        defer { lilv_free(path) }
        return String(cString: path)
    }
}

extension LV2PluginUIDescriptor {
    /// Whether AUHost can show it for a unit in this process: the UI child puts X11 UIs in an X11
    /// window and Gtk2 UIs in a Gtk2 window, Qt5 UIs too through suil's qt5_in_gtk2 module (Gtk3
    /// UIs have no suil module for either), and runs external UIs (kx:Widget) itself; a UI that
    /// needs the plug-in instance in its own process cannot have it in the child. Thread: any.
    public var isSupported: Bool { Self.shownKinds.contains(kindURI) && instanceFeature == nil }

    /// Whether it is a kind AUHost shows that needs the plug-in's instance: shown for a unit out
    /// of process, in the unit's own process beside the plug-in. Thread: any.
    public var isShownBesidePlugin: Bool { Self.shownKinds.contains(kindURI) && instanceFeature != nil }

    static let shownKinds = Set(
        ["X11UI", "GtkUI", "Qt5UI"].map { "http://lv2plug.in/ns/extensions/ui#" + $0 } + [
            "http://kxstudio.sf.net/ns/lv2ext/external-ui#Widget"
        ])

    /// The instance-access or data-access feature the UI requires, if any: the plug-in's handle,
    /// which only a UI in the plug-in's own process can use. Thread: any.
    public var instanceFeature: String? {
        requiredFeatures.first { $0 == "http://lv2plug.in/ns/ext/instance-access" || $0 == "http://lv2plug.in/ns/ext/data-access" }
    }
}

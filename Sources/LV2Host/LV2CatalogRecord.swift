/// What the catalog keeps of one plug-in: everything `auhost list` and the component codes need,
/// so a warm start reads no Turtle data.
public struct LV2CatalogPlugin: Equatable, Sendable {
    public var uri: String
    public var name: String
    public var manufacturerName: String
    public var summary: LV2PortSummary
    public var isMixer: Bool
    /// The bundle directory URI lilv reports (file://…/name.lv2/).
    public var bundleURI: String
    /// Preset labels, sorted (the order of the unit's factory presets).
    public var presetNames: [String]

    /// Thread: any.
    public init(
        uri: String, name: String, manufacturerName: String, summary: LV2PortSummary, isMixer: Bool,
        bundleURI: String, presetNames: [String]
    ) {
        self.uri = uri; self.name = name; self.manufacturerName = manufacturerName; self.summary = summary
        self.isMixer = isMixer; self.bundleURI = bundleURI; self.presetNames = presetNames
    }

    /// The catalog's input for this plug-in. Thread: any.
    public var catalogInput: LV2CatalogInput {
        LV2CatalogInput(uri: uri, name: name, manufacturerName: manufacturerName, summary: summary, isMixer: isMixer)
    }
}

/// One bundle as the cache keeps it: its path and fingerprint, the plug-ins it holds (none for a
/// specification or preset bundle), and the warnings reading it gave (a broken plug-in skipped).
public struct LV2BundleRecord: Equatable, Sendable {
    /// The bundle folder, ending in "/".
    public var path: String
    /// ``LV2BundleFingerprint`` when it was read.
    public var fingerprint: String
    public var plugins: [LV2CatalogPlugin]
    public var warnings: [String]

    /// Thread: any.
    public init(path: String, fingerprint: String, plugins: [LV2CatalogPlugin], warnings: [String]) {
        self.path = path; self.fingerprint = fingerprint; self.plugins = plugins; self.warnings = warnings
    }
}

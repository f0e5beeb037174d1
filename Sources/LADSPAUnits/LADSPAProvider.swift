import AUHostCore
import Foundation
import LADSPAHost
import LV2Host

/// The LADSPA plug-ins on `LADSPA_PATH` and the DSSI plug-ins on `DSSI_PATH` as components. Discovery describes libraries in a child
/// process and keeps the result in the catalog cache (``LADSPACatalogStore``); the host loads a
/// library only when a unit of it is initialized. Each component's origin is
/// "ladspa LABEL UNIQUE-ID LIBRARY", so lookups by label or unique ID find it.
///
/// ```swift
/// let amp = LADSPAProvider.component(label: "amp_mono")!
/// var unit: AudioUnit?
/// AudioComponentInstanceNew(amp.handle, &unit)
/// ```
public final class LADSPAProvider: ComponentProvider {
    public let name = "ladspa"
    /// `components()` touches only its catalog (library stats, a child for changed libraries) and warnings.
    public let discoversConcurrently = true
    private let searchPath: LADSPASearchPath
    private let childPath: String
    private var made: [Component]?
    private var byLabel: [String: Component] = [:]
    private var byUniqueID: [UInt: Component] = [:]
    private let lock = NSRecursiveLock()

    nonisolated(unsafe) private static var providers: [LADSPAProvider] = []
    private static let providersLock = NSLock()
    /// Rebuild the catalog cache from scratch the first time it is read (`auhost list --refresh`).
    nonisolated(unsafe) public static var refreshCache = false

    /// A provider over `ladspaPath` and `dssiPath`, else `LADSPA_PATH` and `DSSI_PATH`, else the
    /// default paths. Reads nothing until its components are asked for. Thread: setup.
    public init(ladspaPath: String? = nil, dssiPath: String? = nil, childPath: String = LV2Sweep.defaultChildPath()) {
        searchPath = LADSPASearchPath(ladspaPath: ladspaPath, dssiPath: dssiPath)
        self.childPath = childPath
        Self.providersLock.withLock { Self.providers.append(self) }
    }

    /// One component per plug-in (a label given twice: the first library on the path), codes from
    /// ``LADSPACatalogSnapshot``; skipped libraries and code collisions are reported on standard
    /// error, labels shadowed by an earlier library only when the cache is rebuilt. Runs no
    /// plug-in code in this process. Thread: setup.
    public func components() -> [Component] {
        lock.lock()
        defer { lock.unlock() }
        if let made { return made }
        let snapshot = LADSPACatalogStore.load(path: searchPath, refresh: Self.refreshCache, childPath: childPath) { Self.warn($0) }
        for collision in snapshot.catalog.collisions {
            Self.warn(
                "ladspa: component code collision \(collision.uris.joined(separator: ", ")); "
                    + "\(collision.uris[0]) kept the code, the others were given new subtypes")
        }
        let byLabelInfo = Dictionary(uniqueKeysWithValues: snapshot.plugins.map { ($0.label, $0) })
        var components: [Component] = []
        for entry in snapshot.catalog.entries {
            guard let plugin = byLabelInfo[entry.uri] else { continue }
            let component = Component(
                description: entry.description, name: "\(Self.shortMaker(plugin.maker)): \(plugin.name)", version: 0x0001_0000,
                origin: "ladspa \(plugin.label) \(plugin.uniqueID) \(plugin.library)"
            ) { description in
                try LADSPAUnit(plugin: plugin, description: description)
            }
            components.append(component)
            byLabel[plugin.label] = component
            if byUniqueID[plugin.uniqueID] == nil { byUniqueID[plugin.uniqueID] = component }
        }
        made = components
        return components
    }

    /// The maker without an e-mail address in angle brackets ("Steve Harris <steve@…>" → "Steve
    /// Harris"), for the component's "Manufacturer: Name". Thread: any.
    static func shortMaker(_ maker: String) -> String {
        // Trimmed in Swift: Foundation's trimmingCharacters (through NSString) was 3 % of a warm
        // `auhost list` for ~400 makers.
        let cut = maker[..<(maker.firstIndex(of: "<") ?? maker.endIndex)]
        guard let first = cut.firstIndex(where: { !$0.isWhitespace }), let last = cut.lastIndex(where: { !$0.isWhitespace })
        else { return maker }
        return String(cut[first...last])
    }

    /// This provider's component for `label` / `uniqueID`, or nil. Thread: setup.
    public func component(label: String) -> Component? {
        if ComponentRegistry.shared.components(of: self) == nil { _ = components() }
        return lock.withLock { byLabel[label] }
    }

    /// Thread: setup.
    public func component(uniqueID: UInt) -> Component? {
        if ComponentRegistry.shared.components(of: self) == nil { _ = components() }
        return lock.withLock { byUniqueID[uniqueID] }
    }

    /// The registered component of LADSPA plug-in `label`, from any provider, or nil.
    /// Thread: setup.
    public static func component(label: String) -> Component? {
        all().lazy.compactMap { $0.component(label: label) }.first
    }

    /// The registered component of the LADSPA plug-in with unique ID `uniqueID`, or nil.
    /// Thread: setup.
    public static func component(uniqueID: UInt) -> Component? {
        all().lazy.compactMap { $0.component(uniqueID: uniqueID) }.first
    }

    private static func all() -> [LADSPAProvider] {
        let installed = ComponentRegistry.shared.providers.compactMap { $0 as? LADSPAProvider }
        let others = providersLock.withLock { providers }.filter { p in !installed.contains { $0 === p } }
        return installed + others
    }

    private static func warn(_ message: String) {
        FileHandle.standardError.write(Data((message + "\n").utf8))
    }
}

import AUHostCore
import Foundation
import LV2Host

/// The installed LV2 plug-ins as components. Discovery reads Turtle data only (lilv), and only of
/// bundles the catalog cache does not already describe (``LV2CatalogStore``); a plug-in's binary
/// is opened when a unit is initialized. Making a unit loads only its own bundle (and the
/// specification and preset bundles) into this provider's lilv world. Each component's origin is
/// "lv2 <URI> <bundle>", so `auhost list` shows the URI.
///
/// ```swift
/// let amp = LV2Provider.component(uri: "http://lv2plug.in/plugins/eg-amp")!
/// var unit: AudioUnit?
/// AudioComponentInstanceNew(amp.handle, &unit)
/// ```
public final class LV2Provider: ComponentProvider {
    public let name = "lv2"
    /// `components()` touches only its catalog (bundle fingerprints, lilv for changed bundles) and warnings.
    public let discoversConcurrently = true
    /// The world and the lock that serialises every lilv call on it (lilv is not thread-safe).
    /// The world is made the first time a unit needs it.
    public let access: LV2WorldAccess
    /// URI → component for this provider's plug-ins, filled by `components()`.
    private var byURI: [String: Component] = [:]
    private var made: [Component]?
    private let lock = NSRecursiveLock()
    /// nil for a provider over a world given to it (everything is read from that world).
    private let searchPath: LV2SearchPath?

    /// Every provider made in this process, for `component(uri:)`.
    nonisolated(unsafe) private static var providers: [LV2Provider] = []
    private static let providersLock = NSLock()
    /// Rebuild the catalog cache from scratch the first time it is read (`auhost list --refresh`).
    nonisolated(unsafe) public static var refreshCache = false

    /// A provider over `LV2_PATH`, or lilv's default path when it is unset (or over `lv2Path`),
    /// through the catalog cache. Reads nothing until its components are asked for.
    /// Thread: setup.
    public init(lv2Path: String? = nil) {
        let path = LV2SearchPath(lv2Path: lv2Path)
        searchPath = path
        let state = SnapshotBox()
        access = LV2WorldAccess(making: {
            LV2World(supportBundles: state.snapshot?.supportBundles ?? [], lv2Path: path.text)
        })
        snapshotBox = state
        Self.providersLock.withLock { Self.providers.append(self) }
    }

    /// A provider over an existing world (which it then owns: use the world only through `access`).
    /// Reads every plug-in of the world (no cache).
    /// Thread: setup.
    public init(world: LV2World) {
        searchPath = nil
        access = LV2WorldAccess(world: world)
        snapshotBox = SnapshotBox()
        Self.providersLock.withLock { Self.providers.append(self) }
    }

    /// The cached catalog once read; the world is made from it (its support bundles), so the
    /// world's factory shares this box rather than the provider.
    private final class SnapshotBox: @unchecked Sendable { var snapshot: LV2CatalogSnapshot? }
    private let snapshotBox: SnapshotBox

    /// One component per plug-in, sorted by URI, codes from ``LV2ComponentCatalog``; collisions
    /// it resolved and bundles skipped as broken are reported on standard error. Runs no plug-in
    /// code. Asked once; later calls return the same components. Thread: setup.
    public func components() -> [Component] {
        lock.lock()
        defer { lock.unlock() }
        if let made { return made }
        let entries: [(LV2ComponentEntry, bundleURI: String, bundle: String?)]
        let collisions: [LV2CodeCollision]
        if let searchPath {
            let snapshot = LV2CatalogStore.load(path: searchPath, refresh: Self.refreshCache) { Self.warn($0) }
            snapshotBox.snapshot = snapshot
            collisions = snapshot.catalog.collisions
            entries = snapshot.catalog.entries.compactMap { entry in
                snapshot.plugins[entry.uri].map { (entry, $0.plugin.bundleURI, $0.bundle) }
            }
        } else {
            (entries, collisions) = access.withWorld { world in
                let catalog = LV2ComponentCatalog(world: world)
                let bundles = Dictionary(uniqueKeysWithValues: world.plugins.map { ($0.uri, $0.bundleURI) })
                return (catalog.entries.compactMap { e in bundles[e.uri].map { (e, $0, nil) } }, catalog.collisions)
            }
        }
        for collision in collisions {
            Self.warn(
                "lv2: component code collision \(collision.uris.joined(separator: ", ")); "
                    + "\(collision.uris[0]) kept the code, the others were given new subtypes")
        }
        let access = self.access
        let components = entries.map { entry, bundleURI, bundle -> Component in
            let uri = entry.uri
            return Component(
                description: entry.description, name: "\(entry.manufacturerName): \(entry.name)",
                version: 0x0001_0000, origin: "lv2 \(uri) \(bundleURI)"
            ) { description in
                let plugin = try access.withWorldThrowingAudioErrors { world -> LV2PluginDescriptor in
                    if let bundle { world.load(bundle: bundle) }
                    return try world.plugin(uri: uri)
                }
                return try LV2Unit(plugin: plugin, access: access, description: description)
            }
        }
        for (component, entry) in zip(components, entries) { byURI[entry.0.uri] = component }
        made = components
        return components
    }

    /// This provider's component for plug-in `uri`, or nil. Asks the registry for this provider's
    /// components when it is installed (so the component is the registry's), else uses what
    /// `components()` made. Thread: setup.
    public func component(uri: String) -> Component? {
        _ = ComponentRegistry.shared.components(of: self)
        return lock.withLock { byURI[uri] }
    }

    /// The registered component of LV2 plug-in `uri`, from any provider (the default one is
    /// installed on first use of the registry), or nil when no installed plug-in has that URI.
    /// Reads the catalog (from the cache) but no other provider's components.
    /// Thread: setup.
    public static func component(uri: String) -> Component? {
        let installed = ComponentRegistry.shared.providers.compactMap { $0 as? LV2Provider }
        let others = providersLock.withLock { Self.providers }.filter { p in !installed.contains { $0 === p } }
        for provider in installed + others {
            if let component = provider.component(uri: uri) { return component }
        }
        return nil
    }

    private static func warn(_ message: String) {
        FileHandle.standardError.write(Data((message + "\n").utf8))
    }
}

/// An LV2 world with the lock every lilv call on it takes: units of one provider may be made,
/// initialized and saved on different threads, and lilv worlds are not thread-safe.
public final class LV2WorldAccess: @unchecked Sendable {
    private var world: LV2World?
    private let make: (() -> LV2World)?
    private let lock = NSRecursiveLock()

    /// Thread: setup.
    public init(world: LV2World) {
        self.world = world
        make = nil
    }

    /// Access to a world made by `make` the first time it is used. Thread: setup.
    public init(making make: @escaping () -> LV2World) {
        self.make = make
    }

    /// Runs `body` with the world, holding the lock. Thread: setup.
    public func withWorld<T>(_ body: (LV2World) throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        if world == nil { world = make!() }
        return try body(world!)
    }
}

import AUHostCore
import Foundation
import LV2Host

/// The installed LV2 plug-ins as components. Discovery reads Turtle data only (lilv); a plug-in's
/// binary is opened when a unit is initialized. Each component's origin is "lv2 <URI> <bundle>",
/// so `auhost list` shows the URI.
///
/// ```swift
/// let amp = LV2Provider.component(uri: "http://lv2plug.in/plugins/eg-amp")!
/// var unit: AudioUnit?
/// AudioComponentInstanceNew(amp.handle, &unit)
/// ```
public final class LV2Provider: ComponentProvider {
    public let name = "lv2"
    /// The world and the lock that serialises every lilv call on it (lilv is not thread-safe).
    public let access: LV2WorldAccess
    /// URI → component for this provider's plug-ins, filled by `components()`.
    private var byURI: [String: Component] = [:]
    private let lock = NSLock()

    /// Every provider made in this process, for `component(uri:)`.
    nonisolated(unsafe) private static var providers: [LV2Provider] = []
    private static let providersLock = NSLock()

    /// A provider over `LV2_PATH`, or lilv's default path when it is unset (or over `lv2Path`).
    /// Thread: setup.
    public convenience init(lv2Path: String? = nil) {
        self.init(world: LV2World(lv2Path: lv2Path))
    }

    /// A provider over an existing world (which it then owns: use the world only through `access`).
    /// Thread: setup.
    public init(world: LV2World) {
        access = LV2WorldAccess(world: world)
        Self.providersLock.withLock { Self.providers.append(self) }
    }

    /// One component per plug-in, sorted by URI, codes from ``LV2ComponentCatalog``; collisions
    /// it resolved are reported on standard error. Runs no plug-in code. Thread: setup.
    public func components() -> [Component] {
        let (entries, collisions, plugins) = access.withWorld { world -> ([LV2ComponentEntry], [LV2CodeCollision], [String: LV2PluginDescriptor]) in
            let catalog = LV2ComponentCatalog(world: world)
            return (catalog.entries, catalog.collisions, Dictionary(uniqueKeysWithValues: world.plugins.map { ($0.uri, $0) }))
        }
        for collision in collisions {
            FileHandle.standardError.write(Data(("lv2: component code collision \(collision.uris.joined(separator: ", ")); "
                + "\(collision.uris[0]) kept the code, the others were given new subtypes\n").utf8))
        }
        let access = self.access
        let made = entries.compactMap { entry -> Component? in
            guard let plugin = plugins[entry.uri] else { return nil }
            let bundle = access.withWorld { _ in plugin.bundleURI }
            return Component(description: entry.description, name: "\(entry.manufacturerName): \(entry.name)",
                             version: 0x0001_0000, origin: "lv2 \(entry.uri) \(bundle)") { description in
                try LV2Unit(plugin: plugin, access: access, description: description)
            }
        }
        lock.withLock { for component in made { byURI[component.origin.split(separator: " ")[1].description] = component } }
        return made
    }

    /// This provider's component for plug-in `uri` (after the registry installed it, or after
    /// `components()`), or nil. Thread: setup.
    public func component(uri: String) -> Component? {
        lock.withLock { byURI[uri] }
    }

    /// The registered component of LV2 plug-in `uri`, from any provider (the default one is
    /// installed on first use of the registry), or nil when no installed plug-in has that URI.
    /// Thread: setup.
    public static func component(uri: String) -> Component? {
        _ = ComponentRegistry.shared.all  // installs the default providers if nothing has yet
        let providers = providersLock.withLock { Self.providers }
        for provider in providers {
            if let component = provider.component(uri: uri) { return component }
        }
        return nil
    }
}

/// An LV2 world with the lock every lilv call on it takes: units of one provider may be made,
/// initialized and saved on different threads, and lilv worlds are not thread-safe.
public final class LV2WorldAccess: @unchecked Sendable {
    private let world: LV2World
    private let lock = NSRecursiveLock()

    /// Thread: setup.
    public init(world: LV2World) { self.world = world }

    /// Runs `body` with the world, holding the lock. Thread: setup.
    public func withWorld<T>(_ body: (LV2World) throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body(world)
    }
}

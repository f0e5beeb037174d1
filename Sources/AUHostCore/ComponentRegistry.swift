import AudioUnitBase
import AUHostHooks
import Foundation

/// Every component of the process, from every provider, in a stable order: providers in the
/// order they were installed (the default ones first), each provider's components in its order,
/// then in-process registrations in registration order.
public final class ComponentRegistry {
    /// The process's registry.
    public static let shared = ComponentRegistry()

    private let lock = NSRecursiveLock()
    private var components: [Component] = []
    private var known: Set<UnsafeRawPointer> = []
    private var installedDefaults = false

    private init() {}

    /// Adds a provider's components.
    ///
    /// Thread: setup.
    public func install(_ provider: ComponentProvider) {
        let found = provider.components()
        lock.lock()
        defer { lock.unlock() }
        for c in found { add(c) }
    }

    /// Registers one component made in this process (AudioComponentRegister). Registering the
    /// same full description again returns the component already there.
    ///
    /// Thread: setup.
    @discardableResult
    public func register(_ component: Component) -> Component {
        lock.lock()
        defer { lock.unlock() }
        installDefaultsIfNeeded()
        if let existing = components.first(where: { $0.description == component.description }) { return existing }
        add(component)
        return component
    }

    /// Components matching a search description (0 is a wildcard), in registry order.
    ///
    /// Thread: setup.
    public func find(_ search: AudioComponentDescription) -> [Component] {
        lock.lock()
        defer { lock.unlock() }
        installDefaultsIfNeeded()
        return components.filter { $0.matches(search) }
    }

    /// The first match after `previous` (nil: from the start).
    ///
    /// Thread: setup.
    public func findNext(after previous: Component?, matching search: AudioComponentDescription) -> Component? {
        lock.lock()
        defer { lock.unlock() }
        installDefaultsIfNeeded()
        var start = 0
        if let previous, let i = components.firstIndex(where: { $0 === previous }) { start = i + 1 }
        return components[start...].first { $0.matches(search) }
    }

    /// Every component.
    ///
    /// Thread: setup.
    public var all: [Component] { find(AudioComponentDescription(type: 0)) }

    func isKnown(_ handle: AudioComponent) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        return known.contains(UnsafeRawPointer(handle))
    }

    private func add(_ c: Component) {
        components.append(c)
        known.insert(UnsafeRawPointer(c.handle))
    }

    /// The composition layer (the AUHost module, linked into libauhost and every tool) defines
    /// AUHostInstallDefaultProviders; the core reaches it through a weak reference so that it
    /// never imports a provider (dependencies point down).
    private func installDefaultsIfNeeded() {
        guard !installedDefaults else { return }
        installedDefaults = true
        _ = AUHostCallInstallDefaultProviders()
    }
}

import AudioTypes
import AudioUnitBase
import CAUHostHooks
import Foundation

/// Every component of the process, from every provider, in a stable order: providers in the
/// order they were installed (the default ones first), each provider's components in its order,
/// then in-process registrations in registration order.
///
/// Providers are asked for their components lazily, the first time a search reaches them.
/// `findNext` (AudioComponentFindNext) walks providers in order and stops at the first match, so
/// finding a built-in unit never asks a later provider (the LV2 catalog is not read at all);
/// `find`, `all` and AudioComponentCount need every match and so ask every provider. The order a
/// caller sees is the same either way.
public final class ComponentRegistry {
    /// The process's registry.
    public static let shared = ComponentRegistry()

    /// One installed provider and its components once asked.
    private final class Slot {
        let provider: ComponentProvider
        var components: [Component]?
        init(_ provider: ComponentProvider) { self.provider = provider }
    }

    private let lock = NSRecursiveLock()
    private var slots: [Slot] = []
    private var registered: [Component] = []
    private var known: Set<UnsafeRawPointer> = []
    private var installedDefaults = false

    private init() {}

    /// Adds a provider; its components are asked for when a search first reaches it. A provider
    /// already installed is not added again: its components would appear twice, and a FindNext
    /// walk over them would never end (each finds the first copy of `previous`).
    ///
    /// Thread: setup.
    public func install(_ provider: ComponentProvider) {
        lock.lock()
        defer { lock.unlock() }
        guard !slots.contains(where: { $0.provider === provider }) else { return }
        slots.append(Slot(provider))
    }

    /// The components of `provider` if it is installed (asking it now if no search has), else nil.
    ///
    /// Thread: setup.
    public func components(of provider: ComponentProvider) -> [Component]? {
        lock.lock()
        defer { lock.unlock() }
        installDefaultsIfNeeded()
        return slots.first { $0.provider === provider }.map(materialize)
    }

    /// The installed providers, in order (the default ones installed first if nothing has yet).
    ///
    /// Thread: setup.
    public var providers: [ComponentProvider] {
        lock.lock()
        defer { lock.unlock() }
        installDefaultsIfNeeded()
        return slots.map(\.provider)
    }

    /// Registers one component made in this process (AudioComponentRegister). Registering the
    /// same full description again returns the component already there. Only registrations and
    /// providers already asked are compared (asking the LV2 provider would read its whole
    /// catalog); a provider's component with the same description is found first by searches
    /// anyway, since registrations come last.
    ///
    /// Thread: setup.
    @discardableResult
    public func register(_ component: Component) -> Component {
        lock.lock()
        defer { lock.unlock() }
        installDefaultsIfNeeded()
        let asked = slots.compactMap(\.components).joined() + registered
        if let existing = asked.first(where: { $0.description == component.description }) { return existing }
        registered.append(component)
        known.insert(UnsafeRawPointer(component.handle))
        return component
    }

    /// Components matching a search description (0 is a wildcard), in registry order. Asks every
    /// provider.
    ///
    /// Thread: setup.
    public func find(_ search: AudioComponentDescription) -> [Component] {
        lock.lock()
        defer { lock.unlock() }
        installDefaultsIfNeeded()
        return everything().filter { $0.matches(search) }
    }

    /// The first match after `previous` (nil: from the start). Asks providers in order only until
    /// a match is found.
    ///
    /// Thread: setup.
    public func findNext(after previous: Component?, matching search: AudioComponentDescription) -> Component? {
        lock.lock()
        defer { lock.unlock() }
        installDefaultsIfNeeded()
        var passedPrevious = previous == nil
        func scan(_ components: [Component]) -> Component? {
            for c in components {
                if !passedPrevious {
                    if c === previous { passedPrevious = true }
                    continue
                }
                if c.matches(search) { return c }
            }
            return nil
        }
        for slot in slots {
            // A provider before `previous` need not be asked: `previous` came from a materialized one.
            if !passedPrevious && slot.components == nil { continue }
            if let found = scan(materialize(slot)) { return found }
        }
        return scan(registered)
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

    private func everything() -> [Component] {
        askConcurrentProviders()
        return slots.flatMap(materialize) + registered
    }

    /// Asks the providers not yet asked that discover concurrently, all at once, one thread each
    /// (the calling thread takes the first). Their catalogs are independent file-system walks: a
    /// warm `auhost list` waits for the longer of LV2's and LADSPA's rather than for both
    /// (23.5–25.9 against 25.8–27.6 ms wall, RESULTS "Start-up, third pass").
    private func askConcurrentProviders() {
        let unasked = slots.filter { $0.components == nil && $0.provider.discoversConcurrently }
        guard unasked.count > 1 else { return }
        let found = ConcurrentJobs.map(unasked.count) { unasked[$0].provider.components() }
        for (slot, components) in zip(unasked, found) { keep(components, in: slot) }
    }

    private func materialize(_ slot: Slot) -> [Component] {
        if let components = slot.components { return components }
        let found = slot.provider.components()
        keep(found, in: slot)
        return found
    }

    private func keep(_ found: [Component], in slot: Slot) {
        slot.components = found
        for c in found { known.insert(UnsafeRawPointer(c.handle)) }
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

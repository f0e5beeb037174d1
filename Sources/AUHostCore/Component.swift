import AudioUnitBase
import Foundation

/// A unit that can be made: its identity, name and version, where it comes from, and how to make
/// it. Providers (built-in units, SDK plug-ins, LV2) contribute these; nothing above the
/// registry knows which kind it holds. Components live for the whole process, so their handles
/// (AudioComponent) stay valid.
public final class Component {
    /// The full description (never a wildcard).
    public let description: AudioComponentDescription
    /// Other descriptions a search may find it by, e.g. Apple's manufacturer for a documented unit.
    public let aliases: [AudioComponentDescription]
    /// "Manufacturer: Name", as AudioComponentCopyName returns it.
    public let name: String
    /// 0xMMMMmmDD.
    public let version: UInt32
    /// Where it comes from, for listings: "built-in" (AUHost's own units), "in process" (a unit the
    /// application registered), a plug-in path, an LV2 URI and bundle.
    public let origin: String
    private let make: (AudioComponentDescription) throws -> UnsafeMutablePointer<AudioComponentPlugInInterface>

    /// A component made by a factory that returns a plug-in interface (or throws why it cannot).
    ///
    /// Thread: setup.
    public init(
        description: AudioComponentDescription, aliases: [AudioComponentDescription] = [], name: String,
        version: UInt32, origin: String,
        factory: @escaping (AudioComponentDescription) throws -> UnsafeMutablePointer<AudioComponentPlugInInterface>
    ) {
        self.description = description
        self.aliases = aliases
        self.name = name
        self.version = version
        self.origin = origin
        make = factory
    }

    /// A component whose units are AUBase subclasses made in this process. The providers of
    /// AUHost's own units say "built-in"; an application's own units are "in process" (so that
    /// what lists or fuzzes the built-in units never takes them for one).
    ///
    /// Thread: setup.
    public convenience init(
        description: AudioComponentDescription, aliases: [AudioComponentDescription] = [],
        name: String, version: UInt32, origin: String = "in process",
        unit: @escaping (AudioComponentDescription) throws -> AUBase
    ) {
        self.init(description: description, aliases: aliases, name: name, version: version, origin: origin) { d in
            AUBase.makePlugIn(try unit(d))
        }
    }

    /// Whether a search description finds this component (by its description or an alias).
    ///
    /// Thread: any.
    public func matches(_ search: AudioComponentDescription) -> Bool {
        search.matches(description) || aliases.contains { search.matches($0) }
    }

    /// Makes the plug-in interface of an out-of-process instance of a component
    /// (kAudioComponentInstantiation_LoadOutOfProcess); installed by the UnitIsolation module with
    /// the default providers, nil in a program that does not link it.
    nonisolated(unsafe) public static var outOfProcessFactory: ((Component) throws -> UnsafeMutablePointer<AudioComponentPlugInInterface>)?

    /// Makes a plug-in interface (not yet opened).
    ///
    /// Thread: setup.
    func makePlugIn() throws -> UnsafeMutablePointer<AudioComponentPlugInInterface> {
        try make(description)
    }

    /// The C handle (AudioComponent); valid for the process's lifetime.
    ///
    /// Thread: any.
    public var handle: AudioComponent { OpaquePointer(Unmanaged.passUnretained(self).toOpaque()) }

    /// The component behind a C handle, if it is one the registry made.
    ///
    /// Thread: any.
    public static func from(_ handle: AudioComponent?) -> Component? {
        guard let handle else { return nil }
        return ComponentRegistry.shared.isKnown(handle)
            ? Unmanaged<Component>.fromOpaque(UnsafeRawPointer(handle)).takeUnretainedValue() : nil
    }
}

/// A source of components (built-in units, SDK plug-ins, LV2 plug-ins…).
public protocol ComponentProvider: AnyObject {
    /// A name for listings and messages.
    var name: String { get }
    /// True when `components()` reads only the provider's own files and calls nothing of the
    /// registry, so it may run on another thread beside other such providers. The registry asks
    /// them all at once when a search needs every provider (the LV2 and LADSPA catalogs are most
    /// of a warm `auhost list`). Default false.
    var discoversConcurrently: Bool { get }
    /// The components, in a stable order. Called once, when the registry first needs them; must
    /// not load any plug-in binary (discovery runs no plug-in code).
    ///
    /// Thread: setup.
    func components() -> [Component]
}

extension ComponentProvider {
    public var discoversConcurrently: Bool { false }
}

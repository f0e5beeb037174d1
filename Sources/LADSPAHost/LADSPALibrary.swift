import AudioToolbox
import CLADSPA
import Foundation

/// A LADSPA shared object, opened with dlopen and kept open for the life of the process (many
/// plug-ins keep global state that dlclose would pull from under a later instance), and its
/// `ladspa_descriptor` function. Opening runs the library's constructors: the host does it only
/// to instantiate a unit the catalog already described; describing happens in a child
/// (``LADSPAScan``).
public final class LADSPALibrary: @unchecked Sendable {
    public let path: String
    private let descriptorFunction: LADSPA_Descriptor_Function

    nonisolated(unsafe) private static var opened: [String: LADSPALibrary] = [:]
    private static let lock = NSLock()

    private init(path: String, descriptorFunction: @escaping LADSPA_Descriptor_Function) {
        self.path = path
        self.descriptorFunction = descriptorFunction
    }

    /// The library at `path`, opened once per process. Throws kAudio_FileNotFoundError when it
    /// cannot be loaded (missing, not ELF, unresolved symbols: dlerror's sentence is kept) and
    /// kAudioUnitErr_InvalidFile when it exports no `ladspa_descriptor`. Thread: setup.
    public static func open(_ path: String) throws -> LADSPALibrary {
        try lock.withLock {
            if let library = opened[path] { return library }
            guard let handle = dlopen(path, RTLD_NOW | RTLD_LOCAL) else {
                let reason = dlerror().map { String(cString: $0) } ?? "unknown reason"
                throw LADSPAHostError(
                    OSStatus(kAudio_FileNotFoundError), "ladspa: cannot load \(path): \(reason). Reinstall the package that owns it.")
            }
            guard let symbol = dlsym(handle, auhost_ladspa_descriptor_symbol()) else {
                dlclose(handle)
                throw LADSPAHostError(
                    OSStatus(kAudioUnitErr_InvalidFile), "ladspa: \(path) exports no ladspa_descriptor; it is not a LADSPA library.")
            }
            let library = LADSPALibrary(path: path, descriptorFunction: unsafeBitCast(symbol, to: LADSPA_Descriptor_Function.self))
            opened[path] = library
            return library
        }
    }

    /// Descriptor `index`, or nil past the last one. Thread: setup.
    public func descriptor(at index: Int) -> UnsafePointer<LADSPA_Descriptor>? {
        descriptorFunction(UInt(index))
    }

    /// Every plug-in the library describes, in index order. Runs the library's code: call it in a
    /// child (the host uses ``LADSPAScan``). Thread: setup.
    public func describe() -> [LADSPAPluginInfo] {
        var plugins: [LADSPAPluginInfo] = []
        var index = 0
        while let d = descriptor(at: index) {
            plugins.append(Self.info(d.pointee, library: path, index: index))
            index += 1
        }
        return plugins
    }

    /// The descriptor's fields as plain values. Thread: setup.
    static func info(_ d: LADSPA_Descriptor, library: String, index: Int) -> LADSPAPluginInfo {
        func text(_ p: UnsafePointer<CChar>?) -> String { p.map { String(cString: $0) } ?? "" }
        let ports = (0..<Int(d.PortCount)).map { i -> LADSPAPortInfo in
            let hint = d.PortRangeHints?[i] ?? LADSPA_PortRangeHint()
            return LADSPAPortInfo(
                descriptor: d.PortDescriptors?[i] ?? 0, hints: hint.HintDescriptor, lowerBound: hint.LowerBound,
                upperBound: hint.UpperBound, name: text(d.PortNames?[i]))
        }
        return LADSPAPluginInfo(
            library: library, index: index, uniqueID: d.UniqueID, label: text(d.Label), name: text(d.Name),
            maker: text(d.Maker), copyright: text(d.Copyright), properties: d.Properties, ports: ports)
    }
}

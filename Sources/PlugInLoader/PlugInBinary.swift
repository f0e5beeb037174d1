import AUHostCore
import AUHostPlugInABI
import CAUHostFloatMode
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// An opened plug-in shared object. Binaries are opened on first instantiation (never while
/// listing), once per path, and never closed: a Swift image cannot be unloaded safely while any
/// of its metadata or threads may still be referenced.
final class PlugInBinary {
    let path: String
    private let handle: UnsafeMutableRawPointer

    private static let lock = NSLock()
    nonisolated(unsafe) private static var opened: [String: PlugInBinary] = [:]

    /// The host functions handed to every plug-in; they live as long as the process.
    private static let hostFunctions: UnsafeMutablePointer<AUHostPlugInHostFunctions> = {
        let table = UnsafeMutablePointer<AUHostPlugInHostFunctions>.allocate(capacity: 1)
        table.initialize(
            to: AUHostPlugInHostFunctions(
                abiVersion: UInt32(AUHOST_PLUGIN_ABI_VERSION),
                size: UInt32(MemoryLayout<AUHostPlugInHostFunctions>.size),
                render: AudioUnitRender))
        return table
    }()

    private init(path: String, handle: UnsafeMutableRawPointer) {
        self.path = path
        self.handle = handle
    }

    /// The binary at `path`, opened (RTLD_NOW | RTLD_LOCAL: every symbol resolved now, none
    /// shared with other plug-ins) and attached to the host's function table.
    ///
    /// Thread: setup.
    static func open(_ path: String, manifest: String) throws -> PlugInBinary {
        lock.lock()
        defer { lock.unlock() }
        if let binary = opened[path] { return binary }
        guard FileManager.default.fileExists(atPath: path) else {
            throw AudioError(
                kAudio_FileNotFoundError,
                "plug-in \(path) does not exist (named by manifest \(manifest)); build or install the plug-in, or correct the manifest's \"binary\"."
            )
        }
        // A -ffast-math library's constructor would change this thread's float mode.
        let floatMode = auhost_float_mode_save()
        let loaded = dlopen(path, RTLD_NOW | RTLD_LOCAL)
        auhost_float_mode_restore(floatMode)
        guard let handle = loaded else {
            let reason = dlerror().map { String(cString: $0) } ?? "unknown reason"
            throw AudioError(kAudioUnitErr_InvalidFile, "plug-in \(path) cannot be loaded: \(reason).")
        }
        let binary = PlugInBinary(path: path, handle: handle)
        if let version = binary.symbol("AUHostPlugInABIVersion", as: AUHostPlugInABIVersionFunction.self) {
            let built = version()
            guard built >= 1, built <= UInt32(AUHOST_PLUGIN_ABI_VERSION) else {
                throw AudioError(
                    kAudioComponentErr_UnsupportedType,
                    "plug-in \(path) was built for plug-in ABI version \(built); this host supports 1…\(AUHOST_PLUGIN_ABI_VERSION). Rebuild it against this host's SDK."
                )
            }
        }
        binary.symbol("AUHostPlugInAttach", as: AUHostPlugInAttachFunction.self)?(hostFunctions)
        opened[path] = binary
        return binary
    }

    /// An exported symbol as a C function type, or nil.
    ///
    /// Thread: setup.
    func symbol<F>(_ name: String, as: F.Type) -> F? {
        dlsym(handle, name).map { unsafeBitCast($0, to: F.self) }
    }

    /// Calls the factory `name` for `description`: the new plug-in interface, or an AudioError
    /// naming the file (missing symbol, NULL result with the plug-in's reason).
    ///
    /// Thread: setup.
    func makePlugIn(factory name: String, description: AudioComponentDescription) throws
        -> UnsafeMutablePointer<AudioComponentPlugInInterface>
    {
        guard let factory = symbol(name, as: AudioComponentFactoryFunction.self) else {
            throw AudioError(
                kAudioUnitErr_ExtensionNotFound,
                "plug-in \(path): factory function \(name) not found (the manifest names it; the binary does not export it).")
        }
        var d = description
        if let plugIn = factory(&d) { return plugIn }
        var reason = [CChar](repeating: 0, count: 512)
        let status = symbol("AUHostPlugInCopyFactoryError", as: AUHostPlugInCopyFactoryErrorFunction.self)?(&reason, 512) ?? noErr
        if status != noErr {
            throw AudioError(status, "plug-in \(path): factory \(name) refused \(description.tripleString): \(String(cString: reason)).")
        }
        throw AudioError(
            kAudioUnitErr_FailedInitialization,
            "plug-in \(path): factory \(name) returned NULL for \(description.tripleString).")
    }
}

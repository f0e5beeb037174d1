import AudioToolbox
import CAUHostFloatMode
import CLADSPA
import Foundation

/// A LADSPA or DSSI shared object, opened with dlopen and kept open for the life of the process (many
/// plug-ins keep global state that dlclose would pull from under a later instance), and its
/// `ladspa_descriptor` function. Opening runs the library's constructors: the host does it only
/// to instantiate a unit the catalog already described; describing happens in a child
/// (``LADSPAScan``).
public final class LADSPALibrary: @unchecked Sendable {
    public let path: String
    private let descriptorFunction: LADSPA_Descriptor_Function?
    /// `dssi_descriptor`, when the library has one: it then stands for the LADSPA one (hexter
    /// exports both; the DSSI descriptor wraps the same LADSPA descriptor).
    private let dssiFunction: DSSI_Descriptor_Function?

    nonisolated(unsafe) private static var opened: [String: LADSPALibrary] = [:]
    private static let lock = NSLock()

    private init(path: String, descriptorFunction: LADSPA_Descriptor_Function?, dssiFunction: DSSI_Descriptor_Function?) {
        self.path = path
        self.descriptorFunction = descriptorFunction
        self.dssiFunction = dssiFunction
    }

    /// The library at `path`, opened once per process. Throws kAudio_FileNotFoundError when it
    /// cannot be loaded (missing, not ELF, unresolved symbols: dlerror's sentence is kept) and
    /// kAudioUnitErr_InvalidFile when it exports neither `ladspa_descriptor` nor `dssi_descriptor`.
    /// Thread: setup.
    public static func open(_ path: String) throws -> LADSPALibrary {
        try lock.withLock {
            if let library = opened[path] { return library }
            // A -ffast-math library's constructor would change this thread's float mode.
            let floatMode = auhost_float_mode_save()
            let loaded = dlopen(path, RTLD_NOW | RTLD_LOCAL)
            auhost_float_mode_restore(floatMode)
            guard let handle = loaded else {
                let reason = dlerror().map { String(cString: $0) } ?? "unknown reason"
                throw LADSPAHostError(
                    OSStatus(kAudio_FileNotFoundError), "ladspa: cannot load \(path): \(reason). Reinstall the package that owns it.")
            }
            let ladspa = dlsym(handle, auhost_ladspa_descriptor_symbol())
            let dssi = dlsym(handle, auhost_dssi_descriptor_symbol())
            guard ladspa != nil || dssi != nil else {
                dlclose(handle)
                throw LADSPAHostError(
                    OSStatus(kAudioUnitErr_InvalidFile),
                    "ladspa: \(path) exports neither ladspa_descriptor nor dssi_descriptor; it is not a LADSPA or DSSI library.")
            }
            let library = LADSPALibrary(
                path: path, descriptorFunction: ladspa.map { unsafeBitCast($0, to: LADSPA_Descriptor_Function.self) },
                dssiFunction: dssi.map { unsafeBitCast($0, to: DSSI_Descriptor_Function.self) })
            opened[path] = library
            return library
        }
    }

    /// Descriptor `index` (of the DSSI descriptor when there is one), or nil past the last one.
    /// Thread: setup.
    public func descriptor(at index: Int) -> UnsafePointer<LADSPA_Descriptor>? {
        if let dssiFunction { return dssiFunction(UInt(index))?.pointee.LADSPA_Plugin }
        return descriptorFunction?(UInt(index))
    }

    /// DSSI descriptor `index`, or nil (past the last one, or not a DSSI library). Thread: setup.
    public func dssiDescriptor(at index: Int) -> UnsafePointer<DSSI_Descriptor>? {
        dssiFunction?(UInt(index))
    }

    /// Every plug-in the library describes, in index order. Runs the library's code: call it in a
    /// child (the host uses ``LADSPAScan``). Thread: setup.
    public func describe() -> [LADSPAPluginInfo] {
        var plugins: [LADSPAPluginInfo] = []
        var index = 0
        while let d = descriptor(at: index) {
            var info = Self.info(d.pointee, library: path, index: index)
            if let dssi = dssiDescriptor(at: index) {
                info.isDSSI = true
                // A synth has run_synth, run_multiple_synths or both (fluidsynth-dssi has only the latter).
                info.isDSSISynth = dssi.pointee.run_synth != nil || dssi.pointee.run_multiple_synths != nil
                info.programs = Self.programs(dssi)
            }
            plugins.append(info)
            index += 1
        }
        return plugins
    }

    /// A DSSI plug-in's programs: they are asked of an instance, so one is made (at 44.1 kHz) and
    /// cleaned up again. Thread: setup (runs plug-in code: a child's job).
    static func programs(_ dssi: UnsafePointer<DSSI_Descriptor>) -> [LADSPAProgram] {
        guard let getProgram = dssi.pointee.get_program, let ladspa = dssi.pointee.LADSPA_Plugin,
            let handle = ladspa.pointee.instantiate?(ladspa, 44_100)
        else { return [] }
        defer { ladspa.pointee.cleanup?(handle) }
        var programs: [LADSPAProgram] = []
        // A bound on input: a plug-in that never returns NULL still ends.
        while programs.count < 16_384, let p = getProgram(handle, UInt(programs.count)) {
            programs.append(
                LADSPAProgram(bank: p.pointee.Bank, program: p.pointee.Program, name: p.pointee.Name.map { String(cString: $0) } ?? ""))
        }
        return programs
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

import AudioToolbox
import CLADSPA

/// One instantiated LADSPA plug-in: its descriptor and handle, activated and deactivated by its
/// owner. The owner connects every port before the first run (LADSPA requires it) and keeps the
/// buffers alive while they are connected.
///
/// ```swift
/// let instance = try LADSPAInstance(plugin: info, sampleRate: 48_000)
/// instance.connect(port: 0, to: buffer); instance.activate(); instance.run(frames: 256)
/// ```
public final class LADSPAInstance {
    public let plugin: LADSPAPluginInfo
    public let descriptor: UnsafePointer<LADSPA_Descriptor>
    /// The DSSI descriptor around `descriptor`, for a DSSI plug-in.
    public let dssi: UnsafePointer<DSSI_Descriptor>?
    public let handle: LADSPA_Handle
    public let sampleRate: Double
    public private(set) var isActive = false

    /// Loads the plug-in's library (in this process), finds its descriptor (at the catalog's index,
    /// else by label: the library may have been rebuilt) and instantiates it at `sampleRate`.
    /// Throws kAudioUnitErr_ExtensionNotFound when the library no longer has the label, and
    /// kAudioUnitErr_FailedInitialization when `instantiate` returns no handle. Thread: setup.
    public init(plugin: LADSPAPluginInfo, sampleRate: Double) throws {
        let library = try LADSPALibrary.open(plugin.library)
        func label(_ d: UnsafePointer<LADSPA_Descriptor>) -> String { d.pointee.Label.map { String(cString: $0) } ?? "" }
        var foundIndex: Int? = library.descriptor(at: plugin.index).flatMap { label($0) == plugin.label ? plugin.index : nil }
        var index = 0
        while foundIndex == nil, let d = library.descriptor(at: index) {
            if label(d) == plugin.label { foundIndex = index }
            index += 1
        }
        let found = foundIndex.flatMap { library.descriptor(at: $0) }
        guard let descriptor = found, Int(descriptor.pointee.PortCount) == plugin.ports.count else {
            throw LADSPAHostError(
                OSStatus(kAudioUnitErr_ExtensionNotFound),
                "ladspa: \(plugin.library) no longer has plug-in \(plugin.label) as the catalog describes it; run `auhost list --refresh`.")
        }
        guard sampleRate >= 1, sampleRate <= 1_536_000, let instantiate = descriptor.pointee.instantiate,
            let handle = instantiate(descriptor, UInt(sampleRate))
        else {
            throw LADSPAHostError(
                OSStatus(kAudioUnitErr_FailedInitialization),
                "ladspa: plug-in \(plugin.label) (\(plugin.library)) could not be instantiated at \(sampleRate) Hz.")
        }
        self.plugin = plugin
        self.descriptor = descriptor
        dssi = foundIndex.flatMap { library.dssiDescriptor(at: $0) }
        self.handle = handle
        self.sampleRate = sampleRate
    }

    deinit {
        deactivate()
        descriptor.pointee.cleanup?(handle)
    }

    /// connect_port. Thread: setup.
    public func connect(port: Int, to data: UnsafeMutablePointer<Float>) {
        descriptor.pointee.connect_port?(handle, UInt(port), data)
    }

    /// DSSI configure(key, value): nil when the plug-in took it, else its message (or why it
    /// cannot be asked). Thread: setup (DSSI hosts call it beside the running synth; the plug-in
    /// guards its own state).
    public func configure(key: String, value: String) -> String? {
        guard let configure = dssi?.pointee.configure else { return "\(plugin.label) has no configure()" }
        guard let message = configure(handle, key, value) else { return nil }
        defer { free(message) }
        return String(cString: message)
    }

    /// activate (once; a second call does nothing). Thread: setup.
    public func activate() {
        guard !isActive else { return }
        descriptor.pointee.activate?(handle)
        isActive = true
    }

    /// deactivate (only when active). Thread: setup.
    public func deactivate() {
        guard isActive else { return }
        descriptor.pointee.deactivate?(handle)
        isActive = false
    }

    /// select_program (DSSI). Thread: setup, while no render runs (units select on the render
    /// thread at a cycle's start instead).
    public func selectProgram(bank: UInt, program: UInt) {
        dssi?.pointee.select_program?(handle, bank, program)
    }

    /// run over `frames` frames (units render through their render state instead). Thread: setup.
    public func run(frames: Int) {
        descriptor.pointee.run?(handle, UInt(frames))
    }
}

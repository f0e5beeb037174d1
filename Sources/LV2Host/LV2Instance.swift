import AudioToolbox
import CAUHostFloatMode
import CLilv
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// One running LV2 plug-in: instantiated with the host's features, every port connected to
/// host-owned preallocated memory, a worker, a log, state and presets.
///
/// ```swift
/// let world = LV2World()
/// let amp = try LV2Instance(plugin: world.plugin(uri: "http://lv2plug.in/plugins/eg-amp"),
///                           configuration: .init(sampleRate: 48_000, maxBlockLength: 512))
/// try amp.setControl(symbol: "gain", to: -6)
/// amp.activate()
/// amp.audioInput(0).update(repeating: 0.5, count: 512)
/// _ = amp.run(frames: 512)
/// print(amp.audioOutput(0)[0])
/// ```
///
/// Lifecycle (LV2's threading classes): init, state, presets, parameters' metadata and
/// activate/deactivate are setup calls, never concurrent with `run`; `run`, `queueMIDI`,
/// buffers and control values are for the render thread.
public final class LV2Instance {
    public let descriptor: LV2PluginDescriptor
    public let configuration: LV2InstanceConfiguration
    let lilvInstance: UnsafeMutablePointer<LilvInstance>
    let features: LV2FeatureSet
    let worker: LV2Worker
    let log: LV2Log
    let buffers: LV2PortBuffers
    /// The render thread's view of this instance. Pass it to `lv2Run` / `lv2QueueMIDI` to render
    /// without touching this class on the render thread.
    public let renderContext: UnsafeMutablePointer<LV2RenderContext>
    public private(set) var isActive = false
    /// Parameter descriptors of the control inputs, by port order.
    public let parameters: [LV2ParameterDescriptor]
    /// Audio ports grouped into buses.
    public let inputBuses: [LV2Bus]
    public let outputBuses: [LV2Bus]
    /// Where `state:makePath` puts the files the plug-in creates; removed with the instance.
    public let scratchDirectory: String

    /// Checks the plug-in's data and required features, instantiates it and connects every port.
    /// Throws `kAudio_FileNotFoundError` for a missing binary, `kAudioUnitErr_InvalidFile` for
    /// inconsistent port data, `kAudioUnitErr_FailedInitialization` for a missing feature or a
    /// failed instantiate, `kAudio_ParamError` for a bad configuration.
    /// Thread: setup (non-real-time).
    public init(plugin: LV2PluginDescriptor, configuration: LV2InstanceConfiguration = .init()) throws {
        descriptor = plugin
        var configuration = configuration
        let requirements = plugin.blockLengthRequirements
        if requirements.fixed { configuration.minBlockLength = configuration.nominalBlockLength }
        self.configuration = configuration
        try Self.validate(plugin, configuration)

        _ = LV2HeadlessToolkits.prepare
        let map = plugin.world.uridMap
        scratchDirectory = Self.makeScratchDirectory()
        worker = LV2Worker(live: configuration.live, ringSize: 64 * 1024)
        log = LV2Log(pluginURI: plugin.uri, live: configuration.live, map: map, sink: configuration.logSink)
        let provided = LV2FeatureSet(
            configuration: configuration, map: map, worker: worker, log: log,
            requirements: requirements, scratchDirectory: scratchDirectory)
        features = provided
        try Self.checkRequiredFeatures(plugin, offered: provided.providedURIs)
        // Loading the library may run a -ffast-math constructor that changes this thread's float mode.
        let floatMode = auhost_float_mode_save()
        let loaded = lilv_plugin_instantiate(plugin.plugin, configuration.sampleRate, features.features)
        auhost_float_mode_restore(floatMode)
        guard let instance = loaded else {
            throw LV2HostError(
                LV2Status.failedInitialization,
                "LV2 plug-in <\(plugin.uri)> could not be instantiated from \(plugin.binaryPath ?? "its binary"): "
                    + Self.whyInstantiateFailed(plugin))
        }
        lilvInstance = instance
        buffers = LV2PortBuffers(ports: plugin.ports, configuration: configuration, map: map)
        parameters = LV2ParameterDescriptor.read(plugin)
        (inputBuses, outputBuses) = LV2Bus.group(plugin.ports)
        for parameter in parameters { buffers.controls[parameter.portIndex] = parameter.defaultValue }

        let handle = lilv_instance_get_handle(instance)
        for port in plugin.ports {
            lilv_instance_connect_port(instance, UInt32(port.index), buffers.pointer(for: port.index))
        }
        let workerInterface = lilv_instance_get_extension_data(instance, LV2URI.workerInterface)
        worker.attach(handle: handle, interface: workerInterface?.assumingMemoryBound(to: LV2_Worker_Interface.self))
        let log = self.log
        worker.onWake = { log.drain() }

        let lv2Descriptor = lilv_instance_get_descriptor(instance)
        renderContext = .allocate(capacity: 1)
        renderContext.initialize(
            to: buffers.renderContext(
                handle: handle, run: lv2Descriptor?.pointee.run, connect: lv2Descriptor?.pointee.connect_port, worker: worker.state,
                logRenderThread: log.state.pointee.renderThread, configuration: configuration, requirements: requirements,
                map: map))

        if plugin.requiredFeatures.contains(LV2URI.loadDefaultState) {
            try loadDefaultState()
        }
    }

    deinit {
        if isActive { lilv_instance_deactivate(lilvInstance) }
        worker.stop()
        lilv_instance_free(lilvInstance)
        renderContext.deallocate()
        // What the plug-in created there was copied into any state saved since (lilv's scratch_dir).
        Self.removeScratchDirectory(scratchDirectory)
    }

    /// Calls the plug-in's activate (resets its internal state). Thread: setup (non-real-time).
    public func activate() {
        guard !isActive else { return }
        lilv_instance_activate(lilvInstance)
        isActive = true
    }

    /// Calls the plug-in's deactivate. Thread: setup (non-real-time).
    public func deactivate() {
        guard isActive else { return }
        lilv_instance_deactivate(lilvInstance)
        isActive = false
    }

    /// Runs one cycle of `frames` frames over the connected buffers (see `lv2Run`).
    /// Thread: render (real-time).
    @inline(__always)
    public func run(frames: Int) -> LV2RunStatus {
        lv2Run(renderContext, frames: UInt32(truncatingIfNeeded: frames))
    }

    /// Queues a MIDI message (1–3 bytes, or a SysEx) at `frame` of the next run; false if the
    /// plug-in has no MIDI input, the buffer is full or events come out of frame order.
    /// Thread: render (real-time).
    public func queueMIDI(_ bytes: UnsafeRawBufferPointer, atFrame frame: Int) -> Bool {
        guard let base = bytes.baseAddress else { return false }
        return lv2QueueMIDI(renderContext, frame: Int64(frame), bytes: base, count: bytes.count)
    }

    /// True if an audio output holds NaN or infinity in its first `frames` samples.
    /// Thread: render (real-time).
    public func outputsContainNonFinite(frames: Int) -> Bool {
        lv2OutputsContainNonFinite(renderContext, frames: frames)
    }

    /// Passes log messages queued on the render thread (live mode) to the sink now.
    /// Thread: setup (non-real-time).
    public func drainLog() { log.drain() }

    /// Performs scheduled work and delivers responses now (offline instances, or after a state
    /// restore), never while run may execute. Thread: setup (non-real-time).
    public func performPendingWork() { worker.performPendingNow() }

    /// Everything instantiation checks before loading the binary: the configuration, the binary
    /// file, the port data and the required features, with the errors `init` would throw. Runs no
    /// plug-in code, so a unit can refuse a broken plug-in when it is created rather than later.
    /// Thread: setup (non-real-time).
    public static func checkLoadable(_ plugin: LV2PluginDescriptor, configuration: LV2InstanceConfiguration = .init()) throws {
        try validate(plugin, configuration)
        try checkRequiredFeatures(
            plugin,
            offered: LV2FeatureSet.offeredURIs(
                live: configuration.live,
                requirements: plugin.blockLengthRequirements))
    }

    private static func checkRequiredFeatures(_ plugin: LV2PluginDescriptor, offered: Set<String>) throws {
        let missing = plugin.requiredFeatures.filter { !offered.contains($0) }
        if !missing.isEmpty {
            throw LV2HostError(
                LV2Status.failedInitialization,
                "LV2 plug-in <\(plugin.uri)> requires the feature\(missing.count > 1 ? "s" : "") "
                    + missing.map { "<\($0)>" }.joined(separator: ", ")
                    + ", which this host does not provide; it cannot be loaded.")
        }
    }

    private static func validate(_ plugin: LV2PluginDescriptor, _ c: LV2InstanceConfiguration) throws {
        guard c.sampleRate > 0, c.maxBlockLength > 0, c.minBlockLength >= 1, c.minBlockLength <= c.maxBlockLength,
            c.nominalBlockLength >= c.minBlockLength, c.nominalBlockLength <= c.maxBlockLength
        else {
            throw LV2HostError(
                LV2Status.parameterError,
                "Invalid LV2 configuration: need sample rate > 0 and 1 ≤ min ≤ nominal ≤ max block length "
                    + "(got \(c.sampleRate) Hz, \(c.minBlockLength)/\(c.nominalBlockLength)/\(c.maxBlockLength)).")
        }
        if plugin.blockLengthRequirements.powerOf2,
            c.maxBlockLength & (c.maxBlockLength - 1) != 0
                || c.nominalBlockLength & (c.nominalBlockLength - 1) != 0
        {
            throw LV2HostError(
                LV2Status.parameterError,
                "LV2 plug-in <\(plugin.uri)> requires power-of-two block lengths; "
                    + "use a power of two for the maximum and nominal block length.")
        }
        guard let binary = plugin.binaryPath, access(binary, R_OK) == 0 else {
            throw LV2HostError(
                LV2Status.binaryMissing,
                "LV2 plug-in <\(plugin.uri)>: its binary \(plugin.binaryPath ?? "(none declared)") "
                    + "does not exist or cannot be read; reinstall the bundle \(plugin.bundleURI).")
        }
        if let problem = plugin.portDataProblem {
            throw LV2HostError(
                LV2Status.invalidPluginData,
                "LV2 plug-in <\(plugin.uri)> in \(plugin.bundleURI) has broken port data: \(problem); fix its Turtle data.")
        }
        let declared = plugin.world.declaredPortCount(plugin)
        if declared != plugin.ports.count {
            throw LV2HostError(
                LV2Status.invalidPluginData,
                "LV2 plug-in <\(plugin.uri)> declares \(declared) ports but their indices run 0..<\(plugin.ports.count) "
                    + "(a missing, duplicated or out-of-range port index); fix its Turtle data.")
        }
        for port in plugin.ports where (port.kind == .unknown || port.direction == .unknown) && !port.connectionOptional {
            throw LV2HostError(
                LV2Status.invalidPluginData,
                port.symbol.isEmpty
                    ? "LV2 plug-in <\(plugin.uri)> has no port with index \(port.index) in its data; fix its Turtle data."
                    : "LV2 plug-in <\(plugin.uri)>: port \(port.index) '\(port.symbol)' is of a kind or direction this host "
                        + "cannot connect (not audio, control, CV or atom, input or output).")
        }
    }

    /// After lilv_plugin_instantiate failed: the dynamic loader's reason when the library does not
    /// load (lilv only logs it), else what is left (no descriptor for the URI, or the plug-in's own
    /// instantiate refused). Opening the library again runs nothing lilv's attempt did not.
    private static func whyInstantiateFailed(_ plugin: LV2PluginDescriptor) -> String {
        guard let binary = plugin.binaryPath else { return "its data names no binary." }
        _ = dlerror()
        let floatMode = auhost_float_mode_save()
        defer { auhost_float_mode_restore(floatMode) }
        if let handle = dlopen(binary, RTLD_NOW | RTLD_LOCAL) {
            dlclose(handle)
            return "the library loads, but exports no descriptor for this URI or its instantiate failed; "
                + "see the log above for the plug-in's own message."
        }
        let reason = dlerror().map { String(cString: $0) } ?? "unknown reason"
        return "the library does not load: \(reason)."
    }

    /// Removes the directory and what the plug-in wrote in it; nothing outside /tmp/lv2host-*.
    private static func removeScratchDirectory(_ path: String) {
        guard path.hasPrefix("/tmp/lv2host-") else { return }
        try? FileManager.default.removeItem(atPath: path)
    }

    private static func makeScratchDirectory() -> String {
        var template = Array("/tmp/lv2host-XXXXXX".utf8CString)
        return template.withUnsafeMutableBufferPointer { buffer in
            mkdtemp(buffer.baseAddress!).map { String(cString: $0) } ?? "/tmp"
        }
    }
}

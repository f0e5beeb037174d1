import AudioTypes
import CAUHostAtomics
import Foundation

/// The unit model every AUHost unit shares (the role AUBase plays in Apple's AudioUnitSDK):
/// lifecycle, elements and stream formats, properties by ID × scope × element with size checks,
/// parameters with scheduled and ramped events, render with the pull model, notifications,
/// bypass, state and presets. A unit subclasses it (usually through ``AUEffectBase``) and
/// overrides a few hooks; the C API reaches it through ``AUBase/makePlugIn(_:)``.
///
/// Threads: members say their class. Setup calls come from one thread at a time (the host's
/// dispatch serialises them per instance); render calls run concurrently with `get` of
/// parameters only.
open class AUBase {
    /// The description this instance was made for (the real one, not a search wildcard).
    public let componentDescription: AudioComponentDescription
    /// The handle the host gave this instance (set when the plug-in interface is opened).
    public internal(set) var instance: AudioComponentInstance?
    /// Everything the render thread touches.
    public let state: UnsafeMutablePointer<RenderState>

    /// The input and output elements, as the host set them up (setup side).
    public internal(set) var inputElements: [AUElement]
    public internal(set) var outputElements: [AUElement]
    /// Stream formats per element.
    ///
    /// Thread: setup.
    public var inputFormats: [AudioStreamBasicDescription] { inputElements.map(\.format) }
    public var outputFormats: [AudioStreamBasicDescription] { outputElements.map(\.format) }
    /// Listeners are added on setup threads and called from the render-error watcher too.
    let listenerLock = NSLock()
    var listeners: [(id: AudioUnitPropertyID, proc: AudioUnitPropertyListenerCall, refCon: UnsafeMutableRawPointer?)] = []
    var presentPreset: (number: Int32, name: String) = (-1, "Untitled")
    var contextName: String?
    var renderQuality: UInt32 = kRenderQuality_High
    /// Whether the host asked for the best quality (kAudioUnitProperty_RenderQuality at its
    /// maximum): resampling units then use their slowest, most accurate recipe. Thread: setup.
    public var renderQualityIsMaximum: Bool { renderQuality >= kRenderQuality_Max }
    var reportedRenderError: OSStatus = noErr
    private var retiredTables: [ParameterTable] = []
    /// The render notifications, setup side (the render thread reads published copies).
    var renderNotifies: [RenderNotify] = []
    /// BypassEffect and InPlaceProcessing, setup side (published with the configuration).
    var bypassed = false
    /// kAudioUnitProperty_HostCallbacks as the host set it (render calls read the published copy).
    var hostCallbacks: HostCallbackInfo?
    /// kAUHostProperty_TempoChangeCallback as the host set it (published with the configuration).
    var tempoChanges: AUHostTempoChangeInfo?
    var processesInPlace = true
    /// Serialises configuration changes (setup threads only; the render thread never takes it)
    /// for callers that reach the unit without the C dispatch's setup lock.
    let configurationLock = NSLock()
    /// AUPreset records handed out by FactoryPresets; they live as long as the unit.
    lazy var factoryPresetArray: CFArray? = makeFactoryPresetArray()
    /// The records (and their retained names) behind factoryPresetArray, freed with the unit.
    var factoryPresetRecords: UnsafeMutableBufferPointer<AUPreset>?

    /// Current parameter values by slot (declaration order; element-scope parameters once per
    /// element). Render code reads them here: no reference counting, no exclusivity check.
    ///
    /// Thread: any.
    public var parameterValues: UnsafeMutablePointer<Float> { state.pointee.parameterValues! }

    /// The declared parameters.
    public private(set) var parameterDefinitions: [ParameterDefinition]
    /// Current values (any thread reads them; the render thread reads them at slice starts).
    public private(set) var parameters: ParameterTable

    /// A unit with `inputs` input and `outputs` output elements, each in the canonical format with
    /// `channels` channels at `sampleRate`.
    ///
    /// Thread: setup.
    public init(
        description: AudioComponentDescription, inputs: Int, outputs: Int, channels: UInt32 = 2,
        sampleRate: Double = 44_100, parameters: [ParameterDefinition] = []
    ) {
        componentDescription = description
        state = .allocate(capacity: 1)
        state.initialize(to: RenderState())
        state.pointee.sampleRate = sampleRate
        let format = AudioStreamBasicDescription.canonical(sampleRate: sampleRate, channels: channels)
        inputElements = Array(repeating: AUElement(format: format), count: inputs)
        outputElements = Array(repeating: AUElement(format: format), count: outputs)
        let definitions = parameters.map { $0.atSampleRate(sampleRate) }
        parameterDefinitions = definitions
        self.parameters = ParameterTable(definitions: definitions, inputCount: inputs, outputCount: outputs)
        state.pointee.parameterValues = self.parameters.values
        state.pointee.parameterTable = .passUnretained(self.parameters)
        rebuildBuses()
    }

    deinit {
        RenderErrorWatcher.shared.unwatch(self)
        if let records = factoryPresetRecords {
            for r in records { r.presetName?.release() }
            records.baseAddress?.deinitialize(count: records.count)
            records.deallocate()
        }
        if isInitialized { deallocateRenderResources() }
        freeBuses()
        state.pointee.inputs.deallocate()
        state.pointee.outputs.deallocate()
        if let c = state.pointee.channel.pointee.configuration { AUBase.freeConfiguration(c) }
        state.pointee.channel.deallocate()
        RenderEventQueue.deallocate(state.pointee.events)
        state.deinitialize(count: 1)
        state.deallocate()
    }

    // MARK: Hooks a unit overrides

    /// Channel configurations answered by SupportedNumChannels (empty: the property is absent and
    /// any matching in/out count is accepted).
    open var channelCapabilities: [AUChannelInfo] { [] }
    /// Whether the host may change the number of input (or output) elements.
    open var canChangeElementCount: (input: Bool, output: Bool) { (false, false) }
    /// Seconds of latency the unit adds (kAudioUnitProperty_Latency).
    ///
    /// Thread: any (AUEffectBase reads it on the render thread when its input turns silent, as
    /// Apple's does: keep it a cheap getter).
    open var latency: Double { 0 }
    /// Seconds the unit keeps sounding after its input stops (kAudioUnitProperty_TailTime).
    /// AUEffectBase marks its output silent once silent input has lasted latency plus tail.
    ///
    /// Thread: any (read on the render thread as ``latency`` is).
    open var tailTime: Double { 0 }
    /// Whether BypassEffect applies (effects).
    open var supportsBypass: Bool { false }
    /// Whether the unit can process in place (output buffers doubling as input).
    open var supportsInPlace: Bool { false }
    /// Factory presets by number and name.
    open var factoryPresets: [(number: Int32, name: String)] { [] }
    /// Called after the unit's sample rate changed (output element 0's format was set), while
    /// uninitialized; a unit whose parameter ranges depend on the rate redeclares them here.
    ///
    /// Thread: setup.
    open func sampleRateDidChange(from oldRate: Double) {}

    /// Whether the unit can run with `format` on an element (before initialization).
    /// Default: canonical Float32 non-interleaved whose channel count a capability allows.
    ///
    /// Thread: setup.
    open func accepts(format: AudioStreamBasicDescription, scope: AudioUnitScope, element: AudioUnitElement) -> Bool {
        guard format.isCanonical, format.isValidLinearPCM, format.mChannelsPerFrame <= 64 else { return false }
        let caps = channelCapabilities
        if caps.isEmpty { return true }
        let channels = Int(format.mChannelsPerFrame)
        return caps.contains { cap in
            let n = Int(scope == kAudioUnitScope_Input ? cap.inChannels : cap.outChannels)
            return n == -1 || n == channels || (n < -1 && channels <= -n)
        }
    }

    /// Allocates what rendering needs (delay lines, kernels…) for the current formats and
    /// maxFramesPerSlice. Throw an AudioError to refuse.
    ///
    /// Thread: setup.
    open func allocateRenderResources() throws {}
    /// Frees what ``allocateRenderResources()`` made.
    ///
    /// Thread: setup.
    open func deallocateRenderResources() {}
    /// Clears filter memories, delay lines and tails.
    ///
    /// Thread: setup (or the render thread between cycles, as a host may call AudioUnitReset).
    open func resetState() {}
    /// Applies a factory preset's values (default: nothing beyond recording it).
    ///
    /// Thread: setup.
    open func applyFactoryPreset(_ number: Int32) throws {}

    /// Renders `frames` frames of output bus `bus` into `output`, whose buffers are ready (pointing
    /// at the caller's memory or at the bus's own). Pull inputs with ``pullInput(_:_:_:_:into:)``.
    ///
    /// Thread: render.
    open func renderBus(
        _ bus: UInt32, flags: UnsafeMutablePointer<AudioUnitRenderActionFlags>,
        timeStamp: UnsafePointer<AudioTimeStamp>, frames: UInt32,
        output: UnsafeMutablePointer<AudioBufferList>
    ) -> OSStatus {
        kAudio_UnimplementedError
    }

    /// Unit-specific properties: return nil for IDs the unit does not define.
    ///
    /// Thread: setup.
    open func customPropertyInfo(
        _ id: AudioUnitPropertyID, _ scope: AudioUnitScope,
        _ element: AudioUnitElement
    ) throws -> (size: UInt32, writable: Bool)? { nil }
    /// Unit-specific properties whose value is an array (a channel map, file IDs): the size of one
    /// entry and the most entries a set may pass. The dispatch accepts 0…maximumCount whole entries
    /// for these and exactly the size ``customPropertyInfo(_:_:_:)`` declares for every other
    /// property. Default: none.
    ///
    /// Thread: setup.
    open func arrayPropertyLayout(
        _ id: AudioUnitPropertyID, _ scope: AudioUnitScope,
        _ element: AudioUnitElement
    ) -> (entrySize: UInt32, maximumCount: UInt32)? { nil }
    /// Copies a unit-specific property into `data` (which holds at least its size).
    ///
    /// Thread: setup.
    open func getCustomProperty(
        _ id: AudioUnitPropertyID, _ scope: AudioUnitScope, _ element: AudioUnitElement,
        _ data: UnsafeMutableRawPointer
    ) throws {}
    /// Sets a unit-specific property (size already checked against its info).
    ///
    /// Thread: setup.
    open func setCustomProperty(
        _ id: AudioUnitPropertyID, _ scope: AudioUnitScope, _ element: AudioUnitElement,
        _ data: UnsafeRawPointer, _ size: UInt32
    ) throws {}
    /// Extra state saved in ClassInfo beside the parameters (sample paths, tables…).
    ///
    /// Thread: setup.
    open func saveExtraState() -> [String: PropertyListValue] { [:] }
    /// Restores what ``saveExtraState()`` wrote.
    ///
    /// Thread: setup.
    open func restoreExtraState(_ state: [String: PropertyListValue]) throws {}

    /// Whether the unit answers AudioOutputUnitStart/Stop.
    open var isOutputUnit: Bool { componentDescription.componentType == kAudioUnitType_Output }
    /// AudioOutputUnitStart.
    ///
    /// Thread: setup.
    open func startIO() throws {}
    /// AudioOutputUnitStop.
    ///
    /// Thread: setup.
    open func stopIO() throws {}
    /// Whether the unit implements AudioUnitProcess (in-place effects).
    open var supportsProcess: Bool { false }
    /// AudioUnitProcess: ioData is both input and output.
    ///
    /// Thread: render.
    open func process(
        _ flags: UnsafeMutablePointer<AudioUnitRenderActionFlags>?, _ timeStamp: UnsafePointer<AudioTimeStamp>?,
        _ frames: UInt32, _ ioData: UnsafeMutablePointer<AudioBufferList>?
    ) -> OSStatus {
        kAudio_UnimplementedError
    }
    /// Whether the unit implements AudioUnitProcessMultiple.
    open var supportsProcessMultiple: Bool { false }
    /// AudioUnitProcessMultiple: reads the input lists and writes the output lists.
    ///
    /// Thread: render.
    open func processMultiple(
        _ flags: UnsafeMutablePointer<AudioUnitRenderActionFlags>?, _ timeStamp: UnsafePointer<AudioTimeStamp>?,
        _ frames: UInt32, inputs: UnsafeBufferPointer<UnsafePointer<AudioBufferList>?>,
        outputs: UnsafeBufferPointer<UnsafeMutablePointer<AudioBufferList>?>
    ) -> OSStatus {
        kAudio_UnimplementedError
    }

    /// Where a property really lives, for units that accept documented alternative addresses
    /// (RemoteIO takes its render callback on global scope as well as input scope). Default: as given.
    ///
    /// Thread: setup.
    open func propertyAddress(
        _ id: AudioUnitPropertyID, _ scope: AudioUnitScope,
        _ element: AudioUnitElement
    ) -> (scope: AudioUnitScope, element: AudioUnitElement) {
        (scope, element)
    }

    /// The addresses RemoteIO code uses besides the canonical ones, for device I/O units'
    /// `propertyAddress`: the render callback on global scope element 0 (→ input scope element 0,
    /// what the output pulls), and the input callback on global scope at element 0 or 1 (→ element 0),
    /// as in the blog of seed 004.
    ///
    /// Thread: any.
    public static func deviceIOPropertyAddress(
        _ id: AudioUnitPropertyID, _ scope: AudioUnitScope, _ element: AudioUnitElement
    ) -> (scope: AudioUnitScope, element: AudioUnitElement) {
        switch (id, scope) {
        case (kAudioUnitProperty_SetRenderCallback, kAudioUnitScope_Global) where element == 0: return (kAudioUnitScope_Input, 0)
        case (kAudioOutputUnitProperty_SetInputCallback, kAudioUnitScope_Global) where element <= 1: return (kAudioUnitScope_Global, 0)
        default: return (scope, element)
        }
    }

    /// Whether the unit takes MIDI (MusicDeviceMIDIEvent): instruments and MIDI-driven effects.
    open var acceptsMIDI: Bool {
        componentDescription.componentType == kAudioUnitType_MusicDevice
            || componentDescription.componentType == kAudioUnitType_MusicEffect
    }
    /// MusicDeviceMIDIEvent: a channel message for the next render call at `offset` frames.
    /// Queue it without allocating or locking (it may come from the render thread).
    ///
    /// Thread: render (or setup, landing in the next render).
    open func midiEvent(status: UInt32, data1: UInt32, data2: UInt32, offset: UInt32) -> OSStatus {
        kAudio_UnimplementedError
    }
    /// MusicDeviceSysEx.
    ///
    /// Thread: render (or setup).
    open func sysEx(_ data: UnsafeBufferPointer<UInt8>) -> OSStatus { kAudio_UnimplementedError }

    // MARK: Lifecycle

    /// Whether AudioUnitInitialize succeeded and Uninitialize has not been called since.
    ///
    /// Thread: any.
    public var isInitialized: Bool { state.pointee.initialized }

    /// Maximum frames one render call may ask for (kAudioUnitProperty_MaximumFramesPerSlice).
    ///
    /// Thread: any.
    public var maxFramesPerSlice: UInt32 { state.pointee.maxFrames }

    /// The sample rate of output element 0 (or input 0 for a unit without outputs).
    ///
    /// Thread: any.
    public var sampleRate: Double { state.pointee.sampleRate }

    /// AudioUnitInitialize: checks formats, allocates buffers and the unit's resources.
    /// Initializing an initialized unit does nothing, as documented.
    ///
    /// Thread: setup.
    public func initialize() throws {
        if isInitialized { return }
        for (i, f) in inputFormats.enumerated() where !accepts(format: f, scope: kAudioUnitScope_Input, element: UInt32(i)) {
            throw AudioError(kAudioUnitErr_FormatNotSupported, "Input element \(i) has a format this unit cannot take: \(f).")
        }
        for (i, f) in outputFormats.enumerated() where !accepts(format: f, scope: kAudioUnitScope_Output, element: UInt32(i)) {
            throw AudioError(kAudioUnitErr_FormatNotSupported, "Output element \(i) has a format this unit cannot take: \(f).")
        }
        try checkChannelConfiguration()
        try checkBusMemory()
        allocateBuses()
        do {
            try allocateRenderResources()
        } catch {
            freeBuses()
            throw error
        }
        state.pointee.events.pointee.clear()
        state.pointee.silentTimeout.reset()
        state.pointee.lastRenderError = noErr
        state.pointee.initialized = true
    }

    /// AudioUnitUninitialize: frees render resources; properties keep their values.
    ///
    /// Thread: setup.
    public func uninitialize() {
        guard isInitialized else { return }
        state.pointee.initialized = false
        deallocateRenderResources()
        freeBuses()
    }

    /// AudioUnitReset: clears state, invalidates cached output and pending parameter events.
    ///
    /// Thread: setup, while the unit does not render (or the render thread between cycles).
    public func reset() {
        for i in 0..<state.pointee.outputCount { state.pointee.outputs[i].hasCachedOutput = false }
        state.pointee.events.pointee.clear()
        state.pointee.silentTimeout.reset()
        resetState()
    }

    /// The most memory a unit may allocate for what its formats, element counts and
    /// MaximumFramesPerSlice ask (its buses; a unit's own buffers check against it too): 256 MiB.
    /// Beyond it AudioUnitInitialize answers kAudio_MemFullError with the sizes that made it.
    public static let maximumRenderMemory = 256 << 20

    private func checkBusMemory() throws {
        let frames = Int(state.pointee.maxFrames)
        let bytes = (inputFormats + outputFormats).reduce(0) { total, f in
            total + ((Int(f.mBytesPerFrame) * frames + 15) & ~15) * Int(f.bufferCount)
        }
        guard bytes <= AUBase.maximumRenderMemory else {
            throw AudioError(
                kAudio_MemFullError,
                "\(inputFormats.count) input and \(outputFormats.count) output elements of \(frames) frames need \(bytes >> 20) MiB of buffers, more than the \(AUBase.maximumRenderMemory >> 20) MiB a unit may take; lower MaximumFramesPerSlice, the channel count or the element count."
            )
        }
    }

    private func checkChannelConfiguration() throws {
        let caps = channelCapabilities
        guard !caps.isEmpty, let input = inputFormats.first, let output = outputFormats.first else { return }
        let i = Int(input.mChannelsPerFrame), o = Int(output.mChannelsPerFrame)
        func fits(_ n: Int16, _ c: Int) -> Bool { n == -1 || Int(n) == c || (n < -1 && c <= -Int(n)) }
        let ok = caps.contains { cap in
            if cap.inChannels == -1 && cap.outChannels == -1 { return i == o }
            return fits(cap.inChannels, i) && fits(cap.outChannels, o)
        }
        if !ok {
            throw AudioError(
                kAudioUnitErr_FormatNotSupported,
                "\(i) input and \(o) output channels is not a configuration this unit supports (\(caps.map { "\($0.inChannels)→\($0.outChannels)" }.joined(separator: ", ")))."
            )
        }
    }

    // MARK: Parameters

    /// AudioUnitGetParameter.
    ///
    /// Thread: any.
    public func parameter(
        _ id: AudioUnitParameterID, scope: AudioUnitScope = kAudioUnitScope_Global,
        element: AudioUnitElement = 0
    ) throws -> AudioUnitParameterValue {
        guard let slot = parameters.slot(id, scope, element) else { throw invalidParameter(id, scope, element) }
        return slot.pointee
    }

    /// Replaces the declared parameters (same IDs, new ranges or defaults: e.g. rate-relative
    /// ones after a sample-rate change). Values of parameters that remain are kept.
    ///
    /// Thread: setup; only while uninitialized.
    public func redeclareParameters(_ definitions: [ParameterDefinition]) {
        precondition(!isInitialized, "parameters are redeclared only while uninitialized")
        parameterDefinitions = definitions
        rebuildParameterTable()
    }

    /// Builds the table for the current definitions and element counts, keeping the values of
    /// parameters that remain; the old table is kept until the unit goes (another thread may
    /// still hold one of its slots).
    private func rebuildParameterTable() {
        let previous = parameters
        retiredTables.append(previous)
        parameters = ParameterTable(
            definitions: parameterDefinitions, inputCount: inputFormats.count,
            outputCount: outputFormats.count, previous: previous)
        state.pointee.parameterValues = parameters.values
        state.pointee.parameterTable = .passUnretained(parameters)
    }

    func invalidParameter(_ id: AudioUnitParameterID, _ scope: AudioUnitScope, _ element: AudioUnitElement) -> AudioError {
        AudioError(
            kAudioUnitErr_InvalidParameter,
            "The unit has no parameter \(id) in \(scopeName(scope)) scope, element \(element).")
    }

    // MARK: Elements and buses

    /// Changes the number of input or output elements (ElementCount).
    ///
    /// Thread: setup; only while uninitialized.
    func setElementCount(_ scope: AudioUnitScope, _ count: Int) throws {
        guard !isInitialized else {
            throw AudioError(kAudioUnitErr_Initialized, "Uninitialize the unit before changing its element count.")
        }
        guard count >= 0, count <= 1024 else {
            throw AudioError(kAudioUnitErr_InvalidPropertyValue, "\(count) elements is out of range (0…1024).")
        }
        // New elements take element 0's format.
        func resize(_ elements: inout [AUElement]) {
            let fill = AUElement(format: elements.first?.format ?? .canonical(sampleRate: sampleRate, channels: 2))
            elements = Array(elements.prefix(count)) + Array(repeating: fill, count: max(0, count - elements.count))
        }
        if scope == kAudioUnitScope_Input { resize(&inputElements) } else { resize(&outputElements) }
        rebuildParameterTable()
        rebuildBuses()
    }

    /// Re-creates the bus records for the current element counts (without buffers).
    func rebuildBuses() {
        let s = state
        s.pointee.inputs.deallocate()
        s.pointee.outputs.deallocate()
        s.pointee.inputs = .allocate(capacity: max(inputFormats.count, 1))
        s.pointee.inputs.initialize(repeating: InputBus(), count: max(inputFormats.count, 1))
        s.pointee.outputs = .allocate(capacity: max(outputFormats.count, 1))
        s.pointee.outputs.initialize(repeating: OutputBus(), count: max(outputFormats.count, 1))
        s.pointee.inputCount = inputFormats.count
        s.pointee.outputCount = outputFormats.count
        publishConfiguration()
        if let first = outputFormats.first ?? inputFormats.first { s.pointee.sampleRate = first.mSampleRate }
    }

    private func allocateBuses() {
        let frames = Int(state.pointee.maxFrames)
        for (i, f) in inputFormats.enumerated() {
            state.pointee.inputs[i].buffers = BusBuffers(format: f, maxFrames: frames)
            state.pointee.inputs[i].allocates = inputElements[i].allocatesBuffer
        }
        for (i, f) in outputFormats.enumerated() {
            state.pointee.outputs[i] = OutputBus(buffers: BusBuffers(format: f, maxFrames: frames))
        }
    }

    private func freeBuses() {
        for i in 0..<state.pointee.inputCount { state.pointee.inputs[i].buffers.free() }
        for i in 0..<state.pointee.outputCount {
            state.pointee.outputs[i].buffers.free()
            state.pointee.outputs[i] = OutputBus()
        }
    }

    // MARK: Render notifications (published with the configuration: RenderConfiguration.swift)

    /// AudioUnitAddRenderNotify: the notification runs from the next render call on.
    ///
    /// Thread: setup (not from inside this unit's render).
    public func addRenderNotify(_ proc: AURenderCallback, _ refCon: UnsafeMutableRawPointer?) -> OSStatus {
        // Checked before the lock: a setup thread holding it may be waiting for this very call.
        guard !isInsideRender else { return kAudioUnitErr_CannotDoInCurrentContext }
        configurationLock.lock()
        defer { configurationLock.unlock() }
        // Adding one that is there already changes nothing (as Apple's AUBase does).
        if renderNotifies.contains(where: { sameFunction($0.proc, renderCallbackCall(proc)) && $0.refCon == refCon }) { return noErr }
        guard renderNotifies.count < RenderState.notifyCapacity else { return kAudio_MemFullError }
        renderNotifies.append(RenderNotify(proc: renderCallbackCall(proc), refCon: refCon))
        publishLocked()
        return noErr
    }

    /// AudioUnitRemoveRenderNotify. When it returns, the notification is not running and will not
    /// run again: it waits for render calls in progress to leave the old configuration (the render
    /// thread never waits), so a caller may free `refCon` at once.
    ///
    /// Thread: setup (from inside this unit's render it answers
    /// kAudioUnitErr_CannotDoInCurrentContext instead of waiting for itself).
    public func removeRenderNotify(_ proc: AURenderCallback, _ refCon: UnsafeMutableRawPointer?) -> OSStatus {
        guard !isInsideRender else { return kAudioUnitErr_CannotDoInCurrentContext }
        configurationLock.lock()
        defer { configurationLock.unlock() }
        guard let i = renderNotifies.firstIndex(where: { sameFunction($0.proc, renderCallbackCall(proc)) && $0.refCon == refCon }) else {
            return kAudio_ParamError
        }
        renderNotifies.remove(at: i)
        publishLocked()
        return noErr
    }
}

/// "input", "output", "global" … for messages.
public func scopeName(_ scope: AudioUnitScope) -> String {
    switch scope {
    case kAudioUnitScope_Global: return "global"
    case kAudioUnitScope_Input: return "input"
    case kAudioUnitScope_Output: return "output"
    case kAudioUnitScope_Group: return "group"
    case kAudioUnitScope_Part: return "part"
    default: return "scope \(scope)"
    }
}

/// Whether two C function pointers are the same function (they are not Equatable in Swift).
func sameFunction<F>(_ a: F?, _ b: F?) -> Bool {
    guard let a, let b else { return a == nil && b == nil }
    return unsafeBitCast(a, to: UnsafeRawPointer.self) == unsafeBitCast(b, to: UnsafeRawPointer.self)
}

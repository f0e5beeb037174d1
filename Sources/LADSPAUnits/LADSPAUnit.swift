import AUHostCore
import Foundation
import LADSPAHost

/// A LADSPA plug-in as an Audio Unit, made by ``LADSPAProvider`` components.
///
/// - Elements: one input element with every audio input port as a channel (none for a
///   generator), one output element with every audio output port; channel counts are fixed.
/// - Parameters: ID = port index (``LADSPAUnitParameters``); control outputs are read-only meters
///   updated every render call; a control output named "latency" is kAudioUnitProperty_Latency.
/// - AudioUnitInitialize loads the library and instantiates and activates the plug-in at the
///   unit's rate; Uninitialize deactivates and cleans it up; Reset deactivates and activates it.
/// - INPLACE_BROKEN plug-ins never get an output buffer that is also an input buffer.
/// - DSSI synths ('aumu'): MusicDeviceMIDIEvent reaches run_synth (or run_multiple_synths with this
///   one instance) as ALSA sequencer events at their offsets; programs are the factory presets,
///   selected on the render thread between runs, or any bank and program by number
///   (kDSSIUnitProperty_Program).
///
/// ```swift
/// let unit = try AudioUnitInstance(LADSPAProvider.component(label: "amp_mono")!.description)
/// ```
public final class LADSPAUnit: AUBase {
    public let plugin: LADSPAPluginInfo
    /// The running plug-in while initialized.
    public internal(set) var ladspaInstance: LADSPAInstance?
    var renderState: UnsafeMutablePointer<LADSPAUnitRenderState>?
    /// MIDI for a DSSI synth: any thread pushes, the render cycle takes the arrivals.
    let midiQueue: UnsafeMutablePointer<RenderEventQueue>
    /// The program (index into `plugin.programs`) to select, kept across Uninitialize.
    var programIndex = -1
    /// DSSI configure() values given so far, given again at every instantiation (AUHostDSSI.h).
    var configureValues: [String: String] = [:]
    /// kDSSIUnitProperty_Program's last numbers, selected again at every instantiation, and how
    /// many times it was set (each set selects again: ``SelectedBankProgram``).
    var bankProgram: DSSIUnitProgram?
    var bankProgramRequests = 0
    /// Whether this unit holds its run_multiple_synths plug-in (LADSPAUnit+MultipleSynths.swift).
    var holdsMultipleSynths = false

    /// Lays out elements and parameters from the catalog's description; runs no plug-in code.
    /// Thread: setup.
    public init(plugin: LADSPAPluginInfo, description: AudioComponentDescription) throws {
        self.plugin = plugin
        midiQueue = RenderEventQueue.allocate(capacity: 512)
        let sampleRate = 44_100.0
        let inputs = plugin.audioInputs.count, outputs = plugin.audioOutputs.count
        super.init(
            description: description, inputs: inputs > 0 ? 1 : 0, outputs: outputs > 0 ? 1 : 0, channels: 2,
            sampleRate: sampleRate, parameters: LADSPAUnitParameters.definitions(plugin, sampleRate: sampleRate))
        if inputs > 0 { try setFormat(.canonical(sampleRate: sampleRate, channels: UInt32(inputs)), kAudioUnitScope_Input, 0) }
        if outputs > 0 { try setFormat(.canonical(sampleRate: sampleRate, channels: UInt32(outputs)), kAudioUnitScope_Output, 0) }
    }

    deinit {
        releaseMultipleSynths(keeping: ladspaInstance)
        RenderEventQueue.deallocate(midiQueue)
    }

    /// Canonical Float32 with exactly the element's channel count (LADSPA ports are fixed).
    /// Thread: setup.
    public override func accepts(format: AudioStreamBasicDescription, scope: AudioUnitScope, element: AudioUnitElement) -> Bool {
        guard format.isCanonical, format.isValidLinearPCM, element == 0 else { return false }
        let channels = scope == kAudioUnitScope_Input ? plugin.audioInputs.count : plugin.audioOutputs.count
        return Int(format.mChannelsPerFrame) == channels
    }

    /// The "latency" control output's frames (0 when there is none), as the plug-in last wrote it.
    /// Thread: any.
    public override var latency: Double {
        guard let port = plugin.ports.firstIndex(where: \.reportsLatency), let r = renderState,
            let k = (0..<r.pointee.meterCount).first(where: { r.pointee.meterIndices[$0] == port })
        else { return 0 }
        let frames = r.pointee.meterPorts[k].pointee
        return frames.isFinite && frames > 0 ? Double(frames) / sampleRate : 0
    }

    /// Redeclares the parameters for the new rate (SAMPLE_RATE ports' bounds and defaults move
    /// with it); a value at its old default moves to the new default, others are clamped.
    /// Thread: setup (uninitialized).
    public override func sampleRateDidChange(from oldRate: Double) {
        guard plugin.ports.contains(where: { $0.isControl && $0.isSampleRateRelative }) else { return }
        let old = parameterDefinitions.map { d in (d, parameters.slot(d.id, kAudioUnitScope_Global, 0)?.pointee ?? d.defaultValue) }
        let new = LADSPAUnitParameters.definitions(plugin, sampleRate: sampleRate)
        redeclareParameters(new)
        for ((was, value), d) in zip(old, new) {
            guard let slot = parameters.slot(d.id, kAudioUnitScope_Global, 0) else { continue }
            slot.pointee = value == was.defaultValue ? d.defaultValue : min(max(value, d.minValue), d.maxValue)
        }
    }

    /// If the plug-in produced NaN or infinite samples since the last call (the output was
    /// silenced), a sentence saying so. Thread: setup.
    public func takeRenderProblem() -> String? {
        guard let r = renderState, r.pointee.producedNonFinite else { return nil }
        r.pointee.producedNonFinite = false
        return "LADSPA plug-in \(plugin.label) (\(plugin.library)) produced NaN or infinite samples; its output was silenced."
    }

    /// A DSSI synth takes MIDI. Thread: any.
    public override var acceptsMIDI: Bool { plugin.isDSSISynth }

    /// A DSSI plug-in's programs, in its order. Thread: setup.
    public override var factoryPresets: [(number: Int32, name: String)] {
        plugin.programs.enumerated().map { (Int32($0.offset), $0.element.name) }
    }

    /// Selects program `number` at the start of the next render cycle (or at Initialize).
    /// Thread: setup.
    public override func applyFactoryPreset(_ number: Int32) throws {
        guard number >= 0, Int(number) < plugin.programs.count else {
            throw AudioError(kAudio_ParamError, "LADSPA plug-in \(plugin.label) has no program \(number).")
        }
        programIndex = Int(number)
        renderState?.pointee.requestedProgram.pointee.store(programIndex, ordering: .releasing)
    }

    /// Queues a channel message for a DSSI synth at `offset` frames into the next render call.
    /// Thread: any (lock-free).
    public override func midiEvent(status: UInt32, data1: UInt32, data2: UInt32, offset: UInt32) -> OSStatus {
        guard plugin.isDSSISynth else { return kAudio_UnimplementedError }
        guard status >= 0x80, status <= 0xEF else { return kAudio_ParamError }
        let event = RenderEvent.midi(
            status: UInt8(status), data1: UInt8(truncatingIfNeeded: data1 & 0x7F), data2: UInt8(truncatingIfNeeded: data2 & 0x7F),
            offset: Int(offset))
        return midiQueue.pointee.push(event) ? noErr : kAudioUnitErr_CannotDoInCurrentContext
    }

    /// Initialize / Uninitialize / Reset (LADSPAUnit+Lifecycle.swift). Thread: setup.
    public override func customPropertyInfo(
        _ id: AudioUnitPropertyID, _ scope: AudioUnitScope, _ element: AudioUnitElement
    ) throws -> (size: UInt32, writable: Bool)? {
        if id == kDSSIUnitProperty_Program { return try programPropertyInfo(scope) }
        return try configurePropertyInfo(id, scope)
    }

    public override func getCustomProperty(
        _ id: AudioUnitPropertyID, _ scope: AudioUnitScope, _ element: AudioUnitElement, _ data: UnsafeMutableRawPointer
    ) throws {
        if id == kDSSIUnitProperty_Configure { getConfigure(data) }
        if id == kDSSIUnitProperty_Program { try getProgram(data) }
    }

    public override func setCustomProperty(
        _ id: AudioUnitPropertyID, _ scope: AudioUnitScope, _ element: AudioUnitElement, _ data: UnsafeRawPointer, _ size: UInt32
    ) throws {
        if id == kDSSIUnitProperty_Configure { try setConfigure(data) }
        if id == kDSSIUnitProperty_Program { try setProgram(data, size) }
    }

    public override func allocateRenderResources() throws { try startPlugin() }
    /// Thread: setup.
    public override func deallocateRenderResources() { stopPlugin() }
    /// Deactivate and activate: LADSPA's reset. Thread: setup.
    public override func resetState() {
        ladspaInstance?.deactivate()
        ladspaInstance?.activate()
        midiQueue.pointee.clear()
    }

    /// Thread: render.
    @_noAllocation @_noLocks
    public override func renderBus(
        _ bus: UInt32, flags: UnsafeMutablePointer<AudioUnitRenderActionFlags>,
        timeStamp: UnsafePointer<AudioTimeStamp>, frames: UInt32,
        output: UnsafeMutablePointer<AudioBufferList>
    ) -> OSStatus {
        guard let r = renderState else { return kAudioUnitErr_Uninitialized }
        return ladspaUnitRender(r, midiQueue, renderState(), flags: flags, timeStamp: timeStamp, frames: frames, output: output)
    }
}

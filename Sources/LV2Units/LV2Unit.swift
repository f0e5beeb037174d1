import AUHostCore
import Foundation
import LV2Host

/// An LV2 plug-in as an Audio Unit. Made by ``LV2Provider`` components; reached like every
/// other unit through the C API or `AudioUnitInstance`.
///
/// - Elements: audio ports grouped into buses (port groups, else stereo pairs), then all CV
///   ports of a direction as one more element; each element's channel count is fixed.
/// - Parameters: ID = port index. Control inputs are writable (toggled → Boolean, enumerations
///   → an index with the scale point labels as value strings, integer → Indexed, logarithmic →
///   DisplayLogarithmic); control outputs are read-only meters updated every render call,
///   kept to the range their data declares (±FLT_MAX when none).
/// - The plug-in is instantiated by AudioUnitInitialize at the unit's sample rate with
///   MaximumFramesPerSlice as its maximum block, and destroyed (its state kept) by Uninitialize.
/// - MIDI (MusicDeviceMIDIEvent) reaches its atom MIDI input at the given offset; the latency port
///   is kAudioUnitProperty_Latency; presets are FactoryPresets; plug-in state is in ClassInfo.
///
/// ```swift
/// let unit = try AudioUnitInstance(LV2Provider.component(uri: "http://lv2plug.in/plugins/eg-amp")!.description)
/// ```
public final class LV2Unit: AUBase {
    /// The plug-in's data (use it under `access`).
    public let plugin: LV2PluginDescriptor
    let access: LV2WorldAccess
    let layout: LV2UnitLayout
    var presetList: [LV2Preset]
    /// The control inputs as the data declares them (bounds of `lv2:sampleRate` ports are
    /// multiples of the rate: their parameters are redeclared when the rate changes).
    let controlDescriptors: [LV2ParameterDescriptor]
    /// The plug-in's patch parameters (LV2Unit+Patch.swift) and the text values the host set.
    let patchParameters: [LV2PatchParameter]
    var patchText: [String: String] = [:]
    /// The running plug-in while initialized.
    public internal(set) var lv2Instance: LV2Instance?
    var renderState: UnsafeMutablePointer<LV2UnitRenderState>?
    let midiQueue: UnsafeMutablePointer<RenderEventQueue>
    /// Atoms to and from the plug-in's UI (LV2PluginUI), for a plug-in with a UI and atom ports.
    let uiAtoms: LV2UIAtomLink?
    /// Plug-in state to restore at the next initialize (kept across Uninitialize, or from ClassInfo).
    var pendingState: String?
    /// A preset whose non-port state is loaded at the next initialize.
    var pendingPresetURI: String?
    /// Live: scheduled work runs on a worker thread (real-time use); offline: right after run.
    var liveWorker = false
    var fifoFrames = 0

    /// Checks that the plug-in can be loaded (binary, port data, required features: the errors
    /// AudioComponentInstanceNew reports) and lays out its elements and parameters. Runs no
    /// plug-in code. Thread: setup.
    public init(plugin: LV2PluginDescriptor, access: LV2WorldAccess, description: AudioComponentDescription) throws {
        self.plugin = plugin
        self.access = access
        let sampleRate = 44_100.0
        // A plug-in that requires lv2:isLive loads only live, so its unit starts in live mode.
        let requiresLive = access.withWorld { _ in plugin.requiresLive }
        (layout, presetList, controlDescriptors, patchParameters) = try access.withWorldThrowingAudioErrors { _ in
            try LV2Instance.checkLoadable(plugin, configuration: .init(live: requiresLive))
            return (
                LV2UnitLayout(plugin: plugin, sampleRate: sampleRate), plugin.presets, LV2ParameterDescriptor.read(plugin),
                LV2PatchParameter.read(plugin)
            )
        }
        liveWorker = requiresLive
        midiQueue = RenderEventQueue.allocate(capacity: 512)
        let atomsCanCross = access.withWorld { _ in !plugin.uis.isEmpty && plugin.ports.contains { $0.kind == .atom } }
        uiAtoms = atomsCanCross ? LV2UIAtomLink.allocate() : nil
        super.init(
            description: description, inputs: layout.inputs.count, outputs: layout.outputs.count,
            channels: 2, sampleRate: sampleRate,
            parameters: layout.controls.map(\.definition) + Self.patchDefinitions(patchParameters))
        for (i, bus) in layout.inputs.enumerated() {
            try setFormat(.canonical(sampleRate: sampleRate, channels: UInt32(bus.ports.count)), kAudioUnitScope_Input, UInt32(i))
        }
        for (i, bus) in layout.outputs.enumerated() {
            try setFormat(.canonical(sampleRate: sampleRate, channels: UInt32(bus.ports.count)), kAudioUnitScope_Output, UInt32(i))
        }
    }

    deinit {
        RenderEventQueue.deallocate(midiQueue)
        uiAtoms?.deallocate()  // an open UI keeps this unit alive (LV2PluginUIAtoms), so none holds it
    }

    /// Canonical Float32 with exactly the element's channel count (LV2 ports are fixed).
    public override func accepts(format: AudioStreamBasicDescription, scope: AudioUnitScope, element: AudioUnitElement) -> Bool {
        guard format.isCanonical, format.isValidLinearPCM else { return false }
        let buses = scope == kAudioUnitScope_Input ? layout.inputs : layout.outputs
        return Int(element) < buses.count && Int(format.mChannelsPerFrame) == buses[Int(element)].ports.count
    }

    public override var acceptsMIDI: Bool { layout.hasMIDIInput }

    /// The plug-in's latency port (known from initialize on: see startPlugin; then after its last
    /// run) plus the FIFO of a fixed-block plug-in.
    public override var latency: Double {
        let frames = Double(lv2Instance?.latencyFrames ?? 0) + Double(fifoFrames)
        return frames / sampleRate
    }

    public override var factoryPresets: [(number: Int32, name: String)] {
        presetList.enumerated().map { (Int32($0.offset), $0.element.label) }
    }

    /// Sets the parameters to the preset's port values; its other state is loaded into the
    /// plug-in now, or at the next initialize. Thread: setup.
    public override func applyFactoryPreset(_ number: Int32) throws {
        let preset = presetList[Int(number)]
        let values = try access.withWorldThrowingAudioErrors { _ in try plugin.presetPortValues(uri: preset.uri) }
        setParameters(fromPortValues: values)
        if let instance = lv2Instance {
            try access.withWorldThrowingAudioErrors { _ in try instance.loadPreset(uri: preset.uri) }
            controlPortsOverwritten()
        } else {
            pendingPresetURI = preset.uri
            pendingState = nil
        }
    }

    /// Writes LV2 port values (by symbol) into the parameters that show them, kept to each
    /// parameter's range (a preset may hold a value its plug-in's data does not allow).
    func setParameters(fromPortValues values: [String: Float]) {
        let ports = plugin.ports
        for control in layout.controls where !control.isOutput {
            let id = AudioUnitParameterID(control.portIndex)
            guard let value = values[ports[control.portIndex].symbol], value.isFinite,
                let slot = parameters.slot(id, kAudioUnitScope_Global, 0),
                let definition = parameters.definition(id, kAudioUnitScope_Global, 0)
            else { continue }
            let shown = control.indexedValues.map { Float(LV2UnitLayout.nearestIndex(of: value, in: $0)) } ?? value
            slot.pointee = min(max(shown, definition.minValue), definition.maxValue)
        }
    }

    /// Redeclares the parameters of `lv2:sampleRate` ports for the new rate: bounds and default
    /// are multiples of it. A parameter still at its old default moves to the new default; any
    /// other value is kept, clamped into the new range. Thread: setup (uninitialized).
    public override func sampleRateDidChange(from oldRate: Double) {
        let relative = controlDescriptors.filter(\.isSampleRateRelative)
        guard !relative.isEmpty else { return }
        let old = Dictionary(
            uniqueKeysWithValues: relative.compactMap { p -> (AudioUnitParameterID, (Float, Float))? in
                let id = AudioUnitParameterID(p.portIndex)
                guard let d = parameters.definition(id, kAudioUnitScope_Global, 0),
                    let slot = parameters.slot(id, kAudioUnitScope_Global, 0)
                else { return nil }
                return (id, (slot.pointee, d.defaultValue))
            })
        let rescaled = Dictionary(
            uniqueKeysWithValues: relative.map {
                (AudioUnitParameterID($0.portIndex), LV2UnitLayout.control($0, sampleRate: sampleRate).definition)
            })
        redeclareParameters(parameterDefinitions.map { rescaled[$0.id] ?? $0 })
        for (id, (value, oldDefault)) in old {
            guard let d = rescaled[id], let slot = parameters.slot(id, kAudioUnitScope_Global, 0) else { continue }
            slot.pointee = value == oldDefault ? d.defaultValue : min(max(value, d.minValue), d.maxValue)
        }
    }

    /// If the plug-in produced NaN or infinite samples since the last call (the output was
    /// silenced and the render returned kAudioUnitErr_InvalidOfflineRender), a sentence saying so.
    /// Thread: setup.
    public func takeRenderProblem() -> String? {
        guard let r = renderState, r.pointee.producedNonFinite else { return nil }
        r.pointee.producedNonFinite = false
        return "LV2 plug-in <\(plugin.uri)> produced NaN or infinite samples; its output was silenced. "
            + "Check its parameters, or report the fault to its author."
    }

    // MARK: Hooks (bodies in LV2Unit+Lifecycle.swift and LV2Unit+State.swift)

    public override func allocateRenderResources() throws { try startPlugin() }
    public override func deallocateRenderResources() { stopPlugin() }
    public override func resetState() { resetPlugin() }
    public override func saveExtraState() -> [String: PropertyListValue] { saveLV2State() }
    public override func restoreExtraState(_ state: [String: PropertyListValue]) throws { try restoreLV2State(state) }

    public override func customPropertyInfo(
        _ id: AudioUnitPropertyID, _ scope: AudioUnitScope,
        _ element: AudioUnitElement
    ) throws -> (size: UInt32, writable: Bool)? {
        try lv2PropertyInfo(id, scope)
    }

    public override func getCustomProperty(
        _ id: AudioUnitPropertyID, _ scope: AudioUnitScope, _ element: AudioUnitElement,
        _ data: UnsafeMutableRawPointer
    ) throws {
        getLV2Property(id, data)
    }

    public override func setCustomProperty(
        _ id: AudioUnitPropertyID, _ scope: AudioUnitScope, _ element: AudioUnitElement,
        _ data: UnsafeRawPointer, _ size: UInt32
    ) throws {
        try setLV2Property(id, data, size)
    }

    // MARK: Render

    /// Thread: render.
    @_noAllocation @_noLocks
    public override func renderBus(
        _ bus: UInt32, flags: UnsafeMutablePointer<AudioUnitRenderActionFlags>,
        timeStamp: UnsafePointer<AudioTimeStamp>, frames: UInt32,
        output: UnsafeMutablePointer<AudioBufferList>
    ) -> OSStatus {
        guard let r = renderState else { return kAudioUnitErr_Uninitialized }
        return lv2UnitRender(
            r, midiQueue, renderState(), element: Int(bus), flags: flags, timeStamp: timeStamp, frames: frames, output: output)
    }

    /// Queues a channel message for the plug-in's MIDI input at `offset` frames into the next
    /// render call. Thread: any (lock-free).
    public override func midiEvent(status: UInt32, data1: UInt32, data2: UInt32, offset: UInt32) -> OSStatus {
        guard layout.hasMIDIInput else { return kAudio_UnimplementedError }
        let length = lv2MIDIMessageLength(UInt8(truncatingIfNeeded: status))
        guard length > 0, status <= 0xFF else { return kAudio_ParamError }
        let event = RenderEvent.midi(
            status: UInt8(status), data1: UInt8(truncatingIfNeeded: data1 & 0x7F), data2: UInt8(truncatingIfNeeded: data2 & 0x7F),
            offset: Int(offset))
        return midiQueue.pointee.push(event) ? noErr : kAudioUnitErr_CannotDoInCurrentContext
    }
}

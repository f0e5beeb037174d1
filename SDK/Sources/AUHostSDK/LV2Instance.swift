import AudioUnitBase
import CLV2Export

/// One LV2 instance of the unit: the SDK's unit (formats set, initialized at instantiate) and the
/// memory `run` reads (``LV2RunState``). The LV2 handle is the run state's address; the run state
/// points back at this object, which it keeps alive (retained once at instantiate, released at
/// cleanup), so `run` touches no reference count.
///
/// Thread: setup for every member (LV2's instantiation class).
final class LV2Instance {
    let unit: AUBase
    let layout: LV2PortLayout
    let features: LV2Features
    let run: UnsafeMutablePointer<LV2RunState>
    /// The most frames one render call of the unit takes; `run` splits longer blocks.
    static let defaultMaxFrames = 4096
    static let largestMaxFrames = 65_536

    private init(unit: AUBase, layout: LV2PortLayout, features: LV2Features, run: UnsafeMutablePointer<LV2RunState>) {
        self.unit = unit
        self.layout = layout
        self.features = features
        self.run = run
    }

    /// Makes and initializes the unit at `sampleRate` with the layout's channels; nil (the host is
    /// told instantiation failed) when the unit refuses, or when an instrument gets no urid:map
    /// (its MIDI arrives as midi:MidiEvent atoms, and that type is a URID).
    static func make(_ factory: LV2UnitFactory, sampleRate: Double, features: LV2Features) -> LV2_Handle? {
        guard sampleRate > 0, sampleRate.isFinite else { return nil }
        if factory.isInstrument && features.map == nil { return nil }
        let unit = factory.make()
        guard
            let layout = try? LV2PortLayout(
                unit: unit, isInstrument: factory.isInstrument, wantsMusicalContext: factory.wantsMusicalContext)
        else { return nil }
        // maxBlockLength when offered (bounded), else a default; longer runs are split.
        let maxFrames = min(features.maxBlockLength ?? defaultMaxFrames, largestMaxFrames)
        do {
            if layout.audioInputs > 0 {
                try unit.setFormat(.canonical(sampleRate: sampleRate, channels: UInt32(layout.audioInputs)), kAudioUnitScope_Input, 0)
            }
            try unit.setFormat(.canonical(sampleRate: sampleRate, channels: UInt32(layout.audioOutputs)), kAudioUnitScope_Output, 0)
            var frames = UInt32(maxFrames)
            try unit.setProperty(kAudioUnitProperty_MaximumFramesPerSlice, kAudioUnitScope_Global, 0, &frames, 4)
            try unit.initialize()
        } catch {
            return nil
        }
        let run = LV2RunState.allocate(layout: layout, maxFrames: maxFrames, unit: unit)
        run.pointee.midiEventType = features.urid(LV2URI.midiEvent)
        if layout.takesTime, features.map != nil {
            run.pointee.timeURIDs = LV2TimeURIDs(features)
            run.pointee.time.sampleRate = sampleRate
            // The unit asks its host callbacks where the music is, as in any host; here they
            // answer from the time:Position objects `run` reads (LV2RunState+Time.swift).
            var info = lv2HostCallbacks(run)
            try? unit.setProperty(
                kAudioUnitProperty_HostCallbacks, kAudioUnitScope_Global, 0, &info, UInt32(MemoryLayout<HostCallbackInfo>.size))
        }
        run.pointee.latencyFrames = Float((unit.latency * sampleRate).rounded())
        let instance = LV2Instance(unit: unit, layout: layout, features: features, run: run)
        run.pointee.owner = Unmanaged.passRetained(instance).toOpaque()
        return UnsafeMutableRawPointer(run)
    }

    /// The instance behind an LV2 handle.
    static func from(_ handle: LV2_Handle) -> LV2Instance {
        Unmanaged<LV2Instance>.fromOpaque(handle.assumingMemoryBound(to: LV2RunState.self).pointee.owner!).takeUnretainedValue()
    }

    /// LV2 activate: the unit starts from a clean state (AudioUnitReset), as a freshly initialized one.
    func activate() {
        unit.reset()
        run.pointee.sampleTime = 0
        // Where the music is is the host's to say again (hosts send time:Position after activate).
        run.pointee.time = LV2HostTime(sampleRate: run.pointee.time.sampleRate)
    }

    /// After a state restore: the control ports override the restored values only where they change.
    func adoptParameterValues() {
        for (i, control) in layout.controls.enumerated() {
            run.pointee.lastControl[i] = (try? unit.parameter(control.definition.id)) ?? .nan
        }
    }

    /// LV2 cleanup: uninitializes the unit and frees the run state.
    static func destroy(_ handle: LV2_Handle) {
        let run = handle.assumingMemoryBound(to: LV2RunState.self)
        let owner = Unmanaged<LV2Instance>.fromOpaque(run.pointee.owner!)
        owner.takeUnretainedValue().unit.uninitialize()
        LV2RunState.free(run)
        owner.release()
    }
}

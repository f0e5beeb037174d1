import AUHostCore
import CLADSPA
import CLV2SampleScan
import Synchronization

// Everything the render thread touches for a LADSPA unit, in one file: plain memory built at
// initialize, and the render itself. A cycle pulls the input element, points the audio ports at
// its buffers and the caller's output buffers (connect_port only for a port whose buffer moved),
// then runs the plug-in over the slices between scheduled parameter changes, writing each
// parameter (kept to its range) into its control port first. An INPLACE_BROKEN plug-in whose
// output buffer is also an input buffer gets that input copied into the unit's own buffer.

/// The render-time view of an initialized LADSPA unit.
struct LADSPAUnitRenderState {
    var descriptor: UnsafePointer<LADSPA_Descriptor>
    var handle: LADSPA_Handle
    /// Port index of each input/output channel.
    var inputPorts: UnsafeMutablePointer<Int>
    var inputCount: Int
    var outputPorts: UnsafeMutablePointer<Int>
    var outputCount: Int
    /// Where each channel's samples are this cycle.
    var inputData: UnsafeMutablePointer<UnsafeMutablePointer<Float>>
    var outputData: UnsafeMutablePointer<UnsafeMutablePointer<Float>>
    /// The unit's own input buffers (maximum slice each): silence, or copies for INPLACE_BROKEN.
    var inputOwn: UnsafeMutablePointer<UnsafeMutablePointer<Float>>
    /// What each audio port (inputs, then outputs) is connected to; nil until the first cycle.
    var connected: UnsafeMutablePointer<UnsafeMutableRawPointer?>
    /// Control inputs: parameter slot → control port float, kept to the range.
    var controlSlots: UnsafeMutablePointer<UnsafeMutablePointer<Float>>
    var controlPorts: UnsafeMutablePointer<UnsafeMutablePointer<Float>>
    var controlMinimum: UnsafeMutablePointer<Float>
    var controlMaximum: UnsafeMutablePointer<Float>
    var controlCount: Int
    /// Control outputs: port float → read-only parameter slot, kept to the parameter's range.
    var meterSlots: UnsafeMutablePointer<UnsafeMutablePointer<Float>>
    var meterPorts: UnsafeMutablePointer<UnsafeMutablePointer<Float>>
    var meterMinimum: UnsafeMutablePointer<Float>
    var meterMaximum: UnsafeMutablePointer<Float>
    var meterIndices: UnsafeMutablePointer<Int>
    var meterCount: Int
    /// One float per port: what control ports are connected to.
    var controlStorage: UnsafeMutablePointer<Float>
    var inPlaceBroken: Bool
    /// DSSI synth: run_synth with the MIDI queue's events as ALSA sequencer events (room for
    /// `eventCapacity`), and the program asked for (an index into the plug-in's programs, -1 none)
    /// against the one selected last.
    var dssi: UnsafePointer<DSSI_Descriptor>?
    var events: UnsafeMutablePointer<snd_seq_event_t>
    var eventCapacity: Int
    var programBanks: UnsafeMutablePointer<UInt>
    var programNumbers: UnsafeMutablePointer<UInt>
    var programCount: Int
    var requestedProgram: UnsafeMutablePointer<Atomic<Int>>
    var selectedProgram: Int
    /// kDSSIUnitProperty_Program: the request (``SelectedBankProgram``) against the one handled last.
    var requestedBankProgram: UnsafeMutablePointer<Atomic<Int>>
    var selectedBankProgram: Int
    /// For a synth with run_multiple_synths alone: its one-instance arrays (handle, event list, count).
    var synthHandles: UnsafeMutablePointer<LADSPA_Handle?>
    var synthEventLists: UnsafeMutablePointer<UnsafeMutablePointer<snd_seq_event_t>?>
    var synthEventCounts: UnsafeMutablePointer<UInt>
    /// Set when a cycle's output held NaN or infinity (and was silenced); read on setup threads.
    var producedNonFinite: Bool
}

/// Renders the output element for one AudioUnitRender call. Thread: render.
@_noAllocation @_noLocks
func ladspaUnitRender(
    _ r: UnsafeMutablePointer<LADSPAUnitRenderState>, _ midi: UnsafeMutablePointer<RenderEventQueue>,
    _ au: UnsafeMutablePointer<RenderState>,
    flags: UnsafeMutablePointer<AudioUnitRenderActionFlags>, timeStamp: UnsafePointer<AudioTimeStamp>,
    frames: UInt32, output: UnsafeMutablePointer<AudioBufferList>
) -> OSStatus {
    let n = Int(frames)
    let buffers = audioBuffers(output)
    guard Int(output.pointee.mNumberBuffers) == r.pointee.outputCount else { return kAudio_ParamError }
    for c in 0..<r.pointee.outputCount {
        guard let data = buffers[c].mData else { return kAudio_ParamError }
        r.pointee.outputData[c] = data.assumingMemoryBound(to: Float.self)
    }
    let status = ladspaUnitPullInput(r, au, flags: flags, timeStamp: timeStamp, frames: frames)
    guard status == noErr else { return status }
    if r.pointee.inPlaceBroken { ladspaUnitSeparateBuffers(r, frames: n) }
    let synth = r.pointee.dssi != nil
    if synth {
        midi.pointee.takeArrivals()
        ladspaUnitSelectProgram(r)
        ladspaUnitSelectBankProgram(r)
    }
    var position = 0
    var nextEvent = 0
    let scheduled = au.pointee.hasScheduledEvents()
    while position < n {
        let slice = scheduled ? min(_unsafePerformance { au.pointee.applyEvents(at: position, frames: n) }, n - position) : n
        ladspaUnitApplyControls(r)
        ladspaUnitConnect(r, from: position)
        // The plug-in's own code: outside what the performance checker can see, real-time by its
        // LADSPA contract (LADSPA_PROPERTY_HARD_RT_CAPABLE says how far).
        if synth {
            let count = ladspaUnitCollectEvents(r, midi, from: position, frames: slice, next: &nextEvent)
            ladspaUnitRunSynth(r, frames: slice, events: count)
        } else {
            _unsafePerformance { r.pointee.descriptor.pointee.run?(r.pointee.handle, UInt(slice)) }
        }
        position += slice
    }
    if scheduled { _unsafePerformance { au.pointee.carryEvents(past: n) } }
    if synth && midi.pointee.pendingCount > 0 { midi.pointee.carry(from: nextEvent, past: n) }
    ladspaUnitReportMeters(r)
    return ladspaUnitCheckFinite(r, frames: n)
}

/// Selects the program asked for since the last cycle (DSSI: select_program belongs to the audio
/// thread, between run_synth calls).
@_noAllocation @_noLocks
private func ladspaUnitSelectProgram(_ r: UnsafeMutablePointer<LADSPAUnitRenderState>) {
    let wanted = r.pointee.requestedProgram.pointee.load(ordering: .acquiring)
    guard wanted != r.pointee.selectedProgram, wanted >= 0, wanted < r.pointee.programCount else { return }
    r.pointee.selectedProgram = wanted
    let bank = r.pointee.programBanks[wanted], number = r.pointee.programNumbers[wanted]
    _unsafePerformance { r.pointee.dssi!.pointee.select_program?(r.pointee.handle, bank, number) }
}

/// Selects the bank and program last set through kDSSIUnitProperty_Program, once per set. A run
/// of zero frames comes first: a plug-in applies there what configure() left pending
/// (fluidsynth-dssi's "load" selects the soundfont's first preset at its next run, which would
/// otherwise undo this selection).
@_noAllocation @_noLocks
private func ladspaUnitSelectBankProgram(_ r: UnsafeMutablePointer<LADSPAUnitRenderState>) {
    let wanted = r.pointee.requestedBankProgram.pointee.load(ordering: .acquiring)
    guard wanted >= 0, wanted != r.pointee.selectedBankProgram else { return }
    r.pointee.selectedBankProgram = wanted
    ladspaUnitRunSynth(r, frames: 0, events: 0)
    let bank = SelectedBankProgram.bank(wanted), program = SelectedBankProgram.program(wanted)
    _unsafePerformance { r.pointee.dssi!.pointee.select_program?(r.pointee.handle, bank, program) }
}

/// Runs the synth over `frames` frames with the first `count` of `events`: run_synth, or
/// run_multiple_synths with this one instance (the unit lets only one instance of such a plug-in
/// run at a time, as DSSI asks every active instance to be in each call).
@_noAllocation @_noLocks
private func ladspaUnitRunSynth(_ r: UnsafeMutablePointer<LADSPAUnitRenderState>, frames: Int, events count: Int) {
    let dssi = r.pointee.dssi!
    // The plug-in's own code: real-time by its DSSI contract.
    if let runSynth = dssi.pointee.run_synth {
        _unsafePerformance { runSynth(r.pointee.handle, UInt(frames), r.pointee.events, UInt(count)) }
    } else {
        r.pointee.synthEventCounts[0] = UInt(count)
        let handles = r.pointee.synthHandles, lists = r.pointee.synthEventLists, counts = r.pointee.synthEventCounts
        _unsafePerformance { dssi.pointee.run_multiple_synths?(1, handles, UInt(frames), lists, counts) }
    }
}

/// Runs the synth over `frames` frames with no events into whatever its ports point at (at
/// initialize: the unit's own buffers, `frames` long at most), the output discarded.
/// Thread: setup (before the first render).
func ladspaUnitRunSynthSilently(_ r: UnsafeMutablePointer<LADSPAUnitRenderState>, frames: Int) {
    guard r.pointee.dssi != nil else { return }
    ladspaUnitRunSynth(r, frames: frames, events: 0)
}

/// Converts the queued MIDI events due in `from ..< from + frames` into `events`, at their frame
/// within the slice; returns how many. Events that do not fit wait for the next slice.
@_noAllocation @_noLocks
private func ladspaUnitCollectEvents(
    _ r: UnsafeMutablePointer<LADSPAUnitRenderState>, _ midi: UnsafeMutablePointer<RenderEventQueue>,
    from start: Int, frames: Int, next: inout Int
) -> Int {
    var count = 0
    while next < midi.pointee.pendingCount && midi.pointee.pending[next].offset < start + frames && count < r.pointee.eventCapacity {
        let e = midi.pointee.pending[next]
        let frame = UInt32(min(max(e.offset - start, 0), frames - 1))
        // A C function (a memset and a switch): no allocation, no locks.
        count += Int(_unsafePerformance { auhost_dssi_event_from_midi(r.pointee.events + count, frame, e.status, e.data1, e.data2) })
        next += 1
    }
    return count
}

/// Pulls input element 0 (an effect's input must be connected) and points `inputData` at it.
@_noAllocation @_noLocks
private func ladspaUnitPullInput(
    _ r: UnsafeMutablePointer<LADSPAUnitRenderState>, _ au: UnsafeMutablePointer<RenderState>,
    flags: UnsafeMutablePointer<AudioUnitRenderActionFlags>, timeStamp: UnsafePointer<AudioTimeStamp>, frames: UInt32
) -> OSStatus {
    let count = r.pointee.inputCount
    guard count > 0 else { return noErr }
    guard au.pointee.inputHasSource(0) else { return kAudioUnitErr_NoConnection }
    // AUBase's pull (render-safe by its own checked contract) calls the host's callback or the upstream unit.
    let status = _unsafePerformance { au.pointee.pullInput(0, flags, timeStamp, frames) }
    guard status == noErr else { return status }
    guard let list = au.pointee.inputs[0].buffers.list, Int(list.pointee.mNumberBuffers) == count else { return kAudio_ParamError }
    let buffers = audioBuffers(list)
    for c in 0..<count {
        guard let data = buffers[c].mData else { return kAudio_ParamError }
        r.pointee.inputData[c] = data.assumingMemoryBound(to: Float.self)
    }
    return noErr
}

/// INPLACE_BROKEN: an input whose buffer is also an output's is copied into the unit's own buffer.
@_noAllocation @_noLocks
private func ladspaUnitSeparateBuffers(_ r: UnsafeMutablePointer<LADSPAUnitRenderState>, frames n: Int) {
    for i in 0..<r.pointee.inputCount {
        let data = r.pointee.inputData[i]
        var shared = false
        for o in 0..<r.pointee.outputCount where r.pointee.outputData[o] == data { shared = true }
        guard shared else { continue }
        UnsafeMutableRawPointer(r.pointee.inputOwn[i]).copyMemory(from: data, byteCount: n * 4)
        r.pointee.inputData[i] = r.pointee.inputOwn[i]
    }
}

/// Points the audio ports at frame `start` of this cycle's buffers, calling connect_port only
/// for ports whose buffer moved.
@_noAllocation @_noLocks
private func ladspaUnitConnect(_ r: UnsafeMutablePointer<LADSPAUnitRenderState>, from start: Int) {
    let connect = r.pointee.descriptor.pointee.connect_port, handle = r.pointee.handle
    let inputs = r.pointee.inputCount
    for k in 0..<inputs {
        let data = r.pointee.inputData[k] + start
        if r.pointee.connected[k] != UnsafeMutableRawPointer(data) {
            _unsafePerformance { connect?(handle, UInt(r.pointee.inputPorts[k]), data) }
            r.pointee.connected[k] = UnsafeMutableRawPointer(data)
        }
    }
    for k in 0..<r.pointee.outputCount {
        let data = r.pointee.outputData[k] + start
        if r.pointee.connected[inputs + k] != UnsafeMutableRawPointer(data) {
            _unsafePerformance { connect?(handle, UInt(r.pointee.outputPorts[k]), data) }
            r.pointee.connected[inputs + k] = UnsafeMutableRawPointer(data)
        }
    }
}

/// Writes every parameter into its control port, kept to its range (NaN becomes the minimum).
/// Thread: render (or setup while no render runs).
@_noAllocation @_noLocks
func ladspaUnitApplyControls(_ r: UnsafeMutablePointer<LADSPAUnitRenderState>) {
    for k in 0..<r.pointee.controlCount {
        let value = r.pointee.controlSlots[k].pointee
        let low = r.pointee.controlMinimum[k], high = r.pointee.controlMaximum[k]
        r.pointee.controlPorts[k].pointee = value.isNaN ? low : min(max(value, low), high)
    }
}

/// Copies the control outputs into their read-only parameters, clamped to each parameter's
/// range; the port keeps the plug-in's own value (Latency reads it). Thread: render (or setup).
@_noAllocation @_noLocks
func ladspaUnitReportMeters(_ r: UnsafeMutablePointer<LADSPAUnitRenderState>) {
    for k in 0..<r.pointee.meterCount {
        let value = r.pointee.meterPorts[k].pointee
        let low = r.pointee.meterMinimum[k], high = r.pointee.meterMaximum[k]
        r.pointee.meterSlots[k].pointee = value.isNaN ? low : min(max(value, low), high)
    }
}

/// Silences the cycle's output and flags it when any sample is NaN or infinite.
@_noAllocation @_noLocks
private func ladspaUnitCheckFinite(_ r: UnsafeMutablePointer<LADSPAUnitRenderState>, frames n: Int) -> OSStatus {
    var flagged = false
    for k in 0..<r.pointee.outputCount {
        // The shared vector scan (LV2SampleScan.c): a C call, real-time safe.
        if _unsafePerformance({ auhost_samples_contain_non_finite(r.pointee.outputData[k], n) }) { flagged = true }
    }
    guard flagged else { return noErr }
    for k in 0..<r.pointee.outputCount { r.pointee.outputData[k].update(repeating: 0, count: n) }
    r.pointee.producedNonFinite = true
    return kAudioUnitErr_InvalidOfflineRender
}

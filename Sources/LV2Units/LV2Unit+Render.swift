import AUHostCore
import LV2Host
import Synchronization

// Everything the render thread touches for an LV2 unit, in one file: the render state (plain
// memory built at initialize), the MIDI queue, and the render itself. No class references are
// touched here; the plug-in is reached through its LV2RenderContext. MIDI arrives through the
// unit model's RenderEventQueue (any thread pushes; the cycle takes the arrivals first).
//
// A cycle: pull every input element, point the plug-in's audio/CV ports at those buffers and at
// the output buffers (zero copy; connect_port only for a port whose buffer moved), then run it
// over the slices between scheduled parameter changes and tempo changes (cut into powers of two
// when the plug-in needs them), delivering queued MIDI at its offsets. Only parameters whose
// value changed reach their control port, and with nothing scheduled or queued no event code
// runs. A plug-in that needs a fixed block length runs from a FIFO instead: input is collected
// into its own buffers and each full block runs once, which delays the output by exactly one
// block (reported in the Latency property).
//
// The cycle's steps are inlined into one function: as calls they cost ~15 ns of LV2Overhead's
// ~140 ns over a direct run. A plain plug-in with nothing scheduled or queued takes a short way
// that skips the event, MIDI and tempo bookkeeping (another ~25 ns).

/// The render-time view of an initialized LV2 unit.
struct LV2UnitRenderState {
    var context: UnsafeMutablePointer<LV2RenderContext>
    /// Port index per channel, elements one after another; `inputStart[i]` is element i's first.
    var inputPorts: UnsafeMutablePointer<UInt32>
    var inputStart: UnsafeMutablePointer<Int>
    var inputElements: Int
    var outputPorts: UnsafeMutablePointer<UInt32>
    var outputStart: UnsafeMutablePointer<Int>
    var outputElements: Int
    /// Channels of all input/output elements together (`inputStart[inputElements]`, ...).
    var inputChannels: Int
    var outputChannels: Int
    /// Where each input/output channel's samples are this cycle.
    var inputData: UnsafeMutablePointer<UnsafeMutablePointer<Float>>
    var outputData: UnsafeMutablePointer<UnsafeMutablePointer<Float>>
    /// The instance's own port buffers (the FIFO's, and silence for unconnected inputs).
    var inputOwn: UnsafeMutablePointer<UnsafeMutablePointer<Float>>
    var outputOwn: UnsafeMutablePointer<UnsafeMutablePointer<Float>>
    /// With several output elements every output goes to these first and is copied to the
    /// element pulled (once per time stamp); with one it goes straight to the caller's buffers.
    var outputStage: UnsafeMutablePointer<UnsafeMutablePointer<Float>>
    /// What each audio port (inputs, then outputs) was last connected to: connect_port is called
    /// only when this changes. Nil until the first cycle connects it.
    var connected: UnsafeMutablePointer<UnsafeMutableRawPointer?>
    var multiElement: Bool
    /// One output element, no FIFO, no power-of-two pieces and no time:Position input: with no
    /// event scheduled and no MIDI queued, a cycle is one run (`lv2UnitCycle`'s short way).
    var plain: Bool
    /// Control inputs: parameter slot → control port float, through `indexedValues` (count
    /// `indexedCounts[k]`) when the parameter is an index into scale points.
    var controlSlots: UnsafeMutablePointer<UnsafeMutablePointer<Float>>
    var controlPorts: UnsafeMutablePointer<UnsafeMutablePointer<Float>>
    var indexedValues: UnsafeMutablePointer<UnsafeMutablePointer<Float>?>
    var indexedCounts: UnsafeMutablePointer<Int>
    /// Each control input's declared range: a value outside (restored state, a ramp) is clamped
    /// before the plug-in sees it; NaN becomes the minimum.
    var controlMinimum: UnsafeMutablePointer<Float>
    var controlMaximum: UnsafeMutablePointer<Float>
    var controlCount: Int
    /// The slot value (bit pattern) each control port was last written from; `unwritten` forces
    /// a write. Setup code that writes control ports itself (a preset, restored state) bumps
    /// `controlsOverwritten`; the next cycle then writes every control port again.
    var controlWritten: UnsafeMutablePointer<UInt64>
    var controlsOverwritten: UnsafeMutablePointer<Atomic<UInt>>
    var controlsSeen: UInt
    /// Control outputs: port float → read-only parameter slot, kept to the parameter's range.
    var meterSlots: UnsafeMutablePointer<UnsafeMutablePointer<Float>>
    var meterPorts: UnsafeMutablePointer<UnsafeMutablePointer<Float>>
    var meterMinimum: UnsafeMutablePointer<Float>
    var meterMaximum: UnsafeMutablePointer<Float>
    var meterCount: Int
    var requiresPowerOf2: Bool
    /// Non-zero: the plug-in runs only blocks of this many frames, from the FIFO.
    var fixedBlock: Int
    var fifoFill: Int
    /// The main input (element 0) of an effect must be connected; other inputs default to silence.
    var requiresMainInput: Bool
    var lastSampleTime: Double
    var lastFrames: UInt32
    var servedElements: UInt64
    var hasRun: Bool
    /// Set when a cycle's output held NaN or infinity (and was silenced); read on setup threads.
    var producedNonFinite: Bool
    /// The musical time last sent as time:Position (LV2Unit+Time.swift).
    var time = LV2UnitTimeFollower()
    /// Patch parameters to send as patch:Set (LV2Unit+Patch.swift).
    var patch = LV2UnitPatchState()
    /// Atoms to and from the plug-in's UI (LV2UIAtomLink), nil for a plug-in without both.
    var uiAtoms: LV2UIAtomLink?
}

/// A `controlWritten` entry that matches no Float's bit pattern.
let lv2UnitControlUnwritten = UInt64.max

/// The length in bytes of a MIDI message with `status`, 0 for a byte that is not a status.
@_noAllocation @_noLocks
func lv2MIDIMessageLength(_ status: UInt8) -> Int {
    switch status & 0xF0 {
    case 0x80, 0x90, 0xA0, 0xB0, 0xE0: return 3
    case 0xC0, 0xD0: return 2
    case 0xF0: return status == 0xF2 ? 3 : (status == 0xF1 || status == 0xF3) ? 2 : 1
    default: return 0
    }
}

/// Renders output element `element` for one AudioUnitRender call. Thread: render.
@inline(__always) @_noAllocation @_noLocks
func lv2UnitRender(
    _ r: UnsafeMutablePointer<LV2UnitRenderState>, _ midi: UnsafeMutablePointer<RenderEventQueue>,
    _ au: UnsafeMutablePointer<RenderState>, element: Int,
    flags: UnsafeMutablePointer<AudioUnitRenderActionFlags>, timeStamp: UnsafePointer<AudioTimeStamp>,
    frames: UInt32, output: UnsafeMutablePointer<AudioBufferList>
) -> OSStatus {
    let buffers = audioBuffers(output)
    let first = r.pointee.outputStart[element], count = r.pointee.outputStart[element + 1] - first
    guard Int(output.pointee.mNumberBuffers) == count else { return kAudio_ParamError }
    if !r.pointee.multiElement {
        for c in 0..<count {
            guard let data = buffers[c].mData else { return kAudio_ParamError }
            r.pointee.outputData[first + c] = data.assumingMemoryBound(to: Float.self)
        }
        return lv2UnitCycle(r, midi, au, flags: flags, timeStamp: timeStamp, frames: frames)
    }
    // Several output elements: run once per time stamp, then copy this element out.
    let time = timeStamp.pointee
    let bit: UInt64 = 1 << UInt64(min(element, 63))
    let fresh =
        time.mFlags.rawValue & AudioTimeStampFlags.sampleTimeValid.rawValue == 0 || !r.pointee.hasRun
        || time.mSampleTime != r.pointee.lastSampleTime || frames != r.pointee.lastFrames
        || r.pointee.servedElements & bit != 0
    if fresh {
        let status = lv2UnitCycle(r, midi, au, flags: flags, timeStamp: timeStamp, frames: frames)
        guard status == noErr else { return status }
        r.pointee.hasRun = true
        r.pointee.lastSampleTime = time.mSampleTime
        r.pointee.lastFrames = frames
        r.pointee.servedElements = 0
    }
    r.pointee.servedElements |= bit
    for c in 0..<count {
        guard let data = buffers[c].mData else { return kAudio_ParamError }
        data.copyMemory(from: r.pointee.outputStage[first + c], byteCount: Int(frames) * 4)
    }
    return noErr
}

/// One processing cycle of `frames` frames: pull inputs, run, report meters, check the output.
@inline(__always) @_noAllocation @_noLocks
private func lv2UnitCycle(
    _ r: UnsafeMutablePointer<LV2UnitRenderState>, _ midi: UnsafeMutablePointer<RenderEventQueue>,
    _ au: UnsafeMutablePointer<RenderState>,
    flags: UnsafeMutablePointer<AudioUnitRenderActionFlags>, timeStamp: UnsafePointer<AudioTimeStamp>,
    frames: UInt32
) -> OSStatus {
    let n = Int(frames)
    if r.pointee.plain && midi.pointee.isIdle && au.pointee.events.pointee.isIdle {
        let status = lv2UnitPullInputs(r, au, flags: flags, timeStamp: timeStamp, frames: frames)
        guard status == noErr else { return status }
        lv2UnitApplyControls(r)
        var next = 0
        let ran = lv2UnitRunPiece(r, midi, from: 0, frames: n, next: &next)
        guard ran == noErr else { return ran }
        lv2UnitReportMeters(r)
        return lv2UnitCheckFinite(r, frames: n)
    }
    midi.pointee.takeArrivals()
    lv2UnitFollowHostTime(r, au, frames: n)
    let status = lv2UnitPullInputs(r, au, flags: flags, timeStamp: timeStamp, frames: frames)
    guard status == noErr else { return status }
    if r.pointee.multiElement {
        for k in 0..<r.pointee.outputChannels { r.pointee.outputData[k] = r.pointee.outputStage[k] }
    }
    let ran = r.pointee.fixedBlock > 0 ? lv2UnitRunFIFO(r, midi, au, frames: n) : lv2UnitRunDirect(r, midi, au, frames: n)
    if midi.pointee.pendingCount > 0 { lv2UnitCarryMIDI(midi, past: n) }
    guard ran == noErr else { return ran }
    lv2UnitReportMeters(r)
    return lv2UnitCheckFinite(r, frames: n)
}

/// Copies the control outputs into their read-only parameters, clamped to each parameter's range
/// (NaN reads as the minimum). Meters overshoot (swh SC4's −40…12 dB amplitude reads −46 dB on
/// silence); a parameter outside its declared range, or NaN, or infinite, breaks what hosts do with
/// ranges (scale a meter, validate, save and restore), so the parameter never holds one. The port
/// keeps the plug-in's own value, and Latency reads the latency port itself, unclamped.
/// Thread: render (or setup while no render runs).
@inline(__always) @_noAllocation @_noLocks
func lv2UnitReportMeters(_ r: UnsafeMutablePointer<LV2UnitRenderState>) {
    for k in 0..<r.pointee.meterCount {
        let value = r.pointee.meterPorts[k].pointee
        let low = r.pointee.meterMinimum[k], high = r.pointee.meterMaximum[k]
        r.pointee.meterSlots[k].pointee = value.isNaN ? low : min(max(value, low), high)
    }
}

/// Moves the events beyond this call into the next call's numbering.
@_noAllocation @_noLocks
private func lv2UnitCarryMIDI(_ midi: UnsafeMutablePointer<RenderEventQueue>, past n: Int) {
    // Pending events are in sample order: those before frame n were delivered.
    var first = 0
    while first < midi.pointee.pendingCount && midi.pointee.pending[first].offset < n { first += 1 }
    midi.pointee.carry(from: first, past: n)
}

/// Pulls every input element and points `inputData` at its channels; unconnected elements other
/// than an effect's main input read silence.
@inline(__always) @_noAllocation @_noLocks
private func lv2UnitPullInputs(
    _ r: UnsafeMutablePointer<LV2UnitRenderState>, _ au: UnsafeMutablePointer<RenderState>,
    flags: UnsafeMutablePointer<AudioUnitRenderActionFlags>, timeStamp: UnsafePointer<AudioTimeStamp>,
    frames: UInt32
) -> OSStatus {
    for element in 0..<r.pointee.inputElements {
        let first = r.pointee.inputStart[element], count = r.pointee.inputStart[element + 1] - first
        if !au.pointee.inputHasSource(element) {
            if element == 0 && r.pointee.requiresMainInput { return kAudioUnitErr_NoConnection }
            for c in 0..<count {
                UnsafeMutableRawPointer(r.pointee.inputOwn[first + c]).initializeMemory(as: Float.self, repeating: 0, count: Int(frames))
                r.pointee.inputData[first + c] = r.pointee.inputOwn[first + c]
            }
            continue
        }
        let status = _unsafePerformance {
            // AUBase's pull (render-safe by its own checked contract) calls the host's callback or
            // the upstream unit.
            au.pointee.pullInput(element, flags, timeStamp, frames)
        }
        guard status == noErr else { return status }
        guard let list = au.pointee.inputs[element].buffers.list, Int(list.pointee.mNumberBuffers) == count else {
            return kAudio_ParamError
        }
        let buffers = audioBuffers(list)
        for c in 0..<count {
            guard let data = buffers[c].mData else { return kAudio_ParamError }
            r.pointee.inputData[first + c] = data.assumingMemoryBound(to: Float.self)
        }
    }
    return noErr
}

/// Parameter values that changed since they were last written into their control ports (scale
/// point values for indexed parameters); all of them after setup code wrote the ports itself.
/// Thread: render (or setup while no render runs).
@inline(__always) @_noAllocation @_noLocks
func lv2UnitApplyControls(_ r: UnsafeMutablePointer<LV2UnitRenderState>) {
    let overwritten = r.pointee.controlsOverwritten.pointee.load(ordering: .acquiring)
    if overwritten != r.pointee.controlsSeen {
        r.pointee.controlsSeen = overwritten
        r.pointee.controlWritten.update(repeating: lv2UnitControlUnwritten, count: r.pointee.controlCount)
    }
    for k in 0..<r.pointee.controlCount {
        let value = r.pointee.controlSlots[k].pointee
        let bits = UInt64(value.bitPattern)
        if bits == r.pointee.controlWritten[k] { continue }
        r.pointee.controlWritten[k] = bits
        if let table = r.pointee.indexedValues[k] {
            let last = r.pointee.indexedCounts[k] - 1
            let index = value.isFinite ? Int(min(max(value, 0), Float(last)) + 0.5) : 0
            r.pointee.controlPorts[k].pointee = table[index]
        } else {
            let low = r.pointee.controlMinimum[k], high = r.pointee.controlMaximum[k]
            r.pointee.controlPorts[k].pointee = value.isNaN ? low : min(max(value, low), high)
        }
    }
}

/// Runs the slices between parameter changes straight on the cycle's buffers.
@_noAllocation @_noLocks
private func lv2UnitRunDirect(
    _ r: UnsafeMutablePointer<LV2UnitRenderState>, _ midi: UnsafeMutablePointer<RenderEventQueue>,
    _ au: UnsafeMutablePointer<RenderState>, frames n: Int
) -> OSStatus {
    var position = 0
    var next = 0  // the first MIDI event not yet delivered
    let scheduled = au.pointee.hasScheduledEvents()
    var tempoChange = lv2UnitNextTempoChange(r, au, after: 0, frames: n)
    while position < n {
        if let change = tempoChange, change.offset == position {
            lv2UnitTempoChanged(r, change.context, framesLeft: n - position)
            tempoChange = lv2UnitNextTempoChange(r, au, after: position, frames: n)
        }
        var slice = scheduled ? min(_unsafePerformance { au.pointee.applyEvents(at: position, frames: n) }, n - position) : n - position
        if let change = tempoChange { slice = min(slice, change.offset - position) }
        lv2UnitApplyControls(r)
        var remaining = slice
        while remaining > 0 {
            // A plug-in that needs power-of-two runs gets the slice in power-of-two pieces.
            var piece = remaining
            if r.pointee.requiresPowerOf2 { piece = 1 << (Int.bitWidth - 1 - remaining.leadingZeroBitCount) }
            let status = lv2UnitRunPiece(r, midi, from: position, frames: piece, next: &next)
            guard status == noErr else { return status }
            position += piece
            remaining -= piece
        }
    }
    if scheduled { _unsafePerformance { au.pointee.carryEvents(past: n) } }
    return noErr
}

/// Points the ports at frames `from ..< from + frames` of the cycle's buffers, delivers the MIDI
/// due in that range and runs the plug-in once.
@inline(__always) @_noAllocation @_noLocks
private func lv2UnitRunPiece(
    _ r: UnsafeMutablePointer<LV2UnitRenderState>, _ midi: UnsafeMutablePointer<RenderEventQueue>,
    from start: Int, frames: Int, next: inout Int
) -> OSStatus {
    let context = r.pointee.context, connected = r.pointee.connected, inputs = r.pointee.inputChannels
    for k in 0..<inputs {
        let data = UnsafeMutableRawPointer(r.pointee.inputData[k] + start)
        if connected[k] != data {
            lv2ConnectPort(context, index: r.pointee.inputPorts[k], to: data)
            connected[k] = data
        }
    }
    for k in 0..<r.pointee.outputChannels {
        let data = UnsafeMutableRawPointer(r.pointee.outputData[k] + start)
        if connected[inputs + k] != data {
            lv2ConnectPort(context, index: r.pointee.outputPorts[k], to: data)
            connected[inputs + k] = data
        }
    }
    lv2UnitDeliverTime(r)
    lv2UnitDeliverPatch(r)
    if let link = r.pointee.uiAtoms { lv2DeliverUIAtoms(r.pointee.context, link) }
    lv2UnitDeliverMIDI(r, midi, before: start + frames, blockStart: start, blockFrames: frames, next: &next)
    return lv2UnitRunStatus(lv2UnitRun(r, frames: frames))
}

/// Queues the events with offset below `end` into the plug-in's MIDI input, at their frame
/// within the block that starts at cycle frame `blockStart` (earlier ones at frame 0).
@inline(__always) @_noAllocation @_noLocks
private func lv2UnitDeliverMIDI(
    _ r: UnsafeMutablePointer<LV2UnitRenderState>, _ midi: UnsafeMutablePointer<RenderEventQueue>,
    before end: Int, blockStart: Int, blockFrames: Int, next: inout Int
) {
    while next < midi.pointee.pendingCount && midi.pointee.pending[next].offset < end {
        let event = midi.pointee.pending[next]
        let frame = min(max(event.offset - blockStart, 0), blockFrames - 1)
        var bytes = (event.status, event.data1, event.data2)
        let length = lv2MIDIMessageLength(event.status)
        _ = withUnsafeBytes(of: &bytes) { raw in
            lv2QueueMIDI(r.pointee.context, frame: Int64(frame), bytes: raw.baseAddress!, count: length)
        }
        next += 1
    }
}

/// The FIFO for fixed-length plug-ins: output frame k of a block is what the plug-in made from
/// the block before, so the unit's output is its input delayed by exactly one block.
@_noAllocation @_noLocks
private func lv2UnitRunFIFO(
    _ r: UnsafeMutablePointer<LV2UnitRenderState>, _ midi: UnsafeMutablePointer<RenderEventQueue>,
    _ au: UnsafeMutablePointer<RenderState>, frames n: Int
) -> OSStatus {
    // Parameter changes apply at block boundaries: every change due in this call is applied now.
    var position = 0
    if au.pointee.hasScheduledEvents() {
        while position < n { position += max(_unsafePerformance { au.pointee.applyEvents(at: position, frames: n) }, 1) }
        _unsafePerformance { au.pointee.carryEvents(past: n) }
    }
    lv2UnitApplyControls(r)
    let block = r.pointee.fixedBlock
    let inputs = r.pointee.inputChannels, outputs = r.pointee.outputChannels
    var next = 0
    position = 0
    while position < n {
        let fill = r.pointee.fifoFill
        let chunk = min(n - position, block - fill)
        for k in 0..<inputs {
            UnsafeMutableRawPointer(r.pointee.inputOwn[k] + fill).copyMemory(from: r.pointee.inputData[k] + position, byteCount: chunk * 4)
        }
        for k in 0..<outputs {
            UnsafeMutableRawPointer(r.pointee.outputData[k] + position).copyMemory(
                from: r.pointee.outputOwn[k] + fill, byteCount: chunk * 4)
        }
        position += chunk
        r.pointee.fifoFill = fill + chunk
        if r.pointee.fifoFill == block {
            lv2UnitDeliverTime(r)
            lv2UnitDeliverPatch(r)
            if let link = r.pointee.uiAtoms { lv2DeliverUIAtoms(r.pointee.context, link) }
            lv2UnitDeliverMIDI(r, midi, before: position, blockStart: position - block, blockFrames: block, next: &next)
            let status = lv2UnitRunStatus(lv2UnitRun(r, frames: block))
            guard status == noErr else { return status }
            r.pointee.fifoFill = 0
        }
    }
    return noErr
}

/// The plug-in's run, then what it reported of its patch properties taken in, and its atom
/// outputs' events copied for an open UI.
@inline(__always) @_noAllocation @_noLocks
private func lv2UnitRun(_ r: UnsafeMutablePointer<LV2UnitRenderState>, frames: Int) -> LV2RunStatus {
    let status = lv2Run(r.pointee.context, frames: UInt32(frames))
    if case .ok = status {
        lv2UnitTakePatchReplies(r)
        if let link = r.pointee.uiAtoms { lv2ForwardAtomOutputs(r.pointee.context, link) }
    }
    return status
}

@inline(__always) @_noAllocation @_noLocks
private func lv2UnitRunStatus(_ status: LV2RunStatus) -> OSStatus {
    switch status {
    case .ok: return noErr
    case .tooManyFrames, .blockLengthNotAllowed: return kAudioUnitErr_TooManyFramesToProcess
    }
}

/// Silences the cycle's output and flags it when any sample is NaN or infinite, so a broken
/// plug-in cannot poison what follows it.
@inline(__always) @_noAllocation @_noLocks
private func lv2UnitCheckFinite(_ r: UnsafeMutablePointer<LV2UnitRenderState>, frames n: Int) -> OSStatus {
    let outputs = r.pointee.outputChannels
    var flagged = false
    for k in 0..<outputs where lv2ContainsNonFinite(r.pointee.outputData[k], count: n) { flagged = true }
    guard flagged else { return noErr }
    for k in 0..<outputs { UnsafeMutableRawPointer(r.pointee.outputData[k]).initializeMemory(as: Float.self, repeating: 0, count: n) }
    r.pointee.producedNonFinite = true
    return kAudioUnitErr_InvalidOfflineRender
}

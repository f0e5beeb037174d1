import AUHostCore
import CAUHostAtomics

// Everything the render thread touches in a graph, in one file: the real-time checks see only
// bodies in the same file, annotated callees and inlinable code (see Package.swift).
//
// A graph renders by the pull model: the application (or the I/O unit's thread) renders the head;
// every input bus the graph manages is fed by `graphInputTrampoline`, which renders the source
// node's output once per cycle and time stamp (memoised by cycle number and sample time: a
// resampling consumer pulls more than once per cycle) and hands its buffers over without copying. The wiring comes from a Schedule compiled off the render thread; the render thread picks
// the published schedule up at the start of each cycle (in the head's pre-render notification), so
// a cycle never mixes two topologies and never waits for a setup thread.

/// What feeds one managed input bus in a schedule.
public struct ScheduledInput {
    public var kind: InputSourceKind = .none
    public var sourceNode: Int = 0
    public var sourceBus: Int = 0
    /// The source output feeds only this input (and needs no delay): when the consumer pulls into
    /// buffers of its own (in place), the source renders straight into them.
    public var direct = false
    /// `direct` in a schedule that renders serially: nothing else renders the source in this
    /// cycle, so a pull goes straight to the source's render method with no memo (below).
    public var directSerial = false
    /// The source's render method, its `self` and its output, copied from the source node so
    /// that the direct pull reads one record.
    public var sourceRender: AudioUnitRenderProc?
    public var sourceSelf: UnsafeMutableRawPointer?
    public var sourceOutput: UnsafeMutablePointer<ScheduledOutput>?
    public var callback: AURenderCallback?
    public var callbackRefCon: UnsafeMutableRawPointer?
    /// Latency compensation: a delay line for this input (nil when the path needs none).
    public var delay: UnsafeMutablePointer<LatencyCompensationLine>?
    /// Buffers for an application callback when the unit passes NULL mData (channels × maxFrames).
    public var scratch: UnsafeMutablePointer<Float>?
    public var scratchFrames: Int = 0
}

/// A chain of units that support AudioUnitProcessMultiple, each fed only by the one before, in
/// dependency order; the graph renders it flat (``renderProcessRun``).
public struct ProcessRun {
    public var steps: UnsafeMutablePointer<ProcessStep>
    public var count: Int
    /// The second list the units alternate with the consumer's, for `maxFrames` frames.
    public var buffers: BusBuffers
    public var maxFrames: UInt32
}

/// One unit of a chain the graph renders with AudioUnitProcessMultiple.
public struct ProcessStep {
    public var processMultiple: AudioUnitProcessMultipleProc
    public var me: UnsafeMutableRawPointer
    /// The unit's render state: it says whether the unit has render notifications now.
    public var state: UnsafeMutablePointer<RenderState>
    /// The port feeding the unit's input 0: its source is the step before (or the chain's source).
    public var inputPort: UnsafeMutablePointer<InputPort>
    /// The graph's input callback, which feeds `inputPort`. Called through this pointer, so that
    /// `feedInput` is not recursive and stays inlined in the trampoline (a pull one frame shallower).
    public var feed: AURenderCallback
}

/// One output bus of a scheduled node: rendered at most once per cycle and time stamp.
public struct ScheduledOutput {
    /// A "nil mData" list the node points at its own output buffers.
    public var list: UnsafeMutablePointer<AudioBufferList>
    public var bufferCount: Int
    /// Bytes one frame takes in one buffer (the output's stream format).
    public var bytesPerFrame: UInt32
    public var renderedCycle: UInt64 = 0
    /// The sample time of the last render: a converting consumer (an output unit or format
    /// converter that resamples) pulls several times in one cycle, each with a later time stamp.
    public var renderedSampleTime: Double = 0
    /// The frame count of the last render (a memo serves only a pull of the same size).
    public var renderedFrames: UInt32 = 0
    public var status: OSStatus = noErr
    /// Whether the last render came back marked kAudioUnitRenderAction_OutputIsSilence.
    public var silent = false
}

/// One node of a schedule.
public struct ScheduledNode {
    public var unit: AudioUnit
    /// The unit's render method and its `self`, looked up once so a pull is one indirect call.
    public var render: AudioUnitRenderProc
    public var renderSelf: UnsafeMutableRawPointer
    public var outputs: UnsafeMutablePointer<ScheduledOutput>
    public var outputCount: Int
}

/// A compiled render schedule: immutable once published.
public struct Schedule {
    public var nodes: UnsafeMutablePointer<ScheduledNode>
    public var nodeCount: Int
    /// Indexed by input port id.
    public var inputs: UnsafeMutablePointer<ScheduledInput>
    public var portCount: Int
    /// Frames of latency at the head's input.
    public var latencyFrames: Int
    /// The head's sample rate (for the CPU load).
    public var sampleRate: Double
    /// Set when the graph renders on several threads (ParallelRender.swift); nil renders serially.
    public var parallel: UnsafeMutablePointer<ParallelPlan>? = nil
    /// Indexed by input port id: the chain that ends with the input's source and renders flat
    /// (``renderProcessRun``), nil elsewhere; nil when the schedule has none. Kept apart from
    /// ScheduledInput so that the direct pull's record stays as small as it was.
    public var runs: UnsafeMutablePointer<UnsafeMutablePointer<ProcessRun>?>? = nil
}

/// A per-channel ring delay that holds back an input whose path has less latency than the longest
/// one into the same unit (latency compensation), so every input arrives aligned. Not
/// DSPKernels.DelayLine, the delay effect's line with feedback and low pass.
public struct LatencyCompensationLine {
    public var channels: Int
    public var capacity: Int  // frames per channel ring
    public var delay: Int
    public var writeIndex: Int = 0
    public var ring: UnsafeMutablePointer<Float>  // channels × capacity
    public var output: UnsafeMutablePointer<Float>  // channels × maxFrames
    public var maxFrames: Int

    /// Thread: setup.
    public init(channels: Int, delay: Int, maxFrames: Int) {
        self.channels = channels
        self.delay = delay
        self.maxFrames = maxFrames
        capacity = delay + maxFrames
        ring = .allocate(capacity: channels * capacity)
        ring.initialize(repeating: 0, count: channels * capacity)
        output = .allocate(capacity: channels * maxFrames)
        output.initialize(repeating: 0, count: channels * maxFrames)
    }

    /// Thread: setup.
    public func free() {
        ring.deallocate()
        output.deallocate()
    }

    /// Writes `frames` frames of each channel and reads them back `delay` frames later into
    /// `output`, then points `list` at `output`.
    ///
    /// Thread: render.
    @_noAllocation @_noLocks
    public mutating func process(_ list: UnsafeMutablePointer<AudioBufferList>, frames: Int) {
        let buffers = audioBuffers(list)
        let count = min(Int(list.pointee.mNumberBuffers), channels)
        for c in 0..<count {
            guard let input = buffers[c].mData?.assumingMemoryBound(to: Float.self) else { continue }
            let ring = self.ring + c * capacity
            let out = output + c * maxFrames
            var w = writeIndex
            var r = (writeIndex - delay + capacity) % capacity
            for i in 0..<frames {
                ring[w] = input[i]
                out[i] = ring[r]
                w += 1; if w == capacity { w = 0 }
                r += 1; if r == capacity { r = 0 }
            }
            buffers[c].mData = UnsafeMutableRawPointer(out)
        }
        writeIndex = (writeIndex + frames) % capacity
    }
}

/// The render side of a graph: the published schedule and the cycle bookkeeping.
public struct GraphRenderState {
    /// Written by setup threads (atomically), read by the render thread at each cycle start.
    public var published: UnsafeMutableRawPointer?
    /// The schedule of the cycle in progress (render thread only).
    public var active: UnsafeMutablePointer<Schedule>?
    /// Its inputs and their count, kept here so that a pull reaches its input in two loads.
    public var activeInputs: UnsafeMutablePointer<ScheduledInput>?
    public var activePortCount: Int = 0
    /// Incremented at each cycle start (atomically): a setup thread knows a retired schedule is
    /// free once the counter has moved past the value it saw, or no cycle is running.
    public var cycle: UInt64 = 0
    public var inCycle: Int32 = 0
    public var cycleStarted: Double = 0
    public var cpuLoad: Double = 0
    public var maxCPULoad: Double = 0
}

/// The record a managed input bus's render callback gets as its refCon.
public struct InputPort {
    public var graph: UnsafeMutablePointer<GraphRenderState>
    public var id: Int
}

/// Head pre/post-render notification: starts and ends a cycle.
let graphCycleNotify: AURenderCallback = { refCon, flags, _, _, frames, _ in
    let g = refCon.assumingMemoryBound(to: GraphRenderState.self)
    if flags.pointee.rawValue & AudioUnitRenderActionFlags.unitRenderAction_PreRender.rawValue != 0 {
        beginCycle(g)
    } else if flags.pointee.rawValue & AudioUnitRenderActionFlags.unitRenderAction_PostRender.rawValue != 0 {
        endCycle(g, frames: frames)
    }
    return noErr
}

@_noAllocation @_noLocks
func beginCycle(_ g: UnsafeMutablePointer<GraphRenderState>) {
    // Atomic builtins are lock-free instructions on the machines AUHost runs on.
    _unsafePerformance {
        auhost_atomic_store_i32(&g.pointee.inCycle, 1)
        _ = auhost_atomic_add_u64(&g.pointee.cycle, 1)
        g.pointee.active = auhost_atomic_load_pointer(&g.pointee.published)?.assumingMemoryBound(to: Schedule.self)
    }
    g.pointee.activeInputs = g.pointee.active?.pointee.inputs
    g.pointee.activePortCount = g.pointee.active?.pointee.portCount ?? 0
    // clock_gettime through the vDSO: no system call, no lock.
    g.pointee.cycleStarted = _unsafePerformance { monotonicSeconds() }
}

@_noAllocation @_noLocks
func endCycle(_ g: UnsafeMutablePointer<GraphRenderState>, frames: UInt32) {
    if frames > 0 {
        let now = _unsafePerformance { monotonicSeconds() }
        let rate = g.pointee.active?.pointee.sampleRate ?? 44_100
        let load = (now - g.pointee.cycleStarted) * rate / Double(frames)
        g.pointee.cpuLoad = load
        if load > g.pointee.maxCPULoad { g.pointee.maxCPULoad = load }
    }
    g.pointee.active = nil
    g.pointee.activeInputs = nil
    g.pointee.activePortCount = 0
    _unsafePerformance { auhost_atomic_store_i32(&g.pointee.inCycle, 0) }
}

/// Feeds a managed input bus from the schedule in use.
let graphInputTrampoline: AURenderCallback = { refCon, flags, timeStamp, bus, frames, ioData in
    guard let ioData else { return kAudio_ParamError }
    return feedInput(refCon.assumingMemoryBound(to: InputPort.self), flags, timeStamp, bus, frames, ioData)
}

@_noAllocation @_noLocks
func feedInput(
    _ port: UnsafeMutablePointer<InputPort>, _ flags: UnsafeMutablePointer<AudioUnitRenderActionFlags>,
    _ timeStamp: UnsafePointer<AudioTimeStamp>, _ bus: UInt32, _ frames: UInt32,
    _ ioData: UnsafeMutablePointer<AudioBufferList>
) -> OSStatus {
    let g = port.pointee.graph
    guard port.pointee.id < g.pointee.activePortCount, let inputs = g.pointee.activeInputs, let schedule = g.pointee.active else {
        return kAudioUnitErr_NoConnection
    }
    let input = inputs + port.pointee.id
    if input.pointee.directSerial, let render = input.pointee.sourceRender, let output = input.pointee.sourceOutput {
        return pullDirect(input, render, output, flags, timeStamp, frames, ioData)
    }
    switch input.pointee.kind {
    case .none:
        return kAudioUnitErr_NoConnection
    case .callback:
        guard let callback = input.pointee.callback else { return kAudioUnitErr_NoConnection }
        // Application callbacks write into buffers: give them the schedule's when mData is NULL.
        if let scratch = input.pointee.scratch {
            let buffers = audioBuffers(ioData)
            for b in 0..<Int(ioData.pointee.mNumberBuffers) where buffers[b].mData == nil {
                buffers[b].mData = UnsafeMutableRawPointer(scratch + b * input.pointee.scratchFrames)
            }
        }
        // The application's callback runs on the render thread by contract.
        return _unsafePerformance { renderCallbackCall(callback)(input.pointee.callbackRefCon, flags, timeStamp, bus, frames, ioData) }
    case .connection:
        // An input a chain ends at is not `directSerial`, so that the pull above stays as it was.
        if let runs = schedule.pointee.runs, let run = runs[port.pointee.id], let render = input.pointee.sourceRender,
            let output = input.pointee.sourceOutput
        {
            return hasBuffers(ioData)
                ? renderProcessRun(input, run, render, output, flags, timeStamp, frames, ioData)
                : pullDirect(input, render, output, flags, timeStamp, frames, ioData)
        }
        let cycle = g.pointee.cycle
        if let plan = schedule.pointee.parallel, port.pointee.id == plan.pointee.headPort, plan.pointee.ranCycle != cycle {
            // The head's first pull of the cycle: every task is rendered first, on all threads.
            runParallelPhase(schedule, plan, cycle: cycle, timeStamp, frames)
        }
        let node = schedule.pointee.nodes + input.pointee.sourceNode
        let output = node.pointee.outputs + input.pointee.sourceBus
        let sampleTime = timeStamp.pointee.mSampleTime
        let rendered =
            output.pointee.renderedCycle == cycle && output.pointee.renderedSampleTime == sampleTime
            && output.pointee.renderedFrames == frames
        if !rendered, input.pointee.direct, hasBuffers(ioData), let render = input.pointee.sourceRender {
            // Not rendered by a worker: the source renders straight into the consumer's buffers.
            return pullDirect(input, render, output, flags, timeStamp, frames, ioData)
        }
        if !rendered { renderMemo(node, bus: input.pointee.sourceBus, cycle: cycle, timeStamp, frames) }
        guard output.pointee.status == noErr else { return output.pointee.status }
        // A delay line gives earlier audio than the memo's, which its mark does not describe.
        if output.pointee.silent && input.pointee.delay == nil { markSilent(flags) }
        return deliver(output, into: ioData, frames: frames, delay: input.pointee.delay)
    }
}

/// The common case, a chain: the source renders straight into the consumer's buffers, or into
/// its own ("nil mData") whose pointers the consumer then gets. The source's OutputIsSilence mark
/// goes into the consumer's `flags`, as a connection made with kAudioUnitProperty_MakeConnection
/// (what Apple's graph makes) passes it.
///
/// Thread: render.
@_noAllocation @_noLocks
func pullDirect(
    _ input: UnsafeMutablePointer<ScheduledInput>, _ render: AudioUnitRenderProc, _ output: UnsafeMutablePointer<ScheduledOutput>,
    _ flags: UnsafeMutablePointer<AudioUnitRenderActionFlags>, _ timeStamp: UnsafePointer<AudioTimeStamp>, _ frames: UInt32,
    _ ioData: UnsafeMutablePointer<AudioBufferList>
) -> OSStatus {
    var pullFlags = AudioUnitRenderActionFlags(rawValue: 0)
    let me = input.pointee.sourceSelf!, bus = UInt32(input.pointee.sourceBus)
    let bytes = frames * output.pointee.bytesPerFrame
    if hasBuffers(ioData) {
        let buffers = audioBuffers(ioData)
        for b in 0..<Int(ioData.pointee.mNumberBuffers) { buffers[b].mDataByteSize = bytes }
        // The source unit's render is a render-thread call by contract.
        let status = _unsafePerformance { render(me, &pullFlags, timeStamp, bus, frames, ioData) }
        if status == noErr && pullFlags.contains(.unitRenderAction_OutputIsSilence) { markSilent(flags) }
        return status
    }
    let list = output.pointee.list
    let buffers = audioBuffers(list)
    for b in 0..<output.pointee.bufferCount {
        buffers[b].mData = nil
        buffers[b].mDataByteSize = bytes
    }
    // The source unit's render is a render-thread call by contract.
    let status = _unsafePerformance { render(me, &pullFlags, timeStamp, bus, frames, list) }
    guard status == noErr else { return status }
    if pullFlags.contains(.unitRenderAction_OutputIsSilence) { markSilent(flags) }
    return deliver(output, into: ioData, frames: frames, delay: nil)
}

/// Marks the audio a pull gave kAudioUnitRenderAction_OutputIsSilence.
@_noAllocation @_noLocks
func markSilent(_ flags: UnsafeMutablePointer<AudioUnitRenderActionFlags>) {
    let silence = AudioUnitRenderActionFlags.unitRenderAction_OutputIsSilence.rawValue
    flags.pointee = AudioUnitRenderActionFlags(rawValue: flags.pointee.rawValue | silence)
}

/// A chain of units that support AudioUnitProcessMultiple, ending at this input: the chain's
/// source is pulled once, then each unit processes out of place, in dependency order, from one of
/// two lists into the other (the consumer's and the run's own), the last into the consumer's —
/// one level of calls where a pull would nest once per unit. Each unit gets the silence mark of
/// the audio before it, as a pull gives it (`pullDirect`), and the last one's goes to the
/// consumer. A unit with render notifications, which ProcessMultiple does not call, is rendered
/// with AudioUnitRender instead, pulling the units before it as usual.
///
/// Thread: render. (Not inlined: in `feedInput` it would make the frame of every pull larger.)
@inline(never) @_noAllocation @_noLocks
func renderProcessRun(
    _ input: UnsafeMutablePointer<ScheduledInput>,
    _ run: UnsafeMutablePointer<ProcessRun>, _ render: AudioUnitRenderProc, _ output: UnsafeMutablePointer<ScheduledOutput>,
    _ consumerFlags: UnsafeMutablePointer<AudioUnitRenderActionFlags>, _ timeStamp: UnsafePointer<AudioTimeStamp>,
    _ frames: UInt32, _ ioData: UnsafeMutablePointer<AudioBufferList>
) -> OSStatus {
    let steps = run.pointee.steps, count = run.pointee.count
    var start = 0
    for i in 0..<count where steps[i].state.pointee.hasRenderNotifications { start = i + 1 }
    let own = run.pointee.buffers
    guard start < count, frames <= run.pointee.maxFrames, let list = own.list, let storage = own.storage,
        ioData.pointee.mNumberBuffers == list.pointee.mNumberBuffers
    else { return pullDirect(input, render, output, consumerFlags, timeStamp, frames, ioData) }
    let bytes = frames * own.bytesPerFrame
    let ours = audioBuffers(list), theirs = audioBuffers(ioData)
    for b in 0..<Int(list.pointee.mNumberBuffers) {
        ours[b] = AudioBuffer(mNumberChannels: own.channelsPerBuffer, mDataByteSize: bytes, mData: storage + b * own.bytesPerBuffer)
        theirs[b].mDataByteSize = bytes
    }
    // The source fills the list that makes the last unit write into the consumer's.
    var from = (count - start) % 2 == 0 ? ioData : list
    var to = from == ioData ? list : ioData
    var flags = AudioUnitRenderActionFlags(rawValue: 0)
    let first = steps[start]
    // The graph's callback for the first unit's input, as that unit's own pull would call it.
    var status = _unsafePerformance { first.feed(UnsafeMutableRawPointer(first.inputPort), &flags, timeStamp, 0, frames, from) }
    for i in start..<count where status == noErr {
        // Only the silence mark passes from one unit to the next, as a pull passes it.
        flags = AudioUnitRenderActionFlags(rawValue: flags.rawValue & AudioUnitRenderActionFlags.unitRenderAction_OutputIsSilence.rawValue)
        let step = steps[i]
        var inputs: UnsafePointer<AudioBufferList>? = UnsafePointer(from)
        var outputs: UnsafeMutablePointer<AudioBufferList>? = to
        // A unit's ProcessMultiple is a render-thread call by contract.
        status = _unsafePerformance { step.processMultiple(step.me, &flags, timeStamp, frames, 1, &inputs, 1, &outputs) }
        swap(&from, &to)
    }
    if status == noErr && flags.contains(.unitRenderAction_OutputIsSilence) { markSilent(consumerFlags) }
    return status
}

/// Renders output bus `bus` of a node into its own buffers ("nil mData": the unit's) and records
/// the status and the cycle, time and size it was rendered for (the memo later pulls read).
///
/// Thread: render (the head's or a worker).
@_noAllocation @_noLocks
func renderMemo(
    _ node: UnsafeMutablePointer<ScheduledNode>, bus: Int, cycle: UInt64, _ timeStamp: UnsafePointer<AudioTimeStamp>, _ frames: UInt32
) {
    let output = node.pointee.outputs + bus
    let list = output.pointee.list
    let buffers = audioBuffers(list)
    for b in 0..<output.pointee.bufferCount {
        buffers[b].mData = nil
        buffers[b].mDataByteSize = frames * output.pointee.bytesPerFrame
    }
    var pullFlags = AudioUnitRenderActionFlags(rawValue: 0)
    let render = node.pointee.render, me = node.pointee.renderSelf
    // The unit's render is a render-thread call by contract.
    output.pointee.status = _unsafePerformance { render(me, &pullFlags, timeStamp, UInt32(bus), frames, list) }
    output.pointee.silent = pullFlags.contains(.unitRenderAction_OutputIsSilence)
    output.pointee.renderedCycle = cycle
    output.pointee.renderedSampleTime = timeStamp.pointee.mSampleTime
    output.pointee.renderedFrames = frames
}

/// Whether every buffer of a list has memory (the consumer pulls into buffers of its own).
@_noAllocation @_noLocks
func hasBuffers(_ list: UnsafeMutablePointer<AudioBufferList>) -> Bool {
    let buffers = audioBuffers(list)
    for b in 0..<Int(list.pointee.mNumberBuffers) where buffers[b].mData == nil { return false }
    return true
}

/// Hands a rendered output to an input: pointers when the input's mData is NULL (no copy),
/// a copy otherwise; through the input's delay line when latency compensation needs one.
/// (By pointer, reading only the list and its size: copying the whole record re-read the memo
/// fields just written, a store-forwarding stall that was a fifth of the pull's time.)
@_noAllocation @_noLocks
func deliver(
    _ source: UnsafeMutablePointer<ScheduledOutput>, into ioData: UnsafeMutablePointer<AudioBufferList>,
    frames: UInt32, delay: UnsafeMutablePointer<LatencyCompensationLine>?
) -> OSStatus {
    let count = source.pointee.bufferCount
    guard Int(ioData.pointee.mNumberBuffers) == count else { return kAudioUnitErr_FormatNotSupported }
    let from = audioBuffers(source.pointee.list), to = audioBuffers(ioData)
    let bytes = Int(frames) * Int(source.pointee.bytesPerFrame)
    if let delay {
        // The delay line reads the source and points the input at its own output.
        for b in 0..<count {
            if let destination = to[b].mData, let data = from[b].mData {
                destination.copyMemory(from: data, byteCount: bytes)
            } else {
                to[b].mData = from[b].mData
            }
        }
        delay.pointee.process(ioData, frames: Int(frames))
        return noErr
    }
    for b in 0..<count {
        if let destination = to[b].mData {
            if let data = from[b].mData, data != destination { destination.copyMemory(from: data, byteCount: bytes) }
        } else {
            to[b].mData = from[b].mData
        }
        to[b].mDataByteSize = UInt32(bytes)
    }
    return noErr
}

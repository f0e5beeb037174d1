import CLilv
import CLV2SampleScan
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Everything `run` touches, gathered in one block of plain memory (no class references), so the
/// render thread reaches it without reference counting. Built at instantiation, never resized.
public struct LV2RenderContext {
    var handle: LV2_Handle?
    var runFunction: (@convention(c) (LV2_Handle?, UInt32) -> Void)?
    /// The plug-in's connect_port, for hosts that point audio ports at their own buffers per cycle.
    var connectFunction: (@convention(c) (LV2_Handle?, UInt32, UnsafeMutableRawPointer?) -> Void)?
    var worker: UnsafeMutablePointer<LV2WorkerState>
    var logRenderThread: UnsafeMutablePointer<Atomic<UInt>>
    var live: Bool
    var maxFrames: UInt32
    /// Non-zero when the plug-in requires fixed block lengths: every run must have this many.
    var fixedFrames: UInt32
    var requiresPowerOf2: Bool
    /// Atom input buffers (sequences cleared after each run) and output buffers (reset to empty
    /// chunks before each run), each `atomCapacity[i]` bytes.
    var atomInputs: UnsafeMutablePointer<UnsafeMutableRawPointer>
    var atomInputCapacities: UnsafeMutablePointer<Int>
    var atomInputCount: Int
    var atomOutputs: UnsafeMutablePointer<UnsafeMutableRawPointer>
    var atomOutputCapacities: UnsafeMutablePointer<Int>
    var atomOutputCount: Int
    /// The atom input that takes MIDI (index into atomInputs), -1 if none.
    var midiInputSlot: Int
    /// The atom input that takes time:Position (index into atomInputs), -1 if none.
    var timeInputSlot: Int
    var timeURIDs: LV2TimeURIDs
    /// The atom input that takes patch:Set (index into atomInputs), -1 if none.
    var patchInputSlot: Int
    var patchURIDs: LV2PatchURIDs
    var sequenceType: UInt32
    var chunkType: UInt32
    var midiEventType: UInt32
    /// The time of the last queued MIDI event, to keep the sequence ordered.
    var lastQueuedFrame: Int64
    /// Audio output buffers, for the non-finite scan.
    var audioOutputs: UnsafeMutablePointer<UnsafeMutablePointer<Float>>
    var audioOutputCount: Int
}

/// What `lv2Run` reports.
public enum LV2RunStatus: Equatable, Sendable {
    case ok
    /// More frames than the maximum block length: nothing was run.
    case tooManyFrames
    /// The plug-in requires a fixed or power-of-two block length and `frames` is not one.
    case blockLengthNotAllowed
}

/// One processing cycle: deliver worker responses, empty the atom outputs, call the plug-in's
/// run, hand scheduled work on (offline: perform it now and deliver its responses), call
/// `end_run`, and clear the atom inputs for the next cycle's events.
/// Thread: render (real-time).
@_noAllocation @_noLocks
public func lv2Run(_ context: UnsafeMutablePointer<LV2RenderContext>, frames: UInt32) -> LV2RunStatus {
    let c = context
    if frames > c.pointee.maxFrames { return .tooManyFrames }
    if c.pointee.fixedFrames != 0 && frames != c.pointee.fixedFrames { return .blockLengthNotAllowed }
    if c.pointee.requiresPowerOf2 && frames != 0 && frames & (frames - 1) != 0 { return .blockLengthNotAllowed }

    lv2WorkerDeliverResponses(c.pointee.worker)
    for i in 0..<c.pointee.atomOutputCount {
        // An output atom's size is the space the plug-in may fill; its type says "anything".
        let atom = c.pointee.atomOutputs[i].assumingMemoryBound(to: LV2_Atom.self)
        atom.pointee.size = UInt32(c.pointee.atomOutputCapacities[i] - MemoryLayout<LV2_Atom>.size)
        atom.pointee.type = c.pointee.chunkType
    }
    if c.pointee.live {
        _unsafePerformance {
            // pthread_self reads a register-held pointer; it lets the log feature recognise this thread.
            c.pointee.logRenderThread.pointee.store(UInt(pthread_self()), ordering: .relaxed)
        }
    }
    if let run = c.pointee.runFunction {
        _unsafePerformance {
            // The plug-in's run: the call this whole layer exists to make; LV2 requires it to be RT safe.
            run(c.pointee.handle, frames)
        }
    }
    if c.pointee.live {
        c.pointee.logRenderThread.pointee.store(0, ordering: .relaxed)
    } else {
        lv2WorkerPerformRequests(
            c.pointee.worker, scratch: c.pointee.worker.pointee.scratch,
            scratchSize: c.pointee.worker.pointee.scratchSize)
        lv2WorkerDeliverResponses(c.pointee.worker)
    }
    lv2WorkerEndRun(c.pointee.worker)
    for i in 0..<c.pointee.atomInputCount {
        lv2ClearSequence(c.pointee.atomInputs[i], sequenceType: c.pointee.sequenceType)
    }
    c.pointee.lastQueuedFrame = 0
    return .ok
}

/// Connects port `index` to `data` (connect_port, in LV2's audio threading class): lets a host
/// run the plug-in straight on its own buffers instead of copying through the instance's.
/// `data` must hold as many frames as the following runs ask for. Thread: render (real-time),
/// never concurrent with `lv2Run`.
@_noAllocation @_noLocks
public func lv2ConnectPort(_ context: UnsafeMutablePointer<LV2RenderContext>, index: UInt32, to data: UnsafeMutableRawPointer?) {
    guard let connect = context.pointee.connectFunction else { return }
    _unsafePerformance {
        // connect_port only stores the pointer; LV2 puts it in the audio threading class.
        connect(context.pointee.handle, index, data)
    }
}

/// Makes `buffer` an empty atom sequence (frame-time stamps). Thread: render (real-time).
@_noAllocation @_noLocks
func lv2ClearSequence(_ buffer: UnsafeMutableRawPointer, sequenceType: UInt32) {
    let sequence = buffer.assumingMemoryBound(to: LV2_Atom_Sequence.self)
    sequence.pointee.atom.size = UInt32(MemoryLayout<LV2_Atom_Sequence_Body>.size)
    sequence.pointee.atom.type = sequenceType
    sequence.pointee.body.unit = 0
    sequence.pointee.body.pad = 0
}

/// Appends a MIDI event at `frame` (0 = the start of the next run) to the MIDI input sequence.
/// Events must be queued in non-decreasing frame order. Returns false (and queues nothing) when
/// the plug-in has no MIDI input, the event is out of order or empty, or the buffer is full.
/// Thread: render (real-time): call it between runs on the thread that calls `lv2Run`.
@_noAllocation @_noLocks
public func lv2QueueMIDI(
    _ context: UnsafeMutablePointer<LV2RenderContext>, frame: Int64,
    bytes: UnsafeRawPointer, count: Int
) -> Bool {
    let slot = context.pointee.midiInputSlot
    guard slot >= 0, count > 0, frame >= context.pointee.lastQueuedFrame else { return false }
    let buffer = context.pointee.atomInputs[slot]
    let capacity = context.pointee.atomInputCapacities[slot]
    let sequence = buffer.assumingMemoryBound(to: LV2_Atom_Sequence.self)
    let used = MemoryLayout<LV2_Atom>.size + Int(sequence.pointee.atom.size)
    let eventSize = MemoryLayout<LV2_Atom_Event>.size + count
    let padded = (eventSize + 7) & ~7
    guard used + padded <= capacity else { return false }
    let event = (buffer + used).assumingMemoryBound(to: LV2_Atom_Event.self)
    event.pointee.time.frames = frame
    event.pointee.body.size = UInt32(count)
    event.pointee.body.type = context.pointee.midiEventType
    let body = UnsafeMutableRawPointer(event) + MemoryLayout<LV2_Atom_Event>.size
    let source = bytes.assumingMemoryBound(to: UInt8.self)
    let target = body.assumingMemoryBound(to: UInt8.self)
    for i in 0..<count { target[i] = source[i] }
    sequence.pointee.atom.size += UInt32(padded)
    context.pointee.lastQueuedFrame = frame
    return true
}

/// True if any audio output holds a NaN or an infinity in its first `frames` samples: the check
/// a host makes before passing a plug-in's output on. Thread: render (real-time).
@_noAllocation @_noLocks
public func lv2OutputsContainNonFinite(_ context: UnsafeMutablePointer<LV2RenderContext>, frames: Int) -> Bool {
    for i in 0..<context.pointee.audioOutputCount where lv2ContainsNonFinite(context.pointee.audioOutputs[i], count: frames) {
        return true
    }
    return false
}

/// True if any of the `count` samples is NaN or infinite: the one scan of plug-in output (the
/// LV2 unit's and `lv2OutputsContainNonFinite`). Thread: render (real-time).
@_noAllocation @_noLocks
public func lv2ContainsNonFinite(_ samples: UnsafePointer<Float>, count: Int) -> Bool {
    guard count > 0 else { return false }
    // A C loop over the samples (LV2SampleScan.c), built for the machine's widest vectors.
    return _unsafePerformance { auhost_samples_contain_non_finite(samples, count) }
}

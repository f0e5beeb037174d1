import AudioUnitBase
import CLV2SampleScan
import CUnitIsolation
#if canImport(Glibc)
import Glibc
#endif

// Everything the host's render thread does for an out-of-process unit, in one file: pull the
// inputs straight into the shared block, turn parameter changes and MIDI into events, raise
// `request` and wake the child, wait for `done` with a deadline, check and copy the output. No
// allocation, no lock, no class reference: the state is plain memory built at initialize.

/// What a fault is. Stored in IsolatedCycleState.fault (atomic); the first fault wins.
public enum IsolationFault: UInt32 {
    case none = 0
    /// The child ended (a signal, an abort, an exit) without being asked to.
    case crashed = 1
    /// The child did not finish a cycle before the deadline.
    case hung = 2
    /// The child's output held a NaN or an infinity.
    case nonFinite = 3
    /// The child broke the protocol on the control channel.
    case protocolBroken = 4
    /// A restart is replacing the child.
    case restarting = 5

    /// The LastRenderError the fault sets.
    public var status: OSStatus {
        switch self {
        case .none: return noErr
        case .crashed, .protocolBroken, .restarting: return kAudioComponentErr_InstanceInvalidated
        case .hung: return kAudioUnitErr_RenderTimeout
        case .nonFinite: return kAUHostIsolatedUnitErr_NonFiniteOutput
        }
    }
}

/// The render-time view of an out-of-process unit.
struct IsolatedCycleState {
    /// The shared block (nil while uninitialized or between children).
    var header: UnsafeMutablePointer<auhost_iso_header>?
    var audio: UnsafeMutablePointer<Float>?
    var pidfd: Int32 = -1
    var inputCount = 0
    var outputCount = 0
    /// Channels of each bus and the float offset of its channel 0 in `audio`: inputs, then outputs.
    var channels: UnsafeMutablePointer<Int>
    var offsets: UnsafeMutablePointer<Int>
    /// Per input bus, a list whose buffers point into the block (pulls land there directly).
    var inputLists: UnsafeMutablePointer<UnsafeMutablePointer<AudioBufferList>?>
    var maxFrames = 0
    var sampleRate: Double = 44_100
    /// Host-side copy of the request counter (the child can write the block's).
    var request: UInt32 = 0
    /// IsolationFault raw value (atomic).
    var fault: UInt32 = 0
    /// 1 while a cycle uses the block (atomic): a restart waits for it before unmapping.
    var busy: UInt32 = 0
    /// 0: three quarters of the cycle, at least 2 ms.
    var deadlineSeconds: Double = 0
    var cycleSampleTime: Double = -1
    var cycleStatus: OSStatus = noErr
    /// The sample time of the cycle that faulted.
    var faultSampleTime: Double = 0
    /// The parameter values last sent (global parameters in declaration order = table slots).
    var sent: UnsafeMutablePointer<Float>
    var parameterIDs: UnsafeMutablePointer<UInt32>
    var parameterCount = 0
    var midi: UnsafeMutablePointer<auhost_iso_midi_ring>
    /// Round trips completed (for the benchmark and tests).
    var cycles: UInt64 = 0
    /// False until the current child has completed a cycle: its first one (thread start, page
    /// faults, the plug-in's lazy set-up) gets ``firstCycleDeadline`` at least.
    var warm = false
    static let firstCycleDeadline = 1.0
    /// The longest a render call spins for the child's answer before it sleeps on the futex
    /// (kAUHostIsolatedUnitProperty_SpinLimit).
    var spinLimit: Int64 = 200_000
    /// How long the child took to answer the last cycle.
    var lastAnswerNanoseconds: Int64 = 0

    /// The status a faulted cycle leaves in `cycleStatus` (never returned to a caller).
    static let faulted: OSStatus = 0x7FFF_FFFF
    static let busCapacity = Int(AUHOST_ISO_MAX_BUSES)

    init() {
        channels = .allocate(capacity: 2 * Self.busCapacity)
        channels.initialize(repeating: 0, count: 2 * Self.busCapacity)
        offsets = .allocate(capacity: 2 * Self.busCapacity)
        offsets.initialize(repeating: 0, count: 2 * Self.busCapacity)
        inputLists = .allocate(capacity: Self.busCapacity)
        inputLists.initialize(repeating: nil, count: Self.busCapacity)
        sent = .allocate(capacity: 1)
        parameterIDs = .allocate(capacity: 1)
        midi = .allocate(capacity: 1)
        auhost_iso_midi_ring_init(midi)
    }
}

/// Records `kind` as the unit's fault unless one is recorded; true when this call recorded it.
/// Sets LastRenderError (the watcher thread calls the listeners).
///
/// Thread: any (render included).
@_noAllocation @_noLocks
func isolatedRecordFault(
    _ c: UnsafeMutablePointer<IsolatedCycleState>, _ au: UnsafeMutablePointer<RenderState>, _ kind: IsolationFault, at sampleTime: Double
) -> Bool {
    let recorded = _unsafePerformance { auhost_iso_claim(&c.pointee.fault, 0, kind.rawValue) }
    if recorded {
        c.pointee.faultSampleTime = sampleTime
        au.pointee.lastRenderError = kind.status
    }
    return recorded
}

/// One cycle of an out-of-process unit's output bus `bus`: the first bus pulled for a time stamp
/// runs the exchange with the child, every bus then copies its output from the block.
///
/// Thread: render.
@_noAllocation @_noLocks
func isolatedRender(
    _ c: UnsafeMutablePointer<IsolatedCycleState>, _ au: UnsafeMutablePointer<RenderState>, _ bus: UInt32,
    _ flags: UnsafeMutablePointer<AudioUnitRenderActionFlags>, _ timeStamp: UnsafePointer<AudioTimeStamp>,
    _ frames: UInt32, _ output: UnsafeMutablePointer<AudioBufferList>
) -> OSStatus {
    if au.pointee.bypass {
        // Bypassed (BypassEffect): the child is not asked; the input passes as AUEffectBase passes
        // it. Parameter changes apply here and reach the child with its next cycle.
        _ = isolatedDrainEvents(c, au, nil, frames)
        let inputs = c.pointee.inputCount
        guard bus == 0, inputs > 0, c.pointee.channels[0] == c.pointee.channels[inputs] else {
            return isolatedSilence(output, frames, flags)
        }
        // AUBase's pull (render-safe by its own checked contract) calls the host's callback or the upstream unit.
        return _unsafePerformance { au.pointee.pullInput(0, flags, timeStamp, frames, into: output) }
    }
    let sampleTime = timeStamp.pointee.mSampleTime
    if bus == 0 || c.pointee.cycleSampleTime != sampleTime {
        c.pointee.cycleSampleTime = sampleTime
        _unsafePerformance { auhost_iso_store(&c.pointee.busy, 1) }
        c.pointee.cycleStatus = isolatedExchange(c, au, flags, timeStamp, frames)
        _unsafePerformance { auhost_iso_store(&c.pointee.busy, 0) }
    }
    let buffers = audioBuffers(output)
    let count = Int(output.pointee.mNumberBuffers)
    let status = c.pointee.cycleStatus
    guard status == noErr, let audio = c.pointee.audio, Int(bus) < c.pointee.outputCount else {
        if status != IsolatedCycleState.faulted && status != noErr { return status }
        return isolatedSilence(output, frames, flags)
    }
    let index = c.pointee.inputCount + Int(bus)
    let base = audio + c.pointee.offsets[index]
    for i in 0..<min(count, c.pointee.channels[index]) {
        buffers[i].mData?.copyMemory(from: base + i * c.pointee.maxFrames, byteCount: Int(frames) * 4)
    }
    return noErr
}

/// Zeroes `frames` frames of every buffer and says so in the flags.
///
/// Thread: render.
@_noAllocation @_noLocks
private func isolatedSilence(
    _ output: UnsafeMutablePointer<AudioBufferList>, _ frames: UInt32, _ flags: UnsafeMutablePointer<AudioUnitRenderActionFlags>
) -> OSStatus {
    let buffers = audioBuffers(output)
    for i in 0..<Int(output.pointee.mNumberBuffers) {
        buffers[i].mData?.initializeMemory(as: UInt8.self, repeating: 0, count: Int(frames) * 4)
    }
    flags.pointee = AudioUnitRenderActionFlags(
        rawValue: flags.pointee.rawValue | AudioUnitRenderActionFlags.unitRenderAction_OutputIsSilence.rawValue)
    return noErr
}

/// Pulls the inputs into the block, sends the events, wakes the child and waits for it. Returns
/// noErr, the child's render status, or `faulted`.
@_noAllocation @_noLocks
private func isolatedExchange(
    _ c: UnsafeMutablePointer<IsolatedCycleState>, _ au: UnsafeMutablePointer<RenderState>,
    _ flags: UnsafeMutablePointer<AudioUnitRenderActionFlags>, _ timeStamp: UnsafePointer<AudioTimeStamp>,
    _ frames: UInt32
) -> OSStatus {
    let sampleTime = timeStamp.pointee.mSampleTime
    // Parameter changes and MIDI are taken even from a faulted unit, so that none pile up.
    let fault = _unsafePerformance { auhost_iso_load(&c.pointee.fault) }
    guard fault == 0, let header = c.pointee.header, let audio = c.pointee.audio, Int(frames) <= c.pointee.maxFrames else {
        _ = isolatedDrainEvents(c, au, nil, frames)
        // Initialize clears LastRenderError; a unit still faulted says again why it is silent.
        if let kind = IsolationFault(rawValue: fault), kind != .none { au.pointee.lastRenderError = kind.status }
        return IsolatedCycleState.faulted
    }
    for bus in 0..<c.pointee.inputCount {
        let channels = c.pointee.channels[bus]
        let base = audio + c.pointee.offsets[bus]
        guard au.pointee.inputHasSource(bus), let list = c.pointee.inputLists[bus] else {
            base.initialize(repeating: 0, count: channels * c.pointee.maxFrames)
            continue
        }
        let buffers = audioBuffers(list)
        for i in 0..<channels {
            buffers[i].mNumberChannels = 1
            buffers[i].mData = UnsafeMutableRawPointer(base + i * c.pointee.maxFrames)
            buffers[i].mDataByteSize = frames * 4
        }
        // AUBase's pull (render-safe by its own checked contract) calls the host's callback or the upstream unit.
        let status = _unsafePerformance { au.pointee.pullInput(bus, flags, timeStamp, frames, into: list) }
        guard status == noErr else {
            _ = isolatedDrainEvents(c, au, nil, frames)
            return status
        }
        for i in 0..<channels {
            let own = base + i * c.pointee.maxFrames
            if let data = buffers[i].mData, data != UnsafeMutableRawPointer(own) {
                UnsafeMutableRawPointer(own).copyMemory(from: data, byteCount: Int(frames) * 4)
            }
        }
    }
    header.pointee.eventCount = UInt32(isolatedDrainEvents(c, au, header, frames))
    header.pointee.frames = frames
    header.pointee.sampleTime = sampleTime
    if !c.pointee.warm {
        // Once per child (until its first answer): one system call, no lock in this process.
        _unsafePerformance { auhost_iso_thread_sched(&header.pointee.schedPolicy, &header.pointee.schedPriority) }
    }
    let request = c.pointee.request &+ 1
    c.pointee.request = request
    // The cycle's one wake each way, and its one wait: futex system calls, which neither allocate
    // nor take a lock in this process.
    _unsafePerformance {
        auhost_iso_store(&header.pointee.request, request)
        auhost_iso_futex_wake(&header.pointee.request)
    }
    var budget =
        c.pointee.deadlineSeconds > 0
        ? c.pointee.deadlineSeconds : max(0.75 * Double(frames) / max(c.pointee.sampleRate, 1), 0.002)
    if !c.pointee.warm { budget = max(budget, IsolatedCycleState.firstCycleDeadline) }
    let start = _unsafePerformance { auhost_iso_now_ns() }
    let deadline = start + Int64(budget * 1e9)
    // Spin for about as long as the child took last time before sleeping: a thread that sleeps
    // on an idle machine (a virtual CPU that halts) takes tens of microseconds to wake, which
    // would double a short child's cost. A long child (beyond the cap) is waited for asleep.
    let spin = min(c.pointee.lastAnswerNanoseconds + c.pointee.lastAnswerNanoseconds / 4 + 20_000, c.pointee.spinLimit)
    let spinUntil = min(start + spin, deadline)
    while _unsafePerformance({ auhost_iso_load(&header.pointee.done) }) != request
        && _unsafePerformance({ auhost_iso_now_ns() }) < spinUntil
    {
        _unsafePerformance { auhost_iso_cpu_relax() }
    }
    while true {
        let done = _unsafePerformance { auhost_iso_load(&header.pointee.done) }
        if done == request { break }
        if _unsafePerformance({ auhost_iso_load(&c.pointee.fault) }) != 0 { return IsolatedCycleState.faulted }
        let now = _unsafePerformance { auhost_iso_now_ns() }
        if now >= deadline {
            if isolatedRecordFault(c, au, .hung, at: sampleTime) { _unsafePerformance { auhost_iso_pidfd_kill(c.pointee.pidfd) } }
            return IsolatedCycleState.faulted
        }
        _ = _unsafePerformance { auhost_iso_futex_wait(&header.pointee.done, done, deadline - now) }
    }
    c.pointee.cycles &+= 1
    c.pointee.warm = true
    c.pointee.lastAnswerNanoseconds = _unsafePerformance { auhost_iso_now_ns() } - start
    let status = header.pointee.status
    // An LV2 unit silences NaN and infinities itself and says so with this status.
    if status == kAudioUnitErr_InvalidOfflineRender {
        if isolatedRecordFault(c, au, .nonFinite, at: sampleTime) { _unsafePerformance { auhost_iso_pidfd_kill(c.pointee.pidfd) } }
        return IsolatedCycleState.faulted
    }
    if status != noErr { return status }
    for bus in 0..<c.pointee.outputCount {
        let index = c.pointee.inputCount + bus
        let base = audio + c.pointee.offsets[index]
        for i in 0..<c.pointee.channels[index] {
            let samples = base + i * c.pointee.maxFrames
            if _unsafePerformance({ auhost_samples_contain_non_finite(samples, Int(frames)) }) {
                if isolatedRecordFault(c, au, .nonFinite, at: sampleTime) { _unsafePerformance { auhost_iso_pidfd_kill(c.pointee.pidfd) } }
                return IsolatedCycleState.faulted
            }
        }
    }
    return noErr
}

/// Applies this cycle's scheduled parameter changes slice by slice and writes every value that
/// differs from the one last sent as an event at its offset, then the queued MIDI; returns the
/// event count. With no header (a faulted unit) the changes are consumed and nothing is written.
@_noAllocation @_noLocks
private func isolatedDrainEvents(
    _ c: UnsafeMutablePointer<IsolatedCycleState>, _ au: UnsafeMutablePointer<RenderState>,
    _ header: UnsafeMutablePointer<auhost_iso_header>?, _ frames: UInt32
) -> Int {
    let capacity = Int(AUHOST_ISO_MAX_EVENTS)
    var count = 0
    var events: UnsafeMutablePointer<auhost_iso_event>? = nil
    if let header { events = _unsafePerformance { auhost_iso_events(header) } }  // a field address, no call at run time
    let n = Int(frames)
    var position = 0
    while position < n {
        let slice = max(_unsafePerformance { au.pointee.applyEvents(at: position, frames: n) }, 1)
        if let values = au.pointee.parameterValues {
            for p in 0..<c.pointee.parameterCount where values[p].bitPattern != c.pointee.sent[p].bitPattern {
                guard let events, count < capacity else { break }
                events[count] = auhost_iso_event(
                    kind: UInt32(AUHOST_ISO_EVENT_PARAMETER), offset: UInt32(position), a: c.pointee.parameterIDs[p],
                    b: kAudioUnitScope_Global, c: 0, value: values[p])
                c.pointee.sent[p] = values[p]
                count += 1
            }
        }
        position += slice
    }
    _unsafePerformance { au.pointee.carryEvents(past: n) }
    var status: UInt32 = 0, data1: UInt32 = 0, data2: UInt32 = 0, offset: UInt32 = 0
    while _unsafePerformance({ auhost_iso_midi_ring_pop(c.pointee.midi, &status, &data1, &data2, &offset) }) != 0 {
        guard let events, count < capacity else { continue }
        events[count] = auhost_iso_event(
            kind: UInt32(AUHOST_ISO_EVENT_MIDI), offset: min(offset, frames &- 1), a: status, b: data1, c: data2, value: 0)
        count += 1
    }
    return count
}

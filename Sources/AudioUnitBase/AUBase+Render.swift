import AudioTypes
import CAUHostAtomics
#if canImport(Glibc)
import Glibc
#endif

// Everything the render thread touches, in one file: the render-time state of a unit (allocated
// at setup, read and written in place) and the render entry every unit shares. One file because
// the compiler's real-time checks (@_noAllocation, @_noLocks) must see every body they call, and
// debug builds compile file by file.

/// Where an input bus gets its audio.
public enum InputSourceKind: UInt8 {
    case none, connection, callback
}

/// An input bus's source: a connection or a render callback (part of a RenderConfiguration).
public struct InputSource {
    public var kind: InputSourceKind = .none
    public var sourceUnit: AudioUnit?
    public var sourceBus: UInt32 = 0
    public var callback: AURenderCallbackCall?
    public var callbackRefCon: UnsafeMutableRawPointer?
}

/// One input bus's buffers as the render thread sees them (set while uninitialized).
public struct InputBus {
    /// The list pulled into; its buffers point at `storage` or, in "nil mData" mode, at the source's.
    public var list: UnsafeMutablePointer<AudioBufferList>?
    public var storage: UnsafeMutableRawPointer?
    public var bytesPerBuffer: Int = 0
    public var channels: UInt32 = 0
    public var channelsPerBuffer: UInt32 = 1
    public var bytesPerFrame: UInt32 = 4
    /// ShouldAllocateBuffer: false means the source provides the buffers (mData NULL when pulled).
    public var allocates: Bool = true
}

/// One output bus: its own buffers (for "nil mData" pulls) and the time it last rendered.
public struct OutputBus {
    public var list: UnsafeMutablePointer<AudioBufferList>?
    public var storage: UnsafeMutableRawPointer?
    public var bytesPerBuffer: Int = 0
    public var channels: UInt32 = 0
    public var channelsPerBuffer: UInt32 = 1
    public var bytesPerFrame: UInt32 = 4
    public var lastSampleTime: Double = -1
    public var lastFrames: UInt32 = 0
    public var hasCachedOutput: Bool = false
}

/// A render notification (AudioUnitAddRenderNotify).
public struct RenderNotify {
    public var proc: AURenderCallbackCall?
    public var refCon: UnsafeMutableRawPointer?
}

/// Everything setup threads may change while the unit renders: render notifications, input
/// sources, bypass and in-place processing. An immutable record, published whole (never changed
/// in place); a render call reads the one in force when it began (RenderState.current).
public struct RenderConfiguration {
    public var notifyCount: Int
    public var notifies: UnsafeMutablePointer<RenderNotify>
    public var sourceCount: Int
    public var sources: UnsafeMutablePointer<InputSource>
    public var bypass: Bool
    /// InPlaceProcessing: effects pull their input straight into the output buffers.
    public var inPlace: Bool
}

/// How setup threads replace the configuration under a rendering unit without the render thread
/// ever waiting (a two-counter grace period, as in userspace RCU): a render call reads the
/// generation, counts itself in that generation's parity, then loads the configuration; a setup
/// thread publishes a new one with one atomic store, flips the generation, and waits until the
/// old parity's count is zero. After that no call can be reading the old record (a call counted
/// later loads the record after the publication), so it is freed: a removed notification or a
/// replaced callback is neither running nor will run. Every field is accessed atomically.
public struct RenderConfigurationChannel {
    /// RenderConfiguration*.
    public var configuration: UnsafeMutableRawPointer?
    public var generation: UInt64 = 0
    public var readersEven: UInt64 = 0
    public var readersOdd: UInt64 = 0
    /// The thread rendering the unit now (pthread_t bits), 0 when none: a setup call made from
    /// inside the unit's render is refused rather than waiting for itself.
    public var renderingThread: UInt64 = 0
    /// The configuration the render call in progress reads (render thread only, not atomic).
    public var current: UnsafeMutablePointer<RenderConfiguration>?
    /// kAudioUnitProperty_LastRenderError: written by the render thread, read by any (atomic).
    public var lastRenderError: OSStatus = noErr
}

/// What a render call restores when it leaves (render calls of one unit may nest: an I/O unit's
/// input is rendered from inside its output's callback).
public struct RenderSection {
    var odd: Bool
    var previous: UnsafeMutablePointer<RenderConfiguration>?
    var previousThread: UInt64
}

/// The render-time state of a unit.
public struct RenderState {
    public static let notifyCapacity = 32
    public static let eventCapacity = 512

    public var initialized = false
    /// Current parameter values (the parameter table's slots), for render code.
    public var parameterValues: UnsafeMutablePointer<Float>?
    public var maxFrames: UInt32 = 1156
    public var sampleRate: Double = 44_100
    public var inputs: UnsafeMutablePointer<InputBus>
    public var inputCount: Int = 0
    public var outputs: UnsafeMutablePointer<OutputBus>
    public var outputCount: Int = 0
    /// The published configuration (see RenderConfigurationChannel); allocated once.
    public let channel: UnsafeMutablePointer<RenderConfigurationChannel>
    /// The unit's parameter table (held by the unit, which keeps replaced tables until it goes).
    public var parameterTable: Unmanaged<ParameterTable>?
    /// Scheduled parameter changes (any thread pushes; the render thread applies them).
    public let events: UnsafeMutablePointer<RenderEventQueue>
    /// kAudioUnitProperty_CPULoad: the share of a CPU the host allows the unit (a hint, 0…1).
    public var cpuLoad: Double = 0

    /// Thread: setup.
    public init() {
        inputs = .allocate(capacity: 1)
        outputs = .allocate(capacity: 1)
        channel = .allocate(capacity: 1)
        channel.initialize(to: RenderConfigurationChannel())
        events = RenderEventQueue.allocate(capacity: RenderState.eventCapacity)
    }

    /// kAudioUnitProperty_LastRenderError: the render thread records, any thread reads.
    ///
    /// Thread: any.
    public var lastRenderError: OSStatus {
        @_noAllocation @_noLocks
        get { _unsafePerformance { auhost_atomic_load_i32(&channel.pointee.lastRenderError) } }
        @_noAllocation @_noLocks
        nonmutating set { _unsafePerformance { auhost_atomic_store_i32(&channel.pointee.lastRenderError, newValue) } }
    }

    /// The configuration the render call in progress reads.
    ///
    /// Thread: render.
    public var current: UnsafeMutablePointer<RenderConfiguration>? {
        @_noAllocation @_noLocks get { channel.pointee.current }
    }

    // MARK: The configuration in force

    /// Starts reading the published configuration for one render call: lock-free and wait-free.
    /// Pair with ``leaveRender(_:)``. (AUHostAtomics' functions are single atomic instructions the
    /// checker cannot see into.)
    ///
    /// Thread: render.
    @_noAllocation @_noLocks
    public func enterRender() -> RenderSection {
        let channel = self.channel
        let (odd, raw, previousThread) = _unsafePerformance { () -> (Bool, UnsafeMutableRawPointer?, UInt64) in
            let odd = auhost_atomic_load_u64(&channel.pointee.generation) & 1 != 0
            _ = odd ? auhost_atomic_add_u64(&channel.pointee.readersOdd, 1) : auhost_atomic_add_u64(&channel.pointee.readersEven, 1)
            // Relaxed: only a thread asking about itself compares it (no fence on the render path).
            let previousThread = auhost_atomic_load_u64_relaxed(&channel.pointee.renderingThread)
            auhost_atomic_store_u64_relaxed(&channel.pointee.renderingThread, UInt64(pthread_self()))
            return (odd, auhost_atomic_load_pointer(&channel.pointee.configuration), previousThread)
        }
        let section = RenderSection(odd: odd, previous: channel.pointee.current, previousThread: previousThread)
        channel.pointee.current = raw?.assumingMemoryBound(to: RenderConfiguration.self)
        return section
    }

    /// Ends what ``enterRender()`` started.
    ///
    /// Thread: render.
    @_noAllocation @_noLocks
    public func leaveRender(_ section: RenderSection) {
        let channel = self.channel
        channel.pointee.current = section.previous
        _unsafePerformance {
            auhost_atomic_store_u64_relaxed(&channel.pointee.renderingThread, section.previousThread)
            _ =
                section.odd
                ? auhost_atomic_add_u64(&channel.pointee.readersOdd, UInt64.max)
                : auhost_atomic_add_u64(&channel.pointee.readersEven, UInt64.max)
        }
    }

    /// BypassEffect as the render call in progress sees it.
    ///
    /// Thread: render.
    public var bypass: Bool {
        @_noAllocation @_noLocks get { current?.pointee.bypass ?? false }
    }
    /// InPlaceProcessing as the render call in progress sees it.
    ///
    /// Thread: render.
    public var inPlace: Bool {
        @_noAllocation @_noLocks get { current?.pointee.inPlace ?? true }
    }

    /// Whether input bus `bus` has a connection or a callback in the render call in progress.
    ///
    /// Thread: render.
    @_noAllocation @_noLocks
    public func inputHasSource(_ bus: Int) -> Bool {
        guard let c = current, bus < c.pointee.sourceCount else { return false }
        return c.pointee.sources[bus].kind != .none
    }

    // MARK: Parameter events

    /// Queues a change for the next render call; false when the queue is full.
    ///
    /// Thread: any (lock-free).
    @_noAllocation @_noLocks
    public func schedule(_ event: RenderEvent) -> Bool {
        events.pointee.push(event)
    }

    /// The next slice of a render call of `frames` frames starting at `position`: applies every
    /// change due at `position` and returns how many frames can be processed with the values now
    /// in the slots (1 while a ramp is running, so ramps are exact per frame).
    ///
    /// Thread: render.
    @_noAllocation @_noLocks
    public func applyEvents(at position: Int, frames: Int) -> Int {
        let queue = events
        if position == 0 { queue.pointee.takeArrivals() }
        let count = queue.pointee.pendingCount
        if count == 0 { return frames - position }
        let pending = queue.pointee.pending
        var rampRunning = false
        var nextStart = frames
        var kept = 0
        for i in 0..<count {
            let e = pending[i]
            guard let slot = e.slot else { continue }
            if e.offset > position {
                nextStart = min(nextStart, e.offset)
                pending[kept] = e
                kept += 1
                continue
            }
            let elapsed = position - e.offset
            if e.duration == 0 || elapsed >= e.duration {
                slot.pointee = e.endValue
            } else {
                // In Double: the difference of two in-range Floats may not fit a Float.
                let fraction = Double(elapsed) / Double(e.duration)
                slot.pointee = Float(Double(e.startValue) + (Double(e.endValue) - Double(e.startValue)) * fraction)
                rampRunning = true
                pending[kept] = e
                kept += 1
            }
        }
        queue.pointee.keepPending(kept)
        return rampRunning ? 1 : max(nextStart - position, 1)
    }

    /// Whether any scheduled change has arrived or is pending (takes the arrivals: call at the
    /// start of a render call, before ``applyEvents(at:frames:)``).
    ///
    /// Thread: render.
    @_noAllocation @_noLocks
    public func hasScheduledEvents() -> Bool {
        events.pointee.takeArrivals()
        return events.pointee.pendingCount > 0
    }

    /// Moves events that lie beyond this render call into the next one's frame numbering.
    ///
    /// Thread: render.
    @_noAllocation @_noLocks
    public func carryEvents(past frames: Int) {
        events.pointee.carry(from: 0, past: frames)
    }

    // MARK: Notifications and inputs

    /// Calls every render notification of the configuration in force with `flags` (PreRender or
    /// PostRender, plus error flags). Call between ``enterRender()`` and ``leaveRender(_:)``.
    ///
    /// Thread: render.
    @_noAllocation @_noLocks
    public func notify(
        _ flags: AudioUnitRenderActionFlags, _ ioFlags: UnsafeMutablePointer<AudioUnitRenderActionFlags>,
        _ timeStamp: UnsafePointer<AudioTimeStamp>, _ bus: UInt32, _ frames: UInt32,
        _ ioData: UnsafeMutablePointer<AudioBufferList>
    ) {
        if let list = current {
            for i in 0..<list.pointee.notifyCount {
                guard let proc = list.pointee.notifies[i].proc else { continue }
                let refCon = list.pointee.notifies[i].refCon
                let saved = ioFlags.pointee
                ioFlags.pointee = AudioUnitRenderActionFlags(rawValue: saved.rawValue | flags.rawValue)
                // A notification is the host's render-thread code; its real-time safety is its contract.
                _ = _unsafePerformance { proc(refCon, ioFlags, timeStamp, bus, frames, ioData) }
                ioFlags.pointee = AudioUnitRenderActionFlags(
                    rawValue: saved.rawValue
                        | (ioFlags.pointee.rawValue & AudioUnitRenderActionFlags.unitRenderAction_OutputIsSilence.rawValue))
            }
        }
    }

    /// Pulls `frames` frames into input bus `bus` from its connection or callback (as the
    /// configuration in force has them): into the bus's own list, or into `target` (in-place
    /// processing pulls straight into the output buffers).
    ///
    /// Thread: render.
    @_noAllocation @_noLocks
    public func pullInput(
        _ bus: Int, _ flags: UnsafeMutablePointer<AudioUnitRenderActionFlags>,
        _ timeStamp: UnsafePointer<AudioTimeStamp>, _ frames: UInt32,
        into target: UnsafeMutablePointer<AudioBufferList>? = nil
    ) -> OSStatus {
        guard bus < inputCount, let ownList = inputs[bus].list, let configuration = current, bus < configuration.pointee.sourceCount
        else { return kAudioUnitErr_NoConnection }
        let input = inputs + bus
        let source = configuration.pointee.sources + bus
        let list = target ?? ownList
        if target == nil {
            let buffers = audioBuffers(list)
            for i in 0..<Int(list.pointee.mNumberBuffers) {
                buffers[i].mNumberChannels = input.pointee.channelsPerBuffer
                buffers[i].mDataByteSize = frames * input.pointee.bytesPerFrame
                buffers[i].mData = input.pointee.allocates ? input.pointee.storage.map { $0 + i * input.pointee.bytesPerBuffer } : nil
            }
        }
        var pullFlags = AudioUnitRenderActionFlags(rawValue: 0)
        switch source.pointee.kind {
        case .connection:
            guard let upstream = source.pointee.sourceUnit else { return kAudioUnitErr_NoConnection }
            let sourceBus = source.pointee.sourceBus
            // The upstream unit's render is a render-thread call by contract.
            return _unsafePerformance { AudioUnitRender(upstream, &pullFlags, timeStamp, sourceBus, frames, list) }
        case .callback:
            guard let callback = source.pointee.callback else { return kAudioUnitErr_NoConnection }
            let refCon = source.pointee.callbackRefCon
            let phases =
                AudioUnitRenderActionFlags.unitRenderAction_PreRender.rawValue
                | AudioUnitRenderActionFlags.unitRenderAction_PostRender.rawValue
            pullFlags = AudioUnitRenderActionFlags(rawValue: flags.pointee.rawValue & ~phases)
            // The host's callback runs on the render thread by contract.
            return _unsafePerformance { callback(refCon, &pullFlags, timeStamp, UInt32(bus), frames, list) }
        case .none:
            return kAudioUnitErr_NoConnection
        }
    }

    /// Checks the caller's buffer list against output bus `bus` for `frames` frames and points any
    /// NULL mData at the bus's own buffers. Returns kAudio_ParamError on a count or size mismatch.
    ///
    /// Thread: render.
    @_noAllocation @_noLocks
    public func prepareOutput(_ bus: Int, _ ioData: UnsafeMutablePointer<AudioBufferList>, _ frames: UInt32) -> OSStatus {
        let output = outputs[bus]
        let count = Int(ioData.pointee.mNumberBuffers)
        let expected = output.list.map { Int($0.pointee.mNumberBuffers) } ?? count
        guard count == expected else { return kAudio_ParamError }
        let buffers = audioBuffers(ioData)
        let bytesPerFrame = output.bytesPerFrame
        for i in 0..<count {
            if buffers[i].mData == nil {
                guard let storage = output.storage else { return kAudio_ParamError }
                buffers[i].mData = storage + i * output.bytesPerBuffer
                buffers[i].mDataByteSize = frames * bytesPerFrame
            } else if buffers[i].mDataByteSize < frames * bytesPerFrame {
                return kAudio_ParamError
            }
        }
        return noErr
    }

    /// Checks a caller's in-place list (AudioUnitProcess) against output bus `bus` for `frames`
    /// frames: as many buffers as the format has, each with memory (mData not NULL) for at least
    /// `frames` frames. Nothing is written; kAudio_ParamError otherwise.
    ///
    /// Thread: render.
    @_noAllocation @_noLocks
    public func checkInPlaceList(_ bus: Int, _ ioData: UnsafeMutablePointer<AudioBufferList>, _ frames: UInt32) -> OSStatus {
        guard bus < outputCount, let own = outputs[bus].list else { return kAudioUnitErr_Uninitialized }
        let count = Int(ioData.pointee.mNumberBuffers)
        guard count == Int(own.pointee.mNumberBuffers) else { return kAudio_ParamError }
        let buffers = audioBuffers(ioData)
        let bytes = UInt64(frames) * UInt64(outputs[bus].bytesPerFrame)
        for i in 0..<count where buffers[i].mData == nil || UInt64(buffers[i].mDataByteSize) < bytes {
            return kAudio_ParamError
        }
        return noErr
    }
}

/// The mBuffers array of a list.
@inlinable @inline(__always) @_noAllocation @_noLocks
public func audioBuffers(_ list: UnsafeMutablePointer<AudioBufferList>) -> UnsafeMutablePointer<AudioBuffer> {
    UnsafeMutableRawPointer(list)
        .advanced(by: (MemoryLayout<UInt32>.size + MemoryLayout<AudioBuffer>.alignment - 1) & ~(MemoryLayout<AudioBuffer>.alignment - 1))
        .assumingMemoryBound(to: AudioBuffer.self)
}

/// A monotonic clock in seconds (vDSO clock_gettime: no syscall, no lock).
@inlinable @inline(__always)
public func monotonicSeconds() -> Double {
    var ts = timespec()
    _ = _unsafePerformance { clock_gettime(CLOCK_MONOTONIC, &ts) }
    return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
}

// The render entry every unit shares: argument checks, the once-per-cycle output cache,
// notifications, CPU load and LastRenderError. Real-time: nothing here allocates, locks or
// retains; the unit's own renderBus is reached through one virtual call.

extension AUBase {
    /// AudioUnitRender.
    ///
    /// Thread: render.
    @_noAllocation @_noLocks
    public final func render(
        _ flags: UnsafeMutablePointer<AudioUnitRenderActionFlags>?, _ timeStamp: UnsafePointer<AudioTimeStamp>?,
        _ bus: UInt32, _ frames: UInt32, _ ioData: UnsafeMutablePointer<AudioBufferList>?
    ) -> OSStatus {
        let s = state
        guard let flags, let timeStamp, let ioData else { return kAudio_ParamError }
        guard s.pointee.initialized else { return kAudioUnitErr_Uninitialized }
        guard frames <= s.pointee.maxFrames else { return kAudioUnitErr_TooManyFramesToProcess }
        guard Int(bus) < s.pointee.outputCount else { return kAudioUnitErr_InvalidElement }

        if serveCachedOutput(bus, timeStamp, frames, ioData) { return noErr }
        var status = s.pointee.prepareOutput(Int(bus), ioData, frames)
        guard status == noErr else { return status }

        let section = s.pointee.enterRender()
        s.pointee.notify(.unitRenderAction_PreRender, flags, timeStamp, bus, frames, ioData)
        // The one virtual call (the unit's kernel is checked on its own), through an unmanaged
        // reference so that no reference counting happens: the host holds the unit while it renders.
        let unit = Unmanaged.passUnretained(self)
        status = _unsafePerformance {
            unit._withUnsafeGuaranteedRef { $0.renderBus(bus, flags: flags, timeStamp: timeStamp, frames: frames, output: ioData) }
        }

        var postFlags = AudioUnitRenderActionFlags.unitRenderAction_PostRender
        if status != noErr {
            s.pointee.lastRenderError = status
            postFlags = AudioUnitRenderActionFlags(
                rawValue: postFlags.rawValue | AudioUnitRenderActionFlags.unitRenderAction_PostRenderError.rawValue)
        }
        s.pointee.notify(postFlags, flags, timeStamp, bus, frames, ioData)
        s.pointee.leaveRender(section)
        rememberOutput(bus, timeStamp, frames, ioData, valid: status == noErr)
        return status
    }

    /// When this bus already rendered this time stamp into its own buffers (a second consumer
    /// pulling in the same cycle), hands those out again instead of rendering twice.
    @_noAllocation @_noLocks
    private func serveCachedOutput(
        _ bus: UInt32, _ timeStamp: UnsafePointer<AudioTimeStamp>, _ frames: UInt32,
        _ ioData: UnsafeMutablePointer<AudioBufferList>
    ) -> Bool {
        let output = state.pointee.outputs[Int(bus)]
        guard output.hasCachedOutput, timeStamp.pointee.mFlags.rawValue & AudioTimeStampFlags.sampleTimeValid.rawValue != 0,
            output.lastSampleTime == timeStamp.pointee.mSampleTime, output.lastFrames == frames,
            let storage = output.storage, Int(ioData.pointee.mNumberBuffers) == Int(output.list?.pointee.mNumberBuffers ?? 0)
        else { return false }
        let buffers = audioBuffers(ioData)
        let bytes = Int(frames * output.bytesPerFrame)
        for i in 0..<Int(ioData.pointee.mNumberBuffers) {
            let own = storage + i * output.bytesPerBuffer
            if let destination = buffers[i].mData {
                guard buffers[i].mDataByteSize >= UInt32(bytes) else { return false }
                if destination != own { destination.copyMemory(from: own, byteCount: bytes) }
            } else {
                buffers[i].mData = own
            }
            buffers[i].mDataByteSize = UInt32(bytes)
        }
        return true
    }

    /// Output rendered into the bus's own buffers can be served again for the same time stamp.
    @_noAllocation @_noLocks
    private func rememberOutput(
        _ bus: UInt32, _ timeStamp: UnsafePointer<AudioTimeStamp>, _ frames: UInt32,
        _ ioData: UnsafeMutablePointer<AudioBufferList>, valid: Bool
    ) {
        let s = state
        let i = Int(bus)
        var ownBuffers = valid && timeStamp.pointee.mFlags.rawValue & AudioTimeStampFlags.sampleTimeValid.rawValue != 0
        if ownBuffers, let storage = s.pointee.outputs[i].storage {
            let buffers = audioBuffers(ioData)
            for b in 0..<Int(ioData.pointee.mNumberBuffers) where buffers[b].mData != storage + b * s.pointee.outputs[i].bytesPerBuffer {
                ownBuffers = false
            }
        } else {
            ownBuffers = false
        }
        s.pointee.outputs[i].hasCachedOutput = ownBuffers
        s.pointee.outputs[i].lastSampleTime = timeStamp.pointee.mSampleTime
        s.pointee.outputs[i].lastFrames = frames
    }

    /// The render state, for render code in subclasses (reading `state` from a subclass's
    /// method is a reference-counted access as far as the real-time checker can tell).
    ///
    /// Thread: render.
    @_noAllocation @_noLocks
    public final func renderState() -> UnsafeMutablePointer<RenderState> { state }

    /// Pulls input bus `bus` for this render call (into its own buffers, or into `target`).
    ///
    /// Thread: render.
    @_noAllocation @_noLocks
    public final func pullInput(
        _ bus: Int, _ flags: UnsafeMutablePointer<AudioUnitRenderActionFlags>,
        _ timeStamp: UnsafePointer<AudioTimeStamp>, _ frames: UInt32,
        into target: UnsafeMutablePointer<AudioBufferList>? = nil
    ) -> OSStatus {
        state.pointee.pullInput(bus, flags, timeStamp, frames, into: target)
    }

    /// The list input bus `bus` was last pulled into.
    ///
    /// Thread: render.
    @_noAllocation @_noLocks
    public final func inputList(_ bus: Int) -> UnsafeMutablePointer<AudioBufferList>? {
        bus < state.pointee.inputCount ? state.pointee.inputs[bus].list : nil
    }

    /// Applies scheduled parameter changes due at `position` and returns the length of the slice
    /// that can be processed with the current values (see RenderState.applyEvents).
    ///
    /// Thread: render.
    @_noAllocation @_noLocks
    public final func nextParameterSlice(at position: Int, frames: Int) -> Int {
        min(state.pointee.applyEvents(at: position, frames: frames), frames - position)
    }

    /// Ends a render call's parameter slicing: later events move into the next call's numbering.
    ///
    /// Thread: render.
    @_noAllocation @_noLocks
    public final func finishParameterSlices(frames: Int) {
        state.pointee.carryEvents(past: frames)
    }
}

// Parameter changes: any thread for immediate values, the render thread for scheduled ones.

extension AUBase {
    /// AudioUnitSetParameter: a zero offset sets the value now; a positive one schedules the
    /// change inside the next render call (render thread). A finite value outside the parameter's
    /// range is clamped into it; NaN and infinities answer kAudioUnitErr_InvalidParameterValue.
    ///
    /// Thread: any for offset 0; render for a positive offset.
    @_noAllocation @_noLocks
    public final func setParameter(
        _ id: AudioUnitParameterID, scope: AudioUnitScope = kAudioUnitScope_Global,
        element: AudioUnitElement = 0, value: AudioUnitParameterValue, offset: UInt32 = 0
    ) -> OSStatus {
        let s = state
        guard let table = s.pointee.parameterTable else { return kAudioUnitErr_InvalidParameter }
        return table._withUnsafeGuaranteedRef { parameters in
            guard let slot = parameters.slot(id, scope, element) else { return kAudioUnitErr_InvalidParameter }
            guard let value = parameters.clamp(value, at: slot) else { return kAudioUnitErr_InvalidParameterValue }
            if offset == 0 || !s.pointee.initialized {
                slot.pointee = value
                return noErr
            }
            let event = RenderEvent.parameter(slot, start: Int(offset), from: value, to: value)
            return s.pointee.schedule(event) ? noErr : kAudioUnitErr_CannotDoInCurrentContext
        }
    }

    /// AudioUnitScheduleParameters: immediate and ramped events for the next render call. Values
    /// (both ends of a ramp) are clamped and checked like AudioUnitSetParameter's.
    ///
    /// Thread: render (the thread that calls render, before it does).
    @_noAllocation @_noLocks
    public final func scheduleParameters(_ events: UnsafeBufferPointer<AudioUnitParameterEvent>) -> OSStatus {
        let s = state
        guard let table = s.pointee.parameterTable else { return kAudioUnitErr_InvalidParameter }
        return table._withUnsafeGuaranteedRef { parameters in
            for e in events {
                guard let slot = parameters.slot(e.parameter, e.scope, e.element) else { return kAudioUnitErr_InvalidParameter }
                let pending: RenderEvent
                switch e.eventType.rawValue {
                case AUParameterEventType.parameterEvent_Immediate.rawValue:
                    let v = e.eventValues.immediate
                    guard let value = parameters.clamp(v.value, at: slot) else { return kAudioUnitErr_InvalidParameterValue }
                    pending = .parameter(slot, start: Int(v.bufferOffset), from: value, to: value)
                case AUParameterEventType.parameterEvent_Ramped.rawValue:
                    let r = e.eventValues.ramp
                    // Both ends clamped into the range: every interpolated value is then inside it too.
                    guard let start = parameters.clamp(r.startValue, at: slot), let end = parameters.clamp(r.endValue, at: slot) else {
                        return kAudioUnitErr_InvalidParameterValue
                    }
                    pending = .parameter(slot, start: Int(r.startBufferOffset), duration: Int(r.durationInFrames), from: start, to: end)
                default:
                    return kAudio_ParamError
                }
                if !s.pointee.schedule(pending) { return kAudioUnitErr_CannotDoInCurrentContext }
            }
            return noErr
        }
    }
}

import AudioTypes
import AUHostAtomics
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

/// One input bus as the render thread sees it.
public struct InputBus {
    public var kind: InputSourceKind = .none
    public var sourceUnit: AudioUnit?
    public var sourceBus: UInt32 = 0
    public var callback: AURenderCallbackCall?
    public var callbackRefCon: UnsafeMutableRawPointer?
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

/// The render notifications in force: an immutable list, published whole (never changed in place).
public struct RenderNotifyList {
    public var count: Int
    public var entries: UnsafeMutablePointer<RenderNotify>
}

/// How setup threads replace the notification list under a rendering unit without the render
/// thread ever waiting (a two-counter grace period, as in userspace RCU): a notifying call reads
/// the generation, counts itself in that generation's parity, then loads the list; a setup thread
/// publishes a new list with one atomic store, flips the generation, and waits until the old
/// parity's count is zero. After that no call can be reading the old list (a call counted later
/// loads the list after the publication), so the old list is freed and the removed notification
/// is neither running nor will run. Every field is accessed atomically.
public struct RenderNotifyChannel {
    /// RenderNotifyList*, or nil for none.
    public var list: UnsafeMutableRawPointer?
    public var generation: UInt64 = 0
    public var readersEven: UInt64 = 0
    public var readersOdd: UInt64 = 0
    /// The thread calling the notifications now (pthread_t bits), 0 when none: a setup call made
    /// from inside a notification is refused rather than waiting for itself.
    public var callingThread: UInt64 = 0
}

/// A scheduled change, resolved to its value slot when scheduled.
public struct PendingParameterEvent {
    public var slot: UnsafeMutablePointer<Float>
    /// First frame, relative to the current render call (a ramp may have started earlier).
    public var start: Int
    /// 0 for an immediate change.
    public var duration: Int
    public var startValue: Float
    public var endValue: Float
}

/// The render-time state of a unit.
public struct RenderState {
    public static let notifyCapacity = 32
    public static let eventCapacity = 512

    public var initialized = false
    /// InPlaceProcessing: effects pull their input straight into the output buffers.
    public var inPlace = true
    /// Current parameter values (the parameter table's slots), for render code.
    public var parameterValues: UnsafeMutablePointer<Float>?
    public var maxFrames: UInt32 = 1156
    public var bypass = false
    public var sampleRate: Double = 44_100
    public var inputs: UnsafeMutablePointer<InputBus>
    public var inputCount: Int = 0
    public var outputs: UnsafeMutablePointer<OutputBus>
    public var outputCount: Int = 0
    /// The render notifications (see RenderNotifyChannel); allocated once, lives with the unit.
    public let notifyChannel: UnsafeMutablePointer<RenderNotifyChannel>
    public var events: UnsafeMutablePointer<PendingParameterEvent>
    public var eventCount: Int = 0
    public var lastRenderError: OSStatus = noErr
    /// kAudioUnitProperty_CPULoad: the share of a CPU the host allows the unit (a hint, 0…1).
    public var cpuLoad: Double = 0

    /// Thread: setup.
    public init() {
        inputs = .allocate(capacity: 1)
        outputs = .allocate(capacity: 1)
        notifyChannel = .allocate(capacity: 1)
        notifyChannel.initialize(to: RenderNotifyChannel())
        events = .allocate(capacity: RenderState.eventCapacity)
    }

    // MARK: Parameter events

    /// Queues a change for the next render call; false when the queue is full.
    ///
    /// Thread: render.
    @_noAllocation @_noLocks
    public mutating func schedule(_ event: PendingParameterEvent) -> Bool {
        guard eventCount < RenderState.eventCapacity else { return false }
        // Insertion keeps events ordered by start frame (stable for equal starts).
        var i = eventCount
        while i > 0 && events[i - 1].start > event.start {
            events[i] = events[i - 1]
            i -= 1
        }
        events[i] = event
        eventCount += 1
        return true
    }

    /// The next slice of a render call of `frames` frames starting at `position`: applies every
    /// change due at `position` and returns how many frames can be processed with the values now
    /// in the slots (1 while a ramp is running, so ramps are exact per frame).
    ///
    /// Thread: render.
    @_noAllocation @_noLocks
    public mutating func applyEvents(at position: Int, frames: Int) -> Int {
        if eventCount == 0 { return frames - position }
        var rampRunning = false
        var nextStart = frames
        var kept = 0
        for i in 0..<eventCount {
            let e = events[i]
            if e.start > position {
                nextStart = min(nextStart, e.start)
                events[kept] = e
                kept += 1
                continue
            }
            let elapsed = position - e.start
            if e.duration == 0 || elapsed >= e.duration {
                e.slot.pointee = e.endValue
            } else {
                // In Double: the difference of two in-range Floats may not fit a Float.
                let fraction = Double(elapsed) / Double(e.duration)
                e.slot.pointee = Float(Double(e.startValue) + (Double(e.endValue) - Double(e.startValue)) * fraction)
                rampRunning = true
                events[kept] = e
                kept += 1
            }
        }
        eventCount = kept
        return rampRunning ? 1 : max(nextStart - position, 1)
    }

    /// Moves events that lie beyond this render call into the next one's frame numbering.
    ///
    /// Thread: render.
    @_noAllocation @_noLocks
    public mutating func carryEvents(past frames: Int) {
        for i in 0..<eventCount { events[i].start -= frames }
    }

    // MARK: Notifications and inputs

    /// Calls every render notification with `flags` (PreRender or PostRender, plus error flags).
    ///
    /// Thread: render.
    @_noAllocation @_noLocks
    public func notify(
        _ flags: AudioUnitRenderActionFlags, _ ioFlags: UnsafeMutablePointer<AudioUnitRenderActionFlags>,
        _ timeStamp: UnsafePointer<AudioTimeStamp>, _ bus: UInt32, _ frames: UInt32,
        _ ioData: UnsafeMutablePointer<AudioBufferList>
    ) {
        let channel = notifyChannel
        // Lock-free and wait-free: count this call in the current generation, then read the list.
        // (AUHostAtomics' functions are single atomic instructions the checker cannot see into.)
        let (odd, raw) = _unsafePerformance { () -> (Bool, UnsafeMutableRawPointer?) in
            let odd = auhost_atomic_load_u64(&channel.pointee.generation) & 1 != 0
            _ = odd ? auhost_atomic_add_u64(&channel.pointee.readersOdd, 1) : auhost_atomic_add_u64(&channel.pointee.readersEven, 1)
            auhost_atomic_store_u64(&channel.pointee.callingThread, UInt64(pthread_self()))
            return (odd, auhost_atomic_load_pointer(&channel.pointee.list))
        }
        if let raw {
            let list = raw.assumingMemoryBound(to: RenderNotifyList.self)
            for i in 0..<list.pointee.count {
                guard let proc = list.pointee.entries[i].proc else { continue }
                let refCon = list.pointee.entries[i].refCon
                let saved = ioFlags.pointee
                ioFlags.pointee = AudioUnitRenderActionFlags(rawValue: saved.rawValue | flags.rawValue)
                // A notification is the host's render-thread code; its real-time safety is its contract.
                _ = _unsafePerformance { proc(refCon, ioFlags, timeStamp, bus, frames, ioData) }
                ioFlags.pointee = AudioUnitRenderActionFlags(
                    rawValue: saved.rawValue
                        | (ioFlags.pointee.rawValue & AudioUnitRenderActionFlags.unitRenderAction_OutputIsSilence.rawValue))
            }
        }
        _unsafePerformance {
            auhost_atomic_store_u64(&channel.pointee.callingThread, 0)
            _ =
                odd
                ? auhost_atomic_add_u64(&channel.pointee.readersOdd, UInt64.max)
                : auhost_atomic_add_u64(&channel.pointee.readersEven, UInt64.max)
        }
    }

    /// Pulls `frames` frames into input bus `bus` from its connection or callback: into the bus's
    /// own list, or into `target` (in-place processing pulls straight into the output buffers).
    ///
    /// Thread: render.
    @_noAllocation @_noLocks
    public func pullInput(
        _ bus: Int, _ flags: UnsafeMutablePointer<AudioUnitRenderActionFlags>,
        _ timeStamp: UnsafePointer<AudioTimeStamp>, _ frames: UInt32,
        into target: UnsafeMutablePointer<AudioBufferList>? = nil
    ) -> OSStatus {
        guard bus < inputCount, let ownList = inputs[bus].list else { return kAudioUnitErr_NoConnection }
        let input = inputs + bus
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
        switch input.pointee.kind {
        case .connection:
            guard let source = input.pointee.sourceUnit else { return kAudioUnitErr_NoConnection }
            let sourceBus = input.pointee.sourceBus
            // The upstream unit's render is a render-thread call by contract.
            return _unsafePerformance { AudioUnitRender(source, &pullFlags, timeStamp, sourceBus, frames, list) }
        case .callback:
            guard let callback = input.pointee.callback else { return kAudioUnitErr_NoConnection }
            let refCon = input.pointee.callbackRefCon
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
@inlinable @inline(__always)
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

import AudioTypes

// The parameter path: AudioUnitSetParameter and AudioUnitScheduleParameters queue changes (or set
// a value at once), and render code applies them in slices so each lands on its frame.

extension RenderState {
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
}

extension AUBase {
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

import AUHostCore
import CAUHostAtomics
import Foundation

// Initialize, update, start and stop. Every change to the render wiring is compiled into a new
// schedule here, published with one atomic store, and the schedule it replaces is freed only once
// no render cycle can still be using it.

extension AudioGraph {
    /// AUGraphInitialize: opens if needed, propagates formats, initializes every unit, compiles.
    public func initialize() throws {
        lock.lock()
        defer { lock.unlock() }
        guard !isInitialized else { return }
        try open()
        try joinNodes()
        try installHeadNotifications()
        if let transport {
            // Nothing renders before initialize: the state is still the setup side's.
            transport.pointee.sampleRate = headSampleRate
            (transport.pointee.rendered, transport.pointee.cycles) = (0, 0)
            handTransportToNodes()
        } else if headTransportCallbacks() != nil {
            handTransportToNodes()  // a JACK head: its transport
        }
        resizeWorkers(to: workersWanted)
        publish(try compileSchedule())
        isInitialized = true
    }

    /// AUGraphUninitialize: stops, and uninitializes every unit.
    public func uninitialize() throws {
        lock.lock()
        defer { lock.unlock() }
        guard isInitialized else { return }
        try? stop()
        publish(nil)
        waitForRetired()
        removeHeadNotifications()
        resizeWorkers(to: 0)
        for key in attached { detach(key) }
        attached.removeAll()
        for i in nodes.indices {
            if let unit = nodes[i].unit { AudioUnitUninitialize(unit) }
            nodes[i].joined = false
        }
        isInitialized = false
    }

    /// AUGraphUpdate: applies changes made since the last update. `blocking` waits until no render
    /// cycle can still use the old schedule (then frees it); otherwise it returns at once and the
    /// old schedule is freed by a later call. Returns whether the changes are published.
    @discardableResult
    public func update(blocking: Bool) throws -> Bool {
        lock.lock()
        defer { lock.unlock() }
        guard isInitialized else { return true }  // uninitialized graphs have no schedule to swap
        try joinNodes()
        try installHeadNotifications()
        resizeWorkers(to: workersWanted)
        publish(try compileSchedule())
        if blocking { waitForRetired() } else { collectRetired() }
        return true
    }

    /// AUGraphStart: through the head.
    public func start() throws {
        lock.lock()
        defer { lock.unlock() }
        try initialize()
        guard let unit = head?.unit else {
            throw AudioError(
                kAUGraphErr_OutputNodeErr, "The graph has no output unit to start; add one (e.g. kAudioUnitSubType_GenericOutput).")
        }
        try AudioError.check(AudioOutputUnitStart(unit), LastErrorMessage.current ?? "The output unit did not start.")
    }

    /// AUGraphStop.
    public func stop() throws {
        lock.lock()
        defer { lock.unlock() }
        guard let unit = head?.unit else { return }
        try AudioError.check(AudioOutputUnitStop(unit), LastErrorMessage.current ?? "The output unit did not stop.")
    }

    /// AUGraphIsRunning: the head's IsRunning.
    public var isRunning: Bool {
        lock.lock()
        defer { lock.unlock() }
        guard let unit = head?.unit else { return false }
        var running: UInt32 = 0
        var size = UInt32(4)
        return AudioUnitGetProperty(unit, kAudioOutputUnitProperty_IsRunning, kAudioUnitScope_Global, 0, &running, &size) == noErr
            && running != 0
    }

    /// AUGraphAddRenderNotify: called around each render of the head.
    public func addRenderNotify(_ proc: AURenderCallback, _ refCon: UnsafeMutableRawPointer?) throws {
        lock.lock()
        defer { lock.unlock() }
        notifies.append((proc, refCon))
        if let unit = notifiedHead {
            try AudioError.check(AudioUnitAddRenderNotify(unit, proc, refCon), "The head refused the notification.")
        }
    }

    /// AUGraphRemoveRenderNotify.
    public func removeRenderNotify(_ proc: AURenderCallback, _ refCon: UnsafeMutableRawPointer?) throws {
        lock.lock()
        defer { lock.unlock() }
        let before = notifies.count
        notifies.removeAll { sameCallback($0.proc, proc) && $0.refCon == refCon }
        guard notifies.count < before else { throw AudioError(kAudio_ParamError, "No such render notification on the graph.") }
        if let unit = notifiedHead { AudioUnitRemoveRenderNotify(unit, proc, refCon) }
    }

    /// The graph's latency at the head, in frames, for the schedule in use.
    ///
    /// Thread: any.
    public var latencyFrames: Int {
        lock.lock()
        defer { lock.unlock() }
        return published?.pointee.latencyFrames ?? 0
    }

    /// Last cycle's and the maximum (since the last call) render time over buffer duration.
    ///
    /// Thread: any.
    public func cpuLoad(resetMaximum: Bool) -> (last: Double, maximum: Double) {
        let load = (render.pointee.cpuLoad, render.pointee.maxCPULoad)
        if resetMaximum { render.pointee.maxCPULoad = 0 }
        return load
    }

    // MARK: Schedules

    /// Makes `schedule` the one the next cycle uses; the previous one is retired.
    func publish(_ schedule: UnsafeMutablePointer<Schedule>?) {
        let old = published
        published = schedule
        auhost_atomic_store_pointer(&render.pointee.published, schedule.map(UnsafeMutableRawPointer.init))
        let cycle = auhost_atomic_load_u64(&render.pointee.cycle)
        let running = auhost_atomic_load_i32(&render.pointee.inCycle) != 0
        let managed = Set(interactions.map(\.destination))
        let stale = attached.subtracting(managed)
        attached.subtract(stale)
        if let old {
            retired.append(Retired(schedule: old, cycle: cycle, cycleWasRunning: running, detach: Array(stale), dispose: removedUnits))
        } else {
            for key in stale { detach(key) }
            removedUnits.forEach { AudioComponentInstanceDispose($0) }
        }
        removedUnits = []
    }

    /// Frees retired schedules that no cycle can be using: no cycle was running when it was
    /// replaced, or a later cycle has started since (one render thread, so the earlier one ended).
    func collectRetired() {
        let cycle = auhost_atomic_load_u64(&render.pointee.cycle)
        let running = auhost_atomic_load_i32(&render.pointee.inCycle) != 0
        retired.removeAll { r in
            guard !r.cycleWasRunning || cycle > r.cycle || !running else { return false }
            finish(r)
            return true
        }
    }

    /// Waits (briefly: at most one render cycle) until every retired schedule is free.
    func waitForRetired() {
        while !retired.isEmpty {
            collectRetired()
            if !retired.isEmpty { usleep(100) }
        }
    }

    private func finish(_ r: Retired) {
        freeSchedule(r.schedule)
        for key in r.detach where !attached.contains(key) { detach(key) }
        r.dispose.forEach { AudioComponentInstanceDispose($0) }
    }

    /// Restores a bus the graph no longer manages to "no input".
    func detach(_ key: BusKey) {
        guard let unit = nodes.first(where: { $0.id == key.node })?.unit else { return }
        var none = AURenderCallbackStruct(inputProc: nil, inputProcRefCon: nil)
        AudioUnitSetProperty(
            unit, kAudioUnitProperty_SetRenderCallback, kAudioUnitScope_Input, key.bus, &none,
            UInt32(MemoryLayout<AURenderCallbackStruct>.size))
    }

    var headSampleRate: Double {
        guard let unit = head?.unit else { return 44_100 }
        var format = AudioStreamBasicDescription()
        var size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
        AudioUnitGetProperty(unit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Input, 0, &format, &size)
        return format.mSampleRate > 0 ? format.mSampleRate : 44_100
    }

    private func installHeadNotifications() throws {
        guard let unit = head?.unit, notifiedHead != unit else { return }
        removeHeadNotifications()
        try AudioError.check(
            AudioUnitAddRenderNotify(unit, graphCycleNotify, UnsafeMutableRawPointer(render)),
            "The head unit refused the graph's render notification.")
        for n in notifies { AudioUnitAddRenderNotify(unit, n.proc, n.refCon) }
        notifiedHead = unit
    }

    private func removeHeadNotifications() {
        guard let unit = notifiedHead else { return }
        AudioUnitRemoveRenderNotify(unit, graphCycleNotify, UnsafeMutableRawPointer(render))
        for n in notifies { AudioUnitRemoveRenderNotify(unit, n.proc, n.refCon) }
        notifiedHead = nil
    }
}

func sameCallback(_ a: AURenderCallback, _ b: AURenderCallback) -> Bool {
    unsafeBitCast(a, to: UnsafeRawPointer.self) == unsafeBitCast(b, to: UnsafeRawPointer.self)
}

import AUHostCore

// Joining nodes (formats propagated along connections, units initialized, managed inputs fed by the
// trampoline) and compiling the render schedule, latency compensation included.

extension AudioGraph {
    /// Node ids ordered so that every source comes before its destinations.
    func topologicalOrder() -> [AUNode] {
        var incoming: [AUNode: Int] = Dictionary(uniqueKeysWithValues: nodes.map { ($0.id, 0) })
        for c in dependencies { incoming[c.destNode, default: 0] += 1 }
        var ready = nodes.map(\.id).filter { incoming[$0] == 0 }
        var order: [AUNode] = []
        while !ready.isEmpty {
            let n = ready.removeFirst()
            order.append(n)
            for c in dependencies where c.sourceNode == n {
                incoming[c.destNode]! -= 1
                if incoming[c.destNode] == 0 { ready.append(c.destNode) }
            }
        }
        return order
    }

    var connections: [AUNodeConnection] {
        interactions.filter { $0.nodeInteractionType == kAUNodeInteraction_Connection }.map(\.nodeInteraction.connection)
    }

    /// Brings every node into the running graph: slice size, formats along connections, then
    /// AudioUnitInitialize; finally the trampoline on every managed input bus.
    func joinNodes() throws {
        let maxFrames = head?.unit.map { (try? property($0, kAudioUnitProperty_MaximumFramesPerSlice, as: UInt32.self)) ?? 1156 } ?? 1156
        let managed = Set(interactions.map(\.destination))
        for id in topologicalOrder() {
            let i = try nodeIndex(id)
            guard let unit = nodes[i].unit, !nodes[i].joined else { continue }
            if !isUnitInitialized(unit) {
                if let own = try? property(unit, kAudioUnitProperty_MaximumFramesPerSlice, as: UInt32.self), own < maxFrames {
                    var frames = maxFrames
                    let status = AudioUnitSetProperty(
                        unit, kAudioUnitProperty_MaximumFramesPerSlice, kAudioUnitScope_Global, 0,
                        &frames, UInt32(MemoryLayout<UInt32>.size))
                    guard status == noErr else {
                        throw AudioError(
                            status,
                            "\(describe(id)) takes at most \(own) frames a slice and refused the graph's \(maxFrames) "
                                + "(kAudioUnitProperty_MaximumFramesPerSlice).")
                    }
                }
                // The graph hands sources' buffers to inputs without copying, and renders out of place
                // (in place, kernels written as `out[i] = in[i] * g` see aliased pointers and lose
                // their vector loops). A unit may not answer these (a minimal unit need not): it then
                // allocates its own input buffers, into which a source with no other consumer
                // renders straight, and is asked for nothing in place.
                for key in managed where key.node == id {
                    try setIfAnswered(unit, id, kAudioUnitProperty_ShouldAllocateBuffer, kAudioUnitScope_Input, key.bus, false)
                }
                try setIfAnswered(unit, id, kAudioUnitProperty_InPlaceProcessing, kAudioUnitScope_Global, 0, false)
                try propagateFormats(into: id)
                try AudioError.check(
                    AudioUnitInitialize(unit),
                    "\(describe(id)) failed to initialize: \(LastErrorMessage.current ?? "no reason given").")
            } else {
                try checkFormats(into: id)
            }
            nodes[i].joined = true
        }
        for id in nodes.map(\.id) where nodes.first(where: { $0.id == id })?.joined == true {
            try checkFormats(into: id)
        }
        for key in managed where !attached.contains(key) { try attach(key) }
    }

    /// Sets a Boolean property a unit need not answer: a unit without it (InvalidProperty, or
    /// read-only) keeps its own behaviour; any other refusal fails the join with the unit named.
    private func setIfAnswered(
        _ unit: AudioUnit, _ id: AUNode, _ property: AudioUnitPropertyID, _ scope: AudioUnitScope,
        _ element: AudioUnitElement, _ value: Bool
    ) throws {
        var v: UInt32 = value ? 1 : 0
        let status = AudioUnitSetProperty(unit, property, scope, element, &v, UInt32(MemoryLayout<UInt32>.size))
        guard status != noErr, status != kAudioUnitErr_InvalidProperty, status != kAudioUnitErr_PropertyNotWritable else { return }
        throw AudioError(
            status,
            "\(describe(id)) refused \(propertyName(property)) = \(v) on \(scopeName(scope)) element \(element): \(LastErrorMessage.current ?? "no reason given")."
        )
    }

    /// Sets each input's format to its source's output format (the destination is uninitialized).
    private func propagateFormats(into id: AUNode) throws {
        let dst = try node(id)
        for c in connections where c.destNode == id {
            guard let srcUnit = try node(c.sourceNode).unit, let dstUnit = dst.unit else { continue }
            var format = try property(
                srcUnit, kAudioUnitProperty_StreamFormat, scope: kAudioUnitScope_Output,
                element: c.sourceOutputNumber, as: AudioStreamBasicDescription.self)
            let current = try property(
                dstUnit, kAudioUnitProperty_StreamFormat, scope: kAudioUnitScope_Input,
                element: c.destInputNumber, as: AudioStreamBasicDescription.self)
            guard current != format else { continue }
            let status = AudioUnitSetProperty(
                dstUnit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Input, c.destInputNumber,
                &format, UInt32(MemoryLayout<AudioStreamBasicDescription>.size))
            if status != noErr { throw formatMismatch(c, format, current, status) }
        }
    }

    /// With both ends initialized, formats must already agree.
    private func checkFormats(into id: AUNode) throws {
        let dst = try node(id)
        for c in connections where c.destNode == id {
            guard let srcUnit = try node(c.sourceNode).unit, let dstUnit = dst.unit else { continue }
            let format = try property(
                srcUnit, kAudioUnitProperty_StreamFormat, scope: kAudioUnitScope_Output,
                element: c.sourceOutputNumber, as: AudioStreamBasicDescription.self)
            let current = try property(
                dstUnit, kAudioUnitProperty_StreamFormat, scope: kAudioUnitScope_Input,
                element: c.destInputNumber, as: AudioStreamBasicDescription.self)
            if current != format { throw formatMismatch(c, format, current, kAudioUnitErr_FormatNotSupported) }
        }
    }

    private func formatMismatch(
        _ c: AUNodeConnection, _ source: AudioStreamBasicDescription,
        _ destination: AudioStreamBasicDescription, _ status: OSStatus
    ) -> AudioError {
        AudioError(
            status == noErr ? kAudioUnitErr_FormatNotSupported : status,
            "Formats do not match on the connection \(describe(c.sourceNode)) output \(c.sourceOutputNumber) → \(describe(c.destNode)) input \(c.destInputNumber): the source produces \(source), the destination takes \(destination). Put a format converter (kAudioUnitType_FormatConverter) between them or set matching formats."
        )
    }

    /// Feeds a managed input bus from the graph's trampoline.
    private func attach(_ key: BusKey) throws {
        guard let unit = try node(key.node).unit else { return }
        let port =
            ports[key]
            ?? {
                let p = UnsafeMutablePointer<InputPort>.allocate(capacity: 1)
                p.initialize(to: InputPort(graph: render, id: ports.count))
                ports[key] = p
                return p
            }()
        var callback = AURenderCallbackStruct(inputProc: graphInputTrampoline, inputProcRefCon: UnsafeMutableRawPointer(port))
        try AudioError.check(
            AudioUnitSetProperty(
                unit, kAudioUnitProperty_SetRenderCallback, kAudioUnitScope_Input, key.bus,
                &callback, UInt32(MemoryLayout<AURenderCallbackStruct>.size)),
            "\(describe(key.node)) input \(key.bus) cannot take a render callback: \(LastErrorMessage.current ?? "").")
        attached.insert(key)
    }

    // MARK: The schedule

    /// Compiles the wiring of the joined nodes into a schedule for the render thread.
    func compileSchedule() throws -> UnsafeMutablePointer<Schedule> {
        let joined = nodes.filter { $0.joined && $0.unit != nil }
        let index = Dictionary(uniqueKeysWithValues: joined.enumerated().map { ($1.id, $0) })
        let scheduled = UnsafeMutablePointer<ScheduledNode>.allocate(capacity: max(joined.count, 1))
        for (i, n) in joined.enumerated() {
            let unit = n.unit!
            let count = outputElementCount(unit)
            let outputs = UnsafeMutablePointer<ScheduledOutput>.allocate(capacity: max(count, 1))
            for bus in 0..<count {
                let format =
                    (try? property(
                        unit, kAudioUnitProperty_StreamFormat, scope: kAudioUnitScope_Output,
                        element: UInt32(bus), as: AudioStreamBasicDescription.self)) ?? .canonical(sampleRate: 44_100, channels: 2)
                let buffers = Int(format.bufferCount)
                (outputs + bus).initialize(
                    to: ScheduledOutput(
                        list: AudioBufferStorage.allocateList(bufferCount: buffers), bufferCount: buffers,
                        bytesPerFrame: format.mBytesPerFrame))
            }
            guard let instance = ComponentInstance.from(unit), let render = instance.render else {
                throw AudioError(kAUGraphErr_InvalidAudioUnit, "\(describe(n.id)) cannot render (its unit has no render method).")
            }
            (scheduled + i).initialize(
                to: ScheduledNode(
                    unit: unit, render: render, renderSelf: instance.me,
                    outputs: outputs, outputCount: count))
        }

        // Outputs feeding exactly one input: that input may have the source render straight into
        // its buffers (a chain then works in one buffer, as in-place processing means).
        var consumers: [BusKey: Int] = [:]
        for c in connections { consumers[BusKey(node: c.sourceNode, bus: c.sourceOutputNumber), default: 0] += 1 }
        let latency = try latencies(joined: joined)
        let inputs = UnsafeMutablePointer<ScheduledInput>.allocate(capacity: max(ports.count, 1))
        inputs.initialize(repeating: ScheduledInput(), count: max(ports.count, 1))
        for interaction in interactions {
            let key = interaction.destination
            guard let port = ports[key], let dst = index[key.node], let dstUnit = joined[dst].unit else { continue }
            let format = try property(
                dstUnit, kAudioUnitProperty_StreamFormat, scope: kAudioUnitScope_Input,
                element: key.bus, as: AudioStreamBasicDescription.self)
            let maxFrames = Int(try property(dstUnit, kAudioUnitProperty_MaximumFramesPerSlice, as: UInt32.self))
            var entry = ScheduledInput()
            if interaction.nodeInteractionType == kAUNodeInteraction_Connection {
                let c = interaction.nodeInteraction.connection
                guard let src = index[c.sourceNode] else { continue }
                entry.kind = .connection
                entry.sourceNode = src
                entry.sourceBus = Int(c.sourceOutputNumber)
                let delay = latencyCompensation ? latency.delay[key] ?? 0 : 0
                entry.direct = delay == 0 && consumers[BusKey(node: c.sourceNode, bus: c.sourceOutputNumber)] == 1
                entry.sourceRender = scheduled[src].render
                entry.sourceSelf = scheduled[src].renderSelf
                entry.sourceOutput = entry.sourceBus < scheduled[src].outputCount ? scheduled[src].outputs + entry.sourceBus : nil
                if delay > 0 {
                    entry.delay = .allocate(capacity: 1)
                    entry.delay!.initialize(
                        to: LatencyCompensationLine(channels: Int(format.bufferCount), delay: delay, maxFrames: maxFrames))
                }
            } else {
                let cb = interaction.nodeInteraction.inputCallback.cback
                entry.kind = .callback
                entry.callback = cb.inputProc
                entry.callbackRefCon = cb.inputProcRefCon
                entry.scratchFrames = maxFrames
                entry.scratch = .allocate(capacity: maxFrames * Int(format.bufferCount) * Int(format.channelsPerBuffer))
                entry.scratch!.initialize(repeating: 0, count: maxFrames * Int(format.bufferCount) * Int(format.channelsPerBuffer))
            }
            inputs[port.pointee.id] = entry
        }
        let parallel = compileParallelPlan(joined: joined, index: index)
        for i in 0..<ports.count { inputs[i].directSerial = inputs[i].direct && parallel == nil }
        let runs = parallel == nil ? compileProcessRuns(joined: joined, inputs: inputs) : nil
        let schedule = UnsafeMutablePointer<Schedule>.allocate(capacity: 1)
        schedule.initialize(
            to: Schedule(
                nodes: scheduled, nodeCount: joined.count, inputs: inputs,
                portCount: ports.count, latencyFrames: latency.total, sampleRate: headSampleRate,
                parallel: parallel, runs: runs))
        return schedule
    }

    /// Arrival latency per node (the longest path of reported latency from a source), the delay
    /// each shorter input needs to line up with the longest, and the total at the head.
    private func latencies(joined: [Node]) throws -> (delay: [BusKey: Int], total: Int) {
        let rate = headSampleRate
        var own: [AUNode: Int] = [:]
        for n in joined {
            let seconds = (try? property(n.unit!, kAudioUnitProperty_Latency, as: Float64.self)) ?? 0
            // A unit's word sizes the delay lines: NaN or 1e300 would trap or exhaust memory.
            guard seconds.isFinite, seconds >= 0, seconds <= Self.maximumLatency else {
                guard latencyCompensation else { continue }
                throw AudioError(
                    kAudioUnitErr_InvalidPropertyValue,
                    "\(describe(n.id)) reports a latency of \(seconds) s; a latency the graph compensates must be 0…"
                        + "\(Int(Self.maximumLatency)) s (turn latency compensation off to use the unit anyway).")
            }
            own[n.id] = Int((seconds * rate).rounded())
        }
        var arrival: [AUNode: Int] = [:]
        for id in topologicalOrder() {
            arrival[id] =
                dependencies.filter { $0.destNode == id }
                .map { (arrival[$0.sourceNode] ?? 0) + (own[$0.sourceNode] ?? 0) }.max() ?? 0
        }
        var delay: [BusKey: Int] = [:]
        for c in connections {
            let reach = (arrival[c.sourceNode] ?? 0) + (own[c.sourceNode] ?? 0)
            let needed = (arrival[c.destNode] ?? 0) - reach
            if needed > 0 { delay[BusKey(node: c.destNode, bus: c.destInputNumber)] = needed }
        }
        let total = head.map { (arrival[$0.id] ?? 0) + (own[$0.id] ?? 0) } ?? 0
        return (delay, total)
    }

    /// The longest latency a unit may report (seconds): the compensating delay lines are sized by it.
    static let maximumLatency: Double = 60

    /// Frees a schedule no cycle can reach any more.
    func freeSchedule(_ schedule: UnsafeMutablePointer<Schedule>) {
        let s = schedule.pointee
        for i in 0..<s.nodeCount {
            let n = s.nodes[i]
            for b in 0..<n.outputCount { AudioBufferStorage.deallocateList(n.outputs[b].list) }
            n.outputs.deallocate()
        }
        s.nodes.deallocate()
        for p in 0..<s.portCount {
            if let d = s.inputs[p].delay { d.pointee.free(); d.deallocate() }
            s.inputs[p].scratch?.deallocate()
        }
        s.inputs.deallocate()
        if let plan = s.parallel { freeParallelPlan(plan) }
        if let runs = s.runs { freeProcessRuns(runs, count: s.portCount) }
        schedule.deallocate()
    }

    // MARK: Property helpers

    func property<T>(
        _ unit: AudioUnit, _ id: AudioUnitPropertyID, scope: AudioUnitScope = kAudioUnitScope_Global,
        element: AudioUnitElement = 0, as: T.Type
    ) throws -> T {
        let value = UnsafeMutablePointer<T>.allocate(capacity: 1)
        defer { value.deallocate() }
        var size = UInt32(MemoryLayout<T>.size)
        try AudioError.check(
            AudioUnitGetProperty(unit, id, scope, element, value, &size),
            LastErrorMessage.current ?? "Could not read \(propertyName(id)).")
        return value.pointee
    }

    /// Whether a unit is initialized (AUBase units say so; others are assumed not).
    func isUnitInitialized(_ unit: AudioUnit) -> Bool {
        ComponentInstance.from(unit)?.unit?.isInitialized ?? false
    }
}

/// The number of output elements a unit has; 1 when it does not answer ElementCount (a minimal
/// unit need not: Apple's base classes answer it, a host must not rely on that).
///
/// Thread: setup.
func outputElementCount(_ unit: AudioUnit) -> Int {
    var count: UInt32 = 0
    var size = UInt32(MemoryLayout<UInt32>.size)
    let status = AudioUnitGetProperty(unit, kAudioUnitProperty_ElementCount, kAudioUnitScope_Output, 0, &count, &size)
    return status == noErr ? Int(count) : 1
}

import AUHostCore

// Chains the graph renders flat (issue 35): a run of units that support AudioUnitProcessMultiple,
// each fed only by the one before, is rendered by pulling the run's source once and calling each
// unit's ProcessMultiple in dependency order on two alternating lists (`renderProcessRun`),
// instead of each unit pulling the one before through the graph. ProcessMultiple is a documented
// call: a unit sees nothing it could not see on Apple's hosts, and one that has render
// notifications (which it does not call) is rendered with AudioUnitRender while it has them.

extension AudioGraph {
    /// The runs of a serial schedule, by input port id (nil when it has none); an input a run
    /// ends at is no longer `directSerial`. ``freeProcessRuns(_:count:)`` frees them.
    ///
    /// Thread: setup.
    func compileProcessRuns(
        joined: [Node], inputs: UnsafeMutablePointer<ScheduledInput>
    ) -> UnsafeMutablePointer<UnsafeMutablePointer<ProcessRun>?>? {
        var inputPort: [AUNode: UnsafeMutablePointer<InputPort>] = [:]
        for (key, port) in ports where key.bus == 0 { inputPort[key.node] = port }
        // The step an input's source would be, when it can be one.
        var steps: [Int: ProcessStep] = [:]
        for port in 0..<ports.count {
            let input = inputs[port]
            guard input.directSerial, input.kind == .connection, input.sourceBus == 0,
                let step = processStep(joined[input.sourceNode], inputPort: inputPort, inputs: inputs)
            else { continue }
            steps[port] = step
        }
        // A run ends at an input whose consumer is not itself a step; it reaches back as far as
        // each step's own input is fed by another step.
        let stepNodes = Set(steps.keys.map { joined[inputs[$0].sourceNode].id })
        var runs: UnsafeMutablePointer<UnsafeMutablePointer<ProcessRun>?>?
        for (key, port) in ports {
            let id = port.pointee.id
            guard var step = steps[id], !stepNodes.contains(key.node) else { continue }
            var chain = [step]
            while let before = steps[step.inputPort.pointee.id], chain.count < joined.count {
                chain.append(before)
                step = before
            }
            let last = joined[inputs[id].sourceNode].unit!
            guard let format = streamFormat(last, kAudioUnitScope_Output),
                let maxFrames = try? property(last, kAudioUnitProperty_MaximumFramesPerSlice, as: UInt32.self)
            else { continue }
            let ordered = UnsafeMutablePointer<ProcessStep>.allocate(capacity: chain.count)
            ordered.initialize(from: chain.reversed(), count: chain.count)
            let run = UnsafeMutablePointer<ProcessRun>.allocate(capacity: 1)
            run.initialize(
                to: ProcessRun(
                    steps: ordered, count: chain.count, buffers: BusBuffers(format: format, maxFrames: Int(maxFrames)),
                    maxFrames: maxFrames))
            if runs == nil {
                runs = .allocate(capacity: ports.count)
                runs!.initialize(repeating: nil, count: ports.count)
            }
            runs![id] = run
            inputs[id].directSerial = false
        }
        return runs
    }

    /// A node's unit as a step: an AUBase of this process with one input and one output of the
    /// same format, a ProcessMultiple method, and its input 0 fed by the graph.
    private func processStep(
        _ node: Node, inputPort: [AUNode: UnsafeMutablePointer<InputPort>], inputs: UnsafeMutablePointer<ScheduledInput>
    ) -> ProcessStep? {
        guard let unit = node.unit, let instance = ComponentInstance.from(unit), let base = instance.unit,
            let processMultiple = instance.processMultiple, base.supportsProcessMultiple,
            let port = inputPort[node.id], inputs[port.pointee.id].kind != .none,
            (try? property(unit, kAudioUnitProperty_ElementCount, scope: kAudioUnitScope_Input, as: UInt32.self)) == 1,
            outputElementCount(unit) == 1, let format = streamFormat(unit, kAudioUnitScope_Input),
            format == streamFormat(unit, kAudioUnitScope_Output)
        else { return nil }
        return ProcessStep(
            processMultiple: processMultiple, me: instance.me, state: base.renderState(), inputPort: port, feed: graphInputTrampoline)
    }

    private func streamFormat(_ unit: AudioUnit, _ scope: AudioUnitScope) -> AudioStreamBasicDescription? {
        try? property(unit, kAudioUnitProperty_StreamFormat, scope: scope, as: AudioStreamBasicDescription.self)
    }

    /// Frees the runs ``compileProcessRuns(joined:inputs:)`` made.
    ///
    /// Thread: setup.
    func freeProcessRuns(_ runs: UnsafeMutablePointer<UnsafeMutablePointer<ProcessRun>?>, count: Int) {
        for i in 0..<count {
            guard let run = runs[i] else { continue }
            run.pointee.steps.deallocate()
            run.pointee.buffers.free()
            run.deallocate()
        }
        runs.deallocate()
    }
}

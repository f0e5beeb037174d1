import AUHostCore
import Foundation
import LV2Host
import Synchronization

/// Initialize / Uninitialize: the plug-in is instantiated for the unit's rate and slice size,
/// and its render state is built in plain memory.
extension LV2Unit {
    /// Instantiates and activates the plug-in and builds the render state. Thread: setup.
    func startPlugin() throws {
        let rate = sampleRate
        for format in inputFormats + outputFormats where format.mSampleRate != rate {
            throw AudioError(
                kAudioUnitErr_FormatNotSupported,
                "LV2 plug-in <\(plugin.uri)> runs at one sample rate; every element must use \(rate) Hz (one uses \(format.mSampleRate) Hz)."
            )
        }
        let requirements = access.withWorld { _ in plugin.blockLengthRequirements }
        let slice = Int(maxFramesPerSlice)
        // The maximum announced is the next power of two: never exceeded, and plug-ins that need
        // one without declaring bufsz:powerOf2BlockLength (x42's convoLV2 refuses to instantiate
        // otherwise) take Apple's default slice of 1156. Fixed-length plug-ins run blocks of
        // their length from a FIFO: a power of two when they require one, else the slice.
        let powerOfTwo = 1 << (Int.bitWidth - (slice - 1).leadingZeroBitCount)
        let block = requirements.fixed && !requirements.powerOf2 ? slice : powerOfTwo
        let configuration = LV2InstanceConfiguration(sampleRate: rate, maxBlockLength: max(block, 1), live: liveWorker)
        let instance = try access.withWorldThrowingAudioErrors { _ -> LV2Instance in
            let instance = try LV2Instance(plugin: plugin, configuration: configuration)
            if let state = pendingState { try instance.restoreState(string: state) }
            if let preset = pendingPresetURI { try instance.loadPreset(uri: preset) }
            return instance
        }
        pendingState = nil
        pendingPresetURI = nil
        instance.activate()
        lv2Instance = instance
        fifoFrames = requirements.fixed ? block : 0
        let r = makeRenderState(instance, fixedBlock: fifoFrames, requiresPowerOf2: requirements.powerOf2)
        renderState = r
        // The latency port is written only by run: run once on silence with the parameters' values
        // (then reset) so Latency is right before the first render, e.g. for `auhost render`'s
        // compensation (LV2Instance.runToRevealLatency says why this way and what it keeps).
        if plugin.ports.contains(where: \.reportsLatency) {
            lv2UnitApplyControls(r)
            instance.runToRevealLatency()
            lv2UnitReportMeters(r)
        }
        r.pointee.patch = makePatchState(instance)
        r.pointee.uiAtoms = uiAtoms
    }

    /// Keeps the plug-in's state, deactivates and frees it. Thread: setup.
    func stopPlugin() {
        guard let instance = lv2Instance else { return }
        // The plug-in's own state outlives the instance, as a unit's state outlives Uninitialize.
        pendingState = access.withWorld { _ in try? instance.stateString() }
        instance.deactivate()
        lv2Instance = nil
        freeRenderState()
    }

    /// AudioUnitReset: deactivate and activate the plug-in (LV2's reset), and empty the FIFO.
    func resetPlugin() {
        guard let instance = lv2Instance, let r = renderState else { return }
        instance.deactivate()
        instance.activate()
        r.pointee.fifoFill = 0
        for k in 0..<r.pointee.outputChannels {
            r.pointee.outputOwn[k].update(repeating: 0, count: Int(instance.configuration.maxBlockLength))
        }
        midiQueue.pointee.clear()
    }

    /// After setup code wrote the running plug-in's control ports itself (a preset, restored
    /// state): the next cycle writes every parameter into its port again, as it would have
    /// before control ports were written only on change. Thread: setup.
    func controlPortsOverwritten() {
        renderState?.pointee.controlsOverwritten.pointee.add(1, ordering: .releasing)
    }

    private func makeRenderState(_ instance: LV2Instance, fixedBlock: Int, requiresPowerOf2: Bool) -> UnsafeMutablePointer<
        LV2UnitRenderState
    > {
        func array<T>(_ values: [T]) -> UnsafeMutablePointer<T> {
            let pointer = UnsafeMutablePointer<T>.allocate(capacity: max(values.count, 1))
            pointer.initialize(from: values, count: values.count)
            return pointer
        }
        func starts(_ buses: [LV2UnitLayout.Bus]) -> [Int] { buses.reduce(into: [0]) { $0.append($0.last! + $1.ports.count) } }
        let frames = instance.configuration.maxBlockLength
        let inPorts = layout.inputs.flatMap(\.ports), outPorts = layout.outputs.flatMap(\.ports)
        func own(_ index: Int) -> UnsafeMutablePointer<Float> { instance.portBuffer(index: index)!.assumingMemoryBound(to: Float.self) }
        let stage = outPorts.map { _ -> UnsafeMutablePointer<Float> in
            let buffer = UnsafeMutablePointer<Float>.allocate(capacity: frames)
            buffer.initialize(repeating: 0, count: frames)
            return buffer
        }
        let inputs = layout.controls.filter { !$0.isOutput }, meters = layout.controls.filter(\.isOutput)
        func slot(_ c: LV2UnitLayout.Control) -> UnsafeMutablePointer<Float> {
            parameters.slot(AudioUnitParameterID(c.portIndex), kAudioUnitScope_Global, 0)!
        }
        func port(_ c: LV2UnitLayout.Control) -> UnsafeMutablePointer<Float> { try! instance.controlPointer(portIndex: c.portIndex) }
        /// The parameter's current declaration (rate-relative ones follow the rate), not the layout's.
        func range(_ c: LV2UnitLayout.Control) -> ClosedRange<Float> {
            guard let d = parameters.definition(AudioUnitParameterID(c.portIndex), kAudioUnitScope_Global, 0),
                d.minValue <= d.maxValue
            else { return -Float.greatestFiniteMagnitude...Float.greatestFiniteMagnitude }
            return d.minValue...d.maxValue
        }
        let tables = inputs.map { c -> UnsafeMutablePointer<Float>? in c.indexedValues.map { array($0) } }
        let overwritten = UnsafeMutablePointer<Atomic<UInt>>.allocate(capacity: 1)
        overwritten.initialize(to: Atomic(0))
        let state = UnsafeMutablePointer<LV2UnitRenderState>.allocate(capacity: 1)
        state.initialize(
            to: LV2UnitRenderState(
                context: instance.renderContext,
                inputPorts: array(inPorts.map(UInt32.init)), inputStart: array(starts(layout.inputs)), inputElements: layout.inputs.count,
                outputPorts: array(outPorts.map(UInt32.init)), outputStart: array(starts(layout.outputs)),
                outputElements: layout.outputs.count, inputChannels: inPorts.count, outputChannels: outPorts.count,
                inputData: array(inPorts.map(own)), outputData: array(outPorts.map(own)),
                inputOwn: array(inPorts.map(own)), outputOwn: array(outPorts.map(own)), outputStage: array(stage),
                connected: array([UnsafeMutableRawPointer?](repeating: nil, count: inPorts.count + outPorts.count)),
                multiElement: layout.outputs.count > 1,
                plain: layout.outputs.count <= 1 && fixedBlock == 0 && !requiresPowerOf2 && !instance.renderContext.takesTimePosition,
                controlSlots: array(inputs.map(slot)), controlPorts: array(inputs.map(port)),
                indexedValues: array(tables), indexedCounts: array(inputs.map { $0.indexedValues?.count ?? 0 }),
                controlMinimum: array(inputs.map { range($0).lowerBound }), controlMaximum: array(inputs.map { range($0).upperBound }),
                controlCount: inputs.count,
                controlWritten: array([UInt64](repeating: lv2UnitControlUnwritten, count: inputs.count)),
                controlsOverwritten: overwritten, controlsSeen: 0,
                meterSlots: array(meters.map(slot)), meterPorts: array(meters.map(port)),
                meterMinimum: array(meters.map { range($0).lowerBound }), meterMaximum: array(meters.map { range($0).upperBound }),
                meterCount: meters.count,
                requiresPowerOf2: requiresPowerOf2, fixedBlock: fixedBlock, fifoFill: 0,
                requiresMainInput: !layout.inputs.isEmpty && plugin.portSummary.audioInputs > 0,
                lastSampleTime: -1, lastFrames: 0, servedElements: 0, hasRun: false, producedNonFinite: false))
        return state
    }

    private func freeRenderState() {
        guard let r = renderState else { return }
        renderState = nil
        let s = r.pointee
        for k in 0..<s.outputStart[s.outputElements] { s.outputStage[k].deallocate() }
        for k in 0..<s.controlCount { s.indexedValues[k]?.deallocate() }
        for pointer in [
            UnsafeMutableRawPointer(s.inputPorts), UnsafeMutableRawPointer(s.inputStart), UnsafeMutableRawPointer(s.outputPorts),
            UnsafeMutableRawPointer(s.outputStart), UnsafeMutableRawPointer(s.inputData), UnsafeMutableRawPointer(s.outputData),
            UnsafeMutableRawPointer(s.inputOwn), UnsafeMutableRawPointer(s.outputOwn), UnsafeMutableRawPointer(s.outputStage),
            UnsafeMutableRawPointer(s.controlSlots), UnsafeMutableRawPointer(s.controlPorts),
            UnsafeMutableRawPointer(s.indexedValues), UnsafeMutableRawPointer(s.indexedCounts),
            UnsafeMutableRawPointer(s.meterSlots), UnsafeMutableRawPointer(s.meterPorts),
        ] {
            pointer.deallocate()
        }
        s.connected.deallocate()
        s.controlWritten.deallocate()
        s.controlMinimum.deallocate()
        s.controlMaximum.deallocate()
        s.meterMinimum.deallocate()
        s.meterMaximum.deallocate()
        s.controlsOverwritten.deinitialize(count: 1)
        s.controlsOverwritten.deallocate()
        Self.freePatchState(s.patch)
        r.deinitialize(count: 1)
        r.deallocate()
    }
}

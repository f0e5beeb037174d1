import AUHostCore
import CLADSPA
import Foundation
import LADSPAHost
import Synchronization

/// Initialize / Uninitialize: the plug-in is instantiated at the unit's rate, every port is
/// connected (LADSPA requires it before run), and the render state is built in plain memory.
extension LADSPAUnit {
    /// Instantiates and activates the plug-in and builds the render state. Thread: setup.
    func startPlugin() throws {
        let rate = sampleRate
        for format in inputFormats + outputFormats where format.mSampleRate != rate {
            throw AudioError(
                kAudioUnitErr_FormatNotSupported,
                "LADSPA plug-in \(plugin.label) runs at one sample rate; every element must use \(rate) Hz (one uses \(format.mSampleRate) Hz)."
            )
        }
        let kept = try claimMultipleSynths(sampleRate: rate)
        let instance: LADSPAInstance
        do { instance = try kept ?? LADSPAInstance(plugin: plugin, sampleRate: rate) } catch let error as LADSPAHostError {
            releaseMultipleSynths(keeping: nil)
            throw AudioError(error.status, error.message)
        }
        let dssi = instance.dssi?.pointee
        guard instance.descriptor.pointee.run != nil || dssi?.run_synth != nil || dssi?.run_multiple_synths != nil else {
            throw AudioError(kAudioUnitErr_FailedInitialization, "LADSPA plug-in \(plugin.label) has neither run nor run_synth.")
        }
        let r = makeRenderState(instance)
        renderState = r
        ladspaInstance = instance
        // Control values before activate: plug-ins that size buffers from a control in activate
        // (against the letter of LADSPA, but common) see the value the host will run with.
        ladspaUnitApplyControls(r)
        // The session's configure() values, before activate, as the DSSI specification asks.
        for (key, value) in configureValues.sorted(by: { $0.key < $1.key }) {
            if let message = instance.configure(key: key, value: value) {
                throw AudioError(
                    kAudioUnitErr_FailedInitialization, "DSSI plug-in \(plugin.label) refused configure(\(key), \(value)): \(message)")
            }
        }
        instance.activate()
        // A kept instance (LADSPAUnit+MultipleSynths.swift) still holds the voices its last unit
        // left: FluidSynth silences them only while rendering, and a first-cycle note on the same
        // key met them (its level 6 % off a fresh note's). One short run ends them first.
        if kept != nil { ladspaUnitRunSynthSilently(r, frames: min(64, Int(maxFramesPerSlice))) }
        // A latency output is written only by run. A second instance, run once on silence with the
        // same control values and then thrown away, tells it before the first render; running the
        // unit's own instance and resetting it would not do: LSP's plug-ins keep counters across
        // deactivate/activate, and their output then drifted from a fresh run's (1.8e-7 after
        // 12,299 frames, compressor_mono).
        if let port = plugin.ports.firstIndex(where: \.reportsLatency) {
            r.pointee.controlStorage[port] = revealLatency(controls: r.pointee.controlStorage)
            ladspaUnitReportMeters(r)
        }
    }

    /// The latency a fresh instance reports after one run of silence with `controls` (one float
    /// per port, as the unit's storage holds them); 0 when it cannot be made. Thread: setup.
    private func revealLatency(controls: UnsafeMutablePointer<Float>) -> Float {
        guard let probe = try? LADSPAInstance(plugin: plugin, sampleRate: sampleRate),
            let port = plugin.ports.firstIndex(where: \.reportsLatency)
        else { return 0 }
        let frames = max(Int(maxFramesPerSlice), 1)
        let ports = plugin.ports
        let storage = UnsafeMutablePointer<Float>.allocate(capacity: max(ports.count, 1))
        storage.initialize(from: controls, count: ports.count)
        let audio = UnsafeMutablePointer<Float>.allocate(capacity: frames * max(ports.count, 1))
        audio.initialize(repeating: 0, count: frames * max(ports.count, 1))
        defer {
            storage.deallocate()
            audio.deallocate()
        }
        for index in ports.indices {
            probe.connect(port: index, to: ports[index].isAudio ? audio + index * frames : storage + index)
        }
        probe.activate()
        if let runSynth = probe.dssi?.pointee.run_synth, probe.descriptor.pointee.run == nil {
            runSynth(probe.handle, UInt(frames), nil, 0)
        } else {
            probe.run(frames: frames)
        }
        probe.deactivate()
        return storage[port]
    }

    /// Deactivates and frees the plug-in and the render state. Thread: setup.
    func stopPlugin() {
        guard let instance = ladspaInstance else { return }
        instance.deactivate()
        ladspaInstance = nil
        releaseMultipleSynths(keeping: instance)
        freeRenderState()
    }

    private func makeRenderState(_ instance: LADSPAInstance) -> UnsafeMutablePointer<LADSPAUnitRenderState> {
        func array<T>(_ values: [T]) -> UnsafeMutablePointer<T> {
            let pointer = UnsafeMutablePointer<T>.allocate(capacity: max(values.count, 1))
            pointer.initialize(from: values, count: values.count)
            return pointer
        }
        let frames = max(Int(maxFramesPerSlice), 1)
        let ports = plugin.ports
        let storage = UnsafeMutablePointer<Float>.allocate(capacity: max(ports.count, 1))
        storage.initialize(repeating: 0, count: max(ports.count, 1))
        for index in ports.indices where ports[index].isControl { instance.connect(port: index, to: storage + index) }
        let own = (0..<max(plugin.audioInputs.count, 1)).map { _ -> UnsafeMutablePointer<Float> in
            let buffer = UnsafeMutablePointer<Float>.allocate(capacity: frames)
            buffer.initialize(repeating: 0, count: frames)
            return buffer
        }
        // Until the first cycle every audio port reads or writes the unit's own silent buffers, so
        // a plug-in that touches its ports in activate finds valid memory.
        for (k, port) in plugin.audioInputs.enumerated() { instance.connect(port: port, to: own[k]) }
        for port in plugin.audioOutputs { instance.connect(port: port, to: own[0]) }
        let inputs = plugin.controlInputs, meters = plugin.controlOutputs
        func slot(_ index: Int) -> UnsafeMutablePointer<Float> {
            parameters.slot(AudioUnitParameterID(index), kAudioUnitScope_Global, 0)!
        }
        func range(_ index: Int) -> ClosedRange<Float> {
            guard let d = parameters.definition(AudioUnitParameterID(index), kAudioUnitScope_Global, 0), d.minValue <= d.maxValue
            else { return -Float.greatestFiniteMagnitude...Float.greatestFiniteMagnitude }
            return d.minValue...d.maxValue
        }
        // As many events as the MIDI queue holds: a cycle never has more to deliver.
        let eventCapacity = 512
        let events = UnsafeMutablePointer<snd_seq_event_t>.allocate(capacity: eventCapacity)
        events.initialize(repeating: snd_seq_event_t(), count: eventCapacity)
        let requested = UnsafeMutablePointer<Atomic<Int>>.allocate(capacity: 1)
        requested.initialize(to: Atomic(programIndex))
        let requestedBankProgram = UnsafeMutablePointer<Atomic<Int>>.allocate(capacity: 1)
        requestedBankProgram.initialize(to: Atomic(SelectedBankProgram.encode(bankProgram, request: bankProgramRequests)))
        let eventLists = UnsafeMutablePointer<UnsafeMutablePointer<snd_seq_event_t>?>.allocate(capacity: 1)
        eventLists.initialize(to: events)
        let state = UnsafeMutablePointer<LADSPAUnitRenderState>.allocate(capacity: 1)
        state.initialize(
            to: LADSPAUnitRenderState(
                descriptor: instance.descriptor, handle: instance.handle,
                inputPorts: array(plugin.audioInputs), inputCount: plugin.audioInputs.count,
                outputPorts: array(plugin.audioOutputs), outputCount: plugin.audioOutputs.count,
                inputData: array(Array(own.prefix(plugin.audioInputs.count))),
                outputData: array([UnsafeMutablePointer<Float>](repeating: own[0], count: plugin.audioOutputs.count)),
                inputOwn: array(own),
                connected: array([UnsafeMutableRawPointer?](repeating: nil, count: plugin.audioInputs.count + plugin.audioOutputs.count)),
                controlSlots: array(inputs.map(slot)), controlPorts: array(inputs.map { storage + $0 }),
                controlMinimum: array(inputs.map { range($0).lowerBound }), controlMaximum: array(inputs.map { range($0).upperBound }),
                controlCount: inputs.count,
                meterSlots: array(meters.map(slot)), meterPorts: array(meters.map { storage + $0 }),
                meterMinimum: array(meters.map { range($0).lowerBound }), meterMaximum: array(meters.map { range($0).upperBound }),
                meterIndices: array(meters), meterCount: meters.count,
                controlStorage: storage, inPlaceBroken: plugin.isInPlaceBroken,
                dssi: plugin.isDSSISynth && (instance.dssi?.pointee.run_synth != nil || instance.dssi?.pointee.run_multiple_synths != nil)
                    ? instance.dssi : nil,
                events: events, eventCapacity: eventCapacity,
                programBanks: array(plugin.programs.map(\.bank)), programNumbers: array(plugin.programs.map(\.program)),
                programCount: plugin.programs.count, requestedProgram: requested, selectedProgram: -1,
                requestedBankProgram: requestedBankProgram, selectedBankProgram: -1,
                synthHandles: array([Optional(instance.handle)]), synthEventLists: eventLists, synthEventCounts: array([UInt(0)]),
                producedNonFinite: false))
        return state
    }

    private func freeRenderState() {
        guard let r = renderState else { return }
        renderState = nil
        let s = r.pointee
        for k in 0..<max(s.inputCount, 1) { s.inputOwn[k].deallocate() }
        for pointer in [
            UnsafeMutableRawPointer(s.inputPorts), UnsafeMutableRawPointer(s.outputPorts), UnsafeMutableRawPointer(s.inputData),
            UnsafeMutableRawPointer(s.outputData), UnsafeMutableRawPointer(s.inputOwn), UnsafeMutableRawPointer(s.connected),
            UnsafeMutableRawPointer(s.controlSlots), UnsafeMutableRawPointer(s.controlPorts), UnsafeMutableRawPointer(s.controlMinimum),
            UnsafeMutableRawPointer(s.controlMaximum), UnsafeMutableRawPointer(s.meterSlots), UnsafeMutableRawPointer(s.meterPorts),
            UnsafeMutableRawPointer(s.meterMinimum), UnsafeMutableRawPointer(s.meterMaximum), UnsafeMutableRawPointer(s.meterIndices),
            UnsafeMutableRawPointer(s.controlStorage),
        ] {
            pointer.deallocate()
        }
        s.events.deallocate()
        s.programBanks.deallocate()
        s.programNumbers.deallocate()
        s.requestedProgram.deinitialize(count: 1)
        s.requestedProgram.deallocate()
        s.requestedBankProgram.deinitialize(count: 1)
        s.requestedBankProgram.deallocate()
        s.synthHandles.deallocate()
        s.synthEventLists.deallocate()
        s.synthEventCounts.deallocate()
        r.deinitialize(count: 1)
        r.deallocate()
    }
}

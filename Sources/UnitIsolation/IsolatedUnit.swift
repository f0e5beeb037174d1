import AUHostCore
import AudioUnitBase
import CUnitIsolation
import Foundation

/// A unit whose implementation runs in an `auhost-unit-host` child (issue 19). The host keeps
/// this proxy: the unit model's properties, formats and parameters live here as for any AUBase;
/// the child gets the formats, MaximumFramesPerSlice and parameter values it needs, renders each
/// cycle through the shared block, and may crash, hang or misbehave without taking the host
/// with it (see AUHostIsolation.h).
///
/// Threads: as AUBase. The child's exit is noticed on a watcher thread.
public final class IsolatedUnit: AUBase {
    /// The component the child serves.
    public let component: Component
    private(set) var process: UnitHostProcess?
    private var shape: UnitShape
    let cycle: UnsafeMutablePointer<IsolatedCycleState>
    /// Serialises restarts, initialization and the fault sentence.
    let lock = NSRecursiveLock()
    /// Why the child ended (a signal or an exit status), set by the watcher; and which child is
    /// current. Under `exitLock`, which is never held while waiting (the watcher takes it).
    private let exitLock = NSLock()
    private var exitSummary: String?
    private var currentProcess: ObjectIdentifier?
    private var faultWhile: String?

    /// Starts a child for `component` and mirrors its unit's elements and parameters.
    ///
    /// Thread: setup.
    public init(component: Component) throws {
        self.component = component
        cycle = .allocate(capacity: 1)
        cycle.initialize(to: IsolatedCycleState())
        let started = try IsolatedUnit.start(component)
        shape = started.shape
        let format = started.shape.outputFormats.first ?? started.shape.inputFormats.first
        super.init(
            description: component.description, inputs: started.shape.inputFormats.count, outputs: started.shape.outputFormats.count,
            channels: format?.mChannelsPerFrame ?? 2, sampleRate: format?.mSampleRate ?? 44_100,
            parameters: started.shape.parameters.map(\.definition))
        for (i, f) in started.shape.inputFormats.enumerated() { try? setFormat(f, kAudioUnitScope_Input, UInt32(i)) }
        for (i, f) in started.shape.outputFormats.enumerated() { try? setFormat(f, kAudioUnitScope_Output, UInt32(i)) }
        declareParameters(started.shape)
        adopt(started.process, started.box)
    }

    deinit {
        process?.terminate()
        freeParameterMirror()
        cycle.pointee.channels.deallocate()
        cycle.pointee.offsets.deallocate()
        for i in 0..<IsolatedCycleState.busCapacity { cycle.pointee.inputLists[i].map(AudioBufferStorage.deallocateList) }
        cycle.pointee.inputLists.deallocate()
        cycle.pointee.midi.deallocate()
        cycle.deinitialize(count: 1)
        cycle.deallocate()
    }

    /// A child for `component` and what it reports about its unit.
    private static func start(_ component: Component) throws -> (process: UnitHostProcess, shape: UnitShape, box: ExitBox) {
        let box = ExitBox()
        let process = try UnitHostProcess(component: component) { status in box.deliver(status) }
        do {
            let shape = try UnitShape(decoding: try process.call(.describe))
            return (process, shape, box)
        } catch let error as AudioError {
            process.terminate()
            throw AudioError(error.status, "\(component.name) (\(component.origin)) out of process: \(error.message)")
        } catch {
            process.terminate()
            throw AudioError(
                kAudioUnitErr_FailedInitialization,
                "\(component.name) (\(component.origin)) out of process: \(error) (\(box.summary ?? "its process is running"))."
            )
        }
    }

    /// Makes `process` this unit's child: its exit now reaches ``childEnded(_:)``.
    private func adopt(_ process: UnitHostProcess, _ box: ExitBox) {
        self.process = process
        exitLock.withLock {
            exitSummary = nil
            currentProcess = ObjectIdentifier(process)
        }
        cycle.pointee.pidfd = process.pidfd
        cycle.pointee.header = process.header
        cycle.pointee.request = auhost_iso_load(&process.header.pointee.request)
        // The watcher was made before this unit existed; route its report here now.
        box.route(process, to: self)
    }

    private func declareParameters(_ shape: UnitShape) {
        freeParameterMirror()
        let n = shape.parameters.count
        cycle.pointee.parameterCount = n
        cycle.pointee.sent = .allocate(capacity: max(n, 1))
        cycle.pointee.parameterIDs = .allocate(capacity: max(n, 1))
        for (i, p) in shape.parameters.enumerated() {
            _ = setParameter(p.definition.id, value: p.value)
            cycle.pointee.sent[i] = p.value
            cycle.pointee.parameterIDs[i] = p.definition.id
        }
    }

    /// Frees the mirror's arrays; declareParameters allocates the next ones (it did leak a
    /// one-slot pair per instance when this also made placeholders: found by IsolatedUnit fuzzing).
    private func freeParameterMirror() {
        cycle.pointee.sent.deallocate()
        cycle.pointee.parameterIDs.deallocate()
        cycle.pointee.parameterCount = 0
    }

    // MARK: The unit model

    public override var channelCapabilities: [AUChannelInfo] { shape.channelCapabilities }
    /// Effects can be bypassed (BypassEffect) here, without the child: input 0 passes to output 0
    /// when their channel counts agree (else silence), also while the child is faulted.
    public override var supportsBypass: Bool {
        [kAudioUnitType_Effect, kAudioUnitType_MusicEffect].contains(component.description.componentType)
    }

    /// The child's unit decides, when the format is set (an LV2 plug-in's ports fix its channel
    /// counts, and it declares no channel capabilities): a host negotiating formats, as `auhost
    /// render` does with a mono plug-in, hears the refusal then, not at AudioUnitInitialize.
    /// Before the child is adopted, or once it faulted, the formats wait for initialize.
    public override func accepts(format: AudioStreamBasicDescription, scope: AudioUnitScope, element: AudioUnitElement) -> Bool {
        guard super.accepts(format: format, scope: scope, element: element) else { return false }
        lock.lock()
        defer { lock.unlock() }
        guard let process, auhost_iso_load(&cycle.pointee.fault) == 0 else { return true }
        do {
            try withChild(process, "setting a stream format") {
                try send(process, .setFormat) {
                    $0.u32(scope); $0.u32(element); $0.format(format)
                }
            }
            return true
        } catch {
            return false
        }
    }
    public override var latency: Double { shape.latency }
    public override var tailTime: Double { shape.tailTime }
    public override var factoryPresets: [(number: Int32, name: String)] { shape.factoryPresets }

    /// Has the child apply the preset, then takes the parameter values it left (the next cycle
    /// sends them back unchanged).
    public override func applyFactoryPreset(_ number: Int32) throws {
        lock.lock()
        defer { lock.unlock() }
        guard let process, auhost_iso_load(&cycle.pointee.fault) == 0 else {
            throw AudioError(kAudioComponentErr_InstanceInvalidated, faultDescription ?? "\(component.name) has no process.")
        }
        var reply: [UInt8] = []
        try withChild(process, "choosing a factory preset") {
            var w = ByteWriter()
            w.i32(number)
            reply = try process.call(.setFactoryPreset, w.bytes)
        }
        var r = ByteReader(reply)
        let count = Int(try r.u32())
        guard count == shape.parameters.count else {
            throw AudioError(
                kAudioUnitErr_InvalidPropertyValue,
                "\(component.name) answered \(count) parameter values for \(shape.parameters.count) parameters.")
        }
        for p in shape.parameters {
            let value = try r.f32()
            // Refused (non-finite or out of range) values leave the proxy's value as it was.
            _ = setParameter(p.definition.id, value: value)
        }
    }

    public override func allocateRenderResources() throws {
        lock.lock()
        defer { lock.unlock() }
        // A unit that faulted earlier initializes and renders silence (a graph holding it renders
        // on); a restart configures its new child.
        guard let process, auhost_iso_load(&cycle.pointee.fault) == 0 else { return }
        try configureChild(process)
    }

    /// Sends formats and MaximumFramesPerSlice, lays out and maps the audio, initializes the child.
    private func configureChild(_ process: UnitHostProcess) throws {
        let inputs = inputFormats.map { Int($0.mChannelsPerFrame) }
        let outputs = outputFormats.map { Int($0.mChannelsPerFrame) }
        let frames = Int(maxFramesPerSlice)
        try withChild(process, "setting the stream formats") {
            for (i, f) in inputFormats.enumerated() {
                try send(process, .setFormat) {
                    $0.u32(kAudioUnitScope_Input); $0.u32(UInt32(i)); $0.format(f)
                }
            }
            for (i, f) in outputFormats.enumerated() {
                try send(process, .setFormat) {
                    $0.u32(kAudioUnitScope_Output); $0.u32(UInt32(i)); $0.format(f)
                }
            }
            try send(process, .setMaximumFrames) { $0.u32(UInt32(frames)) }
        }
        let floats = (inputs + outputs).reduce(0, +) * frames
        let bytes = max(floats * 4, 4096)
        try process.mapAudio(bytes: bytes)
        cycle.pointee.header = process.header
        cycle.pointee.audio = process.audio!.assumingMemoryBound(to: Float.self)
        cycle.pointee.inputCount = inputs.count
        cycle.pointee.outputCount = outputs.count
        cycle.pointee.maxFrames = frames
        cycle.pointee.sampleRate = sampleRate
        var offset = 0
        for (i, n) in (inputs + outputs).enumerated() {
            cycle.pointee.channels[i] = n
            cycle.pointee.offsets[i] = offset
            offset += n * frames
        }
        for (i, n) in inputs.enumerated() {
            cycle.pointee.inputLists[i].map(AudioBufferStorage.deallocateList)
            cycle.pointee.inputLists[i] = AudioBufferStorage.allocateList(bufferCount: n)
        }
        try withChild(process, "initializing") {
            try send(process, .initialize) { w in
                w.u32(UInt32(inputs.count))
                inputs.forEach { w.u32(UInt32($0)) }
                w.u32(UInt32(outputs.count))
                outputs.forEach { w.u32(UInt32($0)) }
                w.u32(UInt32(frames))
                w.u32(UInt32(bytes))
            }
        }
        // Latency and tail may be known only once the child's unit is initialized (an LV2
        // plug-in's latency port): ask again, so hosts compensate what the child will delay.
        if let fresh = try? UnitShape(decoding: try process.call(.describe)) {
            shape.latency = fresh.latency
            shape.tailTime = fresh.tailTime
        }
        cycle.pointee.cycleSampleTime = -1
        cycle.pointee.warm = false
    }

    public override func deallocateRenderResources() {
        lock.lock()
        defer { lock.unlock() }
        if let process, auhost_iso_load(&cycle.pointee.fault) == 0 { _ = try? process.call(.uninitialize) }
    }

    public override func resetState() {
        lock.lock()
        defer { lock.unlock() }
        cycle.pointee.cycleSampleTime = -1
        if let process, auhost_iso_load(&cycle.pointee.fault) == 0 { _ = try? process.call(.reset) }
    }

    @_noAllocation @_noLocks
    public override func renderBus(
        _ bus: UInt32, flags: UnsafeMutablePointer<AudioUnitRenderActionFlags>, timeStamp: UnsafePointer<AudioTimeStamp>,
        frames: UInt32, output: UnsafeMutablePointer<AudioBufferList>
    ) -> OSStatus {
        isolatedRender(cycle, renderState(), bus, flags, timeStamp, frames, output)
    }

    public override var acceptsMIDI: Bool { super.acceptsMIDI }

    public override func midiEvent(status: UInt32, data1: UInt32, data2: UInt32, offset: UInt32) -> OSStatus {
        auhost_iso_midi_ring_push(cycle.pointee.midi, status, data1, data2, offset) != 0 ? noErr : kAudioUnitErr_MIDIOutputBufferFull
    }

    public override func customPropertyInfo(_ id: AudioUnitPropertyID, _ scope: AudioUnitScope, _ element: AudioUnitElement) throws -> (
        size: UInt32, writable: Bool
    )? {
        switch id {
        case kAUHostIsolatedUnitProperty_RenderDeadline, kAUHostIsolatedUnitProperty_SpinLimit: return (8, true)
        case kAUHostIsolatedUnitProperty_ProcessID: return (4, false)
        default: return nil
        }
    }

    public override func getCustomProperty(
        _ id: AudioUnitPropertyID, _ scope: AudioUnitScope, _ element: AudioUnitElement, _ data: UnsafeMutableRawPointer
    ) throws {
        switch id {
        case kAUHostIsolatedUnitProperty_RenderDeadline: data.storeBytes(of: cycle.pointee.deadlineSeconds, as: Float64.self)
        case kAUHostIsolatedUnitProperty_SpinLimit: data.storeBytes(of: Float64(cycle.pointee.spinLimit) * 1e-9, as: Float64.self)
        case kAUHostIsolatedUnitProperty_ProcessID:
            data.storeBytes(of: UInt32(process.map { $0.hasEnded ? 0 : $0.pid } ?? 0), as: UInt32.self)
        default: break
        }
    }

    public override func setCustomProperty(
        _ id: AudioUnitPropertyID, _ scope: AudioUnitScope, _ element: AudioUnitElement, _ data: UnsafeRawPointer, _ size: UInt32
    ) throws {
        let seconds = data.loadUnaligned(as: Float64.self)
        if id == kAUHostIsolatedUnitProperty_SpinLimit {
            guard seconds.isFinite, seconds >= 0, seconds <= 0.01 else {
                throw AudioError(kAudioUnitErr_InvalidPropertyValue, "A spin limit of \(seconds) s is out of range (0…0.01).")
            }
            cycle.pointee.spinLimit = Int64(seconds * 1e9)
            return
        }
        guard id == kAUHostIsolatedUnitProperty_RenderDeadline else { return }
        guard seconds.isFinite, seconds >= 0, seconds <= 3600 else {
            throw AudioError(
                kAudioUnitErr_InvalidPropertyValue, "A render deadline of \(seconds) s is out of range (0…3600; 0 is the default).")
        }
        cycle.pointee.deadlineSeconds = seconds
    }

    // MARK: State

    /// The child unit's own extra state (what its ClassInfo holds beyond parameters, e.g. an LV2
    /// plug-in's state or the iPod EQ's curve), so that ClassInfo reads the same in and out of
    /// process. Empty when the unit has faulted.
    public override func saveExtraState() -> [String: PropertyListValue] {
        lock.lock()
        defer { lock.unlock() }
        guard let process, auhost_iso_load(&cycle.pointee.fault) == 0,
            let bytes = try? process.call(.getClassInfo), let plist = try? PropertyListValue(propertyListData: bytes),
            case .dictionary(let extra)? = plist["auhost-state"]
        else { return [:] }
        return extra
    }

    /// Restores extra state in the child: its ClassInfo with this unit's parameter values (restored
    /// just before) and `state`, applied there in the child unit's own order; then takes the
    /// parameter values the child ended with (state may carry some).
    public override func restoreExtraState(_ state: [String: PropertyListValue]) throws {
        lock.lock()
        defer { lock.unlock() }
        guard let process, auhost_iso_load(&cycle.pointee.fault) == 0 else {
            throw AudioError(kAudioComponentErr_InstanceInvalidated, faultDescription ?? "\(component.name) has no process.")
        }
        try withChild(process, "restoring its state") {
            guard case .dictionary(var info) = try PropertyListValue(propertyListData: try process.call(.getClassInfo)) else {
                throw AudioError(kAudioUnitErr_InvalidPropertyValue, "\(component.name) answered a ClassInfo that is not a dictionary.")
            }
            if var data = info[kAUPresetDataKey]?.dataValue, data.count % 16 == 0 {
                func word(_ i: Int) -> UInt32 { data[i..<i + 4].reduce(0) { ($0 << 8) | UInt32($1) } }
                for r in stride(from: 0, to: data.count, by: 16) where word(r) == kAudioUnitScope_Global && word(r + 4) == 0 {
                    guard let value = try? parameter(word(r + 8)) else { continue }
                    data.replaceSubrange(r + 12..<r + 16, with: [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: value.bitPattern >> $0) })
                }
                info[kAUPresetDataKey] = .data(data)
            }
            info["auhost-state"] = .dictionary(state)
            var w = ByteWriter()
            w.data(try PropertyListValue.dictionary(info).propertyListData(binary: true))
            _ = try process.call(.setClassInfo, w.bytes)
            let shape = try UnitShape(decoding: try process.call(.describe))
            for p in shape.parameters { _ = setParameter(p.definition.id, value: p.value) }
        }
    }

    // MARK: Faults and restarts

    /// The fault, or `.none`.
    ///
    /// Thread: any.
    public var fault: IsolationFault { IsolationFault(rawValue: auhost_iso_load(&cycle.pointee.fault)) ?? .none }

    /// Render cycles the child has completed (this child and earlier ones).
    ///
    /// Thread: any.
    public var completedCycles: UInt64 { cycle.pointee.cycles }

    /// A sentence naming the unit and its fault, or nil when it has none.
    ///
    /// Thread: setup.
    public var faultDescription: String? {
        lock.lock()
        defer { lock.unlock() }
        let name = "The out-of-process unit \(component.name) (\(component.origin))"
        let when = "at sample time \(Int64(cycle.pointee.faultSampleTime))"
        let after = "; it outputs silence until restarted (AUHostIsolatedUnitRestart)."
        switch fault {
        case .none, .restarting: return nil
        case .crashed:
            let summary = exitLock.withLock { exitSummary }
            return "\(name) crashed: its process \(summary ?? "ended")\(faultWhile.map { " while \($0)" } ?? "")\(after)"
        case .hung:
            let budget = cycle.pointee.deadlineSeconds > 0 ? "\(cycle.pointee.deadlineSeconds) s" : "three quarters of the cycle"
            return "\(name) hung: it did not finish the render cycle \(when) within its deadline (\(budget)) and was ended\(after)"
        case .nonFinite: return "\(name) wrote a NaN or an infinity in the render cycle \(when) and was ended\(after)"
        case .protocolBroken: return "\(name) broke the control protocol\(faultWhile.map { " while \($0)" } ?? "") and was ended\(after)"
        }
    }

    /// Called on the watcher thread when the child ended.
    fileprivate func childEnded(_ process: UnitHostProcess, status: Int32) {
        let summary: String
        if (status & 0x7F) != 0 {
            let signal = status & 0x7F
            summary = "ended on signal \(signal) (\(String(cString: strsignal(signal))))"
        } else {
            summary = "exited with status \((status >> 8) & 0xFF)"
        }
        let current = exitLock.withLock { () -> Bool in
            guard currentProcess == ObjectIdentifier(process) else { return false }
            exitSummary = summary
            return true
        }
        guard current else { return }
        let au = renderState()
        _ = isolatedRecordFault(cycle, au, .crashed, at: cycle.pointee.cycleSampleTime)
        // Wake a render call waiting for this child (the child can no longer change `done`).
        auhost_iso_xor(&process.header.pointee.done, 0x8000_0000)
        auhost_iso_futex_wake(&process.header.pointee.done)
    }

    /// Replaces the child by a fresh one configured like this unit; clears the fault.
    ///
    /// Thread: setup.
    public func restart() throws {
        lock.lock()
        defer { lock.unlock() }
        // Silence first, then wait for a cycle in flight to leave the old block.
        auhost_iso_store(&cycle.pointee.fault, IsolationFault.restarting.rawValue)
        while auhost_iso_load(&cycle.pointee.busy) != 0 { usleep(100) }
        let old = process
        process = nil
        exitLock.withLock { currentProcess = nil }
        cycle.pointee.header = nil
        cycle.pointee.audio = nil
        old?.terminate()
        let started: (process: UnitHostProcess, shape: UnitShape, box: ExitBox)
        do { started = try IsolatedUnit.start(component) } catch {
            // No child: the unit stays faulted, and says why.
            faultWhile = "restarting (\((error as? AudioError)?.message ?? "\(error)"))"
            auhost_iso_store(&cycle.pointee.fault, IsolationFault.protocolBroken.rawValue)
            throw error
        }
        guard started.shape.inputFormats.count == inputFormats.count, started.shape.outputFormats.count == outputFormats.count,
            started.shape.parameters.map(\.definition.id) == shape.parameters.map(\.definition.id)
        else {
            started.process.terminate()
            faultWhile = "restarting (the new process reported other elements or parameters)"
            auhost_iso_store(&cycle.pointee.fault, IsolationFault.protocolBroken.rawValue)
            throw AudioError(
                kAudioUnitErr_FailedInitialization, "\(component.name) came back with other elements or parameters; make a new instance.")
        }
        faultWhile = nil
        adopt(started.process, started.box)
        for p in 0..<cycle.pointee.parameterCount {
            let value = parameterValues[p]
            try withChild(started.process, "restoring parameters") {
                try send(started.process, .setParameter) {
                    $0.u32(self.cycle.pointee.parameterIDs[p]); $0.u32(kAudioUnitScope_Global); $0.u32(0); $0.f32(value)
                }
            }
            cycle.pointee.sent[p] = value
        }
        if isInitialized { try configureChild(started.process) }
        auhost_iso_store(&cycle.pointee.fault, 0)
        renderState().pointee.lastRenderError = noErr
    }

    // MARK: Control calls

    private func send(_ process: UnitHostProcess, _ op: IsolationOpcode, _ fill: (inout ByteWriter) -> Void) throws {
        var w = ByteWriter()
        fill(&w)
        _ = try process.call(op, w.bytes)
    }

    /// Runs control calls; a broken channel (the child died or answered nonsense) becomes a fault
    /// and an AudioError naming the unit; the child's own errors pass through with its sentence.
    func withChild(_ process: UnitHostProcess, _ doing: String, _ body: () throws -> Void) throws {
        do {
            try body()
        } catch let error as AudioError {
            throw AudioError(error.status, "\(component.name): \(error.message)")
        } catch {
            faultWhile = doing
            process.terminate()
            _ = isolatedRecordFault(cycle, renderState(), .protocolBroken, at: cycle.pointee.cycleSampleTime)
            if exitLock.withLock({ exitSummary }) != nil { auhost_iso_store(&cycle.pointee.fault, IsolationFault.crashed.rawValue) }
            throw AudioError(kAudioComponentErr_InstanceInvalidated, faultDescription ?? "\(component.name): \(error)")
        }
    }
}

/// Carries a child's exit from its watcher thread to the unit that owns it (the watcher starts
/// before the unit exists; a unit that is gone is not reached).
final class ExitBox: @unchecked Sendable {
    private let lock = NSLock()
    private weak var unit: IsolatedUnit?
    private weak var process: UnitHostProcess?
    private var status: Int32?

    init() {}

    /// How the child ended, if it has.
    var summary: String? {
        lock.withLock { status.map { ($0 & 0x7F) != 0 ? "it ended on signal \($0 & 0x7F)" : "it exited with status \(($0 >> 8) & 0xFF)" } }
    }

    /// Thread: the watcher.
    func deliver(_ status: Int32) {
        lock.lock()
        self.status = status
        let unit = self.unit, process = self.process
        lock.unlock()
        if let unit, let process { unit.childEnded(process, status: status) }
    }

    /// From now on the exit reaches `unit` (at once when it already happened).
    func route(_ process: UnitHostProcess, to unit: IsolatedUnit) {
        lock.lock()
        self.unit = unit
        self.process = process
        let ended = status
        lock.unlock()
        if let ended { unit.childEnded(process, status: ended) }
    }
}

import AUHostCore
import CUnitIsolation
import Foundation
import LV2Units
import UnitIsolation

/// The child's side of the protocol: answers control messages on the main thread and renders on
/// its own thread when the host raises `request` in the shared block.
///
/// Thread: the main thread for setup; the render thread for cycles (the host sends no setup
/// message that touches rendering while a cycle is in flight).
final class UnitServer {
    let control: Int32
    let blockFD: Int32
    let header: UnsafeMutablePointer<auhost_iso_header>
    var unit: AudioUnit?
    var loadError: AudioError?

    /// The audio region and its layout (set by initialize, read by the render thread).
    var audio: UnsafeMutableRawPointer?
    var audioBytes = 0
    var inputChannels: [Int] = []
    var outputChannels: [Int] = []
    var maxFrames = 0
    /// Per output bus, a list pointing into the audio region (rebuilt by initialize).
    var outputLists: [UnsafeMutablePointer<AudioBufferList>] = []
    var renderThread: Thread?
    /// How long the render thread polls for the next request before it sleeps.
    static let pollNanoseconds: Int64 = 30_000

    init(control: Int32, block: Int32) {
        self.control = control
        blockFD = block
        let size = auhost_iso_header_size()
        guard let mapped = mmap(nil, size, PROT_READ | PROT_WRITE, MAP_SHARED, block, 0), mapped != MAP_FAILED else { exit(4) }
        header = mapped.assumingMemoryBound(to: auhost_iso_header.self)
    }

    func load(description: AudioComponentDescription, origin: String) {
        do {
            let component = try loadComponent(description, origin: origin)
            var instance: AudioComponentInstance?
            let status = AudioComponentInstanceNew(component.handle, &instance)
            guard status == noErr, let instance else {
                throw AudioError(status, LastErrorMessage.current ?? "The unit could not be made (status \(status)).")
            }
            unit = instance
        } catch let error as AudioError {
            loadError = error
        } catch {
            loadError = AudioError(kAudioUnitErr_FailedInitialization, "\(error)")
        }
    }

    /// Answers messages until the host quits or closes the channel; between them, runs the UI
    /// shown beside the plug-in, if one is open.
    func serve() {
        defer { closePluginUI() }
        while true {
            if pluginUI != nil && !awaitControlWhileShowingUI() { continue }
            guard let (opcode, payload) = try? ControlChannel.receive(control) else { return }
            var reply: (OSStatus, [UInt8])
            do {
                guard let op = IsolationOpcode(rawValue: opcode) else { throw AudioError(kAudio_ParamError, "unknown opcode \(opcode)") }
                if op == .quit { return }
                if let loadError { throw loadError }
                reply = (noErr, try handle(op, ByteReader(payload)))
            } catch let error as AudioError {
                var w = ByteWriter()
                w.string(error.message)
                reply = (error.status, w.bytes)
            } catch {
                var w = ByteWriter()
                w.string("\(error)")
                reply = (kAudio_ParamError, w.bytes)
            }
            guard (try? ControlChannel.send(control, UInt32(bitPattern: reply.0), reply.1)) != nil else { return }
            // Set only by a successful openUI: its socket follows the reply, then the UI opens.
            if let opening = pendingUI {
                pendingUI = nil
                let passed = auhost_iso_send_fd(control, opening.hostEnd) == 0
                Glibc.close(opening.hostEnd)
                guard passed else {
                    Glibc.close(opening.uiEnd)
                    return
                }
                showPluginUI(opening)
            }
        }
    }

    /// A UI shown beside the plug-in (UnitServer+PluginUI), and one openUI prepared.
    var pluginUI: OpaquePointer?
    var pendingUI: PendingUI?

    /// The plug-in's atoms for the parent's open UI: the rings are taken at the first exchange
    /// and given back at closeUIAtoms (or with this process).
    private var uiAtoms: LV2PluginUIAtoms?

    /// Puts the UI's atoms into the plug-in's rings and answers with what it wrote (at most
    /// UIAtomExchange.maximumBytes of text; the rest waits for the next exchange).
    private func exchangeUIAtoms(_ lines: [UIAtomLine], _ unit: AudioUnit) throws -> [UInt8] {
        if uiAtoms == nil { uiAtoms = LV2PluginUIAtoms(unit: unit) }
        var w = ByteWriter()
        guard let atoms = uiAtoms else {
            w.u32(0)
            return w.bytes
        }
        lines.forEach(atoms.fromUI)
        var out: [UIAtomLine] = []
        atoms.toUI(maximumBytes: UIAtomExchange.maximumBytes) { out.append($0) }
        w.u32(1)
        w.u32(UInt32(clamping: atoms.dropped.toPlugin))
        w.u32(UInt32(clamping: atoms.dropped.toUI))
        w.atomLines(out)
        return w.bytes
    }

    private func check(_ status: OSStatus, _ what: String) throws {
        guard status == noErr else { throw AudioError(status, LastErrorMessage.current ?? "\(what) failed with status \(status).") }
    }

    private func handle(_ op: IsolationOpcode, _ payload: ByteReader) throws -> [UInt8] {
        var r = payload
        let unit = self.unit!
        switch op {
        case .describe:
            return try describe(unit).encoded
        case .setFormat:
            let scope = try r.u32(), element = try r.u32()
            var format = try r.format()
            try check(
                AudioUnitSetProperty(
                    unit, kAudioUnitProperty_StreamFormat, scope, element, &format, UInt32(MemoryLayout.size(ofValue: format))),
                "Setting the stream format")
        case .setMaximumFrames:
            var frames = try r.u32()
            try check(
                AudioUnitSetProperty(unit, kAudioUnitProperty_MaximumFramesPerSlice, kAudioUnitScope_Global, 0, &frames, 4),
                "Setting MaximumFramesPerSlice")
        case .initialize:
            let inputs = try (0..<Int(try r.u32())).map { _ in Int(try r.u32()) }
            let outputs = try (0..<Int(try r.u32())).map { _ in Int(try r.u32()) }
            let frames = Int(try r.u32())
            let bytes = Int(try r.u32())
            closePluginUI()
            try mapAudio(inputs: inputs, outputs: outputs, frames: frames, bytes: bytes)
            for bus in inputs.indices {
                var callback = AURenderCallbackStruct(
                    inputProc: childInputCallback, inputProcRefCon: UnsafeMutableRawPointer(bitPattern: bus + 1))
                try check(
                    AudioUnitSetProperty(
                        unit, kAudioUnitProperty_SetRenderCallback, kAudioUnitScope_Input, UInt32(bus), &callback,
                        UInt32(MemoryLayout<AURenderCallbackStruct>.size)),
                    "Setting the input callback")
            }
            try check(AudioUnitInitialize(unit), "Initialize")
            startRenderThread()
        case .uninitialize:
            closePluginUI()
            try check(AudioUnitUninitialize(unit), "Uninitialize")
        case .reset:
            try check(AudioUnitReset(unit, kAudioUnitScope_Global, 0), "Reset")
        case .setParameter:
            let id = try r.u32(), scope = try r.u32(), element = try r.u32(), value = try r.f32()
            try check(AudioUnitSetParameter(unit, id, scope, element, value, 0), "Setting parameter \(id)")
        case .getClassInfo:
            var ref: UnsafeRawPointer?
            var size = UInt32(MemoryLayout<UnsafeRawPointer?>.size)
            try check(AudioUnitGetProperty(unit, kAudioUnitProperty_ClassInfo, kAudioUnitScope_Global, 0, &ref, &size), "Reading ClassInfo")
            defer { ref.map { Unmanaged<AnyObject>.fromOpaque($0).release() } }
            guard let value = CFBridge.value(ref) else { throw AudioError(kAudioUnitErr_InvalidPropertyValue, "ClassInfo was empty.") }
            return try value.propertyListData(binary: true)
        case .setClassInfo:
            let value = try PropertyListValue(propertyListData: try r.data())
            let object = CFBridge.propertyList(value)
            defer { object.release() }
            var ref: UnsafeRawPointer? = UnsafeRawPointer(object.toOpaque())
            try check(
                AudioUnitSetProperty(
                    unit, kAudioUnitProperty_ClassInfo, kAudioUnitScope_Global, 0, &ref, UInt32(MemoryLayout<UnsafeRawPointer?>.size)),
                "Restoring ClassInfo")
        case .setFactoryPreset:
            var preset = AUPreset(presetNumber: try r.i32(), presetName: nil)
            try check(
                AudioUnitSetProperty(
                    unit, kAudioUnitProperty_PresentPreset, kAudioUnitScope_Global, 0, &preset, UInt32(MemoryLayout<AUPreset>.size)),
                "Choosing factory preset \(preset.presetNumber)")
            var w = ByteWriter()
            let values = try describe(unit).parameters.map(\.value)
            w.u32(UInt32(values.count))
            values.forEach { w.f32($0) }
            return w.bytes
        case .exchangeUIAtoms:
            return try exchangeUIAtoms(try r.atomLines(), unit)
        case .closeUIAtoms:
            uiAtoms = nil
        case .openUI:
            try openPluginUI(&r, unit)
        case .quit:
            break
        }
        return []
    }

    private func describe(_ unit: AudioUnit) throws -> UnitShape {
        func count(_ scope: AudioUnitScope) -> Int {
            var n: UInt32 = 0
            var size: UInt32 = 4
            return AudioUnitGetProperty(unit, kAudioUnitProperty_ElementCount, scope, 0, &n, &size) == noErr ? Int(n) : 0
        }
        func formats(_ scope: AudioUnitScope) throws -> [AudioStreamBasicDescription] {
            let n = count(scope)
            // Truncating would mirror fewer elements than the unit has (it then refused to initialize).
            guard n <= Int(AUHOST_ISO_MAX_BUSES) else {
                throw AudioError(
                    kAudioUnitErr_InvalidElement,
                    "The unit has \(n) \(scopeName(scope)) elements; out of process AUHost mirrors at most \(AUHOST_ISO_MAX_BUSES).")
            }
            return try (0..<n).map { e in
                var f = AudioStreamBasicDescription()
                var size = UInt32(MemoryLayout.size(ofValue: f))
                try check(
                    AudioUnitGetProperty(unit, kAudioUnitProperty_StreamFormat, scope, UInt32(e), &f, &size), "Reading a stream format")
                return f
            }
        }
        func seconds(_ id: AudioUnitPropertyID) -> Double {
            var v: Float64 = 0
            var size: UInt32 = 8
            return AudioUnitGetProperty(unit, id, kAudioUnitScope_Global, 0, &v, &size) == noErr ? v : 0
        }
        var capabilities: [AUChannelInfo] = []
        var size: UInt32 = 0
        if AudioUnitGetPropertyInfo(unit, kAudioUnitProperty_SupportedNumChannels, kAudioUnitScope_Global, 0, &size, nil) == noErr, size > 0
        {
            capabilities = [AUChannelInfo](repeating: AUChannelInfo(), count: Int(size) / MemoryLayout<AUChannelInfo>.size)
            if AudioUnitGetProperty(unit, kAudioUnitProperty_SupportedNumChannels, kAudioUnitScope_Global, 0, &capabilities, &size) != noErr
            {
                capabilities = []
            }
        }
        var parameters: [(definition: ParameterDefinition, value: Float)] = []
        size = 0
        if AudioUnitGetPropertyInfo(unit, kAudioUnitProperty_ParameterList, kAudioUnitScope_Global, 0, &size, nil) == noErr, size > 0 {
            var ids = [AudioUnitParameterID](repeating: 0, count: Int(size) / 4)
            try check(
                AudioUnitGetProperty(unit, kAudioUnitProperty_ParameterList, kAudioUnitScope_Global, 0, &ids, &size),
                "Reading the parameter list")
            for id in ids {
                var info = AudioUnitParameterInfo()
                var infoSize = UInt32(MemoryLayout<AudioUnitParameterInfo>.size)
                try check(
                    AudioUnitGetProperty(unit, kAudioUnitProperty_ParameterInfo, kAudioUnitScope_Global, id, &info, &infoSize),
                    "Reading parameter \(id)")
                var name = withUnsafeBytes(of: info.name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
                if let cf = info.cfNameString {
                    if let s = CFBridge.value(UnsafeRawPointer(cf.toOpaque()))?.stringValue { name = s }
                    if info.flags.contains(.flag_CFNameRelease) { cf.release() }
                }
                var value: Float = 0
                try check(AudioUnitGetParameter(unit, id, kAudioUnitScope_Global, 0, &value), "Reading parameter \(id)")
                var d = ParameterDefinition(
                    id: id, name: name, unit: info.unit, min: info.minValue, max: info.maxValue, default: info.defaultValue)
                d.flags = info.flags
                if info.flags.contains(.flag_ValuesHaveStrings) {
                    var strings: Unmanaged<CFArray>?
                    var stringsSize = UInt32(MemoryLayout<UnsafeRawPointer>.size)
                    if AudioUnitGetProperty(
                        unit, kAudioUnitProperty_ParameterValueStrings, kAudioUnitScope_Global, id, &strings, &stringsSize)
                        == noErr, let strings
                    {
                        defer { strings.release() }
                        if case .array(let items)? = CFBridge.value(UnsafeRawPointer(strings.toOpaque())) {
                            d.valueStrings = items.compactMap(\.stringValue)
                        }
                    }
                }
                parameters.append((d, value))
            }
        }
        var presets: [(number: Int32, name: String)] = []
        var array: Unmanaged<CFArray>?
        var presetsSize = UInt32(MemoryLayout<UnsafeRawPointer>.size)
        if AudioUnitGetProperty(unit, kAudioUnitProperty_FactoryPresets, kAudioUnitScope_Global, 0, &array, &presetsSize) == noErr,
            let cfArray = array?.takeRetainedValue()
        {
            presets = (0..<CFArrayGetCount(cfArray)).compactMap { i in
                guard let raw = CFArrayGetValueAtIndex(cfArray, i) else { return nil }
                let preset = raw.assumingMemoryBound(to: AUPreset.self).pointee
                return (preset.presetNumber, String(cfString: preset.presetName?.takeUnretainedValue()) ?? "")
            }
        }
        return UnitShape(
            name: "", inputFormats: try formats(kAudioUnitScope_Input), outputFormats: try formats(kAudioUnitScope_Output),
            channelCapabilities: capabilities, latency: seconds(kAudioUnitProperty_Latency), tailTime: seconds(kAudioUnitProperty_TailTime),
            parameters: parameters, factoryPresets: presets)
    }

    private func mapAudio(inputs: [Int], outputs: [Int], frames: Int, bytes: Int) throws {
        guard inputs.count <= Int(AUHOST_ISO_MAX_BUSES), outputs.count <= Int(AUHOST_ISO_MAX_BUSES), frames > 0,
            (inputs + outputs).reduce(0, +) * frames * 4 <= bytes
        else { throw AudioError(kAudio_ParamError, "The audio layout the host sent is inconsistent.") }
        if let audio { munmap(audio, audioBytes) }
        audio = nil
        guard let mapped = mmap(nil, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, blockFD, off_t(auhost_iso_header_size())),
            mapped != MAP_FAILED
        else { throw AudioError(kAudio_MemFullError, "The shared audio block could not be mapped (\(String(cString: strerror(errno)))).") }
        audio = mapped
        audioBytes = bytes
        inputChannels = inputs
        outputChannels = outputs
        maxFrames = frames
        outputLists.forEach { AudioBufferStorage.deallocateList($0) }
        outputLists = outputs.map { AudioBufferStorage.allocateList(bufferCount: $0) }
        ChildAudio.shared = ChildAudio(base: mapped.assumingMemoryBound(to: Float.self), inputChannels: inputs, maxFrames: frames)
    }

    /// The float offset of channel `c` of output bus `bus` in the audio region.
    func outputChannel(_ bus: Int, _ c: Int) -> UnsafeMutablePointer<Float> {
        let before = inputChannels.reduce(0, +) + outputChannels[..<bus].reduce(0, +)
        return audio!.assumingMemoryBound(to: Float.self) + (before + c) * maxFrames
    }

    private func startRenderThread() {
        guard renderThread == nil else { return }
        let thread = Thread { [unowned self] in self.renderLoop() }
        thread.stackSize = 1 << 20
        renderThread = thread
        thread.start()
    }

    /// Waits for each request and answers it. Runs for the life of the process.
    private func renderLoop() {
        // The last request answered (not the current one: the host may have raised `request`
        // before this thread first ran).
        var seen = auhost_iso_load(&header.pointee.done)
        var timeStamp = AudioTimeStamp()
        timeStamp.mFlags = .sampleTimeValid
        var sched: (policy: Int32, priority: Int32) = (0, 0)  // SCHED_OTHER, as threads start
        while true {
            var request = auhost_iso_load(&header.pointee.request)
            if request == seen {
                // Back-to-back cycles (offline rendering) come within microseconds: poll that long
                // before sleeping, since waking a halted (virtual) CPU takes tens of microseconds.
                let until = auhost_iso_now_ns() + Self.pollNanoseconds
                while request == seen && auhost_iso_now_ns() < until {
                    auhost_iso_cpu_relax()
                    request = auhost_iso_load(&header.pointee.request)
                }
            }
            if request == seen {
                _ = auhost_iso_futex_wait(&header.pointee.request, seen, -1)
                continue
            }
            seen = request
            let wanted = (header.pointee.schedPolicy, header.pointee.schedPriority)
            if wanted != sched {
                // As the host's render thread; without the right to real-time scheduling it stays as it is.
                _ = auhost_iso_set_thread_sched(wanted.0, wanted.1)
                sched = wanted
            }
            header.pointee.status = renderCycle(&timeStamp)
            auhost_iso_store(&header.pointee.done, request)
            auhost_iso_futex_wake(&header.pointee.done)
        }
    }

    private func renderCycle(_ timeStamp: inout AudioTimeStamp) -> OSStatus {
        guard let unit, audio != nil else { return kAudioUnitErr_Uninitialized }
        let frames = UInt32(min(Int(header.pointee.frames), maxFrames))
        timeStamp.mSampleTime = header.pointee.sampleTime
        let count = min(Int(header.pointee.eventCount), Int(AUHOST_ISO_MAX_EVENTS))
        do {
            let events = auhost_iso_events(header)!
            for i in 0..<count {
                let e = events[i]
                let offset = min(e.offset, frames &- 1)
                if e.kind == UInt32(AUHOST_ISO_EVENT_PARAMETER) {
                    _ = AudioUnitSetParameter(unit, e.a, e.b, e.c, e.value, offset)
                } else if e.kind == UInt32(AUHOST_ISO_EVENT_MIDI) {
                    _ = MusicDeviceMIDIEvent(unit, e.a, e.b, e.c, offset)
                }
            }
        }
        for (bus, list) in outputLists.enumerated() {
            let buffers = UnsafeMutableAudioBufferListPointer(list)
            for c in 0..<outputChannels[bus] {
                buffers[c] = AudioBuffer(
                    mNumberChannels: 1, mDataByteSize: frames * 4, mData: UnsafeMutableRawPointer(outputChannel(bus, c)))
            }
            var flags = AudioUnitRenderActionFlags(rawValue: 0)
            let status = AudioUnitRender(unit, &flags, &timeStamp, UInt32(bus), frames, list)
            guard status == noErr else { return status }
            for c in 0..<outputChannels[bus] {
                let own = outputChannel(bus, c)
                if let data = buffers[c].mData, data != UnsafeMutableRawPointer(own) {
                    own.update(from: data.assumingMemoryBound(to: Float.self), count: Int(frames))
                }
            }
        }
        return noErr
    }
}

/// What the input callback reads: where each input bus's channels lie in the shared block.
struct ChildAudio {
    nonisolated(unsafe) static var shared: ChildAudio?
    let base: UnsafeMutablePointer<Float>
    let inputChannels: [Int]
    let maxFrames: Int

    func inputChannel(_ bus: Int, _ c: Int) -> UnsafeMutablePointer<Float> {
        base + (inputChannels[..<bus].reduce(0, +) + c) * maxFrames
    }
}

/// Feeds input bus (refCon − 1) from the host's samples in the shared block.
let childInputCallback: AURenderCallback = { refCon, _, _, _, frames, ioData in
    guard let ioData, let audio = ChildAudio.shared else { return kAudio_ParamError }
    let bus = Int(bitPattern: refCon) - 1
    guard bus >= 0, bus < audio.inputChannels.count, Int(frames) <= audio.maxFrames else { return kAudio_ParamError }
    let buffers = UnsafeMutableAudioBufferListPointer(ioData)
    for c in 0..<min(buffers.count, audio.inputChannels[bus]) {
        let source = audio.inputChannel(bus, c)
        if let data = buffers[c].mData {
            data.assumingMemoryBound(to: Float.self).update(from: source, count: Int(frames))
        } else {
            buffers[c].mData = UnsafeMutableRawPointer(source)
        }
        buffers[c].mDataByteSize = frames * 4
    }
    return noErr
}

import AUHost
import Foundation

/// Generated C API call sequences on one unit: every built-in unit (the format converter among
/// them) and any SDK plug-in on the search path. The bytes choose the unit, then up to 64 calls:
/// property sets and gets (IDs, scopes, elements, sizes and values), property info, parameter
/// sets, gets and schedules, initialize, uninitialize, reset, render and process with generated
/// buffer lists, render notifications and MIDI. Only well-formed pointers are passed (a value
/// buffer at least as large as the size given, buffer lists whose byte sizes describe their
/// memory, real CF objects and callbacks where a property holds one): a caller's bad pointer is
/// the caller's bug, everything else must give a status, never a signal or a hang.
///
/// Thread: one thread at a time (libFuzzer's, or a test's).
public enum CAPIFuzz {
    /// Device I/O units by their origin: ALSA's need a sound card, JACK's a server. Thread: any.
    public static func isDeviceUnit(_ origin: String) -> Bool { origin.contains("alsa-lib") || origin.contains("libjack") }

    /// The built-in units the harness drives (looked up once per process): all but the device I/O
    /// units.
    public static let builtInTargets: [AudioComponentDescription] = {
        ComponentRegistry.shared.all.filter { $0.origin.hasPrefix("built-in") && !isDeviceUnit($0.origin) }.map(\.description)
    }()

    /// The SDK plug-ins on the search path (this checkout's Plugins/.build ones once built).
    public static let plugInTargets: [AudioComponentDescription] = {
        // A LADSPA unit's origin ends in its library's path too ("ladspa LABEL ID /…/x.so").
        ComponentRegistry.shared.all.filter { $0.origin.hasSuffix(".so") && !$0.origin.hasPrefix("ladspa ") }.map(\.description)
    }()

    /// The unit the input `data` drives (its first four bytes choose); nil when there is none.
    ///
    /// Thread: any.
    public static func target(for data: UnsafeRawBufferPointer) -> AudioComponentDescription? {
        var input = CAPIFuzzInput(data)
        return target(&input)
    }

    /// A first word from 0xF000_0000 up picks an SDK plug-in when there are any; any other a
    /// built-in unit, the same one whether plug-ins are built or not (so the corpus's coverage of
    /// the built-in units does not move with them).
    static func target(_ input: inout CAPIFuzzInput) -> AudioComponentDescription? {
        let word = Int(input.u32())
        if let pinned = pinnedTarget, builtInTargets.indices.contains(pinned) { return builtInTargets[pinned] }
        if word >= 0xF000_0000, !plugInTargets.isEmpty { return plugInTargets[word % plugInTargets.count] }
        return builtInTargets.isEmpty ? nil : builtInTargets[word % builtInTargets.count]
    }

    /// Property IDs with a meaning somewhere (raw 32-bit IDs are tried too): the unit model's and
    /// every built-in unit's own (output units, mixers, the file player, the voice processor).
    static let propertyIDs: [UInt32] = [
        0, 1, 2, 3, 4, 6, 8, 11, 12, 13, 14, 16, 19, 20, 21, 22, 23, 24, 25, 26, 29, 30, 33, 36, 37, 38, 51, 54,
        kAudioOutputUnitProperty_IsRunning, kAudioOutputUnitProperty_ChannelMap, kAudioUnitProperty_MeteringMode,
        kAudioUnitProperty_ScheduledFileRegion, kAudioUnitProperty_ScheduledFilePrime, kAudioUnitProperty_ScheduledFileBufferSizeFrames,
        kAudioUnitProperty_ScheduledFileNumberBuffers, kAudioUnitProperty_CurrentPlayTime, kAudioUnitProperty_ScheduledFileIDs,
        kAudioUnitProperty_ScheduleStartTimeStamp, 3311, 3312, 3313, 3314,
        kAUVoiceIOProperty_BypassVoiceProcessing, kAUVoiceIOProperty_VoiceProcessingEnableAGC, kAUVoiceIOProperty_MuteOutput,
        kAUHostVoiceIOProperty_EchoMetrics, kAUHostVoiceIOProperty_SuppressionLevel,
    ]
    static let scopes: [UInt32] = [kAudioUnitScope_Global, kAudioUnitScope_Input, kAudioUnitScope_Output, kAudioUnitScope_Group]

    /// Value and buffer memory: 8 regions of 64 KiB (buffer lists point into them, sizes never beyond).
    static let regionBytes = 65_536
    nonisolated(unsafe) static let memory: UnsafeMutableRawPointer = {
        let m = UnsafeMutableRawPointer.allocate(byteCount: 8 * regionBytes, alignment: 16)
        m.initializeMemory(as: UInt8.self, repeating: 0, count: 8 * regionBytes)
        return m
    }()

    /// Runs the call sequence `data` describes on a fresh instance, then disposes of it.
    ///
    /// Thread: one thread at a time.
    public static func run(_ data: UnsafeRawBufferPointer) {
        var input = CAPIFuzzInput(data)
        guard var description = target(&input) else { return }
        var made: AudioUnit?
        guard AudioComponentInstanceNew(AudioComponentFindNext(nil, &description)!, &made) == noErr, let unit = made else { return }
        var session = Session(unit: unit)
        for _ in 0..<64 where !input.isAtEnd { session.step(&input) }
        session.finish()
        AudioComponentInstanceDispose(unit)
    }
}

/// What one run has set up on its unit (so that it can be undone before disposal).
struct Session {
    let unit: AudioUnit
    var notifies: [UnsafeMutableRawPointer] = []
    var timeStamp = AudioTimeStamp()
    /// The unit's own parameters, so that every unit's are reached (not only IDs 0…5).
    let parameters: [(scope: AudioUnitScope, id: AudioUnitParameterID)]

    init(unit: AudioUnit) {
        self.unit = unit
        parameters = Session.parameterIDs(of: unit)
        timeStamp.mFlags = .sampleTimeValid
    }

    mutating func step(_ input: inout CAPIFuzzInput) {
        switch input.u8() % 14 {
        case 0, 1: setProperty(&input)
        case 2: getProperty(&input)
        case 3:
            var size: UInt32 = 0, writable: UInt8 = 0
            _ = AudioUnitGetPropertyInfo(
                unit, input.pick(CAPIFuzz.propertyIDs), input.pick(CAPIFuzz.scopes), input.pick([0, 1, 2, 7]),
                &size, &writable)
        case 4:
            let p = parameter(&input)
            _ = AudioUnitSetParameter(unit, p.id, p.scope, input.pick([0, 1, 2, 7]), input.float(), input.pick([0, 1, 64, 511, 4096]))
        case 5:
            let p = parameter(&input)
            var value: Float = 0
            _ = AudioUnitGetParameter(unit, p.id, p.scope, input.pick([0, 1, 7]), &value)
        case 6: scheduleParameters(&input)
        case 7: _ = AudioUnitInitialize(unit)
        case 8: _ = AudioUnitUninitialize(unit)
        case 9: _ = AudioUnitReset(unit, input.pick(CAPIFuzz.scopes), 0)
        case 10, 11: render(&input, process: input.u8() & 1 == 1)
        case 12: renderNotify(&input)
        default:
            _ = MusicDeviceMIDIEvent(unit, UInt32(input.u8()), UInt32(input.u8()), UInt32(input.u8()), input.pick([0, 1, 100, 5000]))
        }
    }

    // MARK: Properties

    mutating func setProperty(_ input: inout CAPIFuzzInput) {
        let id = input.pick(CAPIFuzz.propertyIDs)
        let scope = input.pick(CAPIFuzz.scopes, rawShare: 8)
        let element = input.pick([0, 1, 2, 7, 1023], rawShare: 8)
        let value = CAPIFuzz.memory
        switch id {
        case kAudioUnitProperty_ClassInfo:
            // A real dictionary: often this unit's identity, with generated parameter records.
            var info = AudioComponentDescription()
            _ = AudioComponentGetDescription(AudioComponentInstanceGetComponent(unit), &info)
            var records = [UInt8](repeating: 0, count: input.below(8) * 16 + (input.u8() < 16 ? 3 : 0))
            for i in records.indices { records[i] = input.u8() }
            let mine = input.u8() < 220
            var dict: [String: PropertyListValue] = [
                kAUPresetTypeKey: .integer(Int64(mine ? info.componentType : input.u32())),
                kAUPresetSubtypeKey: .integer(Int64(info.componentSubType)),
                kAUPresetManufacturerKey: .integer(Int64(info.componentManufacturer)),
                kAUPresetDataKey: .data(records), kAUPresetNameKey: .string("fuzz"),
                kAUPresetRenderQualityKey: .integer(Int64(Int32(bitPattern: input.u32()))),
            ]
            if input.u8() < 128 { dict["auhost-state"] = Session.extraState(&input) }
            var ref: UnsafeRawPointer? = UnsafeRawPointer(CFBridge.propertyList(.dictionary(dict)).toOpaque())
            _ = AudioUnitSetProperty(unit, id, scope, element, &ref, UInt32(MemoryLayout<UnsafeRawPointer>.size))
            Unmanaged<AnyObject>.fromOpaque(ref!).release()
        case kAudioUnitProperty_MakeConnection:
            var c = AudioUnitConnection(sourceAudioUnit: nil, sourceOutputNumber: input.u32(), destInputNumber: element)
            if input.u8() < 32 {
                _ = AudioUnitSetProperty(unit, id, scope, element, nil, UInt32(MemoryLayout<AudioUnitConnection>.size))
            } else {
                _ = AudioUnitSetProperty(unit, id, scope, element, &c, UInt32(MemoryLayout<AudioUnitConnection>.size))
            }
        case kAudioUnitProperty_SetRenderCallback:
            var cb = AURenderCallbackStruct(inputProc: input.u8() < 32 ? nil : fuzzInputCallback, inputProcRefCon: nil)
            _ = AudioUnitSetProperty(unit, id, scope, element, &cb, UInt32(MemoryLayout<AURenderCallbackStruct>.size))
        case kAudioUnitProperty_ContextName, kAudioUnitProperty_ElementName, kAudioUnitProperty_NickName:
            var name: UnsafeRawPointer? = input.u8() < 64 ? nil : UnsafeRawPointer(CFBridge.string("fuzz \(input.u16())").toOpaque())
            _ = AudioUnitSetProperty(unit, id, scope, element, &name, UInt32(MemoryLayout<UnsafeRawPointer>.size))
            if let name { Unmanaged<AnyObject>.fromOpaque(name).release() }
        case kAudioUnitProperty_PresentPreset:
            var preset = AUPreset(presetNumber: Int32(bitPattern: input.pick(CAPIFuzz.presetNumbers)), presetName: nil)
            _ = AudioUnitSetProperty(unit, id, scope, element, &preset, UInt32(MemoryLayout<AUPreset>.size))
        case kAudioUnitProperty_ScheduledFileIDs:
            // The real files (some or none), or a size that is not a whole number of IDs.
            var ids = Array(CAPIFuzz.files.prefix(input.below(CAPIFuzz.files.count + 1)))
            let size = UInt32(ids.count * MemoryLayout<AudioFileID>.size) + (input.u8() < 16 ? 3 : 0)
            _ = ids.withUnsafeMutableBytes { bytes in
                size <= UInt32(bytes.count)
                    ? AudioUnitSetProperty(unit, id, scope, element, bytes.baseAddress, size)
                    : AudioUnitSetProperty(unit, id, scope, element, value, size)
            }
        case kAudioUnitProperty_ScheduledFileRegion:
            var region = region(&input)
            _ = AudioUnitSetProperty(unit, id, scope, element, &region, UInt32(MemoryLayout<ScheduledAudioFileRegion>.size))
        case kAudioUnitProperty_ScheduleStartTimeStamp:
            var stamp = AudioTimeStamp()
            stamp.mFlags = input.u8() < 200 ? .sampleTimeValid : AudioTimeStampFlags(rawValue: input.u32())
            stamp.mSampleTime = CAPIFuzz.timeSpecials[input.below(CAPIFuzz.timeSpecials.count)]
            _ = AudioUnitSetProperty(unit, id, scope, element, &stamp, UInt32(MemoryLayout<AudioTimeStamp>.size))
        case kAudioUnitProperty_StreamFormat:
            var f = AudioStreamBasicDescription.canonical(
                sampleRate: input.rate(), channels: input.pick([1, 2, 8, 0, 64, 65, 1025], rawShare: 16))
            if input.u8() < 96 { input.fill(&f, count: MemoryLayout<AudioStreamBasicDescription>.size) }
            let size = input.u8() < 16 ? UInt32(input.below(64)) : UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
            _ = AudioUnitSetProperty(unit, id, scope, element, &f, size)
        case kAudioUnitProperty_SampleRate:
            var rate = input.rate()
            _ = AudioUnitSetProperty(unit, id, scope, element, &rate, input.u8() < 16 ? UInt32(input.below(16)) : 8)
        default:
            // Plain values: generated bytes, any size up to 4 KiB, always backed by real memory.
            let size = input.u8() < 200 ? [0, 1, 2, 4, 8, 16, 40, 64][input.below(8)] : input.below(4096)
            input.fill(value, count: min(size, 64))
            _ = AudioUnitSetProperty(unit, id, scope, element, input.u8() < 8 ? nil : UnsafeRawPointer(value), UInt32(size))
        }
    }

    func getProperty(_ input: inout CAPIFuzzInput) {
        let id = input.pick(CAPIFuzz.propertyIDs)
        let scope = input.pick(CAPIFuzz.scopes, rawShare: 8)
        let element = input.pick([0, 1, 2, 7, 1023], rawShare: 8)
        let out = CAPIFuzz.memory
        out.initializeMemory(as: UInt8.self, repeating: 0, count: 4096)
        var size = UInt32(input.u8() < 200 ? 4096 : input.below(4097))
        guard AudioUnitGetProperty(unit, id, scope, element, out, &size) == noErr else { return }
        // Values the caller owns (+1 CF objects) are released, as a careful host does.
        func release(_ offset: Int) {
            if let p = out.load(fromByteOffset: offset, as: UnsafeRawPointer?.self) { Unmanaged<AnyObject>.fromOpaque(p).release() }
        }
        switch id {
        case kAudioUnitProperty_ClassInfo, kAudioUnitProperty_ParameterValueStrings, kAudioUnitProperty_FactoryPresets,
            kAudioUnitProperty_ContextName, kAudioUnitProperty_ElementName:
            release(0)
        case kAudioUnitProperty_PresentPreset:
            release(MemoryLayout<AUPreset>.offset(of: \AUPreset.presetName)!)
        case kAudioUnitProperty_ParameterInfo:
            let info = out.load(as: AudioUnitParameterInfo.self)
            if info.flags.contains(.flag_CFNameRelease) { info.cfNameString?.release() }
        default:
            break
        }
    }

    // MARK: Parameters

    func scheduleParameters(_ input: inout CAPIFuzzInput) {
        let count = input.below(5)
        var events = [AudioUnitParameterEvent](repeating: AudioUnitParameterEvent(), count: max(count, 1))
        for i in 0..<count {
            events[i].element = input.pick([0, 1, 7])
            let p = parameter(&input)
            events[i].scope = p.scope
            events[i].parameter = p.id
            // Imported C enums take any raw value: hostile event types reach the unit too.
            events[i].eventType = AUParameterEventType(
                rawValue: input.pick(
                    [
                        AUParameterEventType.parameterEvent_Immediate.rawValue,
                        AUParameterEventType.parameterEvent_Ramped.rawValue,
                    ], rawShare: 8))!
            if events[i].eventType == .parameterEvent_Ramped {
                events[i].eventValues.ramp = .init(
                    startBufferOffset: Int32(bitPattern: input.pick([0, 1, 100, 0xFFFF_FFFF])),
                    durationInFrames: input.pick([0, 1, 64, 4096]),
                    startValue: input.float(), endValue: input.float())
            } else {
                events[i].eventValues.immediate = .init(bufferOffset: input.pick([0, 1, 100, 511]), value: input.float())
            }
        }
        // A NULL event list is a C caller's case: call the C entry point as C does.
        if count == 0 && input.u8() < 128 {
            _ = _AudioUnitScheduleParameters(unit, nil, 0)
        } else {
            _ = AudioUnitScheduleParameters(unit, events, UInt32(count))
        }
    }

    // MARK: Render

    /// Render (or process, or process from one list into another) with generated lists: 0…8
    /// buffers, each with no memory or a region of CAPIFuzz.memory whose declared size never
    /// exceeds the region (ProcessMultiple's two lists may share regions).
    mutating func render(_ input: inout CAPIFuzzInput, process: Bool) {
        let bufferCount = input.below(9)
        let frames = input.pick([0, 1, 64, 256, 512, 1156, 4096, 65_536], rawShare: 16)
        let list = Self.generatedList(&input, bufferCount: bufferCount, frames: frames)
        defer { AudioBufferStorage.deallocateList(list) }
        var flags: AudioUnitRenderActionFlags = []
        if process && input.u8() < 128 {
            let output = Self.generatedList(&input, bufferCount: input.below(9), frames: frames)
            defer { AudioBufferStorage.deallocateList(output) }
            var inputs = [UnsafePointer(list)], outputs = [output]
            // Mostly one list each; sometimes none on a side (refused).
            let counts: (UInt32, UInt32) = input.u8() < 224 ? (1, 1) : (UInt32(input.below(2)), UInt32(input.below(2)))
            _ = AudioUnitProcessMultiple(unit, &flags, &timeStamp, frames, counts.0, &inputs, counts.1, &outputs)
        } else if process {
            _ = AudioUnitProcess(unit, &flags, &timeStamp, frames, list)
        } else {
            _ = AudioUnitRender(unit, &flags, &timeStamp, input.pick([0, 1, 2]), frames, list)
        }
        timeStamp.mSampleTime += Double(frames)
    }

    private static func generatedList(
        _ input: inout CAPIFuzzInput, bufferCount: Int, frames: UInt32
    ) -> UnsafeMutablePointer<AudioBufferList> {
        let list = AudioBufferStorage.allocateList(bufferCount: max(bufferCount, 1))
        list.pointee.mNumberBuffers = UInt32(bufferCount)
        let buffers = UnsafeMutableAudioBufferListPointer(list)
        for i in 0..<bufferCount {
            let bytes = input.u8() < 200 ? min(Int(frames) &* 4, CAPIFuzz.regionBytes) : input.below(CAPIFuzz.regionBytes + 1)
            let data = input.u8() < 40 ? nil : CAPIFuzz.memory + i * CAPIFuzz.regionBytes
            buffers[i] = AudioBuffer(mNumberChannels: 1, mDataByteSize: UInt32(max(bytes, 0)), mData: data)
        }
        return list
    }

    mutating func renderNotify(_ input: inout CAPIFuzzInput) {
        if input.u8() < 128 || notifies.isEmpty {
            let refCon = UnsafeMutableRawPointer.allocate(byteCount: 8, alignment: 8)
            if AudioUnitAddRenderNotify(unit, fuzzNotify, refCon) == noErr { notifies.append(refCon) } else { refCon.deallocate() }
        } else {
            let refCon = notifies.remove(at: input.below(notifies.count))
            _ = AudioUnitRemoveRenderNotify(unit, fuzzNotify, refCon)
            refCon.deallocate()
        }
    }

    /// Removes what the run added (so no notification outlives its context).
    mutating func finish() {
        for refCon in notifies {
            _ = AudioUnitRemoveRenderNotify(unit, fuzzNotify, refCon)
            refCon.deallocate()
        }
        notifies = []
    }
}

/// An input callback that writes a ramp into exactly the memory the list describes.
let fuzzInputCallback: AURenderCallback = { _, _, _, _, frames, ioData in
    guard let ioData else { return kAudio_ParamError }
    for buffer in UnsafeMutableAudioBufferListPointer(ioData) {
        guard let data = buffer.mData else { continue }
        let count = min(Int(frames), Int(buffer.mDataByteSize) / 4)
        let samples = data.assumingMemoryBound(to: Float.self)
        for i in 0..<count { samples[i] = Float(i % 64) / 64 - 0.5 }
    }
    return noErr
}

/// A render notification that touches its context (so a call after removal is a use after free).
let fuzzNotify: AURenderCallback = { refCon, _, _, _, _, _ in
    refCon.storeBytes(of: 1, as: UInt64.self)
    return noErr
}

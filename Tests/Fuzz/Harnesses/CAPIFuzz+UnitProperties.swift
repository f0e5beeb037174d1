import AUHost
import AudioFiles
import Foundation

/// What CAPIFuzz needs to reach each built-in unit's own properties and parameters: real files
/// for the file player's schedule, the unit's own parameter IDs, preset numbers and ClassInfo
/// extra state as the units write them, and hostile numbers in all of them.
extension CAPIFuzz {
    /// AUHOST_CAPI_FUZZ_UNIT=N pins the harness to builtInTargets[N], so that a campaign gives each
    /// built-in unit its own executions (scripts/fuzz-capi-units.sh).
    static let pinnedTarget: Int? = ProcessInfo.processInfo.environment["AUHOST_CAPI_FUZZ_UNIT"].flatMap(Int.init)

    /// The built-in targets' names, in index order (for the campaign's report).
    public static var builtInTargetNames: [String] {
        builtInTargets.map { d in ComponentRegistry.shared.all.first { $0.description == d }?.name ?? "\(d)" }
    }

    /// The name of the unit AUHOST_CAPI_FUZZ_UNIT pins, if it names one.
    public static var pinnedTargetName: String? {
        pinnedTarget.flatMap { builtInTargetNames.indices.contains($0) ? builtInTargetNames[$0] : nil }
    }

    /// Discovers every unit before the first input: on a fresh machine the LADSPA catalog is
    /// described cold (about 10 s for Debian's LADSPA packages), which libFuzzer would otherwise
    /// count against the first input as a hang.
    ///
    /// Thread: the fuzzer's (before its first input).
    public static func discoverUnits() {
        _ = builtInTargets
        _ = plugInTargets
    }

    /// Two real files the file player can schedule (4096 frames: 44.1 kHz stereo, 48 kHz mono),
    /// opened once per process and never closed (a region may name either at any time).
    nonisolated(unsafe) static let files: [AudioFileID] = {
        let folder = NSTemporaryDirectory() + "auhost-capi-fuzz-\(getpid())"
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        var ids: [AudioFileID] = []
        for (name, rate, channels) in [("stereo.wav", 44_100.0, 2), ("mono.wav", 48_000.0, 1)] {
            let path = folder + "/" + name
            let samples = [Float](repeating: 0.25, count: 4096)
            guard
                let file = try? AudioFile.create(
                    writingAt: path, type: .wave, format: AudioFileDataFormat(sampleRate: rate, channelCount: channels, encoding: .float32))
            else { continue }
            samples.withUnsafeBufferPointer { s in
                try? file.write(from: [UnsafePointer<Float>](repeating: s.baseAddress!, count: channels), frameCount: 4096)
            }
            try? file.close()
            var id: AudioFileID?
            if AudioFileOpenPath(path, .readPermission, &id) == noErr, let id { ids.append(id) }
        }
        return ids
    }()

    /// Frame counts and offsets that are often at an edge of the files or of Int64.
    static let frameSpecials: [Int64] = [0, 1, 100, 4095, 4096, 4097, -1, .max, .min, 1 << 53, Int64(UInt32.max)]
    /// Sample times that are often special: before, at and far beyond the timeline, not numbers.
    static let timeSpecials: [Double] = [0, 1, 512, -1, -1e300, 1e300, .nan, .infinity, -.infinity, 9.3e18, 9_007_199_254_740_992]
    /// Preset numbers around the built-in units' (the iPod EQ has 22) and Int32's edges.
    static let presetNumbers: [UInt32] = [0, 1, 5, 21, 22, 23, 0xFFFF_FFFF, 0x7FFF_FFFF, 0x8000_0000]
}

extension Session {
    /// The unit's own parameters (scope and ID, from ParameterList), read once per run.
    static func parameterIDs(of unit: AudioUnit) -> [(scope: AudioUnitScope, id: AudioUnitParameterID)] {
        var found: [(AudioUnitScope, AudioUnitParameterID)] = []
        for scope in [kAudioUnitScope_Global, kAudioUnitScope_Input, kAudioUnitScope_Output] {
            var size: UInt32 = 0
            guard AudioUnitGetPropertyInfo(unit, kAudioUnitProperty_ParameterList, scope, 0, &size, nil) == noErr, size > 0 else {
                continue
            }
            var ids = [AudioUnitParameterID](repeating: 0, count: Int(size) / 4)
            guard AudioUnitGetProperty(unit, kAudioUnitProperty_ParameterList, scope, 0, &ids, &size) == noErr else { continue }
            found += ids.prefix(Int(size) / 4).map { (scope, $0) }
        }
        return found
    }

    /// A parameter of the unit's own most of the time, otherwise any (scope, ID).
    func parameter(_ input: inout CAPIFuzzInput) -> (scope: AudioUnitScope, id: AudioUnitParameterID) {
        if !parameters.isEmpty && input.u8() < 224 { return parameters[input.below(parameters.count)] }
        return (input.pick(CAPIFuzz.scopes), input.pick([0, 1, 2, 3, 4, 5, 1000, 2000, 3000, 4000, 5000]))
    }

    /// A region on one of the real files most of the time, with edge numbers in every field.
    func region(_ input: inout CAPIFuzzInput) -> ScheduledAudioFileRegion {
        var region = ScheduledAudioFileRegion()
        if input.u8() < 64 { input.fill(&region, count: MemoryLayout<ScheduledAudioFileRegion>.size) }
        region.mTimeStamp.mFlags = input.u8() < 200 ? .sampleTimeValid : AudioTimeStampFlags(rawValue: input.u32())
        region.mTimeStamp.mSampleTime = CAPIFuzz.timeSpecials[input.below(CAPIFuzz.timeSpecials.count)]
        region.mStartFrame = CAPIFuzz.frameSpecials[input.below(CAPIFuzz.frameSpecials.count)]
        region.mFramesToPlay = input.pick([0, 1, 100, 4096, 4097, 0xFFFF_FFFF])
        region.mLoopCount = input.pick([0, 1, 3, 0xFFFF_FFFF])
        let files = CAPIFuzz.files
        region.mAudioFile = files.isEmpty || input.u8() < 16 ? nil : files[input.below(files.count)]
        region.mCompletionProc = nil
        region.mCompletionProcUserData = nil
        return region
    }

    /// The ClassInfo extra state the built-in units write ("ipod-preset", "channel-map"), with
    /// numbers at Int32's and Int64's edges.
    static func extraState(_ input: inout CAPIFuzzInput) -> PropertyListValue {
        let numbers: [Int64] = [0, 1, 21, 22, -1, 1 << 40, .max, .min, Int64(Int32.max) + 1]
        func number() -> Int64 { input.u8() < 200 ? numbers[input.below(numbers.count)] : Int64(bitPattern: input.u64()) }
        var state: [String: PropertyListValue] = [:]
        if input.u8() < 160 { state["ipod-preset"] = .integer(number()) }
        if input.u8() < 160 { state["channel-map"] = .array((0..<input.below(5)).map { _ in .integer(number()) }) }
        if input.u8() < 32 { state["channel-map"] = .string("not an array") }
        return .dictionary(state)
    }
}

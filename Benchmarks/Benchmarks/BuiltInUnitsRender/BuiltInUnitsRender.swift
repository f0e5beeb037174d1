import AudioToolbox
import AUHost
import Benchmark
import Foundation

// One render cycle (512 frames) of every built-in unit through the documented C API, each fed
// by render callbacks and configured so that its real work runs (EQ bands on, metering on, rate
// conversion on, a file streaming). The thresholds pin 0 allocations per cycle.

/// Fills every buffer of a pull with a constant (0.25 for floats; the same bytes for integers).
let constantCallback: AURenderCallback = { _, _, _, _, frames, ioData in
    for buffer in UnsafeMutableAudioBufferListPointer(ioData!) {
        buffer.mData!.initializeMemory(as: UInt8.self, repeating: 0x3E, count: Int(buffer.mDataByteSize))
    }
    return noErr
}

/// A built-in unit found by Apple's manufacturer and a documented subtype, set up by `configure`
/// (formats, parameters, inputs) and initialized, rendering `frames` per cycle.
struct UnitRig {
    let unit: AudioUnit
    let buffers: AudioBufferStorage
    var timeStamp = AudioTimeStamp()
    let frames: UInt32

    init(
        _ type: OSType, _ subType: OSType, output: AudioStreamBasicDescription = .canonical(sampleRate: 44_100, channels: 2),
        frames: UInt32 = 512, inputs: Int = 1, configure: (AudioUnit) -> Void = { _ in }, afterInitialize: (AudioUnit) -> Void = { _ in }
    ) {
        var d = AudioComponentDescription(
            componentType: type, componentSubType: subType,
            componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0)
        var u: AudioUnit?
        precondition(AudioComponentInstanceNew(AudioComponentFindNext(nil, &d)!, &u) == noErr)
        unit = u!
        self.frames = frames
        var max = frames
        AudioUnitSetProperty(unit, kAudioUnitProperty_MaximumFramesPerSlice, kAudioUnitScope_Global, 0, &max, 4)
        var format = output
        AudioUnitSetProperty(
            unit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Output, 0, &format,
            UInt32(MemoryLayout<AudioStreamBasicDescription>.size))
        configure(unit)
        for bus in 0..<UInt32(inputs) {
            var cb = AURenderCallbackStruct(inputProc: constantCallback, inputProcRefCon: nil)
            AudioUnitSetProperty(
                unit, kAudioUnitProperty_SetRenderCallback, kAudioUnitScope_Input, bus, &cb,
                UInt32(MemoryLayout<AURenderCallbackStruct>.size))
        }
        precondition(AudioUnitInitialize(unit) == noErr, "initialize \(FourCC.string(subType))")
        afterInitialize(unit)
        buffers = AudioBufferStorage(format: output, capacity: frames)
        timeStamp.mFlags = .sampleTimeValid
    }

    mutating func cycle(frames: UInt32? = nil) {
        let n = frames ?? self.frames
        buffers.prepare(frames: n)
        var flags: AudioUnitRenderActionFlags = []
        let status = AudioUnitRender(unit, &flags, &timeStamp, 0, n, buffers.list)
        precondition(status == noErr)
        timeStamp.mSampleTime += Double(n)
    }
}

func setParameter(
    _ unit: AudioUnit, _ id: AudioUnitParameterID, _ value: Float, scope: AudioUnitScope = kAudioUnitScope_Global, element: UInt32 = 0
) {
    AudioUnitSetParameter(unit, id, scope, element, value, 0)
}

func setFormat(_ unit: AudioUnit, _ format: AudioStreamBasicDescription, scope: AudioUnitScope, element: UInt32 = 0) {
    var f = format
    AudioUnitSetProperty(unit, kAudioUnitProperty_StreamFormat, scope, element, &f, UInt32(MemoryLayout<AudioStreamBasicDescription>.size))
}

/// A 1-second 16-bit stereo WAV of a 440 Hz tone, opened as an AudioFileID.
func makeToneFile() -> AudioFileID {
    let path = NSTemporaryDirectory() + "auhost-bench-\(getpid()).wav"
    var fileFormat = AudioStreamBasicDescription.linearPCM(
        sampleRate: 44_100, channels: 2, bitsPerChannel: 16, isFloat: false, interleaved: true)
    var file: ExtAudioFileRef?
    precondition(ExtAudioFileCreateWithPath(path, kAudioFileWAVEType, &fileFormat, nil, AudioFileFlags.eraseFile.rawValue, &file) == noErr)
    var client = AudioStreamBasicDescription.canonical(sampleRate: 44_100, channels: 2)
    ExtAudioFileSetProperty(file!, kExtAudioFileProperty_ClientDataFormat, UInt32(MemoryLayout<AudioStreamBasicDescription>.size), &client)
    let storage = AudioBufferStorage(format: client, capacity: 44_100)
    for c in 0..<2 {
        let channel = storage.channel(c)
        for i in 0..<44_100 { channel[i] = Float(0.5 * sin(2 * Double.pi * 440 * Double(i) / 44_100)) }
    }
    precondition(ExtAudioFileWrite(file!, 44_100, storage.list) == noErr)
    ExtAudioFileDispose(file!)
    var id: AudioFileID?
    precondition(AudioFileOpenPath(path, .readPermission, &id) == noErr)
    unlink(path)  // the player's reader keeps its own handle open
    return id!
}

let benchmarks: @Sendable () -> Void = {
    let zeroAllocations: [BenchmarkMetric: BenchmarkThresholds] = [
        .mallocCountTotal: .init(absolute: [.p0: 0, .p50: 0, .p100: 0])
    ]
    func measure(_ name: String, _ makeRig: @escaping () -> UnitRig) {
        Benchmark(
            "\(name), 512 frames",
            configuration: .init(
                metrics: [.wallClock, .mallocCountTotal], scalingFactor: .kilo,
                thresholds: zeroAllocations)
        ) { benchmark in
            var rig = makeRig()
            for _ in 0..<20 { rig.cycle() }  // steady state: first-touch work is done
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations { rig.cycle() }
            benchmark.stopMeasurement()
            AudioComponentInstanceDispose(rig.unit)
        }
    }

    measure("Generic output (stereo pass-through)") { UnitRig(kAudioUnitType_Output, kAudioUnitSubType_GenericOutput) }
    measure("Delay (stereo, 0.25 s, feedback 50 %)") {
        UnitRig(kAudioUnitType_Effect, kAudioUnitSubType_Delay, configure: { setParameter($0, kDelayParam_DelayTime, 0.25) })
    }
    measure("iPod EQ (stereo, preset Rock)") {
        UnitRig(
            kAudioUnitType_Effect, kAudioUnitSubType_AUiPodEQ,
            afterInitialize: { unit in
                var preset = AUPreset(presetNumber: 16, presetName: nil)
                AudioUnitSetProperty(
                    unit, kAudioUnitProperty_PresentPreset, kAudioUnitScope_Global, 0, &preset, UInt32(MemoryLayout<AUPreset>.size))
            })
    }
    measure("N-band EQ (stereo, 8 bands on)") {
        UnitRig(
            kAudioUnitType_Effect, kAudioUnitSubType_NBandEQ,
            configure: { unit in
                for b in 0..<UInt32(8) {
                    setParameter(unit, kAUNBandEQParam_BypassBand + b, 0)
                    setParameter(unit, kAUNBandEQParam_Gain + b, 3)
                }
            })
    }
    measure("Reverb2 (stereo, Large Hall, fully wet)") {
        UnitRig(
            kAudioUnitType_Effect, kAudioUnitSubType_Reverb2,
            afterInitialize: { unit in
                var preset = AUPreset(presetNumber: 4, presetName: nil)
                AudioUnitSetProperty(
                    unit, kAudioUnitProperty_PresentPreset, kAudioUnitScope_Global, 0, &preset, UInt32(MemoryLayout<AUPreset>.size))
            })
    }
    measure("Distortion (stereo, every stage mixed in)") {
        UnitRig(
            kAudioUnitType_Effect, kAudioUnitSubType_Distortion,
            configure: { unit in
                setParameter(unit, kDistortionParam_Delay, 20)
                setParameter(unit, kDistortionParam_Rounding, 30)
                setParameter(unit, kDistortionParam_SquaredTerm, 2)
                setParameter(unit, kDistortionParam_CubicTerm, 2)
                setParameter(unit, kDistortionParam_RingModMix, 50)
            })
    }
    measure("NewTimePitch (stereo, rate 1.5, pitch +300 cents)") {
        UnitRig(
            kAudioUnitType_FormatConverter, kAudioUnitSubType_NewTimePitch,
            configure: { unit in
                setParameter(unit, kNewTimePitchParam_Rate, 1.5)
                setParameter(unit, kNewTimePitchParam_Pitch, 300)
            })
    }
    // A pitch change once redesigned SoundTouch's anti-alias filter on the render thread, and its
    // FIFOs grew at extreme tempi. Here Rate and Pitch move every cycle through their extremes and
    // the slices vary in size (up to 512); one sample is 1,080 cycles right after Initialize,
    // unscaled, so that a single allocation in any of them shows.
    Benchmark(
        "NewTimePitch (stereo, 1,080 cycles from Initialize, Rate and Pitch changed every cycle through 1/32…32 and ±2400 cents, slices of 1…512)",
        configuration: .init(metrics: [.wallClock, .mallocCountTotal], maxIterations: 30, thresholds: zeroAllocations)
    ) { benchmark in
        var rig = UnitRig(kAudioUnitType_FormatConverter, kAudioUnitSubType_NewTimePitch)
        let settings: [(Float, Float)] = [
            (1.5, 300), (1.0 / 32, 2400), (32, -2400), (1, 0), (32, 2400), (1.0 / 32, -2400), (0.7, -1), (2, 1200), (1.01, 7),
        ]
        let slices: [UInt32] = [512, 171, 64, 1, 333, 512]
        benchmark.startMeasurement()
        for i in 0..<settings.count * slices.count * 20 {
            let (rate, pitch) = settings[i % settings.count]
            setParameter(rig.unit, kNewTimePitchParam_Rate, rate)
            setParameter(rig.unit, kNewTimePitchParam_Pitch, pitch)
            rig.cycle(frames: slices[i % slices.count])
        }
        benchmark.stopMeasurement()
        AudioComponentInstanceDispose(rig.unit)
    }
    // The same from a seeded random walk: Rate log-uniform over 1/32…32, Pitch over ±2400 cents,
    // a new setting every 1 to 8 cycles; slices of 1…512 frames, and of 1…4,096 (the unit
    // renders them in blocks of at most 1,024).
    for maximum: UInt32 in [512, 4096] {
        Benchmark(
            "NewTimePitch (stereo, 2,000 cycles from Initialize, random Rate, Pitch and slices of 1…\(maximum))",
            configuration: .init(
                metrics: [.wallClock, .mallocCountTotal], maxDuration: .seconds(10), maxIterations: 20, thresholds: zeroAllocations)
        ) { benchmark in
            var rig = UnitRig(kAudioUnitType_FormatConverter, kAudioUnitSubType_NewTimePitch, frames: maximum)
            // A seeded linear congruential generator: every run renders the same cycles.
            var seed = UInt64(benchmark.currentIteration) &+ 1
            func uniform() -> Double {
                seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                return Double(seed >> 11) / Double(1 << 53)
            }
            var cycles = (0..<2_000).map { _ in
                let rate = Float(pow(32, uniform() * 2 - 1)), pitch = Float(uniform() * 4800 - 2400)
                return (rate, pitch, UInt32(1 + uniform() * Double(maximum - 1)), Int(uniform() * 8))
            }
            benchmark.startMeasurement()
            for i in cycles.indices {
                if i == 0 || cycles[i].3 == 0 {
                    setParameter(rig.unit, kNewTimePitchParam_Rate, cycles[i].0)
                    setParameter(rig.unit, kNewTimePitchParam_Pitch, cycles[i].1)
                }
                rig.cycle(frames: cycles[i].2)
            }
            benchmark.stopMeasurement()
            cycles.removeAll()
            AudioComponentInstanceDispose(rig.unit)
        }
    }
    // Initialize's warm-up: SoundTouch's FIFOs filled to their largest, the render loop at the corners.
    for frames: UInt32 in [512, 4096, 65_536] {
        Benchmark(
            "NewTimePitch Initialize (stereo, MaximumFramesPerSlice \(frames))",
            configuration: .init(metrics: [.wallClock], maxIterations: 10)
        ) { benchmark in
            for _ in benchmark.scaledIterations {
                var d = AudioComponentDescription(
                    componentType: kAudioUnitType_FormatConverter, componentSubType: kAudioUnitSubType_NewTimePitch,
                    componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0)
                var unit: AudioUnit?
                precondition(AudioComponentInstanceNew(AudioComponentFindNext(nil, &d)!, &unit) == noErr)
                var max = frames
                AudioUnitSetProperty(unit!, kAudioUnitProperty_MaximumFramesPerSlice, kAudioUnitScope_Global, 0, &max, 4)
                benchmark.startMeasurement()
                precondition(AudioUnitInitialize(unit!) == noErr)
                benchmark.stopMeasurement()
                AudioComponentInstanceDispose(unit!)
            }
        }
    }
    measure("Varispeed (stereo, rate 1.5)") {
        UnitRig(
            kAudioUnitType_FormatConverter, kAudioUnitSubType_Varispeed,
            configure: { unit in setParameter(unit, kVarispeedParam_PlaybackRate, 1.5) })
    }
    measure("Multichannel mixer (4 stereo buses, metering on)") {
        UnitRig(
            kAudioUnitType_Mixer, kAudioUnitSubType_MultiChannelMixer, inputs: 4,
            configure: { unit in
                var count: UInt32 = 4
                AudioUnitSetProperty(unit, kAudioUnitProperty_ElementCount, kAudioUnitScope_Input, 0, &count, 4)
                var on: UInt32 = 1
                AudioUnitSetProperty(unit, kAudioUnitProperty_MeteringMode, kAudioUnitScope_Global, 0, &on, 4)
                for b in 0..<count { setParameter(unit, kMultiChannelMixerParam_Pan, 0.3, scope: kAudioUnitScope_Input, element: b) }
            })
    }
    measure("Format converter (int16 interleaved 44.1 kHz → float 48 kHz, stereo)") {
        UnitRig(
            kAudioUnitType_FormatConverter, kAudioUnitSubType_AUConverter,
            output: .canonical(sampleRate: 48_000, channels: 2),
            configure: { unit in
                setFormat(
                    unit, .linearPCM(sampleRate: 44_100, channels: 2, bitsPerChannel: 16, isFloat: false, interleaved: true),
                    scope: kAudioUnitScope_Input)
            })
    }
    measure("3D mixer (4 mono buses at 22.05 kHz, one at playback rate 1.5)") {
        UnitRig(
            kAudioUnitType_Mixer, kAudioUnitSubType_AU3DMixerEmbedded, inputs: 4,
            configure: { unit in
                var count: UInt32 = 4
                AudioUnitSetProperty(unit, kAudioUnitProperty_ElementCount, kAudioUnitScope_Input, 0, &count, 4)
                for b in 0..<count {
                    setFormat(unit, .canonical(sampleRate: 22_050, channels: 1), scope: kAudioUnitScope_Input, element: b)
                    setParameter(unit, k3DMixerParam_Azimuth, Float(b) * 30 - 45, scope: kAudioUnitScope_Input, element: b)
                    setParameter(unit, k3DMixerParam_Distance, 2, scope: kAudioUnitScope_Input, element: b)
                }
                setParameter(unit, k3DMixerParam_PlaybackRate, 1.5, scope: kAudioUnitScope_Input, element: 3)
            })
    }
    measure("Audio file player (16-bit WAV, looping, reader thread running)") {
        let file = makeToneFile()
        return UnitRig(
            kAudioUnitType_Generator, kAudioUnitSubType_AudioFilePlayer, inputs: 0,
            configure: { unit in
                var ids = [Optional(file)]
                AudioUnitSetProperty(unit, kAudioUnitProperty_ScheduledFileIDs, kAudioUnitScope_Global, 0, &ids, 8)
            },
            afterInitialize: { unit in
                var region = ScheduledAudioFileRegion()
                region.mTimeStamp.mFlags = .sampleTimeValid
                region.mAudioFile = file
                region.mFramesToPlay = UInt32.max
                region.mLoopCount = 1_000_000
                AudioUnitSetProperty(
                    unit, kAudioUnitProperty_ScheduledFileRegion, kAudioUnitScope_Global, 0, &region,
                    UInt32(MemoryLayout<ScheduledAudioFileRegion>.size))
                var prime: UInt32 = 0
                AudioUnitSetProperty(unit, kAudioUnitProperty_ScheduledFilePrime, kAudioUnitScope_Global, 0, &prime, 4)
                var start = AudioTimeStamp()
                start.mFlags = .sampleTimeValid
                start.mSampleTime = -1
                AudioUnitSetProperty(
                    unit, kAudioUnitProperty_ScheduleStartTimeStamp, kAudioUnitScope_Global, 0, &start,
                    UInt32(MemoryLayout<AudioTimeStamp>.size))
            })
    }
}

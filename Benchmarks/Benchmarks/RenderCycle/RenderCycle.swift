import AudioToolbox
import AUHost
import Benchmark

// One render cycle of a unit through the documented C API: AudioUnitRender on an effect fed by
// a render callback, 512 stereo frames. The thresholds pin 0 allocations per cycle.

final class BenchGain: AUEffectBase {
    static let identity = AudioComponentDescription(
        type: kAudioUnitType_Effect, subType: FourCC.code("bgan")!,
        manufacturer: FourCC.code("AUHb")!)
    init(_ d: AudioComponentDescription) {
        super.init(description: d, parameters: [ParameterDefinition(id: 0, name: "Gain", min: 0, max: 2, default: 0.5)])
    }
    override func processChannel(_ channel: Int, input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>, frames: Int) {
        let g = parameterValues[0]
        for i in 0..<frames { output[i] = input[i] * g }
    }
}

let silenceCallback: AURenderCallback = { _, _, _, _, frames, ioData in
    for buffer in UnsafeMutableAudioBufferListPointer(ioData!) {
        buffer.mData!.initializeMemory(as: Float.self, repeating: 0.25, count: Int(frames))
    }
    return noErr
}

/// A unit set up and initialized, with buffers, ready to render `frames` per cycle.
struct RenderRig {
    let unit: AudioUnit
    let buffers: AudioBufferStorage
    var timeStamp = AudioTimeStamp()
    let frames: UInt32

    init(frames: UInt32) {
        ComponentRegistry.shared.register(Component(description: BenchGain.identity, name: "Bench: Gain", version: 1) { BenchGain($0) })
        var d = BenchGain.identity
        var u: AudioUnit?
        AudioComponentInstanceNew(AudioComponentFindNext(nil, &d)!, &u)
        unit = u!
        var max = frames
        AudioUnitSetProperty(unit, kAudioUnitProperty_MaximumFramesPerSlice, kAudioUnitScope_Global, 0, &max, 4)
        var cb = AURenderCallbackStruct(inputProc: silenceCallback, inputProcRefCon: nil)
        AudioUnitSetProperty(
            unit, kAudioUnitProperty_SetRenderCallback, kAudioUnitScope_Input, 0, &cb,
            UInt32(MemoryLayout<AURenderCallbackStruct>.size))
        AudioUnitInitialize(unit)
        buffers = AudioBufferStorage(format: .canonical(sampleRate: 44_100, channels: 2), capacity: frames)
        timeStamp.mFlags = .sampleTimeValid
        self.frames = frames
    }

    mutating func cycle() {
        buffers.prepare(frames: frames)
        var flags: AudioUnitRenderActionFlags = []
        let status = AudioUnitRender(unit, &flags, &timeStamp, 0, frames, buffers.list)
        precondition(status == noErr)
        timeStamp.mSampleTime += Double(frames)
    }
}

let benchmarks: @Sendable () -> Void = {
    let zeroAllocations: [BenchmarkMetric: BenchmarkThresholds] = [
        .mallocCountTotal: .init(absolute: [.p0: 0, .p50: 0, .p100: 0])
    ]
    Benchmark(
        "AudioUnitRender: effect with callback, 512 stereo frames",
        configuration: .init(
            metrics: [.wallClock, .mallocCountTotal, .throughput], scalingFactor: .kilo,
            thresholds: zeroAllocations)
    ) { benchmark in
        var rig = RenderRig(frames: 512)
        for _ in 0..<10 { rig.cycle() }  // steady state: first-touch work is done
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { rig.cycle() }
        benchmark.stopMeasurement()
    }

    Benchmark(
        "AudioUnitRender with a ramped parameter, 512 stereo frames",
        configuration: .init(
            metrics: [.wallClock, .mallocCountTotal], scalingFactor: .kilo,
            thresholds: zeroAllocations)
    ) { benchmark in
        var rig = RenderRig(frames: 512)
        for _ in 0..<10 { rig.cycle() }
        var event = AudioUnitParameterEvent()
        event.eventType = .parameterEvent_Ramped
        event.eventValues.ramp = .init(startBufferOffset: 0, durationInFrames: 256, startValue: 0, endValue: 1)
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            AudioUnitScheduleParameters(rig.unit, &event, 1)
            rig.cycle()
        }
        benchmark.stopMeasurement()
    }
}

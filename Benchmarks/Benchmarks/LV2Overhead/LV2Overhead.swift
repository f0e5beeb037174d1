import AudioToolbox
import AUHost
import Benchmark
import LV2Host
import LV2Units

// eg-amp at 512 frames, the same work measured two ways in one run: through the unit
// (AudioUnitRender, input from a render callback, output into the caller's buffer) and by
// calling LV2Instance.run directly (the host writes the input into the port buffer and copies
// the output out, as any host must). The ratio of the two p50 wall clocks is the unit's overhead.

let frames = 512
let ampURI = "http://lv2plug.in/plugins/eg-amp"

let constantCallback: AURenderCallback = { _, _, _, _, frames, ioData in
    for buffer in UnsafeMutableAudioBufferListPointer(ioData!) {
        buffer.mData!.initializeMemory(as: Float.self, repeating: 0.25, count: Int(frames))
    }
    return noErr
}

/// eg-amp as a unit, initialized, with a callback for input and a buffer for output.
struct UnitRig {
    let unit: AudioUnit
    let buffers: AudioBufferStorage
    var timeStamp = AudioTimeStamp()

    init() {
        let component = LV2Provider.component(uri: ampURI)!
        var u: AudioUnit?
        AudioComponentInstanceNew(component.handle, &u)
        unit = u!
        var max = UInt32(frames)
        AudioUnitSetProperty(unit, kAudioUnitProperty_MaximumFramesPerSlice, kAudioUnitScope_Global, 0, &max, 4)
        var cb = AURenderCallbackStruct(inputProc: constantCallback, inputProcRefCon: nil)
        AudioUnitSetProperty(
            unit, kAudioUnitProperty_SetRenderCallback, kAudioUnitScope_Input, 0, &cb,
            UInt32(MemoryLayout<AURenderCallbackStruct>.size))
        precondition(AudioUnitInitialize(unit) == noErr)
        AudioUnitSetParameter(unit, 0, kAudioUnitScope_Global, 0, -6, 0)
        buffers = AudioBufferStorage(format: .canonical(sampleRate: 44_100, channels: 1), capacity: UInt32(frames))
        timeStamp.mFlags = .sampleTimeValid
    }

    mutating func cycle() {
        buffers.prepare(frames: UInt32(frames))
        var flags: AudioUnitRenderActionFlags = []
        let status = AudioUnitRender(unit, &flags, &timeStamp, 0, UInt32(frames), buffers.list)
        precondition(status == noErr)
        timeStamp.mSampleTime += Double(frames)
    }
}

/// eg-amp as a bare LV2Instance with the same input and an output destination.
struct DirectRig {
    let instance: LV2Instance
    let destination = UnsafeMutablePointer<Float>.allocate(capacity: frames)

    init() {
        let world = LV2World()
        instance = try! LV2Instance(plugin: world.plugin(uri: ampURI), configuration: .init(sampleRate: 44_100, maxBlockLength: frames))
        try! instance.setControl(portIndex: 0, to: -6)
        instance.activate()
    }

    func cycle() {
        instance.audioInput(0).update(repeating: 0.25, count: frames)
        precondition(instance.run(frames: frames) == .ok)
        destination.update(from: instance.audioOutput(0), count: frames)
    }
}

// Made once (a world load per sample would starve the direct benchmark of samples).
nonisolated(unsafe) var unitRig = UnitRig()
nonisolated(unsafe) let directRig = DirectRig()

let benchmarks: @Sendable () -> Void = {
    let zeroAllocations: [BenchmarkMetric: BenchmarkThresholds] = [
        .mallocCountTotal: .init(absolute: [.p0: 0, .p50: 0, .p100: 0])
    ]
    let configuration = Benchmark.Configuration(
        metrics: [.wallClock, .mallocCountTotal], scalingFactor: .kilo,
        thresholds: zeroAllocations)
    Benchmark("eg-amp through the unit (AudioUnitRender), 512 frames", configuration: configuration) { benchmark in
        for _ in 0..<10 { unitRig.cycle() }
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { unitRig.cycle() }
        benchmark.stopMeasurement()
    }
    Benchmark("eg-amp by LV2Instance.run directly, 512 frames", configuration: configuration) { benchmark in
        for _ in 0..<10 { directRig.cycle() }
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { directRig.cycle() }
        benchmark.stopMeasurement()
    }
}

import AudioToolbox
import AUHost
import Benchmark

// The graph's cost against the work itself: 32 gain nodes in a chain on 256-frame stereo blocks,
// pulled through a generic output head, versus a hand-written loop doing the same 32 gains on the
// same buffers. Both fill their source the same way. Goal (issue 3): graph ≤ 1.25 × the loop.

let frames = 256
let chainLength = 32
let gainValue: Float = 1.0001

final class ChainGain: AUEffectBase {
    static let identity = AudioComponentDescription(
        type: kAudioUnitType_Effect, subType: FourCC.code("cgan")!,
        manufacturer: FourCC.code("AUHb")!)
    init(_ d: AudioComponentDescription) {
        super.init(description: d, parameters: [ParameterDefinition(id: 0, name: "Gain", min: 0, max: 2, default: gainValue)])
    }
    override func processChannel(_ channel: Int, input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>, frames: Int) {
        scale(input, output, frames, parameterValues[0])
    }
}

@_noAllocation @_noLocks
func scale(_ input: UnsafePointer<Float>, _ output: UnsafeMutablePointer<Float>, _ frames: Int, _ gain: Float) {
    for i in 0..<frames { output[i] = input[i] * gain }
}

@inline(never)
func fill(_ samples: UnsafeMutablePointer<Float>, _ count: Int) {
    for i in 0..<count { samples[i] = 0.25 }
}

let fillCallback: AURenderCallback = { _, _, _, _, frames, ioData in
    for buffer in UnsafeMutableAudioBufferListPointer(ioData!) {
        fill(buffer.mData!.assumingMemoryBound(to: Float.self), Int(frames))
    }
    return noErr
}

/// The chain as an AUGraph, initialized and ready to pull.
struct ChainGraph {
    let graph = AudioGraph()
    let output = AudioBufferStorage(format: .canonical(sampleRate: 48_000, channels: 2), capacity: UInt32(frames))

    init() throws {
        ComponentRegistry.shared.register(
            Component(description: ChainGain.identity, name: "Bench: Chain Gain", version: 1) { ChainGain($0) })
        let head = try graph.attach(AudioComponentDescription(type: kAudioUnitType_Output, subType: kAudioUnitSubType_GenericOutput))
        var previous = try graph.attach(ChainGain.identity)
        try graph.setInputCallback(previous, 0, AURenderCallbackStruct(inputProc: fillCallback, inputProcRefCon: nil))
        for _ in 1..<chainLength {
            let next = try graph.attach(ChainGain.identity)
            try graph.connect(previous, 0, to: next, 0)
            previous = next
        }
        try graph.connect(previous, 0, to: head, 0)
        try graph.initialize()
    }

    func cycle() throws { try graph.render(frames: UInt32(frames), into: output) }
}

/// The same work by hand: fill, then 32 gains in place on each channel.
struct HandLoop {
    let left = UnsafeMutablePointer<Float>.allocate(capacity: frames)
    let right = UnsafeMutablePointer<Float>.allocate(capacity: frames)

    func cycle() {
        for channel in [left, right] {
            fill(channel, frames)
            for _ in 0..<chainLength { scale(channel, channel, frames, gainValue) }
        }
    }
}

let benchmarks: @Sendable () -> Void = {
    let configuration = Benchmark.Configuration(
        metrics: [.wallClock, .mallocCountTotal], scalingFactor: .kilo,
        maxDuration: .seconds(3),
        thresholds: [.mallocCountTotal: .init(absolute: [.p0: 0, .p50: 0, .p100: 0])])
    Benchmark("Hand-written loop: 32 gains, 256 stereo frames", configuration: configuration) { benchmark in
        let loop = HandLoop()
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { loop.cycle() }
        benchmark.stopMeasurement()
    }

    Benchmark("AUGraph: 32 gain nodes, 256 stereo frames", configuration: configuration) { benchmark in
        let chain = try ChainGraph()
        for _ in 0..<10 { try chain.cycle() }
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { try chain.cycle() }
        benchmark.stopMeasurement()
    }
}

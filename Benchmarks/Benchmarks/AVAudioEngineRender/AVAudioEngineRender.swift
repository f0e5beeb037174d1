import AVFAudio
import Benchmark

// AVAudioEngine's offline manual rendering against the same AUGraph written by hand (issue 32):
// ten nodes each — a source (a format converter fed by a render callback: what AVAudioSourceNode
// is), four N-band EQs and three delays in a chain, the multichannel mixer, and a generic output
// the application pulls — on 512-frame stereo blocks at 48 kHz. Same units, same parameters,
// same fill. Goal: engine ≤ 1.1 × graph.

let frames: UInt32 = 512
let format = AVAudioFormat(standardFormatWithSampleRate: 48_000, channels: 2)!

@inline(never)
func fill(_ list: UnsafeMutablePointer<AudioBufferList>, _ frames: UInt32) {
    for buffer in UnsafeMutableAudioBufferListPointer(list) {
        let samples = buffer.mData!.assumingMemoryBound(to: Float.self)
        for i in 0..<Int(frames) { samples[i] = Float(i & 63) / 64 - 0.5 }
    }
}

let fillCallback: AURenderCallback = { _, _, _, _, frames, ioData in
    fill(ioData!, frames)
    return noErr
}

func description(_ type: OSType, _ subType: OSType) -> AudioComponentDescription {
    AudioComponentDescription(
        componentType: type, componentSubType: subType, componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0,
        componentFlagsMask: 0)
}

/// The effects of the chain, in order: EQ, delay, EQ, delay, EQ, delay, EQ.
let effectTypes = (0..<7).map { $0 % 2 == 0 ? kAudioUnitSubType_NBandEQ : kAudioUnitSubType_Delay }

/// The same settings on both sides: one parametric band at 1 kHz +3 dB; a 10 ms delay.
func configure(_ unit: AudioUnit, _ subType: OSType) {
    if subType == kAudioUnitSubType_NBandEQ {
        AudioUnitSetParameter(unit, kAUNBandEQParam_BypassBand, kAudioUnitScope_Global, 0, 0, 0)
        AudioUnitSetParameter(unit, kAUNBandEQParam_FilterType, kAudioUnitScope_Global, 0, 0, 0)
        AudioUnitSetParameter(unit, kAUNBandEQParam_Frequency, kAudioUnitScope_Global, 0, 1_000, 0)
        AudioUnitSetParameter(unit, kAUNBandEQParam_Gain, kAudioUnitScope_Global, 0, 3, 0)
    } else {
        AudioUnitSetParameter(unit, kDelayParam_DelayTime, kAudioUnitScope_Global, 0, 0.01, 0)
    }
}

/// The engine: source node → 7 effects → main mixer → output node, manual rendering.
final class EngineChain {
    let engine = AVAudioEngine()
    let buffer = AVAudioPCMBuffer(pcmFormat: format, frameCapacity: frames)!

    init() throws {
        let source = AVAudioSourceNode { _, _, frameCount, list in
            fill(list, frameCount)
            return noErr
        }
        engine.attach(source)
        var previous: AVAudioNode = source
        for subType in effectTypes {
            let effect = AVAudioUnitEffect(audioComponentDescription: description(kAudioUnitType_Effect, subType))
            configure(effect.audioUnit, subType)
            engine.attach(effect)
            engine.connect(previous, to: effect, format: format)
            previous = effect
        }
        engine.connect(previous, to: engine.mainMixerNode, format: format)
        try engine.enableManualRenderingMode(.offline, format: format, maximumFrameCount: frames)
        try engine.start()
    }

    func cycle() throws { _ = try engine.renderOffline(frames, to: buffer) }
}

/// The same graph through the AUGraph C API.
final class GraphChain {
    var graph: AUGraph?
    var head: AudioUnit?
    let list = AudioBufferList.allocate(maximumBuffers: 2)
    var time = AudioTimeStamp()

    init() {
        NewAUGraph(&graph)
        var nodes: [AUNode] = []
        func add(_ d: AudioComponentDescription) -> AUNode {
            var d = d
            var node = AUNode()
            AUGraphAddNode(graph!, &d, &node)
            return node
        }
        let output = add(description(kAudioUnitType_Output, kAudioUnitSubType_GenericOutput))
        let mixer = add(description(kAudioUnitType_Mixer, kAudioUnitSubType_MultiChannelMixer))
        let source = add(description(kAudioUnitType_FormatConverter, kAudioUnitSubType_AUConverter))
        nodes = effectTypes.map { add(description(kAudioUnitType_Effect, $0)) }
        AUGraphOpen(graph!)
        var asbd = format.streamDescription.pointee
        let size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
        func unit(_ node: AUNode) -> AudioUnit {
            var u: AudioUnit?
            AUGraphNodeInfo(graph!, node, nil, &u)
            return u!
        }
        var maxFrames = frames
        for node in [output, mixer, source] + nodes {
            let u = unit(node)
            AudioUnitSetProperty(u, kAudioUnitProperty_MaximumFramesPerSlice, kAudioUnitScope_Global, 0, &maxFrames, 4)
            AudioUnitSetProperty(u, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Input, 0, &asbd, size)
            AudioUnitSetProperty(u, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Output, 0, &asbd, size)
        }
        for bus in 0..<8 as Range<UInt32> {
            AudioUnitSetProperty(unit(mixer), kAudioUnitProperty_StreamFormat, kAudioUnitScope_Input, bus, &asbd, size)
        }
        for (u, subType) in zip(nodes.map(unit), effectTypes) { configure(u, subType) }
        var callback = AURenderCallbackStruct(inputProc: fillCallback, inputProcRefCon: nil)
        AudioUnitSetProperty(
            unit(source), kAudioUnitProperty_SetRenderCallback, kAudioUnitScope_Input, 0, &callback,
            UInt32(MemoryLayout<AURenderCallbackStruct>.size))
        var previous = source
        for node in nodes {
            AUGraphConnectNodeInput(graph!, previous, 0, node, 0)
            previous = node
        }
        AUGraphConnectNodeInput(graph!, previous, 0, mixer, 0)
        AUGraphConnectNodeInput(graph!, mixer, 0, output, 0)
        let status = AUGraphInitialize(graph!)
        precondition(status == noErr, "AUGraphInitialize \(status)")
        head = unit(output)
        for b in 0..<2 {
            list[b] = AudioBuffer(mNumberChannels: 1, mDataByteSize: frames * 4, mData: malloc(Int(frames) * 4))
        }
        time.mFlags = .sampleTimeValid
    }

    func cycle() {
        for b in 0..<2 { list[b].mDataByteSize = frames * 4 }
        var flags: AudioUnitRenderActionFlags = []
        AudioUnitRender(head!, &flags, &time, 0, frames, list.unsafeMutablePointer)
        time.mSampleTime += Double(frames)
    }
}

let benchmarks: @Sendable () -> Void = {
    let configuration = Benchmark.Configuration(
        metrics: [.wallClock, .mallocCountTotal], scalingFactor: .kilo, maxDuration: .seconds(3),
        thresholds: [.mallocCountTotal: .init(absolute: [.p0: 0, .p50: 0, .p100: 0])])
    Benchmark("AUGraph: 10 nodes, 512 stereo frames", configuration: configuration) { benchmark in
        let chain = GraphChain()
        for _ in 0..<10 { chain.cycle() }
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { chain.cycle() }
        benchmark.stopMeasurement()
    }

    Benchmark("AVAudioEngine renderOffline: 10 nodes, 512 stereo frames", configuration: configuration) { benchmark in
        let chain = try EngineChain()
        for _ in 0..<10 { try chain.cycle() }
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { try chain.cycle() }
        benchmark.stopMeasurement()
    }
}

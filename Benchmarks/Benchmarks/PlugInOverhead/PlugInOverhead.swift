import AudioToolbox
import AUHost
import AUHostSDK
import Benchmark
import Foundation

// SDK plug-ins rendered through the documented C API: the gain kernel (Gain.swift is the plug-in's
// own source) built into this process versus loaded from Plugins/.build/release/libGain.so, side by
// side, and every plug-in of Plugins/ with 0 allocations per render as a threshold.
// Build the plug-ins first: Plugins/build.sh release.

/// The same gain kernel registered as a built-in unit under its own subtype.
let builtInGain = AudioComponentDescription(
    type: kAudioUnitType_Effect, subType: FourCC.code("gbin")!,
    manufacturer: FourCC.code("AUSd")!)

/// A plug-in of Plugins/ by subtype, required to come from the release build folder.
func releasePlugIn(_ subtype: String, type: String = "aufx") -> AudioComponent {
    var d = AudioComponentDescription(type, subtype, "AUSd")!
    guard let c = AudioComponentFindNext(nil, &d), let origin = Component.from(c)?.origin, origin.contains("/release/") else {
        preconditionFailure("\(type) \(subtype) AUSd is not built in Plugins/.build/release: run Plugins/build.sh release first.")
    }
    return c
}

let toneCallback: AURenderCallback = { _, _, _, _, frames, ioData in
    for buffer in UnsafeMutableAudioBufferListPointer(ioData!) {
        buffer.mData!.initializeMemory(as: Float.self, repeating: 0.25, count: Int(frames))
    }
    return noErr
}

/// A unit set up and initialized with a callback input and buffers for `frames` per cycle.
struct Rig {
    let unit: AudioUnit
    let buffers: AudioBufferStorage
    var timeStamp = AudioTimeStamp()
    let frames: UInt32

    init(_ component: AudioComponent, frames: UInt32) {
        var u: AudioUnit?
        precondition(AudioComponentInstanceNew(component, &u) == noErr)
        unit = u!
        var max = frames
        AudioUnitSetProperty(unit, kAudioUnitProperty_MaximumFramesPerSlice, kAudioUnitScope_Global, 0, &max, 4)
        var cb = AURenderCallbackStruct(inputProc: toneCallback, inputProcRefCon: nil)
        AudioUnitSetProperty(
            unit, kAudioUnitProperty_SetRenderCallback, kAudioUnitScope_Input, 0, &cb,
            UInt32(MemoryLayout<AURenderCallbackStruct>.size))  // (an instrument has no input: refused, unused)
        precondition(AudioUnitInitialize(unit) == noErr)
        buffers = AudioBufferStorage(format: .canonical(sampleRate: 44_100, channels: 2), capacity: frames)
        timeStamp.mFlags = .sampleTimeValid
        self.frames = frames
        for _ in 0..<10 { cycle() }  // steady state: first-touch work done
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
    ComponentRegistry.shared.register(
        Component(description: builtInGain, name: "Bench: Gain built in", version: 1) {
            KernelEffectUnit<PerChannel<Gain>>(description: $0)
        })
    let zeroAllocations: [BenchmarkMetric: BenchmarkThresholds] = [
        .mallocCountTotal: .init(absolute: [.p0: 0, .p50: 0, .p100: 0])
    ]
    func render(_ name: String, _ component: @escaping () -> AudioComponent, frames: UInt32) {
        Benchmark(
            name,
            configuration: .init(
                metrics: [.wallClock, .mallocCountTotal], scalingFactor: .kilo,
                thresholds: zeroAllocations)
        ) { benchmark in
            var rig = Rig(component(), frames: frames)
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations { rig.cycle() }
            benchmark.stopMeasurement()
        }
    }
    for frames: UInt32 in [16, 512] {
        render(
            "Gain built in, \(frames) stereo frames",
            {
                var d = builtInGain; return AudioComponentFindNext(nil, &d)!
            }, frames: frames)
        render("Gain as plug-in, \(frames) stereo frames", { releasePlugIn("gain") }, frames: frames)
    }
    for (subtype, name) in [("trem", "Tremolo"), ("satu", "Saturator"), ("chor", "Chorus")] {
        render("\(name) plug-in, 512 stereo frames", { releasePlugIn(subtype) }, frames: 512)
    }
    Benchmark(
        "SineSynth plug-in, 512 stereo frames, note on + off per cycle",
        configuration: .init(
            metrics: [.wallClock, .mallocCountTotal], scalingFactor: .kilo,
            thresholds: zeroAllocations)
    ) { benchmark in
        var rig = Rig(releasePlugIn("sins", type: "aumu"), frames: 512)
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            MusicDeviceMIDIEvent(rig.unit, 0x90, 60, 100, 10)
            MusicDeviceMIDIEvent(rig.unit, 0x80, 60, 0, 400)
            rig.cycle()
        }
        benchmark.stopMeasurement()
    }
}

import AudioToolbox
import AUHost
import Benchmark
import Foundation

// Parallel graph rendering (issue 15): the same graph pulled serially (0 threads) and on two
// threads (the head's and one worker), 512 stereo frames per cycle at 44.1 kHz.
//  - two branches, each three SDK Saturators in a chain (8× oversampled, ≈ 85 µs each per cycle
//    here: ≈ 255 µs a branch), mixed at the head;
//  - eight such branches;
//  - a pure chain of three saturators (nothing to gain: it must cost what the serial schedule costs).
// Each branch's source is one callback-fed mixer shared by all branches (a callback-fed node stays
// on the head's thread; the saturators it feeds render on any thread). Every benchmark has a
// threshold of 0 allocations per cycle. The first benchmark, "speed-ups", prints each shape's
// speed-up (serial time / parallel time): serial and parallel cycles alternate, so machine load
// falls on both alike, and the medians of 400 cycles each are compared.
// Build the plug-ins first: Plugins/build.sh release.

let frames: UInt32 = 512

func releasePlugIn(_ subtype: String) -> AudioComponentDescription {
    var d = AudioComponentDescription("aufx", subtype, "AUSd")!
    guard let c = AudioComponentFindNext(nil, &d), let origin = Component.from(c)?.origin, origin.contains("/release/") else {
        preconditionFailure("aufx \(subtype) AUSd is not built in Plugins/.build/release: run Plugins/build.sh release first.")
    }
    return d
}

let toneCallback: AURenderCallback = { refCon, _, _, _, frames, ioData in
    // A slow sine-ish ramp, so the saturators work on changing signal.
    let phase = refCon.assumingMemoryBound(to: Float.self)
    for buffer in UnsafeMutableAudioBufferListPointer(ioData!) {
        let samples = buffer.mData!.assumingMemoryBound(to: Float.self)
        var p = phase.pointee
        for i in 0..<Int(frames) {
            samples[i] = 0.8 * (p < 1 ? p : 2 - p) - 0.4
            p += 0.01; if p >= 2 { p -= 2 }
        }
    }
    phase.pointee += 0.01 * Float(frames)
    while phase.pointee >= 2 { phase.pointee -= 2 }
    return noErr
}

let mixerDescription = AudioComponentDescription(type: kAudioUnitType_Mixer, subType: kAudioUnitSubType_MultiChannelMixer)

/// The graph of a shape, initialized, with `threads` render threads.
final class Rig {
    let graph = AudioGraph()
    let output = AudioBufferStorage(format: .canonical(sampleRate: 44_100, channels: 2), capacity: frames)
    let phase = UnsafeMutablePointer<Float>.allocate(capacity: 1)

    /// `branches` parallel branches of `depth` saturators (branches 1 = a chain).
    init(branches: Int, depth: Int, threads: Int) throws {
        phase.initialize(to: 0)
        try graph.setRenderThreads(threads)
        let saturator = releasePlugIn("satu")
        let head = try graph.attach(AudioComponentDescription(type: kAudioUnitType_Output, subType: kAudioUnitSubType_GenericOutput))
        let source = try graph.attach(mixerDescription)
        try graph.setInputCallback(source, 0, AURenderCallbackStruct(inputProc: toneCallback, inputProcRefCon: phase))
        try graph.open()
        var last: [AUNode] = []
        for _ in 0..<branches {
            var previous = source
            for _ in 0..<depth {
                let s = try graph.attach(saturator)
                try graph.connect(previous, 0, to: s, 0)
                previous = s
            }
            last.append(previous)
        }
        if branches == 1 {
            try graph.connect(last[0], 0, to: head, 0)
        } else {
            let mixer = try graph.attach(mixerDescription)
            try graph.open()
            var count = UInt32(branches)
            let mixerUnit = try graph.unit(mixer)!
            precondition(AudioUnitSetProperty(mixerUnit, kAudioUnitProperty_ElementCount, kAudioUnitScope_Input, 0, &count, 4) == noErr)
            for (bus, node) in last.enumerated() { try graph.connect(node, 0, to: mixer, UInt32(bus)) }
            try graph.connect(mixer, 0, to: head, 0)
        }
        var maxFrames = frames
        let headUnit = try graph.unit(head)!
        precondition(
            AudioUnitSetProperty(headUnit, kAudioUnitProperty_MaximumFramesPerSlice, kAudioUnitScope_Global, 0, &maxFrames, 4) == noErr)
        try graph.initialize()
        precondition((graph.serialReason == nil) == (threads > 0 && branches > 1), "unexpected plan: \(graph.serialReason ?? "parallel")")
        for _ in 0..<20 { try cycle() }  // steady state: first-touch work done, workers started
    }

    deinit {
        try? graph.uninitialize()
        phase.deallocate()
    }

    func cycle() throws { try graph.render(frames: frames, into: output) }
}

struct Shape {
    let name: String
    let branches: Int
    let depth: Int
}

let shapes = [
    Shape(name: "two branches of 3 saturators", branches: 2, depth: 3),
    Shape(name: "eight branches of 3 saturators", branches: 8, depth: 3),
    Shape(name: "a chain of 3 saturators", branches: 1, depth: 3),
]

/// Seconds one cycle takes.
func timedCycle(_ rig: Rig) throws -> Double {
    let start = monotonicSeconds()
    try rig.cycle()
    return monotonicSeconds() - start
}

/// The speed-ups at the thread's normal priority, then (when the system allows it) with the
/// rendering thread at SCHED_FIFO priority 10, as a device thread runs: the worker copies the
/// policy, so other processes on a busy machine cannot preempt it while it holds a task.
func printRatios() throws {
    try printRatios(scheduling: "normal priority")
    var param = sched_param()
    param.sched_priority = 10
    guard sched_setscheduler(0, SCHED_FIFO, &param) == 0 else {
        print("  (SCHED_FIFO refused: no real-time figures)")
        return
    }
    defer {
        var normal = sched_param()
        sched_setscheduler(0, SCHED_OTHER, &normal)
    }
    try printRatios(scheduling: "SCHED_FIFO 10")
}

/// Serial and parallel rigs of each shape, one cycle each in turn; medians and minima compared.
func printRatios(scheduling: String) throws {
    let load =
        (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8))?.split(separator: " ").prefix(3).joined(separator: " ") ?? "?"
    print(
        "ParallelGraph speed-ups (\(scheduling)): \(ProcessInfo.processInfo.activeProcessorCount) cores, load average \(load);"
            + " 512 stereo frames per cycle; 400 cycles of each, alternating")
    for shape in shapes {
        let serial = try Rig(branches: shape.branches, depth: shape.depth, threads: 0)
        let parallel = try Rig(branches: shape.branches, depth: shape.depth, threads: 2)
        var s: [Double] = [], p: [Double] = []
        for _ in 0..<400 {
            s.append(try timedCycle(serial))
            p.append(try timedCycle(parallel))
        }
        s.sort()
        p.sort()
        print(
            String(
                format: "  %@: serial %.0f µs, 2 threads %.0f µs (medians): speed-up %.2f×; minima %.0f / %.0f µs: %.2f×",
                shape.name, s[200] * 1e6, p[200] * 1e6, s[200] / p[200], s[0] * 1e6, p[0] * 1e6, s[0] / p[0]))
    }
}

let benchmarks: @Sendable () -> Void = {
    Benchmark("speed-ups (printed above the table)", configuration: .init(metrics: [.wallClock], maxIterations: 1)) { _ in
        do { try printRatios() } catch { print("ParallelGraph: \(error)") }
    }
    let zeroAllocations: [BenchmarkMetric: BenchmarkThresholds] = [
        .mallocCountTotal: .init(absolute: [.p0: 0, .p50: 0, .p100: 0])
    ]
    for shape in shapes {
        for threads in [0, 2] {
            Benchmark(
                "\(shape.name), \(threads == 0 ? "serial" : "\(threads) threads")",
                configuration: .init(
                    metrics: [.wallClock, .mallocCountTotal], scalingFactor: .one, maxDuration: .seconds(3),
                    thresholds: zeroAllocations)
            ) { benchmark in
                let rig = try Rig(branches: shape.branches, depth: shape.depth, threads: threads)
                benchmark.startMeasurement()
                for _ in benchmark.scaledIterations { try rig.cycle() }
                benchmark.stopMeasurement()
            }
        }
    }
}

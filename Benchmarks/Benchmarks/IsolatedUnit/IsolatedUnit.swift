import AudioToolbox
import AUHost
import Benchmark
import Foundation
import LV2Units

// Out-of-process units (issue 19), measured on the host side (wall clock of AudioUnitRender;
// allocations counted in this process only, which is the host):
//   - the round trip: the built-in format converter (a copy) at 64 stereo frames, out of process
//     and, for reference, in process; the difference is the cost of the process boundary;
//   - a real reverb: mda Ambience at 512 stereo frames, out of process and in process; the ratio
//     of the two is the issue's 1.15× bar;
//   - starting a child: instantiate, initialize and render one cycle, then dispose; and a restart
//     after the child was killed, up to its first cycle. Each with the fork server
//     (fork_server.c) and with the child executed (AUHOST_UNIT_HOST_FORK_SERVER=0), side by side.
// The child is `auhost-unit-host` from the root package's release build (`make bench-isolated`
// builds it) or $AUHOST_UNIT_HOST. The LV2 reverb comes from LV2_PATH (the Makefile sets the test
// path) or the system's plug-ins.

let reverbURI = "http://drobilla.net/plugins/mda/Ambience"
/// A heavier reverb from the machine's own plug-ins (/usr/lib/lv2), when installed: Fons
/// Adriaensen's zita-rev design as packaged in fomp.
let heavyReverbURI = "http://drobilla.net/plugins/fomp/reverb"
let systemPlugins = LV2Provider(lv2Path: "/usr/lib/lv2")

let constantCallback: AURenderCallback = { _, _, timeStamp, _, frames, ioData in
    // A deterministic signal that keeps the reverb busy (a click every 4,096 frames over a floor).
    let start = Int(timeStamp.pointee.mSampleTime)
    for buffer in UnsafeMutableAudioBufferListPointer(ioData!) {
        let samples = buffer.mData!.assumingMemoryBound(to: Float.self)
        for i in 0..<Int(frames) { samples[i] = (start + i) % 4_096 == 0 ? 0.9 : 0.01 }
    }
    return noErr
}

/// One unit, initialized with a callback for input and a buffer for output.
struct Rig {
    let unit: AudioUnit
    let buffers: AudioBufferStorage
    let frames: UInt32
    var timeStamp = AudioTimeStamp()

    init(_ component: AudioComponent, frames: UInt32, outOfProcess: Bool) {
        if outOfProcess && getenv("AUHOST_UNIT_HOST") == nil {
            // Benchmarks/.build holds no auhost-unit-host: use the root package's release build.
            let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().deletingLastPathComponent()
            setenv("AUHOST_UNIT_HOST", root.appendingPathComponent(".build/release/auhost-unit-host").path, 1)
        }
        final class Box { var unit: AudioUnit?; var status: OSStatus = 0 }
        let box = Box()
        AudioComponentInstantiate(
            component, outOfProcess ? .loadOutOfProcess : .loadInProcess,
            { unit, status, refCon in
                let box = Unmanaged<Box>.fromOpaque(refCon!).takeUnretainedValue()
                box.unit = unit
                box.status = status
            }, Unmanaged.passUnretained(box).toOpaque())
        precondition(box.status == noErr, "could not make the unit: \(LastErrorMessage.current ?? "")")
        unit = box.unit!
        self.frames = frames
        var max = frames
        AudioUnitSetProperty(unit, kAudioUnitProperty_MaximumFramesPerSlice, kAudioUnitScope_Global, 0, &max, 4)
        if outOfProcess {
            // A busy shared machine must not turn a slow cycle into a fault mid-benchmark.
            var seconds = 1.0
            precondition(
                AudioUnitSetProperty(unit, kAUHostIsolatedUnitProperty_RenderDeadline, kAudioUnitScope_Global, 0, &seconds, 8) == noErr)
        }
        var format = AudioStreamBasicDescription.canonical(sampleRate: 48_000, channels: 2)
        let size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
        AudioUnitSetProperty(unit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Input, 0, &format, size)
        AudioUnitSetProperty(unit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Output, 0, &format, size)
        var cb = AURenderCallbackStruct(inputProc: constantCallback, inputProcRefCon: nil)
        AudioUnitSetProperty(
            unit, kAudioUnitProperty_SetRenderCallback, kAudioUnitScope_Input, 0, &cb, UInt32(MemoryLayout<AURenderCallbackStruct>.size))
        precondition(AudioUnitInitialize(unit) == noErr, "AudioUnitInitialize: \(LastErrorMessage.current ?? "")")
        buffers = AudioBufferStorage(format: format, capacity: frames)
        timeStamp.mFlags = .sampleTimeValid
    }

    mutating func cycle() {
        buffers.prepare(frames: frames)
        var flags: AudioUnitRenderActionFlags = []
        let status = AudioUnitRender(unit, &flags, &timeStamp, 0, frames, buffers.list)
        precondition(status == noErr)
        timeStamp.mSampleTime += Double(frames)
    }

    /// The unit must not have faulted (a faulted unit renders silence, fast): checked after a run.
    func checkHealthy() {
        var status: OSStatus = 0
        var size: UInt32 = 4
        AudioUnitGetProperty(unit, kAudioUnitProperty_LastRenderError, kAudioUnitScope_Global, 0, &status, &size)
        precondition(status == noErr, "the out-of-process unit faulted during the benchmark (LastRenderError \(status))")
    }
}

func converter() -> AudioComponent {
    var desc = AudioComponentDescription(
        componentType: kAudioUnitType_FormatConverter, componentSubType: kAudioUnitSubType_AUConverter,
        componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0)
    return AudioComponentFindNext(nil, &desc)!
}

/// A rig made once, at a stable address (the benchmark closures reach it through the pointer).
func made(_ rig: @autoclosure () -> Rig) -> UnsafeMutablePointer<Rig> {
    let p = UnsafeMutablePointer<Rig>.allocate(capacity: 1)
    p.initialize(to: rig())
    return p
}

nonisolated(unsafe) let copyIsolated = made(Rig(converter(), frames: 64, outOfProcess: true))
nonisolated(unsafe) let copyInProcess = made(Rig(converter(), frames: 64, outOfProcess: false))
nonisolated(unsafe) let reverbIsolated = made(Rig(LV2Provider.component(uri: reverbURI)!.handle, frames: 512, outOfProcess: true))
nonisolated(unsafe) let reverbInProcess = made(Rig(LV2Provider.component(uri: reverbURI)!.handle, frames: 512, outOfProcess: false))
func heavyReverb() -> AudioComponent? {
    ComponentRegistry.shared.install(systemPlugins)
    return systemPlugins.component(uri: heavyReverbURI)?.handle
}
nonisolated(unsafe) let heavyIsolated = heavyReverb().map { made(Rig($0, frames: 512, outOfProcess: true)) }
nonisolated(unsafe) let heavyInProcess = heavyReverb().map { made(Rig($0, frames: 512, outOfProcess: false)) }

/// The units the restart benchmarks kill and restart, by whether the fork server starts their children.
nonisolated(unsafe) var restartRigs: [Bool: UnsafeMutablePointer<Rig>] = [:]

let benchmarks: @Sendable () -> Void = {
    let zeroAllocations: [BenchmarkMetric: BenchmarkThresholds] = [
        .mallocCountTotal: .init(absolute: [.p0: 0, .p50: 0, .p100: 0])
    ]
    let configuration = Benchmark.Configuration(
        metrics: [.wallClock, .mallocCountTotal], scalingFactor: .one, maxDuration: .seconds(3), maxIterations: 20_000,
        thresholds: zeroAllocations)
    func measure(_ name: String, _ rig: UnsafeMutablePointer<Rig>) {
        Benchmark(name, configuration: configuration) { benchmark in
            for _ in 0..<50 { rig.pointee.cycle() }
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations { rig.pointee.cycle() }
            benchmark.stopMeasurement()
            rig.pointee.checkHealthy()
        }
    }
    let startConfiguration = Benchmark.Configuration(
        metrics: [.wallClock], scalingFactor: .one, maxDuration: .seconds(5), maxIterations: 200)
    func measureStart(_ name: String, forkServer: Bool) {
        Benchmark("start a child (instantiate, initialize, one cycle, dispose), \(name)", configuration: startConfiguration) { benchmark in
            setenv("AUHOST_UNIT_HOST_FORK_SERVER", forkServer ? "1" : "0", 1)
            var rig = Rig(converter(), frames: 64, outOfProcess: true)
            rig.cycle()
            rig.checkHealthy()
            AudioComponentInstanceDispose(rig.unit)
        }
        Benchmark("restart a killed child up to its first cycle, \(name)", configuration: startConfiguration) { benchmark in
            setenv("AUHOST_UNIT_HOST_FORK_SERVER", forkServer ? "1" : "0", 1)
            // One sample per run (scaling factor one): the kill and the wait for it stay outside.
            let rig = restartRigs[forkServer] ?? made(Rig(converter(), frames: 64, outOfProcess: true))
            restartRigs[forkServer] = rig
            var pid: UInt32 = 0
            var size: UInt32 = 4
            AudioUnitGetProperty(rig.pointee.unit, kAUHostIsolatedUnitProperty_ProcessID, kAudioUnitScope_Global, 0, &pid, &size)
            kill(pid_t(bitPattern: pid), SIGKILL)
            while AUHostIsolatedUnitCopyFaultDescription(rig.pointee.unit).map({ $0.release() }) == nil { usleep(100) }
            benchmark.startMeasurement()
            precondition(AUHostIsolatedUnitRestart(rig.pointee.unit) == noErr, "restart: \(LastErrorMessage.current ?? "")")
            rig.pointee.cycle()
            benchmark.stopMeasurement()
            rig.pointee.checkHealthy()
        }
    }
    measureStart("forked by the fork server", forkServer: true)
    measureStart("executed", forkServer: false)
    measure("round trip: copy out of process, 64 stereo frames", copyIsolated)
    measure("round trip reference: copy in process, 64 stereo frames", copyInProcess)
    measure("mda Ambience (reverb) out of process, 512 stereo frames", reverbIsolated)
    measure("mda Ambience (reverb) in process, 512 stereo frames", reverbInProcess)
    if let heavyIsolated, let heavyInProcess {
        measure("fomp reverb (zita-rev) out of process, 512 stereo frames", heavyIsolated)
        measure("fomp reverb (zita-rev) in process, 512 stereo frames", heavyInProcess)
    }
}

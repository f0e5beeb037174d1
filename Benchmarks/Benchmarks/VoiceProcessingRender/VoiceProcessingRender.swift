import AudioToolbox
import AUHost
import Benchmark

// One render cycle of the offline voice-processing unit ('auou' 'vpof' 'AUHs') through the C
// API: 512 frames (not a multiple of the 480-frame chunk) of mono 48 kHz noise on the far end and
// the microphone, every stage on (echo cancellation, noise suppression, gain control, high-pass).
// The same kernel runs on the ALSA voice-processing unit's device thread. Goal: 0 allocations.

/// White noise from a per-source xorshift state (no allocation in the callback).
let noiseCallback: AURenderCallback = { refCon, _, _, _, frames, ioData in
    let state = refCon.assumingMemoryBound(to: UInt64.self)
    for buffer in UnsafeMutableAudioBufferListPointer(ioData!) {
        let samples = buffer.mData!.assumingMemoryBound(to: Float.self)
        for i in 0..<Int(frames) {
            var x = state.pointee
            x ^= x << 13
            x ^= x >> 7
            x ^= x << 17
            state.pointee = x
            samples[i] = Float(Int64(bitPattern: x) >> 40) / Float(1 << 24) * 0.1
        }
    }
    return noErr
}

struct VoiceRig {
    let unit: AudioUnit
    let buffers: AudioBufferStorage
    let states: UnsafeMutablePointer<UInt64>
    var timeStamp = AudioTimeStamp()
    let frames: UInt32 = 512

    init(bypass: Bool) {
        var d = AudioComponentDescription(
            componentType: kAudioUnitType_Output, componentSubType: kAudioUnitSubType_AUHostVoiceProcessingOffline,
            componentManufacturer: kAudioUnitManufacturer_AUHost, componentFlags: 0, componentFlagsMask: 0)
        var u: AudioUnit?
        precondition(AudioComponentInstanceNew(AudioComponentFindNext(nil, &d)!, &u) == noErr)
        unit = u!
        var max = frames
        AudioUnitSetProperty(unit, kAudioUnitProperty_MaximumFramesPerSlice, kAudioUnitScope_Global, 0, &max, 4)
        states = .allocate(capacity: 2)
        states.initialize(repeating: 0x9E37_79B9_7F4A_7C15, count: 2)
        states[1] = 0x1234_5678_9ABC_DEF1
        for bus in 0..<UInt32(2) {
            var cb = AURenderCallbackStruct(inputProc: noiseCallback, inputProcRefCon: UnsafeMutableRawPointer(states + Int(bus)))
            AudioUnitSetProperty(
                unit, kAudioUnitProperty_SetRenderCallback, kAudioUnitScope_Input, bus, &cb,
                UInt32(MemoryLayout<AURenderCallbackStruct>.size))
        }
        var on: UInt32 = bypass ? 1 : 0
        AudioUnitSetProperty(unit, kAUVoiceIOProperty_BypassVoiceProcessing, kAudioUnitScope_Global, 0, &on, 4)
        precondition(AudioUnitInitialize(unit) == noErr)
        buffers = AudioBufferStorage(format: .canonical(sampleRate: 48_000, channels: 1), capacity: frames)
        timeStamp.mFlags = .sampleTimeValid
    }

    mutating func cycle() {
        buffers.prepare(frames: frames)
        var flags: AudioUnitRenderActionFlags = []
        precondition(AudioUnitRender(unit, &flags, &timeStamp, 1, frames, buffers.list) == noErr)
        timeStamp.mSampleTime += Double(frames)
    }
}

let benchmarks: @Sendable () -> Void = {
    let zeroAllocations: [BenchmarkMetric: BenchmarkThresholds] = [
        .mallocCountTotal: .init(absolute: [.p0: 0, .p50: 0, .p100: 0])
    ]
    for bypass in [false, true] {
        Benchmark(
            "Voice processing offline unit (mono 48 kHz, 512 frames\(bypass ? ", bypassed" : ", AEC+NS+AGC+HPF"))",
            // 1000 cycles per sample (10.7 s of audio): each sample spans ten of the canceller's
            // once-a-second metrics refreshes, so the count covers them.
            configuration: .init(metrics: [.wallClock, .mallocCountTotal], scalingFactor: .kilo, thresholds: zeroAllocations)
        ) { benchmark in
            var rig = VoiceRig(bypass: bypass)
            // Steady state: past the first second, so the canceller's once-a-second metrics refresh
            // and every lazily sized webrtc buffer have run at least once.
            for _ in 0..<200 { rig.cycle() }
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations { rig.cycle() }
            benchmark.stopMeasurement()
            AudioComponentInstanceDispose(rig.unit)
            rig.states.deallocate()
        }
    }
}

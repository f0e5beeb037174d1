import AudioToolbox
import AUHost
import Benchmark

// One cycle of an audio queue's render path through the documented C API: AudioQueueOfflineRender
// pulls 512 stereo frames through the generic output from the queue's engine (the code the ALSA
// device thread runs: buffers taken from the lock-free ring, Volume and Pan applied, metering),
// returns the finished buffer to the callback, which enqueues it again. The thresholds pin 0
// allocations per cycle for the whole loop, callback and re-enqueue included.

let frames: UInt32 = 512

/// The callback: every buffer goes straight back into the queue.
let requeue: AudioQueueOutputCallback = { _, queue, buffer in
    _ = AudioQueueEnqueueBuffer(queue, buffer, 0, nil)
}

/// A started offline queue with `buffers` 512-frame buffers of Float32 stereo in flight (four,
/// re-enqueued by the callback, unless told otherwise).
struct QueueRig {
    let queue: AudioQueueRef
    let capture: AudioQueueBufferRef
    var time = AudioTimeStamp()

    init(metering: Bool, playRate: Float? = nil, buffers: Int = 4, callback: AudioQueueOutputCallback = requeue) {
        var format = AudioStreamBasicDescription(
            mSampleRate: 48_000, mFormatID: kAudioFormatLinearPCM, mFormatFlags: kAudioFormatFlagIsFloat | kAudioFormatFlagIsPacked,
            mBytesPerPacket: 8, mFramesPerPacket: 1, mBytesPerFrame: 8, mChannelsPerFrame: 2, mBitsPerChannel: 32, mReserved: 0)
        var q: AudioQueueRef?
        precondition(AudioQueueNewOutput(&format, callback, nil, nil, nil, 0, &q) == noErr)
        queue = q!
        precondition(AudioQueueSetOfflineRenderFormat(queue, &format, nil) == noErr)
        if let playRate {
            var on: UInt32 = 1
            precondition(AudioQueueSetProperty(queue, kAudioQueueProperty_EnableTimePitch, &on, 4) == noErr)
            precondition(AudioQueueSetParameter(queue, kAudioQueueParam_PlayRate, playRate) == noErr)
        }
        var on: UInt32 = metering ? 1 : 0
        precondition(AudioQueueSetProperty(queue, kAudioQueueProperty_EnableLevelMetering, &on, 4) == noErr)
        precondition(AudioQueueSetParameter(queue, kAudioQueueParam_Volume, 0.5) == noErr)
        precondition(AudioQueueSetParameter(queue, kAudioQueueParam_Pan, -0.25) == noErr)
        for _ in 0..<buffers {
            var buffer: AudioQueueBufferRef?
            precondition(AudioQueueAllocateBuffer(queue, frames * 8, &buffer) == noErr)
            buffer!.pointee.mAudioData.initializeMemory(as: Float.self, repeating: 0.25, count: Int(frames) * 2)
            buffer!.pointee.mAudioDataByteSize = frames * 8
            precondition(AudioQueueEnqueueBuffer(queue, buffer!, 0, nil) == noErr)
        }
        var output: AudioQueueBufferRef?
        precondition(AudioQueueAllocateBuffer(queue, frames * 8, &output) == noErr)
        capture = output!
        precondition(AudioQueueStart(queue, nil) == noErr)
        time.mFlags = .sampleTimeValid
        precondition(AudioQueueOfflineRender(queue, &time, capture, 0) == noErr)
    }

    mutating func cycle() {
        let status = AudioQueueOfflineRender(queue, &time, capture, frames)
        precondition(status == noErr && capture.pointee.mAudioDataByteSize == frames * 8)
        time.mSampleTime += Double(frames)
    }
}

let benchmarks: @Sendable () -> Void = {
    let zeroAllocations: [BenchmarkMetric: BenchmarkThresholds] = [
        .mallocCountTotal: .init(absolute: [.p0: 0, .p50: 0, .p100: 0])
    ]
    Benchmark(
        "AudioQueueOfflineRender: 512 stereo frames, callback re-enqueues, time-pitch at PlayRate 1.5",
        configuration: .init(metrics: [.wallClock, .mallocCountTotal, .throughput], scalingFactor: .kilo, thresholds: zeroAllocations)
    ) { benchmark in
        var rig = QueueRig(metering: false, playRate: 1.5)
        for _ in 0..<10 { rig.cycle() }  // steady state
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { rig.cycle() }
        benchmark.stopMeasurement()
    }
    // PlayRate, Pitch and the algorithm changed before every cycle, through their extremes: a pitch
    // change once redesigned SoundTouch's anti-alias filter on the render thread. One sample is
    // 800 cycles right after the queue starts, unscaled, so that a single allocation shows.
    Benchmark(
        "AudioQueueOfflineRender: 800 cycles of 512 stereo frames, time-pitch with PlayRate, Pitch and algorithm changed every cycle",
        configuration: .init(metrics: [.wallClock, .mallocCountTotal], maxIterations: 30, thresholds: zeroAllocations)
    ) { benchmark in
        var rig = QueueRig(metering: false, playRate: 1)
        let settings: [(Float, Float, UInt32)] = [
            (1.5, 300, kAudioQueueTimePitchAlgorithm_Spectral), (0.5, 2400, kAudioQueueTimePitchAlgorithm_TimeDomain),
            (2, -2400, kAudioQueueTimePitchAlgorithm_Spectral), (0.5, 0, kAudioQueueTimePitchAlgorithm_Varispeed),
            (1, 0, kAudioQueueTimePitchAlgorithm_TimeDomain), (2, 2400, kAudioQueueTimePitchAlgorithm_Varispeed),
            (0.5, -2400, kAudioQueueTimePitchAlgorithm_Spectral), (1.01, 7, kAudioQueueTimePitchAlgorithm_TimeDomain),
        ]
        benchmark.startMeasurement()
        for i in 0..<settings.count * 100 {
            var (rate, pitch, algorithm) = settings[i % settings.count]
            _ = AudioQueueSetParameter(rig.queue, kAudioQueueParam_PlayRate, rate)
            _ = AudioQueueSetParameter(rig.queue, kAudioQueueParam_Pitch, pitch)
            _ = AudioQueueSetProperty(rig.queue, kAudioQueueProperty_TimePitchAlgorithm, &algorithm, 4)
            rig.cycle()
        }
        benchmark.stopMeasurement()
        AudioQueueDispose(rig.queue, true)
    }
    // The end of a stream through time-pitch: Stop(false), then renders until the queue drains
    // (SoundTouch's tail pushed out with silence; soundtouch_flush would allocate).
    Benchmark(
        "AudioQueueOfflineRender: Stop(false) and the drain of 8 buffers of 512 stereo frames through time-pitch",
        configuration: .init(metrics: [.wallClock, .mallocCountTotal], maxIterations: 30, thresholds: zeroAllocations)
    ) { benchmark in
        var rig = QueueRig(metering: false, playRate: 0.5, buffers: 8, callback: { _, _, _ in })
        precondition(AudioQueueSetParameter(rig.queue, kAudioQueueParam_Pitch, 700) == noErr)
        benchmark.startMeasurement()
        precondition(AudioQueueStop(rig.queue, false) == noErr)
        var rendered = 0
        while rendered < 100 {
            precondition(AudioQueueOfflineRender(rig.queue, &rig.time, rig.capture, frames) == noErr)
            rig.time.mSampleTime += Double(frames)
            rendered += 1
            if rig.capture.pointee.mAudioDataByteSize < frames * 8 { break }
        }
        benchmark.stopMeasurement()
        precondition(rendered > 8 && rendered < 100, "the queue drains: \(rendered) renders")
        AudioQueueDispose(rig.queue, true)
    }
    for metering in [false, true] {
        Benchmark(
            "AudioQueueOfflineRender: 512 stereo frames, callback re-enqueues\(metering ? ", metering on" : "")",
            configuration: .init(metrics: [.wallClock, .mallocCountTotal, .throughput], scalingFactor: .kilo, thresholds: zeroAllocations)
        ) { benchmark in
            var rig = QueueRig(metering: metering)
            for _ in 0..<10 { rig.cycle() }  // steady state
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations { rig.cycle() }
            benchmark.stopMeasurement()
        }
    }
}

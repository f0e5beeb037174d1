import AUHost
import Foundation
import XCTest

final class AudioQueueOfflineRenderTests: XCTestCase {
    /// Offline render, as Apple's offline-render sample drives it: the first call asks for 0
    /// frames and gets none; each later call returns the frames asked for, except the one in which
    /// the queue (stopped with Stop(false) by its callback at the end of the data) runs out, which
    /// returns exactly what was left; the queue then stops and further calls return 0 frames.
    /// The rendered samples equal the source exactly.
    func testOfflineRenderGivesExactSamplesAndTheDocumentedFrameCounts() throws {
        let frames = 5_000, chunk = 512
        let samples = testSamples(frames * 2)
        let state = PlaybackState(samples: samples, channels: 2, framesPerBuffer: 1_000)
        let (queue, buffers) = try makePlaybackQueue(state, format: int16Format(channels: 2), device: nil)
        defer { XCTAssertEqual(AudioQueueDispose(queue, true), noErr) }
        var offlineFormat = int16Format(channels: 2)
        XCTAssertEqual(AudioQueueSetOfflineRenderFormat(queue, &offlineFormat, nil), noErr, lastErrorMessage)
        var capture: AudioQueueBufferRef?
        XCTAssertEqual(AudioQueueAllocateBuffer(queue, UInt32(chunk * 4), &capture), noErr)
        let output = try XCTUnwrap(capture)
        var time = AudioTimeStamp()
        time.mFlags = .sampleTimeValid
        XCTAssertEqual(AudioQueueOfflineRender(queue, &time, output, 0), kAudioQueueErr_InvalidRunState, "before Start")

        for buffer in buffers { state.fill(queue, buffer) }
        XCTAssertEqual(AudioQueueStart(queue, nil), noErr, lastErrorMessage)
        XCTAssertEqual(AudioQueueOfflineRender(queue, &time, output, 0), noErr)
        XCTAssertEqual(output.pointee.mAudioDataByteSize, 0, "the first call renders nothing")

        var counts: [Int] = []
        var rendered: [Int16] = []
        while counts.count < 100 {
            XCTAssertEqual(AudioQueueOfflineRender(queue, &time, output, UInt32(chunk)), noErr, lastErrorMessage)
            let got = Int(output.pointee.mAudioDataByteSize) / 4
            counts.append(got)
            let values = output.pointee.mAudioData.assumingMemoryBound(to: Int16.self)
            rendered += UnsafeBufferPointer(start: values, count: got * 2)
            time.mSampleTime += Double(got)
            if got < chunk { break }
        }
        XCTAssertEqual(counts, Array(repeating: chunk, count: frames / chunk) + [frames % chunk])
        XCTAssertTrue(rendered == samples, "offline render changed the samples")
        XCTAssertTrue(state.stopped.load(ordering: .acquiring), "the queue stopped once its last buffer played")
        XCTAssertEqual(state.callbacks, 5, "each buffer came back once, inside OfflineRender")
        XCTAssertEqual(AudioQueueOfflineRender(queue, &time, output, UInt32(chunk)), noErr)
        XCTAssertEqual(output.pointee.mAudioDataByteSize, 0, "a stopped queue renders nothing")
    }

    /// EnqueueBufferWithParameters skips the trimmed frames exactly and applies the Volume event
    /// when the buffer starts (a Float32 offline format shows the exact half).
    func testTrimAndVolumeEventsApplyExactly() throws {
        let frames = 2_000
        let samples = testSamples(frames * 2)
        let state = PlaybackState(samples: samples, channels: 2, framesPerBuffer: frames)
        state.done = true
        let (queue, buffers) = try makePlaybackQueue(state, format: int16Format(channels: 2), device: nil)
        defer { XCTAssertEqual(AudioQueueDispose(queue, true), noErr) }
        var offlineFormat = float32Format(channels: 2)
        XCTAssertEqual(AudioQueueSetOfflineRenderFormat(queue, &offlineFormat, nil), noErr, lastErrorMessage)
        let buffer = buffers[0]
        samples.withUnsafeBytes { buffer.pointee.mAudioData.copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
        buffer.pointee.mAudioDataByteSize = UInt32(frames * 4)
        var half = AudioQueueParameterEvent(mID: kAudioQueueParam_Volume, mValue: 0.5)
        XCTAssertEqual(AudioQueueEnqueueBufferWithParameters(queue, buffer, 0, nil, 10, 20, 1, &half, nil, nil), noErr, lastErrorMessage)
        XCTAssertEqual(AudioQueueStart(queue, nil), noErr)
        XCTAssertEqual(AudioQueueStop(queue, false), noErr)
        var time = AudioTimeStamp()
        var capture: AudioQueueBufferRef?
        XCTAssertEqual(AudioQueueAllocateBuffer(queue, UInt32(frames * 8), &capture), noErr)
        let output = try XCTUnwrap(capture)
        let capacity = frames
        XCTAssertEqual(AudioQueueOfflineRender(queue, &time, output, UInt32(capacity)), noErr, lastErrorMessage)
        let got = Int(output.pointee.mAudioDataByteSize) / 8
        XCTAssertEqual(got, frames - 30, "trimmed frames are not played")
        let values = Array(UnsafeBufferPointer(start: output.pointee.mAudioData.assumingMemoryBound(to: Float.self), count: got * 2))
        let expected = samples[20..<(frames - 20) * 2].map { Float($0) / 65_536 }
        XCTAssertTrue(values == expected, "trim or volume is not exact")
    }

    /// Pan is a balance (pan 0.5 scales the left channel by exactly 0.5 and leaves the right
    /// alone), and VolumeRampTime ramps linearly: from 1 to 0 over 0.01 s at 48 kHz (480 frames),
    /// frame f of the ramp has gain 1 - (f + 1) / 480 (within 1e-5 for the Float32 steps), then 0.
    func testPanIsABalanceAndVolumeRampsLinearly() throws {
        let frames = 2_000
        let ones = [Int16](repeating: 16_384, count: frames * 2)  // 0.5 in every sample
        let state = PlaybackState(samples: ones, channels: 2, framesPerBuffer: frames)
        state.done = true
        let (queue, buffers) = try makePlaybackQueue(state, format: int16Format(channels: 2), device: nil)
        defer { XCTAssertEqual(AudioQueueDispose(queue, true), noErr) }
        var offlineFormat = float32Format(channels: 2)
        XCTAssertEqual(AudioQueueSetOfflineRenderFormat(queue, &offlineFormat, nil), noErr)
        ones.withUnsafeBytes { buffers[0].pointee.mAudioData.copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
        buffers[0].pointee.mAudioDataByteSize = UInt32(frames * 4)
        XCTAssertEqual(AudioQueueEnqueueBuffer(queue, buffers[0], 0, nil), noErr)
        XCTAssertEqual(AudioQueueSetParameter(queue, kAudioQueueParam_Pan, 0.5), noErr)
        XCTAssertEqual(AudioQueueSetParameter(queue, kAudioQueueParam_VolumeRampTime, 0.01), noErr)
        XCTAssertEqual(AudioQueueStart(queue, nil), noErr)
        var capture: AudioQueueBufferRef?
        XCTAssertEqual(AudioQueueAllocateBuffer(queue, UInt32(frames * 8), &capture), noErr)
        var time = AudioTimeStamp()
        XCTAssertEqual(AudioQueueOfflineRender(queue, &time, capture!, 100), noErr)
        XCTAssertEqual(AudioQueueSetParameter(queue, kAudioQueueParam_Volume, 0), noErr)  // ramps from the next cycle
        XCTAssertEqual(AudioQueueOfflineRender(queue, &time, capture!, 1_000), noErr)
        let out = UnsafeBufferPointer(start: capture!.pointee.mAudioData.assumingMemoryBound(to: Float.self), count: 2_000)
        for f in 0..<1_000 {
            let gain: Float = f < 480 ? 1 - Float(f + 1) / 480 : 0
            XCTAssertEqual(out[2 * f], 0.25 * gain, accuracy: 1e-5, "left, frame \(f) of the ramp")
            XCTAssertEqual(out[2 * f + 1], 0.5 * gain, accuracy: 1e-5, "right, frame \(f) of the ramp")
        }
        XCTAssertTrue(out[958..<2_000].allSatisfy { $0 == 0 }, "the ramp ends exactly at 0")
    }

    /// GetCurrentTime counts the frames rendered since Start; a timeline reports a discontinuity
    /// once after a Reset, and a disposed timeline is refused.
    func testCurrentTimeAndTimelineDiscontinuity() throws {
        let state = PlaybackState(samples: [], channels: 2, framesPerBuffer: 1)
        state.done = true
        let (queue, buffers) = try makePlaybackQueue(state, format: int16Format(channels: 2), device: nil)
        defer { XCTAssertEqual(AudioQueueDispose(queue, true), noErr) }
        var offlineFormat = int16Format(channels: 2)
        XCTAssertEqual(AudioQueueSetOfflineRenderFormat(queue, &offlineFormat, nil), noErr)
        var timeline: AudioQueueTimelineRef?
        XCTAssertEqual(AudioQueueCreateTimeline(queue, &timeline), noErr)
        XCTAssertEqual(AudioQueueStart(queue, nil), noErr)
        var capture: AudioQueueBufferRef?
        XCTAssertEqual(AudioQueueAllocateBuffer(queue, 4_096, &capture), noErr)
        var time = AudioTimeStamp()
        XCTAssertEqual(AudioQueueOfflineRender(queue, &time, capture!, 1_000), noErr)
        XCTAssertEqual(AudioQueueOfflineRender(queue, &time, capture!, 24), noErr)
        var now = AudioTimeStamp()
        var discontinuity: DarwinBoolean = true
        XCTAssertEqual(AudioQueueGetCurrentTime(queue, timeline, &now, &discontinuity), noErr)
        XCTAssertEqual(now.mSampleTime, 1_024)
        XCTAssertTrue(now.mFlags.contains(.sampleTimeValid))
        XCTAssertFalse(discontinuity.boolValue)
        XCTAssertEqual(AudioQueueReset(queue), noErr)
        XCTAssertEqual(AudioQueueGetCurrentTime(queue, timeline, &now, &discontinuity), noErr)
        XCTAssertTrue(discontinuity.boolValue, "Reset broke the timeline")
        XCTAssertEqual(AudioQueueGetCurrentTime(queue, timeline, &now, &discontinuity), noErr)
        XCTAssertFalse(discontinuity.boolValue, "reported once")
        XCTAssertEqual(AudioQueueDisposeTimeline(queue, timeline!), noErr)
        XCTAssertEqual(AudioQueueGetCurrentTime(queue, timeline, &now, &discontinuity), kAudio_ParamError)
        _ = buffers
    }

    /// Level metering: a 1 kHz sine of amplitude 0.5 (a whole number of cycles) reads a peak of
    /// -6.02 dBFS and an average (RMS) power of -9.03 dBFS within 0.1 dB, and 0.5 / 0.354 linear.
    func testLevelMeterReadsPeakAndRMSOfASineWithinATenthOfADecibel() throws {
        let frames = 4_800
        let sine = (0..<frames).map { Float(0.5 * sin(2 * Double.pi * 1_000 * Double($0) / 48_000)) }
        var format = AudioStreamBasicDescription(
            mSampleRate: 48_000, mFormatID: kAudioFormatLinearPCM, mFormatFlags: kAudioFormatFlagIsFloat | kAudioFormatFlagIsPacked,
            mBytesPerPacket: 4, mFramesPerPacket: 1, mBytesPerFrame: 4, mChannelsPerFrame: 1, mBitsPerChannel: 32, mReserved: 0)
        let state = PlaybackState(samples: [], channels: 1, framesPerBuffer: frames)
        state.done = true
        var queue: AudioQueueRef?
        XCTAssertEqual(AudioQueueNewOutput(&format, playbackCallback, state.refCon, nil, nil, 0, &queue), noErr, lastErrorMessage)
        let q = try XCTUnwrap(queue)
        defer { XCTAssertEqual(AudioQueueDispose(q, true), noErr) }
        XCTAssertEqual(AudioQueueSetOfflineRenderFormat(q, &format, nil), noErr, lastErrorMessage)
        var on: UInt32 = 1
        XCTAssertEqual(AudioQueueSetProperty(q, kAudioQueueProperty_EnableLevelMetering, &on, 4), noErr)
        var capture: AudioQueueBufferRef?
        XCTAssertEqual(AudioQueueAllocateBuffer(q, UInt32(frames * 4), &capture), noErr)
        for _ in 0..<2 {  // the sine twice: reading a meter starts a new measurement
            var source: AudioQueueBufferRef?
            XCTAssertEqual(AudioQueueAllocateBuffer(q, UInt32(frames * 4), &source), noErr)
            sine.withUnsafeBytes { source!.pointee.mAudioData.copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
            source!.pointee.mAudioDataByteSize = UInt32(frames * 4)
            XCTAssertEqual(AudioQueueEnqueueBuffer(q, source!, 0, nil), noErr)
        }
        XCTAssertEqual(AudioQueueStart(q, nil), noErr)
        XCTAssertEqual(AudioQueueStop(q, false), noErr)
        var time = AudioTimeStamp()
        var size = UInt32(0)
        XCTAssertEqual(AudioQueueGetPropertySize(q, kAudioQueueProperty_CurrentLevelMeterDB, &size), noErr)
        XCTAssertEqual(Int(size), MemoryLayout<AudioQueueLevelMeterState>.size, "one state per channel")

        XCTAssertEqual(AudioQueueOfflineRender(q, &time, capture!, UInt32(frames)), noErr, lastErrorMessage)
        XCTAssertEqual(capture!.pointee.mAudioDataByteSize, UInt32(frames * 4))
        var linear = AudioQueueLevelMeterState()
        XCTAssertEqual(AudioQueueGetProperty(q, kAudioQueueProperty_CurrentLevelMeter, &linear, &size), noErr)
        XCTAssertEqual(Double(linear.mPeakPower), 0.5, accuracy: 0.5 * (pow(10, 0.1 / 20) - 1))
        XCTAssertEqual(Double(linear.mAveragePower), 0.5 / 2.0.squareRoot(), accuracy: 0.354 * (pow(10, 0.1 / 20) - 1))

        XCTAssertEqual(AudioQueueOfflineRender(q, &time, capture!, UInt32(frames)), noErr, lastErrorMessage)
        var decibels = AudioQueueLevelMeterState()
        XCTAssertEqual(AudioQueueGetProperty(q, kAudioQueueProperty_CurrentLevelMeterDB, &decibels, &size), noErr)
        XCTAssertEqual(Double(decibels.mPeakPower), 20 * log10(0.5), accuracy: 0.1)
        XCTAssertEqual(Double(decibels.mAveragePower), 20 * log10(0.5 / 2.0.squareRoot()), accuracy: 0.1)
    }
}

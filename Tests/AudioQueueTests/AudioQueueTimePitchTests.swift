import AUHost
import Foundation
import XCTest

/// PlayRate and Pitch through time-pitch, measured on offline renders of a 440 Hz sine after
/// Stop(false): the length of what plays (the whole tail: the frames ÷ PlayRate, to the frame;
/// mutation tried: no end-of-stream flush: the queue never drains, and its frames come out as
/// silence) and its frequency from zero crossings of the middle part (within 2 %).
final class AudioQueueTimePitchTests: XCTestCase {
    /// Renders 2 s of a 440 Hz mono sine with the given settings; returns every rendered sample.
    private func render(rate: Float, cents: Float, algorithm: UInt32) throws -> [Float] {
        let frames = 96_000
        let sine = (0..<frames).map { Float(0.5 * sin(2 * Double.pi * 440 * Double($0) / 48_000)) }
        var format = AudioStreamBasicDescription(
            mSampleRate: 48_000, mFormatID: kAudioFormatLinearPCM, mFormatFlags: kAudioFormatFlagIsFloat | kAudioFormatFlagIsPacked,
            mBytesPerPacket: 4, mFramesPerPacket: 1, mBytesPerFrame: 4, mChannelsPerFrame: 1, mBitsPerChannel: 32, mReserved: 0)
        let state = PlaybackState(samples: [], channels: 1, framesPerBuffer: frames)
        state.done = true
        var queue: AudioQueueRef?
        XCTAssertEqual(AudioQueueNewOutput(&format, playbackCallback, state.refCon, nil, nil, 0, &queue), noErr)
        let q = try XCTUnwrap(queue)
        defer { XCTAssertEqual(AudioQueueDispose(q, true), noErr) }
        XCTAssertEqual(AudioQueueSetParameter(q, kAudioQueueParam_PlayRate, rate), kAudioQueueErr_InvalidParameter, "needs EnableTimePitch")
        var on: UInt32 = 1, chosen = algorithm
        XCTAssertEqual(AudioQueueSetProperty(q, kAudioQueueProperty_EnableTimePitch, &on, 4), noErr, lastErrorMessage)
        XCTAssertEqual(AudioQueueSetProperty(q, kAudioQueueProperty_TimePitchAlgorithm, &chosen, 4), noErr)
        XCTAssertEqual(AudioQueueSetParameter(q, kAudioQueueParam_PlayRate, rate), noErr, lastErrorMessage)
        XCTAssertEqual(AudioQueueSetParameter(q, kAudioQueueParam_Pitch, cents), noErr)
        var value: Float = 0
        XCTAssertEqual(AudioQueueGetParameter(q, kAudioQueueParam_PlayRate, &value), noErr)
        XCTAssertEqual(value, rate)
        XCTAssertEqual(AudioQueueSetOfflineRenderFormat(q, &format, nil), noErr)
        var source: AudioQueueBufferRef?, capture: AudioQueueBufferRef?
        XCTAssertEqual(AudioQueueAllocateBuffer(q, UInt32(frames * 4), &source), noErr)
        XCTAssertEqual(AudioQueueAllocateBuffer(q, 4_096 * 4, &capture), noErr)
        sine.withUnsafeBytes { source!.pointee.mAudioData.copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
        source!.pointee.mAudioDataByteSize = UInt32(frames * 4)
        XCTAssertEqual(AudioQueueEnqueueBuffer(q, source!, 0, nil), noErr)
        XCTAssertEqual(AudioQueueStart(q, nil), noErr)
        XCTAssertEqual(AudioQueueStop(q, false), noErr)
        var time = AudioTimeStamp()
        var output: [Float] = []
        for _ in 0..<200 {
            XCTAssertEqual(AudioQueueOfflineRender(q, &time, capture!, 4_096), noErr, lastErrorMessage)
            let got = Int(capture!.pointee.mAudioDataByteSize) / 4
            output += UnsafeBufferPointer(start: capture!.pointee.mAudioData.assumingMemoryBound(to: Float.self), count: got)
            if got < 4_096 { break }
        }
        return output
    }

    /// Frequency from positive-going zero crossings of the middle half.
    private func frequency(_ samples: [Float]) -> Double {
        let middle = Array(samples[samples.count / 4..<samples.count * 3 / 4])
        var crossings: [Int] = []
        for i in 1..<middle.count where middle[i - 1] < 0 && middle[i] >= 0 { crossings.append(i) }
        guard let first = crossings.first, let last = crossings.last, crossings.count > 1 else { return 0 }
        return Double(crossings.count - 1) * 48_000 / Double(last - first)
    }

    func testPlayRateTwoHalvesTheLengthAndKeepsThePitch() throws {
        let output = try render(rate: 2, cents: 0, algorithm: kAudioQueueTimePitchAlgorithm_TimeDomain)
        XCTAssertEqual(Double(output.count), 48_000, accuracy: 1)
        XCTAssertEqual(frequency(output), 440, accuracy: 440 * 0.02)
    }

    func testPitchOfAnOctaveDoublesTheFrequencyAndKeepsTheLength() throws {
        let output = try render(rate: 1, cents: 1_200, algorithm: kAudioQueueTimePitchAlgorithm_Spectral)
        XCTAssertEqual(Double(output.count), 96_000, accuracy: 1)
        XCTAssertEqual(frequency(output), 880, accuracy: 880 * 0.02)
    }

    func testVarispeedChangesSpeedAndPitchTogether() throws {
        let output = try render(rate: 0.5, cents: 0, algorithm: kAudioQueueTimePitchAlgorithm_Varispeed)
        XCTAssertEqual(Double(output.count), 192_000, accuracy: 1)
        XCTAssertEqual(frequency(output), 220, accuracy: 220 * 0.02)
    }

    /// SoundTouch takes 1…16 channels (2.3.2 ignores more and garbles them): a queue of 17 or 64
    /// channels refuses EnableTimePitch naming the limit, one of 16 takes it (and its warm-up runs
    /// SoundTouch at the extreme settings). Mutation tried: SoundTouch transposing the pitch itself
    /// (as before): the 16-channel queue aborts the process (FIRFilter.cpp's assertion).
    func testTimePitchTakesUpToSixteenChannels() throws {
        for channels: UInt32 in [16, 17, 64] {
            var format = AudioStreamBasicDescription(
                mSampleRate: 48_000, mFormatID: kAudioFormatLinearPCM, mFormatFlags: kAudioFormatFlagIsFloat | kAudioFormatFlagIsPacked,
                mBytesPerPacket: 4 * channels, mFramesPerPacket: 1, mBytesPerFrame: 4 * channels, mChannelsPerFrame: channels,
                mBitsPerChannel: 32, mReserved: 0)
            let state = PlaybackState(samples: [], channels: Int(channels), framesPerBuffer: 512)
            var queue: AudioQueueRef?
            XCTAssertEqual(AudioQueueNewOutput(&format, playbackCallback, state.refCon, nil, nil, 0, &queue), noErr)
            let q = try XCTUnwrap(queue)
            var on: UInt32 = 1
            let status = AudioQueueSetProperty(q, kAudioQueueProperty_EnableTimePitch, &on, 4)
            if channels == 16 {
                XCTAssertEqual(status, noErr, lastErrorMessage)
            } else {
                XCTAssertEqual(status, kAudioQueueErr_InvalidPropertyValue, "\(channels) channels")
                XCTAssertTrue(lastErrorMessage.contains("1…16"), lastErrorMessage)
            }
            XCTAssertEqual(AudioQueueDispose(q, true), noErr)
        }
    }
}

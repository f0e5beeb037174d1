import AUHost
import Foundation
import XCTest

/// Sizes a caller hands AudioQueueAllocateBuffer(WithPacketDescriptions) (issue 27): past the
/// bounds AudioQueue.h documents the answer is kAudio_MemFullError and no buffer, instead of an
/// allocation of tens of gigabytes that aborted the process before the fix.
final class AudioQueueHostileSizeTests: XCTestCase {
    func testHugeBufferSizesAndDescriptionCountsAreMemFull() throws {
        let state = PlaybackState(samples: [], channels: 2, framesPerBuffer: 16)
        let (queue, _) = try makePlaybackQueue(state, format: int16Format(channels: 2), device: nil)
        defer { XCTAssertEqual(AudioQueueDispose(queue, true), noErr) }
        let cases: [(bytes: UInt32, descriptions: UInt32)] = [
            (0xFFFF_FFFF, 0), (UInt32(kAUHostAudioQueueMaximumBufferByteSize) + 1, 0), (4_096, 0xFFFF_FFFF),
            (4_096, UInt32(kAUHostAudioQueueMaximumPacketDescriptions) + 1),
        ]
        for (bytes, descriptions) in cases {
            var buffer: AudioQueueBufferRef? = AudioQueueBufferRef(bitPattern: 0x1)
            XCTAssertEqual(
                AudioQueueAllocateBufferWithPacketDescriptions(queue, bytes, descriptions, &buffer), kAudio_MemFullError,
                "\(bytes) bytes, \(descriptions) descriptions")
            XCTAssertNil(buffer)
            XCTAssertTrue(lastErrorMessage.contains("\(bytes)") || lastErrorMessage.contains("\(descriptions)"), lastErrorMessage)
        }
        var plain: AudioQueueBufferRef?
        XCTAssertEqual(AudioQueueAllocateBuffer(queue, 0xFFFF_FFFF, &plain), kAudio_MemFullError)
        XCTAssertNil(plain)
        // At the bounds the buffer is made, with the capacities asked for.
        var largest: AudioQueueBufferRef?
        XCTAssertEqual(
            AudioQueueAllocateBufferWithPacketDescriptions(
                queue, UInt32(kAUHostAudioQueueMaximumBufferByteSize), UInt32(kAUHostAudioQueueMaximumPacketDescriptions), &largest), noErr,
            lastErrorMessage)
        let made = try XCTUnwrap(largest)
        XCTAssertEqual(made.pointee.mAudioDataBytesCapacity, UInt32(kAUHostAudioQueueMaximumBufferByteSize))
        XCTAssertEqual(made.pointee.mPacketDescriptionCapacity, UInt32(kAUHostAudioQueueMaximumPacketDescriptions))
        XCTAssertEqual(AudioQueueFreeBuffer(queue, made), noErr)
    }
}

/// A compressed queue given a packet description at offset Int64.max − 4 (issue 27, found reading
/// the C boundary): kAudio_ParamError naming the description; before the fix the message's
/// offset + size overflowed and trapped.
final class AudioQueueHostileDescriptionTests: XCTestCase {
    func testADescriptionNearInt64MaxIsParamError() throws {
        var mp3 = stereoMP3(bytesPerPacket: 0)
        var queue: AudioQueueRef?
        XCTAssertEqual(AudioQueueNewOutput(&mp3, { _, _, _ in }, nil, nil, nil, 0, &queue), noErr, lastErrorMessage)
        let q = try XCTUnwrap(queue)
        defer { XCTAssertEqual(AudioQueueDispose(q, true), noErr) }
        var buffer: AudioQueueBufferRef?
        XCTAssertEqual(AudioQueueAllocateBufferWithPacketDescriptions(q, 1_024, 4, &buffer), noErr, lastErrorMessage)
        let b = try XCTUnwrap(buffer)
        b.pointee.mAudioDataByteSize = 100
        var description = AudioStreamPacketDescription(mStartOffset: Int64.max - 4, mVariableFramesInPacket: 0, mDataByteSize: 100)
        XCTAssertEqual(AudioQueueEnqueueBuffer(q, b, 1, &description), kAudio_ParamError)
        XCTAssertTrue(lastErrorMessage.contains("\(Int64.max - 4)"), lastErrorMessage)
    }
}

/// Constant-size compressed packets enqueued without descriptions get one description each,
/// bounded like AllocateBufferWithPacketDescriptions (issue 27, found reading the enqueue path):
/// 1,048,577 one-byte packets answer kAudio_MemFullError; a 64 MiB buffer of them asked for 1 GiB.
final class AudioQueueImpliedPacketTests: XCTestCase {
    func testTooManyImpliedPacketsAreMemFull() throws {
        var mp3 = stereoMP3(bytesPerPacket: 1)
        var queue: AudioQueueRef?
        XCTAssertEqual(AudioQueueNewOutput(&mp3, { _, _, _ in }, nil, nil, nil, 0, &queue), noErr, lastErrorMessage)
        let q = try XCTUnwrap(queue)
        defer { XCTAssertEqual(AudioQueueDispose(q, true), noErr) }
        var buffer: AudioQueueBufferRef?
        let bytes = kAUHostAudioQueueMaximumPacketDescriptions + 1
        XCTAssertEqual(AudioQueueAllocateBuffer(q, bytes, &buffer), noErr, lastErrorMessage)
        let b = try XCTUnwrap(buffer)
        b.pointee.mAudioDataByteSize = bytes
        XCTAssertEqual(AudioQueueEnqueueBuffer(q, b, 0, nil), kAudio_MemFullError)
        XCTAssertTrue(lastErrorMessage.contains("1048577 packets"), lastErrorMessage)
    }
}

/// A 44.1 kHz stereo MP3 stream's description; `bytesPerPacket` 0 is variable-size packets.
func stereoMP3(bytesPerPacket: UInt32) -> AudioStreamBasicDescription {
    var mp3 = AudioStreamBasicDescription()
    mp3.mSampleRate = 44_100
    mp3.mFormatID = kAudioFormatMPEGLayer3
    mp3.mFramesPerPacket = 1_152
    mp3.mBytesPerPacket = bytesPerPacket
    mp3.mChannelsPerFrame = 2
    return mp3
}

/// A queue's sample rate is checked where it enters (issue 27, found by the AudioQueue fuzz
/// harness): outside AUHost's 1…1,536,000 Hz the new queue is refused with
/// kAudioFileUnsupportedDataFormatError naming the rate. Before the fix a PCM queue at 1e19 Hz
/// was made, and turning its time-pitch on trapped converting the rate to UInt32.
final class AudioQueueHostileRateTests: XCTestCase {
    func testARateOutsideTheEnginesRangeIsRefusedAtCreation() {
        let compressed = AudioStreamBasicDescription(
            mSampleRate: 1e19, mFormatID: kAudioFormatMPEGLayer3, mFormatFlags: 0, mBytesPerPacket: 0, mFramesPerPacket: 1_152,
            mBytesPerFrame: 0, mChannelsPerFrame: 2, mBitsPerChannel: 0, mReserved: 0)
        for var format in [
            float32Format(channels: 2, rate: 1e19), int16Format(channels: 1, rate: 1_536_001), int16Format(channels: 1, rate: 0.5),
            compressed,
        ] {
            var queue: AudioQueueRef?
            XCTAssertEqual(
                AudioQueueNewOutput(&format, { _, _, _ in }, nil, nil, nil, 0, &queue), kAudioFileUnsupportedDataFormatError,
                "\(format.mSampleRate) Hz")
            XCTAssertNil(queue)
            XCTAssertTrue(lastErrorMessage.contains("Hz"), lastErrorMessage)
        }
        var highest = float32Format(channels: 2, rate: 1_536_000)
        var queue: AudioQueueRef?
        XCTAssertEqual(AudioQueueNewOutput(&highest, { _, _, _ in }, nil, nil, nil, 0, &queue), noErr, lastErrorMessage)
        var on: UInt32 = 1
        XCTAssertEqual(AudioQueueSetProperty(queue!, kAudioQueueProperty_EnableTimePitch, &on, 4), noErr, lastErrorMessage)
        XCTAssertEqual(AudioQueueDispose(queue!, true), noErr)
    }
}

/// A caller that rewrites an enqueued buffer's mAudioDataByteSize (issue 27, found by the
/// AudioQueueDevice fuzzer, Crashes/AudioQueueDevice): the queue plays the size it checked at
/// Enqueue. Before the fix the render thread read the size at play time, so a size raised past
/// the capacity read beyond the buffer (heap overflow under ASan); raised within it, it played
/// frames the caller never enqueued.
final class AudioQueueRewrittenSizeTests: XCTestCase {
    func testTheSizeCheckedAtEnqueueIsWhatPlays() throws {
        let frames = 1_000
        let samples = testSamples(frames * 2)
        let state = PlaybackState(samples: samples, channels: 2, framesPerBuffer: frames)
        state.done = true
        let (queue, _) = try makePlaybackQueue(state, format: int16Format(channels: 2), device: nil)
        defer { XCTAssertEqual(AudioQueueDispose(queue, true), noErr) }
        var offlineFormat = int16Format(channels: 2)
        XCTAssertEqual(AudioQueueSetOfflineRenderFormat(queue, &offlineFormat, nil), noErr, lastErrorMessage)
        var allocated: AudioQueueBufferRef?
        XCTAssertEqual(AudioQueueAllocateBuffer(queue, UInt32(frames * 4 * 4), &allocated), noErr, lastErrorMessage)
        let buffer = try XCTUnwrap(allocated)
        samples.withUnsafeBytes { buffer.pointee.mAudioData.copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
        buffer.pointee.mAudioDataByteSize = UInt32(frames * 4)
        XCTAssertEqual(AudioQueueEnqueueBuffer(queue, buffer, 0, nil), noErr, lastErrorMessage)
        buffer.pointee.mAudioDataByteSize = buffer.pointee.mAudioDataBytesCapacity  // the caller's mistake
        XCTAssertEqual(AudioQueueStart(queue, nil), noErr)
        XCTAssertEqual(AudioQueueStop(queue, false), noErr)
        var time = AudioTimeStamp()
        var capture: AudioQueueBufferRef?
        XCTAssertEqual(AudioQueueAllocateBuffer(queue, UInt32(frames * 4 * 4), &capture), noErr)
        let output = try XCTUnwrap(capture)
        XCTAssertEqual(AudioQueueOfflineRender(queue, &time, output, UInt32(frames * 4)), noErr, lastErrorMessage)
        let got = Int(output.pointee.mAudioDataByteSize) / 4
        XCTAssertEqual(got, frames, "only the enqueued frames play")
        let values = Array(UnsafeBufferPointer(start: output.pointee.mAudioData.assumingMemoryBound(to: Int16.self), count: got * 2))
        XCTAssertTrue(values == samples, "the enqueued samples play unchanged")
    }
}

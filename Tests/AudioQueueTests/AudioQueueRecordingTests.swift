import AUHost
import Foundation
import Synchronization
import XCTest

/// The recording pattern of Apple's Audio Queue guide: each filled buffer is written out and
/// re-enqueued while the queue runs.
final class RecordingState: @unchecked Sendable {
    var recorded: [UInt8] = []
    var startTimes: [Double] = []
    let running = Atomic<Bool>(true)
    let frames = Atomic<Int>(0)
    var callbackThreads: Set<UInt> = []
    /// Where buffers are written with AudioFileWritePackets when set.
    var file: AudioFileID?
    var currentPacket: Int64 = 0
    var writeErrors = 0

    var refCon: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }
}

let recordingCallback: AudioQueueInputCallback = { userData, queue, buffer, startTime, packets, descriptions in
    let state = Unmanaged<RecordingState>.fromOpaque(userData!).takeUnretainedValue()
    state.callbackThreads.insert(UInt(pthread_self()))
    let bytes = Int(buffer.pointee.mAudioDataByteSize)
    if packets > 0 {
        state.recorded += UnsafeRawBufferPointer(start: buffer.pointee.mAudioData, count: bytes)
        state.startTimes.append(startTime.pointee.mSampleTime)
        if let file = state.file {
            var count = packets
            if AudioFileWritePackets(file, false, UInt32(bytes), descriptions, state.currentPacket, &count, buffer.pointee.mAudioData)
                == noErr
            {
                state.currentPacket += Int64(count)
            } else {
                state.writeErrors += 1
            }
        }
        state.frames.add(Int(packets), ordering: .releasing)
    }
    if state.running.load(ordering: .acquiring) { _ = AudioQueueEnqueueBuffer(queue, buffer, 0, nil) }
}

final class AudioQueueRecordingTests: XCTestCase {
    override func setUp() { _ = AudioQueueTestEnvironment.directory }

    /// Records 16-bit stereo from the file plugin's infile (its device format is Float32: the
    /// I/O unit's first choice) with three buffers of 0.5 s. The unpaced `null` capture runs
    /// faster than any callback, so the infile (1.2 s) fits the three buffers and nothing has to
    /// wait for a buffer to come back. What the buffers received is exactly the infile, frame
    /// for frame, with start times that follow on, and the callbacks ran on the queue's thread.
    /// The recording is written with AudioFileCreateWithURL / AudioFileWritePackets into a WAV
    /// file, and reading that file back with AudioFileReadPacketData gives the infile exactly.
    func testRecordingPatternCapturesTheInfileExactly() throws {
        let frames = 57_600
        let samples = testSamples(frames * 2)
        let floats = samples.map { Float($0) / 32_768 }
        AudioQueueTestEnvironment.write(floats.withUnsafeBytes { Array($0) }, to: "in.raw")
        let state = RecordingState()
        var format = int16Format(channels: 2)
        var queue: AudioQueueRef?
        XCTAssertEqual(AudioQueueNewInput(&format, recordingCallback, state.refCon, nil, nil, 0, &queue), noErr, lastErrorMessage)
        let q = try XCTUnwrap(queue)
        defer { XCTAssertEqual(AudioQueueDispose(q, true), noErr) }
        setCurrentDevice(q, "aq_raw_in")
        let path = AudioQueueTestEnvironment.path("recording.wav")
        let url = CFURLCreateFromFileSystemRepresentation(nil, path, CFIndex(strlen(path)), false)!
        var file: AudioFileID?
        XCTAssertEqual(AudioFileCreateWithURL(url, kAudioFileWAVEType, &format, .eraseFile, &file), noErr, lastErrorMessage)
        state.file = try XCTUnwrap(file)
        for _ in 0..<3 {
            var buffer: AudioQueueBufferRef?
            XCTAssertEqual(AudioQueueAllocateBuffer(q, 24_000 * 4, &buffer), noErr)
            XCTAssertEqual(AudioQueueEnqueueBuffer(q, buffer!, 0, nil), noErr)
        }
        XCTAssertEqual(AudioQueueStart(q, nil), noErr, lastErrorMessage)
        // All three buffers full: the infile, then the silence the capture PCM gives after it.
        XCTAssertTrue(AudioQueueTestEnvironment.wait { state.frames.load(ordering: .acquiring) >= 72_000 }, "the buffers did not fill")
        state.running.store(false, ordering: .releasing)
        XCTAssertEqual(AudioQueueStop(q, true), noErr)

        let recorded = state.recorded.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
        XCTAssertGreaterThanOrEqual(recorded.count, samples.count)
        let firstDifference = recorded.count < samples.count ? 0 : samples.indices.first { recorded[$0] != samples[$0] }
        XCTAssertNil(firstDifference, "recorded sample \(firstDifference ?? -1) differs from the infile")
        XCTAssertEqual(Array(state.startTimes.prefix(2)), [0, 24_000], "start times count frames from Start")
        XCTAssertEqual(state.callbackThreads.count, 1)
        XCTAssertFalse(state.callbackThreads.contains(UInt(pthread_self())))

        XCTAssertEqual(state.writeErrors, 0)
        XCTAssertEqual(AudioFileClose(state.file!), noErr)
        var reopened: AudioFileID?
        XCTAssertEqual(AudioFileOpenURL(url, .readPermission, 0, &reopened), noErr, lastErrorMessage)
        let reader = try XCTUnwrap(reopened)
        defer { AudioFileClose(reader) }
        var packetCount: UInt64 = 0
        var size = UInt32(8)
        XCTAssertEqual(AudioFileGetProperty(reader, kAudioFilePropertyAudioDataPacketCount, &size, &packetCount), noErr)
        XCTAssertEqual(Int(packetCount), recorded.count / 2, "every recorded frame is in the file")
        var fromFile = [Int16](repeating: 0, count: frames * 2)
        var bytes = UInt32(frames * 4), packets = UInt32(frames)
        XCTAssertEqual(AudioFileReadPacketData(reader, false, &bytes, nil, 0, &packets, &fromFile), noErr, lastErrorMessage)
        XCTAssertEqual(packets, UInt32(frames))
        XCTAssertTrue(fromFile == samples, "the WAV file does not hold the infile exactly")
    }
}

/// A recording buffer smaller than one frame (issue 27, found reading the device thread's code):
/// it comes back at once with 0 bytes and the next buffer records from frame 0. Before the fix
/// the device thread trapped (`current!` after the too-small buffer was returned).
final class AudioQueueTinyRecordingBufferTests: XCTestCase {
    override func setUp() { _ = AudioQueueTestEnvironment.directory }

    func testABufferSmallerThanAFrameComesBackEmpty() throws {
        let samples = testSamples(4_000 * 2)
        AudioQueueTestEnvironment.write(samples.map { Float($0) / 32_768 }.withUnsafeBytes { Array($0) }, to: "in.raw")
        let state = RecordingState()
        state.running.store(false, ordering: .releasing)  // nothing is re-enqueued
        var format = int16Format(channels: 2)
        var queue: AudioQueueRef?
        XCTAssertEqual(AudioQueueNewInput(&format, recordingCallback, state.refCon, nil, nil, 0, &queue), noErr, lastErrorMessage)
        let q = try XCTUnwrap(queue)
        defer { XCTAssertEqual(AudioQueueDispose(q, true), noErr) }
        setCurrentDevice(q, "aq_raw_in")
        var tiny: AudioQueueBufferRef?, whole: AudioQueueBufferRef?
        XCTAssertEqual(AudioQueueAllocateBuffer(q, 3, &tiny), noErr)
        XCTAssertEqual(AudioQueueAllocateBuffer(q, 1_000 * 4, &whole), noErr)
        XCTAssertEqual(AudioQueueEnqueueBuffer(q, tiny!, 0, nil), noErr)
        XCTAssertEqual(AudioQueueEnqueueBuffer(q, whole!, 0, nil), noErr)
        XCTAssertEqual(AudioQueueStart(q, nil), noErr, lastErrorMessage)
        XCTAssertTrue(AudioQueueTestEnvironment.wait { state.frames.load(ordering: .acquiring) >= 1_000 }, "the second buffer did not fill")
        XCTAssertEqual(AudioQueueStop(q, true), noErr)
        XCTAssertEqual(tiny!.pointee.mAudioDataByteSize, 0)
        let recorded = state.recorded.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
        XCTAssertTrue(recorded == Array(samples.prefix(2_000)), "the whole buffer holds the first 1,000 frames")
    }
}

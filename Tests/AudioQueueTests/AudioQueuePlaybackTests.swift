import ALSATestSupport
import AUHost
@testable import AudioQueueServices
import Foundation
import XCTest

final class AudioQueuePlaybackTests: XCTestCase {
    override func setUp() { _ = AudioQueueTestEnvironment.directory }

    /// Plays `samples` (16-bit stereo, 48 kHz) with the three-buffer pattern into `device` and
    /// returns what the device received (Float32, the device format the I/O unit chose), after
    /// the queue stopped itself with Stop(false). The unpaced `null` device drains buffers faster
    /// than any callback refills them (the queue then plays silence, as a starving queue does),
    /// so signals longer than three buffers play through the JACK-paced file PCM.
    private func playThreeBuffers(
        _ samples: [Int16], framesPerBuffer: Int, volume: Float? = nil, device: String = "aq_raw_out"
    ) throws -> (output: [Float], state: PlaybackState, renderThread: UInt) {
        let state = PlaybackState(samples: samples, channels: 2, framesPerBuffer: framesPerBuffer)
        let (queue, buffers) = try makePlaybackQueue(state, format: int16Format(channels: 2), device: device)
        defer { XCTAssertEqual(AudioQueueDispose(queue, true), noErr) }
        if let volume { XCTAssertEqual(AudioQueueSetParameter(queue, kAudioQueueParam_Volume, volume), noErr) }
        for buffer in buffers { state.fill(queue, buffer) }  // prime: the callback called by hand
        var prepared: UInt32 = 0
        XCTAssertEqual(AudioQueuePrime(queue, 0, &prepared), noErr)
        XCTAssertEqual(Int(prepared), min(3 * framesPerBuffer, samples.count / 2))
        // A JACK server just started may not accept clients yet: Start fails until it does.
        XCTAssertTrue(AudioQueueTestEnvironment.wait(upTo: 15) { AudioQueueStart(queue, nil) == noErr }, lastErrorMessage)
        // Two IsRunning notifications: Start's and the one when Stop(false) completes (on a fast
        // device the latter can come first, while Start's listener is still running).
        if !AudioQueueTestEnvironment.wait(until: { state.isRunningChanges.load(ordering: .acquiring) == 2 }) {
            XCTFail("Stop(false) never completed")
            XCTAssertEqual(AudioQueueStop(queue, true), noErr)
        }
        XCTAssertTrue(state.stopped.load(ordering: .acquiring))
        var running: UInt32 = 1
        var size = UInt32(4)
        XCTAssertEqual(AudioQueueGetProperty(queue, kAudioQueueProperty_IsRunning, &running, &size), noErr)
        XCTAssertEqual(running, 0)
        XCTAssertEqual(
            state.isRunningChanges.load(ordering: .relaxed), 2, "IsRunning listeners fire on Start and when Stop(false) completes")
        let object = Unmanaged<AudioQueueObject>.fromOpaque(UnsafeRawPointer(queue)).takeUnretainedValue()
        let renderThread = object.playback!.renderThread.load(ordering: .acquiring)
        return (float32Values(AudioQueueTestEnvironment.read("out.raw")), state, renderThread)
    }

    /// The documented playback pattern, three buffers of 0.1 s of a 16-bit stereo signal: the
    /// device receives every frame exactly once and in order (16-bit samples are exact in the
    /// Float32 device format), then only the silence played while the device buffer drained.
    func testThreeBufferPlaybackDeliversEveryFrameExactlyOnce() throws {
        let server = try startJACKServer()
        defer { stopJACKServer(server) }
        let frames = 48_000 + 1_234  // not a whole number of buffers
        let samples = testSamples(frames * 2)
        let (output, state, _) = try playThreeBuffers(samples, framesPerBuffer: 4_800, device: "aq_paced_out")
        XCTAssertGreaterThanOrEqual(output.count, samples.count)
        let expected = samples.map { Float($0) / 32_768 }
        let played = Array(output.prefix(expected.count))
        let firstDifference = played.indices.first { played[$0] != expected[$0] }
        XCTAssertNil(firstDifference, "sample \(firstDifference ?? -1) differs")
        XCTAssertTrue(output.dropFirst(expected.count).allSatisfy { $0 == 0 }, "only silence follows the signal")
        XCTAssertEqual(state.nextFrame, frames)
        XCTAssertEqual(state.callbacks, (frames + 4_799) / 4_800, "one callback per buffer played")
    }

    /// Volume 0.5 halves every sample exactly (the signal fits the three buffers, so the unpaced
    /// device cannot starve).
    func testVolumeHalfGivesExactlyHalf() throws {
        let samples = testSamples(20_000 * 2)
        let (output, _, _) = try playThreeBuffers(samples, framesPerBuffer: 8_192, volume: 0.5)
        let expected = samples.map { Float($0) / 65_536 }
        let played = Array(output.prefix(expected.count))
        XCTAssertEqual(played.count, expected.count)
        let firstDifference = played.indices.first { played[$0] != expected[$0] }
        XCTAssertNil(firstDifference, "sample \(firstDifference ?? -1) is not exactly half")
    }

    /// Callbacks run on the queue's own thread: never the device thread, never the caller's.
    func testCallbacksNeverRunOnTheDeviceThread() throws {
        let (_, state, renderThread) = try playThreeBuffers(testSamples(20_000 * 2), framesPerBuffer: 8_192)
        XCTAssertNotEqual(renderThread, 0, "the device rendered")
        XCTAssertEqual(state.callbackThreads.count, 1, "one callback thread")
        XCTAssertFalse(state.callbackThreads.contains(renderThread), "a callback ran on the device thread")
        XCTAssertFalse(state.callbackThreads.contains(UInt(pthread_self())), "a callback ran on the caller's thread")
    }

    /// Stop(false) returns at once; the queue keeps running until everything enqueued has played,
    /// then stops and tells the IsRunning listeners.
    func testStopAfterQueuedPlaysOutEverythingEnqueued() throws {
        let samples = testSamples(3 * 6_000 * 2)
        let state = PlaybackState(samples: samples, channels: 2, framesPerBuffer: 6_000)
        let (queue, buffers) = try makePlaybackQueue(state, format: int16Format(channels: 2), device: "aq_raw_out")
        defer { XCTAssertEqual(AudioQueueDispose(queue, true), noErr) }
        for buffer in buffers { state.fill(queue, buffer) }
        state.done = true  // nothing more to play
        XCTAssertEqual(AudioQueueStart(queue, nil), noErr, lastErrorMessage)
        XCTAssertEqual(AudioQueueStop(queue, false), noErr)
        if !AudioQueueTestEnvironment.wait(until: { state.stopped.load(ordering: .acquiring) }) {
            XCTFail("Stop(false) never completed")
            XCTAssertEqual(AudioQueueStop(queue, true), noErr)
        }
        XCTAssertEqual(state.callbacks, 3, "every buffer played and came back")
        let output = float32Values(AudioQueueTestEnvironment.read("out.raw"))
        let expected = samples.map { Float($0) / 32_768 }
        XCTAssertGreaterThanOrEqual(output.count, expected.count)
        XCTAssertTrue(Array(output.prefix(expected.count)) == expected, "the queued signal was not played out exactly")
    }

    /// Stop(true) on a paced device stops at once: what was still queued is not played, every
    /// buffer comes back to the callback before Stop returns, and what did play is an exact prefix.
    func testStopImmediatelyDoesNotPlayOutTheQueue() throws {
        let server = try startJACKServer()
        defer { stopJACKServer(server) }
        let frames = 3 * 48_000
        let samples = testSamples(frames * 2)
        let state = PlaybackState(samples: samples, channels: 2, framesPerBuffer: 48_000)
        let (queue, buffers) = try makePlaybackQueue(state, format: int16Format(channels: 2), device: "aq_paced_out")
        defer { XCTAssertEqual(AudioQueueDispose(queue, true), noErr) }
        for buffer in buffers { state.fill(queue, buffer) }
        state.done = true
        XCTAssertTrue(AudioQueueTestEnvironment.wait(upTo: 15) { AudioQueueStart(queue, nil) == noErr }, lastErrorMessage)
        var time = AudioTimeStamp()
        XCTAssertTrue(
            AudioQueueTestEnvironment.wait {
                AudioQueueGetCurrentTime(queue, nil, &time, nil) == noErr && time.mSampleTime >= 4_800
            }, "the paced device did not play")
        XCTAssertEqual(AudioQueueStop(queue, true), noErr)
        XCTAssertEqual(state.callbacks, 3, "every buffer came back before Stop(true) returned")
        XCTAssertTrue(state.stopped.load(ordering: .acquiring), "IsRunning listeners heard the stop")
        let output = float32Values(AudioQueueTestEnvironment.read("out.raw"))
        XCTAssertGreaterThan(output.count, 0)
        XCTAssertLessThan(output.count, frames * 2, "Stop(true) played out the queue")
        let expected = samples.prefix(output.count).map { Float($0) / 32_768 }
        XCTAssertTrue(output == expected, "what played is not an exact prefix of the signal")
    }

    /// Pause stops the device but keeps the queue started (IsRunning stays 1, no buffer comes
    /// back, the time stands still); Start resumes from where it was.
    func testPauseHoldsThePositionAndStartResumes() throws {
        let server = try startJACKServer()
        defer { stopJACKServer(server) }
        let state = PlaybackState(samples: testSamples(3 * 48_000 * 2), channels: 2, framesPerBuffer: 48_000)
        let (queue, buffers) = try makePlaybackQueue(state, format: int16Format(channels: 2), device: "aq_jack")
        defer { XCTAssertEqual(AudioQueueDispose(queue, true), noErr) }
        for buffer in buffers { state.fill(queue, buffer) }
        state.done = true
        XCTAssertTrue(AudioQueueTestEnvironment.wait(upTo: 15) { AudioQueueStart(queue, nil) == noErr }, lastErrorMessage)
        var time = AudioTimeStamp()
        XCTAssertTrue(
            AudioQueueTestEnvironment.wait { AudioQueueGetCurrentTime(queue, nil, &time, nil) == noErr && time.mSampleTime >= 4_800 },
            "the paced device did not play")
        XCTAssertEqual(AudioQueuePause(queue), noErr)
        XCTAssertEqual(AudioQueueGetCurrentTime(queue, nil, &time, nil), noErr)
        let pausedAt = time.mSampleTime
        usleep(100_000)  // the paced device would have played 4,800 frames meanwhile
        XCTAssertEqual(AudioQueueGetCurrentTime(queue, nil, &time, nil), noErr)
        XCTAssertEqual(time.mSampleTime, pausedAt, "a paused queue's time stands still")
        var running: UInt32 = 0
        var size = UInt32(4)
        XCTAssertEqual(AudioQueueGetProperty(queue, kAudioQueueProperty_IsRunning, &running, &size), noErr)
        XCTAssertEqual(running, 1, "a paused queue is still started")
        XCTAssertEqual(state.callbacks, 0, "Pause returns no buffer")
        XCTAssertEqual(AudioQueueStart(queue, nil), noErr, lastErrorMessage)
        XCTAssertTrue(
            AudioQueueTestEnvironment.wait { AudioQueueGetCurrentTime(queue, nil, &time, nil) == noErr && time.mSampleTime > pausedAt },
            "Start did not resume")
        XCTAssertEqual(AudioQueueStop(queue, true), noErr)
        XCTAssertEqual(state.callbacks, 3)
    }

    /// A device that disappears under a playing queue stops it: the IsRunning listeners hear 0
    /// (from the queue's thread), every buffer comes back, and the queue's IsRunning reads 0.
    /// (The JACK server is killed to make the device vanish, then started again under the same
    /// name and stopped gracefully, which frees its slot in JACK's registry.)
    func testDeviceFailureStopsTheQueueAndReturnsItsBuffers() throws {
        var server = try startJACKServer()
        let state = PlaybackState(samples: testSamples(3 * 48_000 * 2), channels: 2, framesPerBuffer: 48_000)
        let (queue, buffers) = try makePlaybackQueue(state, format: int16Format(channels: 2), device: "aq_jack")
        defer { XCTAssertEqual(AudioQueueDispose(queue, true), noErr) }
        for buffer in buffers { state.fill(queue, buffer) }
        state.done = true
        XCTAssertTrue(AudioQueueTestEnvironment.wait(upTo: 15) { AudioQueueStart(queue, nil) == noErr }, lastErrorMessage)
        var time = AudioTimeStamp()
        XCTAssertTrue(
            AudioQueueTestEnvironment.wait { AudioQueueGetCurrentTime(queue, nil, &time, nil) == noErr && time.mSampleTime >= 4_800 },
            "the paced device did not play")
        server.kill()
        XCTAssertTrue(
            AudioQueueTestEnvironment.wait { state.stopped.load(ordering: .acquiring) }, "IsRunning listeners did not hear the failure")
        XCTAssertTrue(AudioQueueTestEnvironment.wait { state.callbacks == 3 }, "the buffers did not come back")
        var running: UInt32 = 1
        var size = UInt32(4)
        XCTAssertEqual(AudioQueueGetProperty(queue, kAudioQueueProperty_IsRunning, &running, &size), noErr)
        XCTAssertEqual(running, 0)

        server = try startJACKServer()  // same name: reclaims the killed server's registry slot
        XCTAssertTrue(
            AudioQueueTestEnvironment.wait(upTo: 15) { AudioQueueStart(queue, nil) == noErr },
            "Start reopens the device: \(lastErrorMessage)")
        XCTAssertEqual(AudioQueueStop(queue, true), noErr)
        stopJACKServer(server)
    }

    /// Buffer misuse answers the documented codes.
    func testBufferMisuseAnswersDocumentedErrors() throws {
        let state = PlaybackState(samples: testSamples(100), channels: 2, framesPerBuffer: 64)
        let (queue, buffers) = try makePlaybackQueue(state, format: int16Format(channels: 2), device: "aq_raw_out")
        defer { AudioQueueDispose(queue, true) }
        XCTAssertEqual(AudioQueueEnqueueBuffer(queue, buffers[0], 0, nil), kAudioQueueErr_BufferEmpty)
        buffers[0].pointee.mAudioDataByteSize = 8
        XCTAssertEqual(AudioQueueEnqueueBuffer(queue, buffers[0], 0, nil), noErr)
        XCTAssertEqual(AudioQueueEnqueueBuffer(queue, buffers[0], 0, nil), kAudioQueueErr_BufferEnqueuedTwice)
        XCTAssertEqual(AudioQueueFreeBuffer(queue, buffers[0]), kAudioQueueErr_BufferInQueue)
        XCTAssertEqual(AudioQueueSetParameter(queue, kAudioQueueParam_Volume, 1.5), kAudioQueueErr_InvalidParameter)
        state.done = true  // the callback only counts the returned buffer
        XCTAssertEqual(AudioQueueReset(queue), noErr)
        XCTAssertEqual(state.callbacks, 1, "Reset returned the enqueued buffer to the callback before it returned")
        XCTAssertEqual(AudioQueueFreeBuffer(queue, buffers[0]), noErr, "Reset returned the buffer")
        XCTAssertEqual(AudioQueueFreeBuffer(queue, buffers[0]), kAudioQueueErr_InvalidBuffer, "freed twice")
        var time = AudioTimeStamp()
        XCTAssertEqual(AudioQueueGetCurrentTime(queue, nil, &time, nil), kAudioQueueErr_InvalidRunState, "no time before Start")
        var aac = int16Format(channels: 2)
        aac.mFormatID = kAudioFormatMPEG4AAC  // compressed, and not one the converter decodes (MP3 now plays)
        var other: AudioQueueRef?
        XCTAssertEqual(AudioQueueNewOutput(&aac, playbackCallback, nil, nil, nil, 0, &other), kAudioFileUnsupportedDataFormatError)
        XCTAssertNil(other)
    }

    /// A device that does not exist fails Start with kAudioQueueErr_InvalidDevice, naming it.
    func testMissingDeviceFailsStartNamingIt() throws {
        let state = PlaybackState(samples: testSamples(100), channels: 2, framesPerBuffer: 64)
        let (queue, _) = try makePlaybackQueue(state, format: int16Format(channels: 2), device: "aq_no_such_pcm")
        defer { AudioQueueDispose(queue, true) }
        XCTAssertEqual(AudioQueueStart(queue, nil), kAudioQueueErr_InvalidDevice)
        XCTAssertTrue(lastErrorMessage.contains("aq_no_such_pcm"), lastErrorMessage)
    }
}

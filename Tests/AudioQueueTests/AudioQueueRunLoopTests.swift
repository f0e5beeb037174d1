import AUHost
@testable import AudioQueueServices
import Foundation
import XCTest

/// A queue created with a run loop calls its callbacks on that run loop, in its mode, as Apple's
/// AudioQueueNewOutput documents (inCallbackRunLoop, inCallbackRunLoopMode).
final class AudioQueueRunLoopTests: XCTestCase {
    override func setUp() { _ = AudioQueueTestEnvironment.directory }

    /// Three buffers of a 16-bit stereo signal on the file PCM, with callbacks on this thread's run
    /// loop in the default mode: none arrives while the loop does not run or runs in another mode;
    /// all three arrive on this thread once it runs in the default mode (the first stops the queue,
    /// Stop(false)); the device received every frame exactly.
    func testCallbacksArriveOnTheGivenRunLoopInItsModeOnly() throws {
        let samples = testSamples(20_000 * 2)
        let state = PlaybackState(samples: samples, channels: 2, framesPerBuffer: 8_192)
        var format = int16Format(channels: 2)
        var created: AudioQueueRef?
        XCTAssertEqual(
            AudioQueueNewOutput(&format, playbackCallback, state.refCon, CFRunLoopGetCurrent(), kCFRunLoopDefaultMode, 0, &created),
            noErr, lastErrorMessage)
        let queue = try XCTUnwrap(created)
        defer { XCTAssertEqual(AudioQueueDispose(queue, true), noErr) }
        state.queue = queue
        setCurrentDevice(queue, "aq_raw_out")
        XCTAssertEqual(AudioQueueAddPropertyListener(queue, kAudioQueueProperty_IsRunning, isRunningListener, state.refCon), noErr)
        for _ in 0..<3 {
            var buffer: AudioQueueBufferRef?
            XCTAssertEqual(AudioQueueAllocateBuffer(queue, UInt32(8_192 * 4), &buffer), noErr)
            state.fill(queue, try XCTUnwrap(buffer))
        }
        XCTAssertEqual(AudioQueueStart(queue, nil), noErr, lastErrorMessage)

        // The unpaced device plays the three buffers at once; their callbacks wait for the loop.
        Thread.sleep(forTimeInterval: 0.3)
        XCTAssertEqual(state.callbacks, 0, "a callback ran before the run loop did")
        let otherMode = CFBridge.string("AUHostTestOtherMode")
        defer { otherMode.release() }
        _ = CFRunLoopRunInMode(otherMode.takeUnretainedValue(), 0.1, false)
        XCTAssertEqual(state.callbacks, 0, "a callback ran in a mode the queue was not given")

        let deadline = Date(timeIntervalSinceNow: 10)
        while state.callbacks < 3, Date() < deadline { _ = CFRunLoopRunInMode(kCFRunLoopDefaultMode, 0.05, false) }
        XCTAssertEqual(state.callbacks, 3, "one callback per buffer played")
        XCTAssertEqual(state.callbackThreads, [UInt(pthread_self())], "callbacks ran on the run loop's thread")
        XCTAssertTrue(AudioQueueTestEnvironment.wait(until: { state.stopped.load(ordering: .acquiring) }), "Stop(false) completed")

        let output = float32Values(AudioQueueTestEnvironment.read("out.raw"))
        let expected = samples.map { Float($0) / 32_768 }
        XCTAssertGreaterThanOrEqual(output.count, expected.count)
        let played = Array(output.prefix(expected.count))
        let firstDifference = played.indices.first { played[$0] != expected[$0] }
        XCTAssertNil(firstDifference, "sample \(firstDifference ?? -1) differs")
    }

    /// Dispose drops callbacks not yet made: running the loop afterwards calls nothing.
    func testDisposeDropsCallbacksWaitingForTheRunLoop() throws {
        let state = PlaybackState(samples: testSamples(4_096 * 2), channels: 2, framesPerBuffer: 4_096)
        var format = int16Format(channels: 2)
        var created: AudioQueueRef?
        XCTAssertEqual(
            AudioQueueNewOutput(&format, playbackCallback, state.refCon, CFRunLoopGetCurrent(), nil, 0, &created), noErr, lastErrorMessage)
        let queue = try XCTUnwrap(created)
        setCurrentDevice(queue, "aq_raw_out")
        var buffer: AudioQueueBufferRef?
        XCTAssertEqual(AudioQueueAllocateBuffer(queue, UInt32(4_096 * 4), &buffer), noErr)
        state.fill(queue, try XCTUnwrap(buffer))
        XCTAssertEqual(AudioQueueStart(queue, nil), noErr, lastErrorMessage)
        Thread.sleep(forTimeInterval: 0.3)  // the buffer has played; its callback waits for the loop
        XCTAssertEqual(AudioQueueDispose(queue, true), noErr)
        _ = CFRunLoopRunInMode(kCFRunLoopDefaultMode, 0.2, false)
        XCTAssertEqual(state.callbacks, 0, "a callback ran after Dispose")
    }
}

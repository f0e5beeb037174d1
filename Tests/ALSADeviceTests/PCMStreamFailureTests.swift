import ALSADevice
import AudioToolbox
import ALSATestSupport
import Foundation
import Synchronization
import XCTest

/// Collects what `onStopped` delivered and on which thread.
final class StopReport: Sendable {
    let error = Mutex<ALSAError?>(nil)
    let threadID = Mutex<pthread_t?>(nil)
}

final class PCMStreamFailureTests: XCTestCase {
    let period = 64
    override func setUp() { _ = ALSATestEnvironment.directory }

    /// A device that disappears mid-stream stops the stream: a JACK server (dummy backend) is
    /// killed under a running `jack` PCM. alsa-lib's jack plugin then returns no error and no
    /// progress (aplay hangs the same way), so the stream's no-progress watchdog (max(2 s,
    /// 8 buffers)) stops it: `failure` is NoConnection naming the device, and `onStopped` fires on
    /// a thread that is not the caller's. (alsa-lib 1.2.8's file plugin swallows read/write errors
    /// of its files, so it cannot stand in for a failing device.)
    func testDeviceDisappearingMidStreamStopsWithItsReason() throws {
        // A fixed name: the killed server's slot in JACK's registry is taken back by the next
        // run's (a name per process left one more slot each run; after eight no jackd starts).
        let server = try DummyJACKServer(name: "alsadevice-test-vanish")

        var device: PCMDevice?
        XCTAssertTrue(
            ALSATestEnvironment.wait(upTo: 15) {
                device = try? PCMDevice(name: "alsadev_jack", direction: .playback)
                return device != nil
            }, "the JACK server did not come up")
        let output = try XCTUnwrap(device)
        try output.configure(PCMRequest(sampleRate: 48_000, channels: 2, format: .float32LE, periodFrames: 256, periodCount: 2))
        let report = StopReport()
        let stream = try PCMStream(
            playback: output,
            onStopped: { error in
                report.threadID.withLock { $0 = pthread_self() }
                report.error.withLock { $0 = error }
            })
        try stream.start()
        XCTAssertTrue(ALSATestEnvironment.wait { stream.framesProcessed >= 48_000 / 4 }, "no audio moved through JACK")
        XCTAssertTrue(stream.isRunning)
        XCTAssertNil(stream.failure)

        server.kill()

        XCTAssertTrue(ALSATestEnvironment.wait { report.error.withLock { $0 } != nil }, "onStopped did not fire")
        let delivered = try XCTUnwrap(report.error.withLock { $0 })
        XCTAssertEqual(delivered.status, OSStatus(kAudioUnitErr_NoConnection))
        XCTAssertTrue(delivered.message.contains("\"alsadev_jack\""), delivered.message)
        XCTAssertTrue(delivered.message.contains(ALSAError.reason(delivered.alsaCode)), delivered.message)
        XCTAssertEqual(stream.failure, delivered)
        XCTAssertFalse(stream.isRunning)
        XCTAssertEqual(pthread_equal(try XCTUnwrap(report.threadID.withLock { $0 }), pthread_self()), 0)
        stream.stop()
        XCTAssertEqual(stream.failure, delivered, "stop() keeps the recorded reason")
    }

    /// When SCHED_FIFO is refused (here: an invalid priority) the stream still runs, at normal
    /// priority, and says so in one line readable from setup code.
    func testRefusedRealTimePriorityFallsBackWithAWarning() throws {
        let device = try PCMDevice(name: "alsadev_raw_out", direction: .playback)
        try device.configure(PCMRequest(channels: 1, format: .s16LE, periodFrames: period, periodCount: 2))
        let stream = try PCMStream(playback: device, realTimePriority: 10_000)
        try stream.start()
        XCTAssertTrue(ALSATestEnvironment.wait { stream.framesProcessed >= 4 * 64 })
        stream.stop()
        let warning = try XCTUnwrap(stream.schedulingWarning)
        XCTAssertTrue(warning.contains("SCHED_FIFO priority 10000 refused"), warning)
        XCTAssertFalse(warning.contains("\n"))
        XCTAssertNil(stream.failure)
    }

    /// Misuse is reported with the documented codes.
    func testMisuseIsReported() throws {
        let output = try PCMDevice(name: "alsadev_raw_out", direction: .playback)
        XCTAssertThrowsError(try PCMStream(playback: output, realTimePriority: nil)) {
            XCTAssertEqual(($0 as? ALSAError)?.status, OSStatus(kAudioUnitErr_Uninitialized))
        }
        try output.configure(PCMRequest(channels: 2, format: .s16LE, periodFrames: 64, periodCount: 2))
        XCTAssertThrowsError(try PCMStream(capture: output)) {
            XCTAssertEqual(($0 as? ALSAError)?.status, OSStatus(kAudio_ParamError))
        }
        XCTAssertThrowsError(try PCMStream()) {
            XCTAssertEqual(($0 as? ALSAError)?.status, OSStatus(kAudio_ParamError))
        }
        ALSATestEnvironment.write([UInt8](repeating: 0, count: 4096), to: "in.raw")
        let input = try PCMDevice(name: "alsadev_raw_in", direction: .capture)
        try input.configure(PCMRequest(channels: 2, format: .s16LE, periodFrames: 128, periodCount: 2))
        XCTAssertThrowsError(try PCMStream(playback: output, capture: input)) {
            XCTAssertEqual(($0 as? ALSAError)?.status, OSStatus(kAudioUnitErr_FormatNotSupported))
        }
        let stream = try PCMStream(playback: output, realTimePriority: nil)
        try stream.start()
        XCTAssertThrowsError(try stream.start()) {
            XCTAssertEqual(($0 as? ALSAError)?.status, OSStatus(kAudioUnitErr_CannotDoInCurrentContext))
        }
        stream.stop()
        stream.stop()
        XCTAssertFalse(stream.isRunning)
        try stream.start()  // stopped streams start again
        XCTAssertTrue(ALSATestEnvironment.wait { stream.framesProcessed > 0 })
        stream.stop()
    }
}

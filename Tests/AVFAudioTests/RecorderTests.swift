import AVFAudio
import Foundation
import XCTest

/// AVAudioRecorder on an ALSA capture PCM: the file plugin reads an infile of raw Float32 frames
/// (the I/O unit's first choice of device format) under the clockless `null` PCM, defined in the
/// ~/.asoundrc of a temporary HOME for the test's duration. That capture runs faster than any
/// callback and drops what finds no free buffer, so what a test compares fits in the recorder's
/// three buffers of 0.1 s (a device with a clock drops nothing).
final class RecorderTests: XCTestCase {
    private var alsaHome: TemporaryALSAHome!
    private var home: URL { alsaHome.directory }

    override func setUpWithError() throws {
        alsaHome = try TemporaryALSAHome("avrecorder") { dir in
            "pcm.recorder_in { type file slave.pcm \"null\" file \"/dev/null\" infile \"\(dir.path)/in.raw\" format \"raw\" }\n"
        }
    }

    override func tearDown() { alsaHome.restore() }

    /// Writes interleaved stereo `frames` (left, right) as the capture PCM's infile.
    func writeInfile(_ frames: [(Float, Float)]) {
        let raw = frames.flatMap { [$0.0, $0.1] }.withUnsafeBytes { Data($0) }
        XCTAssertTrue(FileManager.default.createFile(atPath: home.appendingPathComponent("in.raw").path, contents: raw))
    }

    let floatWAV: [String: Any] = [
        AVFormatIDKey: kAudioFormatLinearPCM, AVSampleRateKey: 48_000.0, AVNumberOfChannelsKey: 2, AVLinearPCMBitDepthKey: 32,
        AVLinearPCMIsFloatKey: true,
    ]

    /// record(forDuration:) keeps exactly that many frames of what the device gave, tells the
    /// delegate, and the file reads back as the infile's first 0.25 s, sample for sample.
    func testRecordForDurationKeepsExactlyTheDevicesFrames() throws {
        let input: [(Float, Float)] = (0..<48_000).map { (i: Int) -> (Float, Float) in
            let left = Float(i % 997) / 997 - 0.5
            let right = Float(i % 101) / -202
            return (left, right)
        }
        writeInfile(input)
        let url = home.appendingPathComponent("take.wav")
        let recorder = try AVAudioRecorder(url: url, settings: floatWAV)
        recorder.currentDevice = "recorder_in"
        let delegate = FinishDelegate()
        recorder.delegate = delegate
        XCTAssertTrue(recorder.record(forDuration: 0.25))
        XCTAssertEqual(delegate.finished.wait(timeout: .now() + 20), .success, "the recording did not end")
        XCTAssertEqual(delegate.flags, [true])
        XCTAssertFalse(recorder.isRecording)
        XCTAssertEqual(recorder.currentTime, 0)

        let file = try AVAudioFile(forReading: url)
        XCTAssertEqual(file.length, 12_000)
        XCTAssertEqual(file.fileFormat.sampleRate, 48_000)
        let buffer = try XCTUnwrap(AVAudioPCMBuffer(pcmFormat: file.processingFormat, frameCapacity: 12_000))
        try file.read(into: buffer)
        let left = Array(UnsafeBufferPointer(start: buffer.floatChannelData![0], count: 12_000))
        let right = Array(UnsafeBufferPointer(start: buffer.floatChannelData![1], count: 12_000))
        XCTAssertEqual(left, input.prefix(12_000).map { $0.0 })
        XCTAssertEqual(right, input.prefix(12_000).map { $0.1 })
    }

    /// Metering: a constant 0.5 on the left and silence on the right read −6.02 dBFS peak and
    /// average, and −160 (Apple's floor).
    func testMetersReadTheLevelsRecorded() throws {
        writeInfile(Array(repeating: (0.5, 0), count: 9_600))
        let recorder = try AVAudioRecorder(url: home.appendingPathComponent("meters.wav"), settings: floatWAV)
        recorder.currentDevice = "recorder_in"
        recorder.isMeteringEnabled = true
        let delegate = FinishDelegate()
        recorder.delegate = delegate
        XCTAssertTrue(recorder.record(forDuration: 0.1))
        XCTAssertEqual(delegate.finished.wait(timeout: .now() + 20), .success)
        recorder.updateMeters()
        XCTAssertEqual(recorder.peakPower(forChannel: 0), 20 * log10(Float(0.5)), accuracy: 1e-4)
        XCTAssertEqual(recorder.averagePower(forChannel: 0), 20 * log10(Float(0.5)), accuracy: 1e-4)
        XCTAssertEqual(recorder.peakPower(forChannel: 1), -160)
        XCTAssertEqual(recorder.averagePower(forChannel: 1), -160)
    }

    /// stop() ends a recording early with what was recorded, and deleteRecording removes it.
    func testStopKeepsWhatWasRecordedAndDeleteRemovesIt() throws {
        writeInfile(Array(repeating: (0.25, -0.25), count: 4_800))
        let url = home.appendingPathComponent("stopped.caf")
        let recorder = try AVAudioRecorder(url: url, settings: floatWAV)
        recorder.currentDevice = "recorder_in"
        XCTAssertTrue(recorder.record())
        XCTAssertTrue(recorder.isRecording)
        let deadline = Date().addingTimeInterval(20)
        while recorder.currentTime < 0.1 && Date() < deadline { usleep(1_000) }
        XCTAssertFalse(recorder.deleteRecording(), "not while recording")
        recorder.stop()
        XCTAssertFalse(recorder.isRecording)
        let file = try AVAudioFile(forReading: url)
        XCTAssertGreaterThanOrEqual(file.length, 4_800)
        let buffer = try XCTUnwrap(AVAudioPCMBuffer(pcmFormat: file.processingFormat, frameCapacity: 4_800))
        try file.read(into: buffer)
        XCTAssertEqual(Array(UnsafeBufferPointer(start: buffer.floatChannelData![1], count: 4_800)), Array(repeating: -0.25, count: 4_800))
        XCTAssertTrue(recorder.deleteRecording())
        XCTAssertFalse(FileManager.default.fileExists(atPath: url.path))
    }

    /// Settings that are not linear PCM, a file type AVAudioFile cannot write, and a device that
    /// does not exist are refused with Apple's status codes.
    func testRefusalsNameTheCause() throws {
        let mp3 = [AVFormatIDKey: kAudioFormatMPEGLayer3, AVSampleRateKey: 44_100.0, AVNumberOfChannelsKey: 2] as [String: Any]
        XCTAssertThrowsError(try AVAudioRecorder(url: home.appendingPathComponent("x.wav"), settings: mp3)) {
            XCTAssertEqual(($0 as NSError).code, Int(kAudioFormatUnsupportedDataFormatError))
        }
        XCTAssertThrowsError(try AVAudioRecorder(url: home.appendingPathComponent("x.mp3"), settings: floatWAV)) {
            XCTAssertEqual(($0 as NSError).code, Int(kAudioFileUnsupportedFileTypeError))
        }
        let recorder = try AVAudioRecorder(url: home.appendingPathComponent("x.wav"), settings: floatWAV)
        recorder.currentDevice = "no_such_pcm"
        XCTAssertFalse(recorder.record())
        XCTAssertFalse(recorder.isRecording)
    }
}

/// The delegate's calls, on the recorder's background thread.
private final class FinishDelegate: AVAudioRecorderDelegate, @unchecked Sendable {
    let finished = DispatchSemaphore(value: 0)
    private let lock = NSLock()
    private var values: [Bool] = []
    var flags: [Bool] { lock.withLock { values } }

    func audioRecorderDidFinishRecording(_ recorder: AVAudioRecorder, successfully flag: Bool) {
        lock.withLock { values.append(flag) }
        finished.signal()
    }
}

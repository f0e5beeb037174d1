import AVFAudio
import Foundation
import XCTest

/// The engine on a device that fails: ALSA's file plugin writing under the clockless `null` PCM
/// (in the ~/.asoundrc of a temporary HOME), with this process's file-size limit lowered for the
/// test so that the plugin's writes fail with EFBIG after 1 MiB, as a device that goes away fails
/// its writes. The limit and SIGXFSZ's disposition are restored afterwards.
final class EngineDeviceChangeTests: XCTestCase {
    func testADeviceThatStopsByItselfStopsTheEngineAndPostsTheConfigurationChange() throws {
        let home = try TemporaryALSAHome("avengine-fail") { dir in
            "pcm.engine_failing { type file slave.pcm \"null\" file \"\(dir.path)/out.raw\" format \"raw\" }\n"
        }
        defer { home.restore() }
        let engine = AVAudioEngine()
        XCTAssertEqual(setCurrentDevice(engine.outputNode.audioUnit!, "engine_failing"), noErr)
        let source = AVAudioSourceNode { _, _, frames, list in
            for buffer in UnsafeMutableAudioBufferListPointer(list) { if let data = buffer.mData { memset(data, 0, Int(frames) * 4) } }
            return noErr
        }
        engine.attach(source)
        let format = AVAudioFormat(standardFormatWithSampleRate: engine.outputNode.outputFormat(forBus: 0).sampleRate, channels: 2)
        engine.connect(source, to: engine.mainMixerNode, format: format)
        let changes = Counter()
        let observer = NotificationCenter.default.addObserver(forName: .AVAudioEngineConfigurationChange, object: engine, queue: nil) {
            _ in changes.add(1)
        }
        defer { NotificationCenter.default.removeObserver(observer) }

        // The engine's own stop is not a change of configuration.
        try engine.start()
        XCTAssertTrue(engine.isRunning)
        engine.stop()
        XCTAssertEqual(changes.value, 0)

        let previousHandler = signal(SIGXFSZ, SIG_IGN)
        var saved = rlimit()
        getrlimit(Int32(RLIMIT_FSIZE.rawValue), &saved)
        var limited = saved
        limited.rlim_cur = min(saved.rlim_cur, 1 << 20)
        setrlimit(Int32(RLIMIT_FSIZE.rawValue), &limited)
        defer {
            setrlimit(Int32(RLIMIT_FSIZE.rawValue), &saved)
            signal(SIGXFSZ, previousHandler)
        }
        try engine.start()
        XCTAssertTrue(changes.wait(atLeast: 1), "no AVAudioEngineConfigurationChange after the device failed")
        XCTAssertFalse(engine.isRunning)
        XCTAssertEqual(changes.value, 1)
        engine.stop()
    }
}

/// A counter shared with callbacks on other threads, with a deadline-bound wait.
private final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    var value: Int { lock.withLock { count } }
    func add(_ n: Int) { lock.withLock { count += n } }
    /// Waits (15 s at most: a deadline, not a timing) until the count reaches `target`.
    func wait(atLeast target: Int) -> Bool {
        let deadline = Date().addingTimeInterval(15)
        while value < target && Date() < deadline { usleep(5_000) }
        return value >= target
    }
}

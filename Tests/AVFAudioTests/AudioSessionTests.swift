import AVFAudio
import CALSA
import Foundation
import XCTest

/// The session's Linux meanings: categories kept, preferred values asked of the device, granted
/// values read back.
final class AudioSessionTests: XCTestCase {
    override func tearDown() {
        let session = AVAudioSession.sharedInstance()
        try? session.setActive(false)
        try? session.setPreferredSampleRate(0)
        try? session.setPreferredIOBufferDuration(0)
        try? session.setCategory(.soloAmbient, mode: .default, options: [])
    }

    func testCategoryModeAndOptionsReadBackAsSet() throws {
        let session = AVAudioSession.sharedInstance()
        try session.setCategory(.playback, mode: .measurement, options: [.mixWithOthers, .duckOthers])
        XCTAssertEqual(session.category, .playback)
        XCTAssertEqual(session.mode, .measurement)
        XCTAssertEqual(session.categoryOptions, [.mixWithOthers, .duckOthers])
        try session.setActive(true)
        assertThrowsStatus(kAudio_ParamError, "negative rate") { try session.setPreferredSampleRate(-1) }
    }

    func testPreferredRateAndDurationAreAskedOfTheDeviceAndTheGrantedOnesReadBack() throws {
        let session = AVAudioSession.sharedInstance()
        try session.setPreferredSampleRate(32_000)
        try session.setPreferredIOBufferDuration(0.004)
        let engine = AVAudioEngine()
        let unit = engine.outputNode.audioUnit!
        var rate: Float64 = 0
        var size = UInt32(8)
        XCTAssertEqual(AudioUnitGetProperty(unit, kAUHostALSAProperty_PreferredSampleRate, kAudioUnitScope_Global, 0, &rate, &size), noErr)
        XCTAssertEqual(rate, 32_000)
        var frames: UInt32 = 0
        size = 4
        XCTAssertEqual(
            AudioUnitGetProperty(unit, kAUHostALSAProperty_PreferredPeriodFrames, kAudioUnitScope_Global, 0, &frames, &size), noErr)
        XCTAssertEqual(frames, 128, "4 ms at 32 kHz")

        // alsa-lib's null PCM grants what it is asked.
        let name = CFStringCreateWithCString(nil, "null", CFStringBuiltInEncodings.UTF8.rawValue)!
        var reference: Unmanaged<CFString>? = Unmanaged.passUnretained(name)
        XCTAssertEqual(
            AudioUnitSetProperty(
                unit, kAudioOutputUnitProperty_CurrentDevice, kAudioUnitScope_Global, 0, &reference,
                UInt32(MemoryLayout<Unmanaged<CFString>?>.size)), noErr)
        _ = engine.mainMixerNode
        try engine.start()
        engine.stop()
        XCTAssertEqual(session.sampleRate, 32_000)
        XCTAssertEqual(session.ioBufferDuration, 0.004, accuracy: 1e-12)
    }

    /// While the session is active, the ALSA "default" PCM losing its capture side posts a route
    /// change (oldDeviceUnavailable), getting it back another (newDeviceAvailable), and a category
    /// change a third (categoryChange); isInputAvailable follows the device. "default" is switched
    /// by rewriting ~/.asoundrc of a temporary HOME, as the C session's tests do.
    func testRouteChangesAreNotifiedWhileActiveAndInputAvailabilityFollowsTheDevice() throws {
        let savedHome = ProcessInfo.processInfo.environment["HOME"]
        let home = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("avsession-route-\(getpid())")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        setenv("HOME", home.path, 1)
        defer {
            if let savedHome { setenv("HOME", savedHome, 1) }
            snd_config_update_free_global()
            try? FileManager.default.removeItem(at: home)
        }
        XCTAssertTrue(FileManager.default.createFile(atPath: home.appendingPathComponent("in.raw").path, contents: Data()))
        let duplex = "{ type file slave.pcm \"null\" file \"/dev/null\" infile \"\(home.path)/in.raw\" format \"raw\" }"
        let playbackOnly = "{ type asym playback.pcm { type file slave.pcm \"null\" file \"/dev/null\" format \"raw\" } }"
        func setDefault(_ definition: String) throws {
            try "pcm.!default \(definition)\n".write(to: home.appendingPathComponent(".asoundrc"), atomically: true, encoding: .utf8)
            snd_config_update_free_global()
        }
        try setDefault(duplex)
        let session = AVAudioSession.sharedInstance()
        try session.setActive(false)  // an earlier test may have left it active, watching another HOME
        XCTAssertTrue(session.isInputAvailable)

        let reasons = Reasons()
        let observer = NotificationCenter.default.addObserver(forName: AVAudioSession.routeChangeNotification, object: session, queue: nil)
        {
            reasons.append(($0.userInfo?[AVAudioSessionRouteChangeReasonKey] as? UInt).flatMap(AVAudioSession.RouteChangeReason.init))
        }
        defer { NotificationCenter.default.removeObserver(observer) }
        try session.setActive(true)
        defer { try? session.setActive(false) }
        Thread.sleep(forTimeInterval: 0.4)  // the watcher has read the starting state
        try setDefault(playbackOnly)
        XCTAssertTrue(reasons.wait(for: 1), "no route change when the capture side went")
        XCTAssertFalse(session.isInputAvailable)
        try setDefault(duplex)
        XCTAssertTrue(reasons.wait(for: 2), "no route change when the capture side came back")
        XCTAssertTrue(session.isInputAvailable)
        try session.setCategory(.record)
        XCTAssertEqual(reasons.all, [.oldDeviceUnavailable, .newDeviceAvailable, .categoryChange])
    }
}

/// Route-change reasons as the observer receives them (on the watcher thread).
private final class Reasons: @unchecked Sendable {
    private let lock = NSLock()
    private var values: [AVAudioSession.RouteChangeReason?] = []
    func append(_ reason: AVAudioSession.RouteChangeReason?) { lock.withLock { values.append(reason) } }
    var all: [AVAudioSession.RouteChangeReason?] { lock.withLock { values } }
    /// Waits (5 s at most: a deadline, not a timing) until `count` reasons arrived.
    func wait(for count: Int) -> Bool {
        let deadline = Date(timeIntervalSinceNow: 5)
        while all.count < count && Date() < deadline { usleep(20_000) }
        return all.count >= count
    }
}

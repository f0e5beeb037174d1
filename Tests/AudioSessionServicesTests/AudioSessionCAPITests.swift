import AUHost
import AudioToolbox
import CALSA
import Foundation
import XCTest

/// The audio session over the ALSA PCM "default", switched between a duplex file PCM and a
/// playback-only one by rewriting ~/.asoundrc of a temporary HOME (HOME is restored afterwards).
final class AudioSessionCAPITests: XCTestCase {
    private var home: URL!
    private var savedHome: String?

    override func setUp() {
        savedHome = ProcessInfo.processInfo.environment["HOME"]
        home = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("audiosession-tests-\(getpid())")
        try? FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        setenv("HOME", home.path, 1)
        unsetenv("ALSA_CONFIG_PATH")
        // The session is the process's: initialize it once (a second call is the documented error).
        let status = AudioSessionInitialize(nil, nil, nil, nil)
        XCTAssertTrue(status == noErr || status == kAudioSessionAlreadyInitialized)
    }

    override func tearDown() {
        if let savedHome { setenv("HOME", savedHome, 1) }
        snd_config_update_free_global()
        try? FileManager.default.removeItem(at: home)
    }

    /// Makes "default" the PCM `definition` (ALSA re-reads its configuration on the next open).
    private func setDefault(_ definition: String) throws {
        try "pcm.!default \(definition)\n".write(to: home.appendingPathComponent(".asoundrc"), atomically: true, encoding: .utf8)
        snd_config_update_free_global()
    }

    private func uint32(_ id: AudioSessionPropertyID) -> (OSStatus, UInt32) {
        var value: UInt32 = 99
        var size = UInt32(4)
        let status = AudioSessionGetProperty(id, &size, &value)
        return (status, value)
    }

    private var duplex: String {
        "{ type file slave.pcm \"null\" file \"/dev/null\" infile \"\(home.path)/in.raw\" format \"raw\" }"
    }

    /// Input is available with a capture device and not without one; the answer follows the device.
    func testAudioInputAvailableFollowsTheCaptureDevice() throws {
        XCTAssertTrue(FileManager.default.createFile(atPath: home.appendingPathComponent("in.raw").path, contents: Data()))
        try setDefault(duplex)
        XCTAssertTrue(uint32(kAudioSessionProperty_AudioInputAvailable) == (noErr, 1), "a capture device: yes")
        XCTAssertTrue(uint32(kAudioSessionProperty_CurrentHardwareInputNumberChannels) == (noErr, 2))
        try setDefault("{ type asym playback.pcm { type file slave.pcm \"null\" file \"/dev/null\" format \"raw\" } }")
        XCTAssertTrue(uint32(kAudioSessionProperty_AudioInputAvailable) == (noErr, 0), "playback only: no")
        XCTAssertTrue(uint32(kAudioSessionProperty_CurrentHardwareInputNumberChannels) == (noErr, 0))
        try setDefault(duplex)
        XCTAssertTrue(uint32(kAudioSessionProperty_AudioInputAvailable) == (noErr, 1), "the device is back: yes")
    }

    /// A listener for AudioInputAvailable runs on the session's run loop (the main one: NULL was
    /// given) when the capture device goes away and again when it comes back, with the new value.
    func testInputAvailabilityListenerFiresWhenTheDeviceGoesAndComes() throws {
        XCTAssertTrue(FileManager.default.createFile(atPath: home.appendingPathComponent("in.raw").path, contents: Data()))
        try setDefault(duplex)
        let log = AvailabilityLog()
        XCTAssertEqual(AudioSessionAddPropertyListener(kAudioSessionProperty_AudioInputAvailable, availabilityListener, log.refCon), noErr)
        defer {
            XCTAssertEqual(
                AudioSessionRemovePropertyListenerWithUserData(kAudioSessionProperty_AudioInputAvailable, availabilityListener, log.refCon),
                noErr)
        }
        Thread.sleep(forTimeInterval: 0.4)  // the watcher has read the starting state
        try setDefault("{ type asym playback.pcm { type file slave.pcm \"null\" file \"/dev/null\" format \"raw\" } }")
        let deadline = Date(timeIntervalSinceNow: 5)
        while log.values.isEmpty, Date() < deadline { _ = CFRunLoopRunInMode(kCFRunLoopDefaultMode, 0.05, false) }
        XCTAssertEqual(log.values, [0], "the device went away")
        try setDefault(duplex)
        while log.values.count < 2, Date() < deadline + 5 { _ = CFRunLoopRunInMode(kCFRunLoopDefaultMode, 0.05, false) }
        XCTAssertEqual(log.values, [0, 1], "the device came back")
        XCTAssertEqual(log.threads, [UInt(pthread_self())], "listeners ran on the run loop's thread")
    }

    /// The hardware rate and buffer duration are what ALSA grants for the preferred values (the
    /// file PCM over null grants any rate); the category reads back; misuse answers Apple's errors.
    func testHardwareValuesCategoryAndErrors() throws {
        try setDefault(duplex)
        var rate: Float64 = 0
        var size = UInt32(8)
        XCTAssertEqual(AudioSessionGetProperty(kAudioSessionProperty_CurrentHardwareSampleRate, &size, &rate), noErr)
        XCTAssertEqual(rate, 48_000, "none preferred: 48 kHz asked")
        var preferred: Float64 = 44_100
        XCTAssertEqual(AudioSessionSetProperty(kAudioSessionProperty_PreferredHardwareSampleRate, 8, &preferred), noErr)
        var duration: Float32 = 0.01
        XCTAssertEqual(AudioSessionSetProperty(kAudioSessionProperty_PreferredHardwareIOBufferDuration, 4, &duration), noErr)
        XCTAssertEqual(AudioSessionGetProperty(kAudioSessionProperty_CurrentHardwareSampleRate, &size, &rate), noErr)
        XCTAssertEqual(rate, 44_100)
        var granted: Float32 = 0
        size = 4
        XCTAssertEqual(AudioSessionGetProperty(kAudioSessionProperty_CurrentHardwareIOBufferDuration, &size, &granted), noErr)
        XCTAssertEqual(granted, Float32(441) / 44_100, accuracy: 1e-6, "a 441-frame period")
        XCTAssertTrue(uint32(kAudioSessionProperty_CurrentHardwareOutputNumberChannels) == (noErr, 2))
        var none: Float64 = 0
        XCTAssertEqual(AudioSessionSetProperty(kAudioSessionProperty_PreferredHardwareSampleRate, 8, &none), noErr)
        var noDuration: Float32 = 0
        XCTAssertEqual(AudioSessionSetProperty(kAudioSessionProperty_PreferredHardwareIOBufferDuration, 4, &noDuration), noErr)

        var category = kAudioSessionCategory_PlayAndRecord
        XCTAssertEqual(AudioSessionSetProperty(kAudioSessionProperty_AudioCategory, 4, &category), noErr)
        XCTAssertTrue(uint32(kAudioSessionProperty_AudioCategory) == (noErr, kAudioSessionCategory_PlayAndRecord))
        XCTAssertEqual(AudioSessionSetActive(1), noErr)
        XCTAssertEqual(AudioSessionSetActive(0), noErr)

        XCTAssertEqual(AudioSessionInitialize(nil, nil, nil, nil), kAudioSessionAlreadyInitialized)
        var bad: UInt32 = 0x6E6F_6E65
        XCTAssertEqual(AudioSessionSetProperty(kAudioSessionProperty_AudioCategory, 4, &bad), kAudioSessionUnsupportedPropertyError)
        XCTAssertEqual(AudioSessionSetProperty(kAudioSessionProperty_AudioCategory, 2, &category), kAudioSessionBadPropertySizeError)
        XCTAssertEqual(
            AudioSessionSetProperty(kAudioSessionProperty_AudioInputAvailable, 4, &category), kAudioSessionUnsupportedPropertyError)
        var small: UInt8 = 0
        size = 1
        XCTAssertEqual(AudioSessionGetProperty(kAudioSessionProperty_AudioCategory, &size, &small), kAudioSessionBadPropertySizeError)
        size = 4
        XCTAssertEqual(AudioSessionGetProperty(0x6E6F_6E65, &size, &small), kAudioSessionUnsupportedPropertyError)
    }
}

/// What an AudioInputAvailable listener saw.
final class AvailabilityLog: @unchecked Sendable {
    var values: [UInt32] = []
    var threads: Set<UInt> = []
    var refCon: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }
}

let availabilityListener: AudioSessionPropertyListener = { clientData, _, size, data in
    let log = Unmanaged<AvailabilityLog>.fromOpaque(clientData!).takeUnretainedValue()
    if size == 4, let data { log.values.append(data.loadUnaligned(as: UInt32.self)) }
    log.threads.insert(UInt(pthread_self()))
}

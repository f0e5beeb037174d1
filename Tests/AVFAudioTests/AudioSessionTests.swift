import AVFAudio
import Foundation
import XCTest

/// The session's Linux meanings: categories kept, preferred values asked of the device, granted
/// values read back.
final class AudioSessionTests: XCTestCase {
    override func tearDown() {
        let session = AVAudioSession.sharedInstance()
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
}

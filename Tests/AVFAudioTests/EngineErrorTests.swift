import AVFAudio
import Foundation
import XCTest

/// Bad input gives a clear error with the status Apple's units give, never a crash.
final class EngineErrorTests: XCTestCase {
    func testConnectingANodeThatIsNotAttachedMakesStartThrowNodeNotFoundOnce() throws {
        let rig = OfflineRig()
        let player = AVAudioPlayerNode()
        rig.engine.connect(player, to: rig.engine.mainMixerNode, format: rig.format)
        try rig.enable()
        assertThrowsStatus(kAUGraphErr_NodeNotFound, "start after a connect from an unattached node") { try rig.engine.start() }
        XCTAssertNil(rig.engine.configurationError, "start hands the error over once")
        try rig.engine.start()
        XCTAssertTrue(rig.engine.isRunning)
    }

    func testRenderOfflineRefusesWhenNotManualNotStartedOrGivenTheWrongBuffer() throws {
        let rig = OfflineRig()
        let buffer = AVAudioPCMBuffer(pcmFormat: rig.format, frameCapacity: 512)!
        assertThrowsStatus(kAudioUnitErr_CannotDoInCurrentContext, "not in manual rendering mode") {
            _ = try rig.engine.renderOffline(512, to: buffer)
        }
        _ = rig.engine.mainMixerNode
        try rig.enable()
        assertThrowsStatus(kAudioUnitErr_Uninitialized, "before start") { _ = try rig.engine.renderOffline(512, to: buffer) }
        try rig.engine.start()
        let stereo = AVAudioPCMBuffer(pcmFormat: AVAudioFormat(standardFormatWithSampleRate: 48_000, channels: 2)!, frameCapacity: 512)!
        assertThrowsStatus(kAudioUnitErr_FormatNotSupported, "a buffer of another format") {
            _ = try rig.engine.renderOffline(512, to: stereo)
        }
        let big = AVAudioPCMBuffer(pcmFormat: rig.format, frameCapacity: 1024)!
        assertThrowsStatus(kAudioUnitErr_TooManyFramesToProcess, "more than the maximum frame count") {
            _ = try rig.engine.renderOffline(1024, to: big)
        }
        XCTAssertEqual(try rig.engine.renderOffline(512, to: buffer), .success)
        XCTAssertEqual(rig.engine.manualRenderingSampleTime, 512)
    }

    func testEnablingManualRenderingWhileRunningIsRefused() throws {
        let rig = OfflineRig()
        _ = rig.engine.mainMixerNode
        try rig.enable()
        try rig.engine.start()
        assertThrowsStatus(kAudioUnitErr_CannotDoInCurrentContext, "enable while running") { try rig.enable() }
    }

    func testATapInAnotherFormatThanItsBusIsRefused() throws {
        let rig = OfflineRig()
        try rig.enable()
        rig.engine.mainMixerNode.installTap(
            onBus: 0, bufferSize: 256, format: AVAudioFormat(standardFormatWithSampleRate: 44_100, channels: 2)
        ) { _, _ in }
        assertThrowsStatus(kAudioUnitErr_FormatNotSupported, "tap format") { try rig.engine.start() }
    }

    func testABufferInAnotherFormatThanThePlayersIsRefused() throws {
        let rig = OfflineRig()
        let player = AVAudioPlayerNode()
        rig.engine.attach(player)
        rig.engine.connect(player, to: rig.engine.mainMixerNode, format: rig.format)
        try rig.enable()
        player.scheduleBuffer(makeBuffer([[1, 2, 3]], sampleRate: 44_100))
        assertThrowsStatus(kAudioUnitErr_FormatNotSupported, "buffer format") { try rig.engine.start() }
    }

    func testAPlayerCannotTakeAnInterleavedIntegerConnection() throws {
        let rig = OfflineRig()
        let player = AVAudioPlayerNode()
        rig.engine.attach(player)
        rig.engine.connect(
            player, to: rig.engine.mainMixerNode,
            format: AVAudioFormat(commonFormat: .pcmFormatInt16, sampleRate: 48_000, channels: 2, interleaved: true))
        assertThrowsStatus(kAudioUnitErr_FormatNotSupported, "int16 player") { try rig.engine.start() }
    }

    func testAnEffectNoUnitMatchesIsRefusedAtAttach() throws {
        let rig = OfflineRig()
        let missing = AVAudioUnitEffect(
            audioComponentDescription: AudioComponentDescription(
                componentType: kAudioUnitType_Effect, componentSubType: 0x6E6F_6E65, componentManufacturer: 0x6E6F_6E65, componentFlags: 0,
                componentFlagsMask: 0))
        rig.engine.attach(missing)
        XCTAssertNil(missing.engine)
        assertThrowsStatus(kAUGraphErr_InvalidAudioUnit, "missing unit") { try rig.engine.start() }
    }

    func testInstantiatingAMissingComponentReportsAnError() {
        var result: (AVAudioUnit?, Error?) = (nil, nil)
        AVAudioUnit.instantiate(
            with: AudioComponentDescription(
                componentType: kAudioUnitType_Effect, componentSubType: 0x6E6F_6E65, componentManufacturer: 0, componentFlags: 0,
                componentFlagsMask: 0), options: []
        ) { result = ($0, $1) }
        XCTAssertNil(result.0)
        XCTAssertEqual((result.1 as NSError?)?.code, Int(kAUGraphErr_InvalidAudioUnit))
    }

    func testAVAudioFileRefusesAnUnknownExtensionAndAMissingFile() {
        assertThrowsStatus(kAudioFileUnsupportedFileTypeError, "unknown extension") {
            _ = try AVAudioFile(
                forWriting: URL(fileURLWithPath: NSTemporaryDirectory() + "x.mp9"),
                settings: [AVSampleRateKey: 44_100, AVNumberOfChannelsKey: 1])
        }
        XCTAssertThrowsError(try AVAudioFile(forReading: URL(fileURLWithPath: "/nonexistent/file.wav")))
    }

    func testAConverterBetweenRatesTooFarApartIsNil() {
        let a = AVAudioFormat(standardFormatWithSampleRate: 8_000, channels: 1)!
        let b = AVAudioFormat(standardFormatWithSampleRate: 768_000, channels: 1)!
        XCTAssertNil(AVAudioConverter(from: a, to: b))
        XCTAssertNotNil(AVAudioConverter(from: a, to: AVAudioFormat(standardFormatWithSampleRate: 16_000, channels: 2)!))
    }
}

import ALSADevice
import AudioToolbox
import XCTest

final class PCMDeviceTests: XCTestCase {
    override func setUp() { _ = ALSATestEnvironment.directory }

    /// An unknown PCM name fails with InvalidPropertyValue and a sentence naming the device and
    /// giving ALSA's reason.
    func testAbsentDeviceFailsNamingIt() {
        XCTAssertThrowsError(try PCMDevice(name: "alsadev_no_such_pcm", direction: .playback)) { error in
            guard let error = error as? ALSAError else { return XCTFail("not an ALSAError: \(error)") }
            XCTAssertEqual(error.status, OSStatus(kAudioUnitErr_InvalidPropertyValue))
            XCTAssertTrue(error.message.contains("\"alsadev_no_such_pcm\""), error.message)
            XCTAssertTrue(error.message.contains(ALSAError.reason(error.alsaCode)), error.message)
            XCTAssertLessThan(error.alsaCode, 0)
        }
    }

    /// Granted values are read back from the device (null grants what it is asked).
    func testConfigureReadsBackGrantedValues() throws {
        let device = try PCMDevice(name: "alsadev_raw_out", direction: .playback)
        let granted = try device.configure(
            PCMRequest(
                sampleRate: 44_100, channels: 3, format: .s24Packed3LE,
                access: .nonInterleaved, periodFrames: 128, periodCount: 3))
        XCTAssertEqual(granted.sampleRate, 44_100)
        XCTAssertEqual(granted.channels, 3)
        XCTAssertEqual(granted.format, .s24Packed3LE)
        XCTAssertEqual(granted.access, .nonInterleaved)
        XCTAssertEqual(granted.periodFrames, 128)
        XCTAssertEqual(granted.periodCount, 3)
        XCTAssertEqual(granted.bufferFrames, 384)
        XCTAssertEqual(device.configuration, granted)
    }

    /// Software parameters are installed and read back.
    func testSoftwareParametersRoundTrip() throws {
        let device = try PCMDevice(name: "alsadev_raw_out", direction: .playback)
        XCTAssertThrowsError(try device.applySoftwareParameters(PCMSoftwareParameters(startThreshold: 1, availMin: 1))) {
            XCTAssertEqual(($0 as? ALSAError)?.status, OSStatus(kAudioUnitErr_Uninitialized))
        }
        try device.configure(PCMRequest(periodFrames: 64, periodCount: 4))
        let applied = try device.applySoftwareParameters(PCMSoftwareParameters(startThreshold: 192, availMin: 64))
        XCTAssertEqual(applied, PCMSoftwareParameters(startThreshold: 192, availMin: 64))
        XCTAssertEqual(try device.softwareParameters(), applied)
    }

    /// A format the device refuses is FormatNotSupported, and the message lists what it accepts.
    func testRefusedFormatListsAcceptedOnes() throws {
        let device = try PCMDevice(name: "alsadev_integer_only", direction: .playback)
        XCTAssertThrowsError(try device.configure(PCMRequest(format: .float32LE, periodFrames: 64, periodCount: 2))) { error in
            guard let error = error as? ALSAError else { return XCTFail("not an ALSAError: \(error)") }
            XCTAssertEqual(error.status, OSStatus(kAudioUnitErr_FormatNotSupported))
            XCTAssertTrue(error.message.contains("FLOAT_LE"), error.message)
            XCTAssertTrue(error.message.contains("accepts S16_LE"), error.message)
            XCTAssertTrue(error.message.contains("alsadev_integer_only"), error.message)
        }
        XCTAssertEqual(try device.configure(PCMRequest(format: .s32LE, periodFrames: 64, periodCount: 2)).format, .s32LE)
    }

    /// Impossible requests are ParamError, not an ALSA call.
    func testZeroChannelsIsAParamError() throws {
        let device = try PCMDevice(name: "alsadev_raw_out", direction: .playback)
        XCTAssertThrowsError(try device.configure(PCMRequest(channels: 0))) {
            XCTAssertEqual(($0 as? ALSAError)?.status, OSStatus(kAudio_ParamError))
        }
    }
}

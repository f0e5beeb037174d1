import AVFAudio
import Foundation
import XCTest

/// Formats, buffers and times as Apple's documentation describes them.
final class DataTypeTests: XCTestCase {
    func testStandardAndCommonFormatsDescribeTheirStreams() {
        let standard = AVAudioFormat(standardFormatWithSampleRate: 44_100, channels: 2)!
        XCTAssertTrue(standard.isStandard)
        XCTAssertFalse(standard.isInterleaved)
        XCTAssertEqual(standard.commonFormat, .pcmFormatFloat32)
        XCTAssertEqual(standard.streamDescription.pointee.mBytesPerFrame, 4)
        XCTAssertEqual(standard.streamDescription.pointee.mFormatFlags & kAudioFormatFlagIsNonInterleaved, kAudioFormatFlagIsNonInterleaved)
        let int16 = AVAudioFormat(commonFormat: .pcmFormatInt16, sampleRate: 48_000, channels: 2, interleaved: true)!
        XCTAssertTrue(int16.isInterleaved)
        XCTAssertEqual(int16.streamDescription.pointee.mBytesPerFrame, 4)
        XCTAssertFalse(int16.isStandard)
        XCTAssertNotEqual(standard, int16)
        XCTAssertEqual(standard, AVAudioFormat(standardFormatWithSampleRate: 44_100, channels: 2)!)
        XCTAssertNil(AVAudioFormat(standardFormatWithSampleRate: 44_100, channels: 0))
        XCTAssertNil(AVAudioFormat(commonFormat: .otherFormat, sampleRate: 44_100, channels: 1, interleaved: false))
        let fromSettings = AVAudioFormat(settings: int16.settings)!
        XCTAssertEqual(fromSettings, int16)
        let layout = AVAudioChannelLayout(layoutTag: kAudioChannelLayoutTag_Stereo)!
        XCTAssertEqual(AVAudioFormat(standardFormatWithSampleRate: 44_100, channelLayout: layout).channelCount, 2)
    }

    /// Numbers no format can have give nil, never a trap: UInt32(_:) of a negative, fractional,
    /// NaN or huge Double, and frame sizes past UInt32 (a caller's settings dictionary).
    func testFormatsOfImpossibleNumbersAreNil() {
        let pcm: [String: Any] = [AVFormatIDKey: Int(kAudioFormatLinearPCM), AVSampleRateKey: 48_000.0, AVNumberOfChannelsKey: 2]
        XCTAssertNotNil(AVAudioFormat(settings: pcm))
        for (key, value) in [
            (AVNumberOfChannelsKey, 1e12), (AVNumberOfChannelsKey, 2.5), (AVNumberOfChannelsKey, 5_000.0),
            (AVLinearPCMBitDepthKey, -16.0), (AVLinearPCMBitDepthKey, Double.nan), (AVLinearPCMBitDepthKey, 1e30),
            (AVSampleRateKey, Double.infinity),
        ] as [(String, Double)] {
            XCTAssertNil(AVAudioFormat(settings: pcm.merging([key: value]) { $1 }), "\(key) = \(value)")
        }
        XCTAssertNil(AVAudioFormat(standardFormatWithSampleRate: 44_100, channels: 1_000_000_000))
        XCTAssertNil(AVAudioFormat(standardFormatWithSampleRate: .nan, channels: 2))
    }

    func testPCMBufferFrameLengthSetsTheBufferListSizesAndChannelDataMatchesTheFormat() {
        let buffer = AVAudioPCMBuffer(pcmFormat: AVAudioFormat(standardFormatWithSampleRate: 44_100, channels: 2)!, frameCapacity: 100)!
        XCTAssertEqual(buffer.frameLength, 0)
        buffer.frameLength = 40
        let list = UnsafeMutableAudioBufferListPointer(buffer.mutableAudioBufferList)
        XCTAssertEqual(list.count, 2)
        XCTAssertEqual(list[1].mDataByteSize, 160)
        XCTAssertEqual(list[1].mData, UnsafeMutableRawPointer(buffer.floatChannelData![1]))
        XCTAssertNil(buffer.int16ChannelData)
        buffer.frameLength = 1_000
        XCTAssertEqual(buffer.frameLength, 100, "frameLength stays within the capacity")

        let interleaved = AVAudioPCMBuffer(
            pcmFormat: AVAudioFormat(commonFormat: .pcmFormatInt32, sampleRate: 8_000, channels: 3, interleaved: true)!, frameCapacity: 10)!
        XCTAssertEqual(interleaved.stride, 3)
        XCTAssertEqual(UnsafeMutableAudioBufferListPointer(interleaved.mutableAudioBufferList).count, 1)
        XCTAssertEqual(interleaved.int32ChannelData![2] - interleaved.int32ChannelData![0], 2, "channel c starts at sample c")
        XCTAssertNil(interleaved.floatChannelData)
    }

    func testTimesConvertBetweenSampleAndHostTime() {
        let anchor = AVAudioTime(hostTime: 1_000_000_000, sampleTime: 48_000, atRate: 48_000)
        let later = AVAudioTime(sampleTime: 72_000, atRate: 48_000).extrapolateTime(fromAnchor: anchor)!
        XCTAssertEqual(later.hostTime, 1_500_000_000)
        XCTAssertTrue(later.isHostTimeValid && later.isSampleTimeValid)
        let byHost = AVAudioTime(hostTime: 2_000_000_000).extrapolateTime(fromAnchor: anchor)!
        XCTAssertEqual(byHost.sampleTime, 96_000)
        XCTAssertEqual(AVAudioTime.seconds(forHostTime: AVAudioTime.hostTime(forSeconds: 1.25)), 1.25)
        XCTAssertNil(AVAudioTime(sampleTime: 1, atRate: 48_000).extrapolateTime(fromAnchor: AVAudioTime(sampleTime: 0, atRate: 48_000)))
    }
}

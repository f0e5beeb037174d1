import AudioToolbox
import Foundation

/// A number of sample frames (Apple's AVAudioFrameCount).
public typealias AVAudioFrameCount = UInt32
/// A position in frames in a file or on a timeline (Apple's AVAudioFramePosition).
public typealias AVAudioFramePosition = Int64
/// A number of packets (Apple's AVAudioPacketCount).
public typealias AVAudioPacketCount = UInt32
/// A number of channels (Apple's AVAudioChannelCount).
public typealias AVAudioChannelCount = UInt32
/// A bus of a node (Apple's AVAudioNodeBus).
public typealias AVAudioNodeBus = Int

/// The sample formats AVAudioFormat names directly.
public enum AVAudioCommonFormat: UInt, Sendable {
    case otherFormat = 0
    case pcmFormatFloat32 = 1
    case pcmFormatFloat64 = 2
    case pcmFormatInt16 = 3
    case pcmFormatInt32 = 4
}

// Settings dictionary keys (AVAudioSettings.h), with Apple's string values.
public let AVFormatIDKey = "AVFormatIDKey"
public let AVSampleRateKey = "AVSampleRateKey"
public let AVNumberOfChannelsKey = "AVNumberOfChannelsKey"
public let AVLinearPCMBitDepthKey = "AVLinearPCMBitDepthKey"
public let AVLinearPCMIsBigEndianKey = "AVLinearPCMIsBigEndianKey"
public let AVLinearPCMIsFloatKey = "AVLinearPCMIsFloatKey"
public let AVLinearPCMIsNonInterleaved = "AVLinearPCMIsNonInterleaved"
public let AVChannelLayoutKey = "AVChannelLayoutKey"
/// The source bit depth of a lossless format (FLAC: 16, 20, 24 or 32).
public let AVEncoderBitDepthHintKey = "AVEncoderBitDepthHintKey"

/// Where a call leaves its error (Apple's NSErrorPointer is an autoreleasing pointer, which needs
/// the Objective-C runtime; `&error` on an `NSError?` variable passes either).
public typealias NSErrorPointer = UnsafeMutablePointer<NSError?>?

import AudioToolbox
import Foundation

/// A moment in time (Apple's AVAudioTime): a sample time at a rate, a host time, or both. Host
/// time here is CLOCK_MONOTONIC in nanoseconds (a host-time tick is 1 ns).
///
/// Thread: any (immutable).
public final class AVAudioTime: CustomStringConvertible {
    public let audioTimeStamp: AudioTimeStamp
    public let sampleRate: Double

    /// Thread: any.
    public init(audioTimeStamp ts: UnsafePointer<AudioTimeStamp>, sampleRate: Double) {
        audioTimeStamp = ts.pointee
        self.sampleRate = sampleRate
    }

    /// Thread: any.
    public init(hostTime: UInt64) {
        var ts = AudioTimeStamp()
        ts.mHostTime = hostTime
        ts.mFlags = .hostTimeValid
        audioTimeStamp = ts
        sampleRate = 0
    }

    /// Thread: any.
    public init(sampleTime: AVAudioFramePosition, atRate sampleRate: Double) {
        var ts = AudioTimeStamp()
        ts.mSampleTime = Double(sampleTime)
        ts.mFlags = .sampleTimeValid
        audioTimeStamp = ts
        self.sampleRate = sampleRate
    }

    /// Thread: any.
    public init(hostTime: UInt64, sampleTime: AVAudioFramePosition, atRate sampleRate: Double) {
        var ts = AudioTimeStamp()
        ts.mSampleTime = Double(sampleTime)
        ts.mHostTime = hostTime
        ts.mFlags = [.sampleTimeValid, .hostTimeValid]
        audioTimeStamp = ts
        self.sampleRate = sampleRate
    }

    /// Thread: any.
    public var isSampleTimeValid: Bool { audioTimeStamp.mFlags.contains(.sampleTimeValid) }
    /// Thread: any.
    public var isHostTimeValid: Bool { audioTimeStamp.mFlags.contains(.hostTimeValid) }
    /// Thread: any.
    public var sampleTime: AVAudioFramePosition { AVAudioFramePosition(audioTimeStamp.mSampleTime) }
    /// Thread: any.
    public var hostTime: UInt64 { audioTimeStamp.mHostTime }

    /// The host time `seconds` from host time zero.
    ///
    /// Thread: any.
    public static func hostTime(forSeconds seconds: TimeInterval) -> UInt64 { UInt64((seconds * 1e9).rounded()) }
    /// Thread: any.
    public static func seconds(forHostTime hostTime: UInt64) -> TimeInterval { Double(hostTime) / 1e9 }

    /// This time completed from an anchor that has both times: a sample time alone gains the host
    /// time, a host time alone the sample time (nil when the anchor lacks either).
    ///
    /// Thread: any.
    public func extrapolateTime(fromAnchor anchor: AVAudioTime) -> AVAudioTime? {
        guard anchor.isSampleTimeValid, anchor.isHostTimeValid, anchor.sampleRate > 0 else { return nil }
        let rate = isSampleTimeValid && sampleRate > 0 ? sampleRate : anchor.sampleRate
        if isSampleTimeValid {
            let seconds = (Double(sampleTime) - anchor.audioTimeStamp.mSampleTime) / rate
            let host = Int64(anchor.hostTime) + Int64((seconds * 1e9).rounded())
            return AVAudioTime(hostTime: UInt64(max(host, 0)), sampleTime: sampleTime, atRate: rate)
        }
        guard isHostTimeValid else { return nil }
        let seconds = (Double(hostTime) - Double(anchor.hostTime)) / 1e9
        let sample = anchor.audioTimeStamp.mSampleTime + seconds * rate
        return AVAudioTime(hostTime: hostTime, sampleTime: AVAudioFramePosition(sample.rounded()), atRate: rate)
    }

    /// Thread: any.
    public var description: String {
        "<AVAudioTime: host \(isHostTimeValid ? "\(hostTime)" : "-"), sample \(isSampleTimeValid ? "\(sampleTime)" : "-") @ \(sampleRate) Hz>"
    }
}

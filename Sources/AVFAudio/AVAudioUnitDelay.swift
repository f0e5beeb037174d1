import AudioToolbox
import Foundation

/// A delay (Apple's AVAudioUnitDelay) over the built-in delay ('aufx' 'dely').
///
/// Thread: setup to make; parameters from any thread.
public final class AVAudioUnitDelay: AVAudioUnitEffect {
    static let delay = AudioComponentDescription(
        componentType: kAudioUnitType_Effect, componentSubType: kAudioUnitSubType_Delay,
        componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0)

    /// Thread: setup.
    public init() {
        super.init(unit: try! makeUnit(AVAudioUnitDelay.delay))  // built in: always there
    }

    /// Seconds (0…2). Thread: any.
    public var delayTime: TimeInterval {
        get { TimeInterval(parameter(unit, kDelayParam_DelayTime)) }
        set { setParameter(unit, kDelayParam_DelayTime, Float(newValue)) }
    }
    /// Percent of the output fed back (−100…100). Thread: any.
    public var feedback: Float {
        get { parameter(unit, kDelayParam_Feedback) }
        set { setParameter(unit, kDelayParam_Feedback, newValue) }
    }
    /// Hz (10…rate/2). Thread: any.
    public var lowPassCutoff: Float {
        get { parameter(unit, kDelayParam_LopassCutoff) }
        set { setParameter(unit, kDelayParam_LopassCutoff, newValue) }
    }
    /// Percent wet (0…100). Thread: any.
    public var wetDryMix: Float {
        get { parameter(unit, kDelayParam_WetDryMix) }
        set { setParameter(unit, kDelayParam_WetDryMix, newValue) }
    }
}

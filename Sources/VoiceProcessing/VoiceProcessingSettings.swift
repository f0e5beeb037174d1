import AUHostCore
import CWebRTCProcessing

/// Which stages of the voice processing run (webrtc-audio-processing's components).
///
/// The defaults are PipeWire's echo-cancel defaults with gain control on, as Apple's
/// voice-processing unit has it (kAUVoiceIOProperty_VoiceProcessingEnableAGC defaults to 1):
/// echo cancellation with the extended (128 ms) filter and the canceller's own delay estimate
/// (the reported delay is a starting point), noise suppression, moderate suppression of residual
/// echo and noise (high took too much of a near-end talker in double talk, see
/// `SuppressionLevel`), gain control (adaptive digital) and the high-pass filter.
///
/// Thread: any (a value).
public struct VoiceProcessingSettings: Equatable, Sendable {
    /// Echo cancellation against the far-end reference.
    public var echoCancellation = true
    /// Stationary noise suppression.
    public var noiseSuppression = true
    /// Automatic gain control (adaptive digital); can be toggled while rendering.
    public var gainControl = true
    /// A high-pass filter removing DC and rumble.
    public var highPassFilter = true
    /// The canceller's 128 ms filter instead of 48 ms (longer rooms, less reliable delays).
    public var extendedFilter = true
    /// The canceller estimates the far-end/microphone delay itself.
    public var delayAgnostic = true
    /// How hard the residual echo and the noise are suppressed.
    public var suppressionLevel = SuppressionLevel.moderate

    /// How hard the canceller's residual echo suppressor and the noise suppressor work (the raw
    /// values are those of kAUHostVoiceIOProperty_SuppressionLevel), as webrtc's (echo, noise)
    /// suppression levels: low (low, low), moderate (low, moderate), high (high, high: the former
    /// default), very high (high, very high). Moderate is the default: the echo suppressor is
    /// what takes a near-end talker down in double talk; high kept a correlation with the clean
    /// talker of only 0.73 at 16 kHz and 0.59 at 48 kHz where moderate keeps 0.89 and 0.85, with
    /// ERLE still ≥ 26 dB (VoiceDoubleTalkTests).
    public enum SuppressionLevel: UInt32, Sendable, CaseIterable {
        case low = 0, moderate = 1, high = 2, veryHigh = 3

        /// webrtc's echo suppression level (0 low, 1 moderate, 2 high).
        var echo: Int32 { rawValue >= 2 ? 2 : 0 }
        /// webrtc's noise suppression level (0 low … 3 very high).
        var noise: Int32 { Int32(rawValue) }
    }

    /// The defaults above.
    public init() {}

    var c: auhost_webrtc_config {
        auhost_webrtc_config(
            echo_cancellation: echoCancellation ? 1 : 0, noise_suppression: noiseSuppression ? 1 : 0,
            gain_control: gainControl ? 1 : 0, high_pass_filter: highPassFilter ? 1 : 0,
            extended_filter: extendedFilter ? 1 : 0, delay_agnostic: delayAgnostic ? 1 : 0,
            echo_suppression_level: suppressionLevel.echo, noise_suppression_level: suppressionLevel.noise)
    }
}

/// The canceller's own echo figures (webrtc's estimates, refreshed once a second of processing).
///
/// Thread: any (a value).
public struct VoiceProcessingMetrics: Equatable, Sendable {
    /// False until the canceller has produced figures (about a second of far-end signal).
    public var valid: Bool
    /// Echo return loss enhancement (dB): the last second's, and the long-term average.
    public var erleInstant: Int
    public var erleAverage: Int
    /// Echo return loss (dB, long-term average): far end to microphone echo.
    public var erlAverage: Int
    /// The canceller's delay estimate (ms): median and standard deviation over the last second.
    public var delayMedianMilliseconds: Int
    public var delayDeviationMilliseconds: Int
    /// 10 ms chunks processed.
    public var chunks: Int

    init(_ m: auhost_webrtc_metrics) {
        valid = m.valid != 0
        erleInstant = Int(m.erle_instant)
        erleAverage = Int(m.erle_average)
        erlAverage = Int(m.erl_average)
        delayMedianMilliseconds = Int(m.delay_median_ms)
        delayDeviationMilliseconds = Int(m.delay_std_ms)
        chunks = Int(m.chunks)
    }
}

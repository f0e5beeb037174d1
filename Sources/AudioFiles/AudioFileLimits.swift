import AudioToolbox

/// What a file's header may declare before anything is allocated or rendered from it. Stated
/// once here and in docs/RELIABILITY.md; a header outside them is refused with
/// kAudioFileInvalidFileError and a sentence naming the file.
public enum AudioFileLimits {
    /// Sample rates: the one range every boundary uses (kAUHostMinimumSampleRate …
    /// kAUHostMaximumSampleRate in AudioUnitProperties.h: 1 Hz … 1.536 MHz, twice the highest PCM
    /// rate interfaces offer). A 2 GHz header would size a delay line at 16 GB.
    public static let sampleRates: ClosedRange<Double> = kAUHostMinimumSampleRate...kAUHostMaximumSampleRate
    /// Channels per frame: libsndfile's own limit (SF_MAX_CHANNELS). Per-channel scratch is
    /// 4096 frames × 8 bytes, so at most 32 MB per open file.
    public static let channels: ClosedRange<Int> = 1...1024
    /// A length header at or above this (libsndfile's SF_COUNT_MAX for "unknown", a truncated
    /// Ogg stream) is not a length: readers read to the real end instead.
    public static let plausibleFrames: Int64 = 1 << 40

    /// Whether `rate` is a rate a header may declare. Thread: any.
    public static func accepts(sampleRate rate: Double) -> Bool { rate.isFinite && sampleRates.contains(rate) }
}

/// What a caller asks a PCM for. Rate, channels, period size and period count are negotiated
/// (`_near`): read the granted values back from `PCMConfiguration`. Format and access are exact.
public struct PCMRequest: Sendable, Equatable {
    /// Frames per second.
    public var sampleRate: Int
    /// Samples per frame.
    public var channels: Int
    /// Device sample format.
    public var format: PCMSampleFormat
    /// Interleaved or one buffer per channel.
    public var access: PCMAccess
    /// Frames per period (the unit of one render call).
    public var periodFrames: Int
    /// Periods in the device buffer.
    public var periodCount: Int

    /// A request; defaults are 48 kHz stereo float, interleaved, 2 × 256 frames.
    /// Thread: any.
    public init(
        sampleRate: Int = 48_000, channels: Int = 2, format: PCMSampleFormat = .float32LE,
        access: PCMAccess = .interleaved, periodFrames: Int = 256, periodCount: Int = 2
    ) {
        self.sampleRate = sampleRate
        self.channels = channels
        self.format = format
        self.access = access
        self.periodFrames = periodFrames
        self.periodCount = periodCount
    }
}

/// What the device actually granted, read back after `snd_pcm_hw_params`.
public struct PCMConfiguration: Sendable, Equatable {
    /// Granted frames per second.
    public var sampleRate: Int
    /// Granted samples per frame.
    public var channels: Int
    /// Granted sample format (always the requested one).
    public var format: PCMSampleFormat
    /// Granted access (always the requested one).
    public var access: PCMAccess
    /// Granted frames per period.
    public var periodFrames: Int
    /// Granted periods per buffer.
    public var periodCount: Int
    /// Granted buffer size in frames (may differ from periodFrames × periodCount).
    public var bufferFrames: Int

    /// Bytes in one frame of device memory.
    /// Thread: any.
    public var bytesPerFrame: Int { channels * format.bytesPerSample }
}

/// Software parameters of a configured PCM (`snd_pcm_sw_params`).
public struct PCMSoftwareParameters: Sendable, Equatable {
    /// Frames that must be queued (playback) or requested (capture) before the device starts by
    /// itself; a value above the buffer size means "start explicitly".
    public var startThreshold: Int
    /// Frames that must be available before a wait on the device returns.
    public var availMin: Int

    /// Parameters from their two values.
    /// Thread: any.
    public init(startThreshold: Int, availMin: Int) {
        self.startThreshold = startThreshold
        self.availMin = availMin
    }
}

import CALSA

/// Which way audio moves through a PCM.
public enum PCMDirection: String, Sendable, CaseIterable {
    /// Host → device (an output).
    case playback
    /// Device → host (an input).
    case capture

    var alsaStream: snd_pcm_stream_t {
        self == .playback ? SND_PCM_STREAM_PLAYBACK : SND_PCM_STREAM_CAPTURE
    }
}

/// How the device lays out channels in memory.
public enum PCMAccess: String, Sendable, CaseIterable {
    /// Frames of consecutive channel samples in one buffer (`SND_PCM_ACCESS_RW_INTERLEAVED`).
    case interleaved
    /// One buffer per channel (`SND_PCM_ACCESS_RW_NONINTERLEAVED`).
    case nonInterleaved

    var alsaAccess: snd_pcm_access_t {
        self == .interleaved ? SND_PCM_ACCESS_RW_INTERLEAVED : SND_PCM_ACCESS_RW_NONINTERLEAVED
    }
}

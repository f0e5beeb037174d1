import CALSA
import Foundation

/// What the ALSA PCM "default" offers, asked the way the session's properties document: open it,
/// ask for a rate, period and channel count, read what ALSA grants, close it. The audio session's
/// C API and AVAudioSession both answer from here.
public enum DefaultDevice {
    struct Offer {
        var sampleRate: Double
        var periodSeconds: Double
        var channels: UInt32
    }

    /// Whether "default" has a capture side: it opens for capture, or is busy (held by a program,
    /// this one included, so it is there).
    ///
    /// Thread: setup.
    public static func hasCapture() -> Bool { opens(SND_PCM_STREAM_CAPTURE) }

    /// Whether "default" has a playback side (opens, or is busy). Thread: setup.
    public static func hasPlayback() -> Bool { opens(SND_PCM_STREAM_PLAYBACK) }

    /// What "default" depends on, cheap to read: the cards the kernel has and the configuration
    /// files' modification times. Watchers probe the PCM again only when it changes (each probe of
    /// a "default" with no card behind it makes alsa-lib print errors on stderr).
    ///
    /// Thread: any.
    public static func configurationFingerprint() -> String {
        let environment = ProcessInfo.processInfo.environment
        let files = [
            environment["ALSA_CONFIG_PATH"] ?? "/usr/share/alsa/alsa.conf", "/etc/asound.conf",
            (environment["HOME"] ?? "") + "/.asoundrc",
            (environment["XDG_CONFIG_HOME"] ?? (environment["HOME"] ?? "") + "/.config") + "/alsa/asoundrc",
        ]
        let times = files.map { path -> String in
            var info = stat()
            guard stat(path, &info) == 0 else { return path + " -" }
            return "\(path) \(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec) \(info.st_size)"
        }
        let cards = (try? String(contentsOfFile: "/proc/asound/cards", encoding: .utf8)) ?? "no cards"
        return (times + [cards]).joined(separator: "\n")
    }

    private static func opens(_ stream: snd_pcm_stream_t) -> Bool {
        var pcm: OpaquePointer?
        let status = snd_pcm_open(&pcm, "default", stream, SND_PCM_NONBLOCK)
        if status == 0, let pcm { snd_pcm_close(pcm) }
        return status == 0 || status == -EBUSY
    }

    /// nil when "default" does not open in that direction.
    ///
    /// Thread: setup.
    static func offer(capture: Bool, preferredRate: Double?, preferredPeriodSeconds: Double?) -> Offer? {
        var pcm: OpaquePointer?
        guard snd_pcm_open(&pcm, "default", capture ? SND_PCM_STREAM_CAPTURE : SND_PCM_STREAM_PLAYBACK, SND_PCM_NONBLOCK) == 0,
            let pcm
        else { return nil }
        defer { snd_pcm_close(pcm) }
        var params: OpaquePointer?
        guard snd_pcm_hw_params_malloc(&params) == 0, let params else { return nil }
        defer { snd_pcm_hw_params_free(params) }
        guard snd_pcm_hw_params_any(pcm, params) >= 0 else { return nil }
        var rate = UInt32((preferredRate ?? 48_000).rounded())
        var channels: UInt32 = 2
        _ = snd_pcm_hw_params_set_channels_near(pcm, params, &channels)
        _ = snd_pcm_hw_params_set_rate_near(pcm, params, &rate, nil)
        if let preferredPeriodSeconds {
            var period = snd_pcm_uframes_t((preferredPeriodSeconds * Double(rate)).rounded())
            _ = snd_pcm_hw_params_set_period_size_near(pcm, params, &period, nil)
        }
        guard snd_pcm_hw_params(pcm, params) == 0 else { return nil }
        var granted: snd_pcm_uframes_t = 0
        _ = snd_pcm_hw_params_get_period_size(params, &granted, nil)
        return Offer(sampleRate: Double(rate), periodSeconds: Double(granted) / Double(max(rate, 1)), channels: channels)
    }
}

import AudioToolbox
import CALSA

extension PCMDevice {
    /// Negotiates hardware parameters: format and access exactly, then rate, channels, period size
    /// and period count as near as the device allows, installs them (`snd_pcm_hw_params`, which
    /// also prepares the PCM) and returns what was granted.
    ///
    /// Throws `ALSAError`: `kAudio_ParamError` for impossible values, `kAudioUnitErr_FormatNotSupported`
    /// (listing the formats it does accept) for a refused format or access,
    /// `kAudioUnitErr_FailedInitialization` for anything else.
    /// Thread: setup (non-real-time).
    @discardableResult
    public func configure(_ request: PCMRequest) throws -> PCMConfiguration {
        let pcm = try openHandle("configuring it")
        guard request.sampleRate > 0, request.channels > 0, request.periodFrames > 0, request.periodCount > 0 else {
            throw ALSAError(
                status: OSStatus(kAudio_ParamError),
                message: "Request for ALSA device \"\(name)\" has a zero or negative value "
                    + "(rate \(request.sampleRate), channels \(request.channels), period "
                    + "\(request.periodFrames) × \(request.periodCount)); every value must be positive.")
        }
        var params: OpaquePointer?
        guard snd_pcm_hw_params_malloc(&params) == 0, let params else {
            throw ALSAError(status: OSStatus(kAudio_MemFullError), message: "Out of memory configuring \"\(name)\".")
        }
        defer { snd_pcm_hw_params_free(params) }
        configuration = nil
        _ = snd_pcm_hw_free(pcm)

        func check(_ code: Int32, _ what: String) throws {
            if code < 0 { throw ALSAError.configuring(name, what, code: code) }
        }
        try check(snd_pcm_hw_params_any(pcm, params), "any hardware configuration")
        var code = snd_pcm_hw_params_set_access(pcm, params, request.access.alsaAccess)
        if code < 0 {
            throw ALSAError.configuring(
                name, "\(request.access) access", code: code,
                status: kAudioUnitErr_FormatNotSupported,
                detail: "; ask for the other access mode")
        }
        code = snd_pcm_hw_params_set_format(pcm, params, request.format.alsaFormat)
        if code < 0 {
            let accepted = PCMSampleFormat.allCases
                .filter { snd_pcm_hw_params_test_format(pcm, params, $0.alsaFormat) == 0 }
                .map(\.rawValue)
            throw ALSAError.configuring(
                name, "sample format \(request.format.rawValue)", code: code,
                status: kAudioUnitErr_FormatNotSupported,
                detail:
                    "; it accepts \(accepted.isEmpty ? "none of S16_LE, S24_LE, S24_3LE, S32_LE, FLOAT_LE" : accepted.joined(separator: ", ")) (use a plug PCM to convert)"
            )
        }
        var channels = UInt32(request.channels)
        try check(snd_pcm_hw_params_set_channels_near(pcm, params, &channels), "\(request.channels) channels")
        var rate = UInt32(request.sampleRate)
        var dir: Int32 = 0
        try check(snd_pcm_hw_params_set_rate_near(pcm, params, &rate, &dir), "a rate near \(request.sampleRate) Hz")
        var period = snd_pcm_uframes_t(request.periodFrames)
        dir = 0
        try check(
            snd_pcm_hw_params_set_period_size_near(pcm, params, &period, &dir),
            "a period near \(request.periodFrames) frames")
        var periods = UInt32(request.periodCount)
        dir = 0
        try check(
            snd_pcm_hw_params_set_periods_near(pcm, params, &periods, &dir),
            "\(request.periodCount) periods")
        try check(snd_pcm_hw_params(pcm, params), "the negotiated configuration")

        // Read back from the installed parameters: that is what the device runs with.
        var granted = PCMConfiguration(
            sampleRate: 0, channels: 0, format: request.format, access: request.access,
            periodFrames: 0, periodCount: 0, bufferFrames: 0)
        try check(snd_pcm_hw_params_current(pcm, params), "reading back its configuration")
        _ = snd_pcm_hw_params_get_rate(params, &rate, &dir)
        _ = snd_pcm_hw_params_get_channels(params, &channels)
        _ = snd_pcm_hw_params_get_period_size(params, &period, &dir)
        _ = snd_pcm_hw_params_get_periods(params, &periods, &dir)
        var buffer = snd_pcm_uframes_t(0)
        _ = snd_pcm_hw_params_get_buffer_size(params, &buffer)
        granted.sampleRate = Int(rate)
        granted.channels = Int(channels)
        granted.periodFrames = Int(period)
        granted.periodCount = Int(periods)
        granted.bufferFrames = Int(buffer)
        configuration = granted
        return granted
    }
}

import AudioToolbox
import CALSA

extension PCMDevice {
    /// Installs a start threshold and avail_min (clamped by alsa-lib as it sees fit) and returns
    /// the values read back. Requires a configured device.
    /// Throws `ALSAError` (`kAudioUnitErr_Uninitialized` before `configure`).
    /// Thread: setup (non-real-time).
    @discardableResult
    public func applySoftwareParameters(_ wanted: PCMSoftwareParameters) throws -> PCMSoftwareParameters {
        let pcm = try openHandle("setting software parameters")
        guard configuration != nil else {
            throw ALSAError(
                status: OSStatus(kAudioUnitErr_Uninitialized),
                message: "ALSA device \"\(name)\" has no hardware configuration; call configure(_:) first.")
        }
        var params: OpaquePointer?
        guard snd_pcm_sw_params_malloc(&params) == 0, let params else {
            throw ALSAError(status: OSStatus(kAudio_MemFullError), message: "Out of memory configuring \"\(name)\".")
        }
        defer { snd_pcm_sw_params_free(params) }
        func check(_ code: Int32, _ what: String) throws {
            if code < 0 { throw ALSAError.configuring(name, what, code: code) }
        }
        try check(snd_pcm_sw_params_current(pcm, params), "reading its software parameters")
        var boundary = snd_pcm_uframes_t(0)
        _ = snd_pcm_sw_params_get_boundary(params, &boundary)
        let start = min(snd_pcm_uframes_t(max(wanted.startThreshold, 0)), boundary)
        try check(snd_pcm_sw_params_set_start_threshold(pcm, params, start), "start threshold \(wanted.startThreshold)")
        try check(
            snd_pcm_sw_params_set_avail_min(pcm, params, snd_pcm_uframes_t(max(wanted.availMin, 1))),
            "avail_min \(wanted.availMin)")
        try check(snd_pcm_sw_params(pcm, params), "the software parameters")
        return try softwareParameters()
    }

    /// The software parameters currently installed.
    /// Thread: setup (non-real-time).
    public func softwareParameters() throws -> PCMSoftwareParameters {
        let pcm = try openHandle("reading software parameters")
        var params: OpaquePointer?
        guard snd_pcm_sw_params_malloc(&params) == 0, let params else {
            throw ALSAError(status: OSStatus(kAudio_MemFullError), message: "Out of memory reading \"\(name)\".")
        }
        defer { snd_pcm_sw_params_free(params) }
        let code = snd_pcm_sw_params_current(pcm, params)
        if code < 0 { throw ALSAError.configuring(name, "reading its software parameters", code: code) }
        var start = snd_pcm_uframes_t(0), availMin = snd_pcm_uframes_t(0)
        _ = snd_pcm_sw_params_get_start_threshold(params, &start)
        _ = snd_pcm_sw_params_get_avail_min(params, &availMin)
        return PCMSoftwareParameters(startThreshold: Int(start), availMin: Int(availMin))
    }

    /// The largest frame position alsa-lib uses (`boundary`): a start threshold this large
    /// means "never start by itself".
    func boundary() -> Int {
        guard let handle else { return Int(Int32.max) }
        var params: OpaquePointer?
        guard snd_pcm_sw_params_malloc(&params) == 0, let params else { return Int(Int32.max) }
        defer { snd_pcm_sw_params_free(params) }
        _ = snd_pcm_sw_params_current(handle, params)
        var boundary = snd_pcm_uframes_t(0)
        _ = snd_pcm_sw_params_get_boundary(params, &boundary)
        return Int(boundary)
    }
}

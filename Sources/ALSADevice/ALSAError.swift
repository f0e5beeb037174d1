import AudioToolbox
import CALSA

/// A failed ALSA operation: a documented OSStatus plus a sentence naming the device, what was
/// being done, the ALSA reason (`snd_strerror`) and what to do about it.
///
/// Status choices (numbers from the AudioToolbox headers):
/// - `kAudioUnitErr_InvalidPropertyValue` (-10851): no PCM of that name exists (ENOENT, ENODEV,
///   ENXIO at open). The name reaches the I/O unit as `kAudioOutputUnitProperty_CurrentDevice`,
///   so a missing device is a bad value of that property.
/// - `kAudioUnitErr_CannotDoInCurrentContext` (-10863): the device is busy (EBUSY/EAGAIN at open),
///   or a stream call came in the wrong state (start while running).
/// - `kAudio_FilePermissionError` (-54): EACCES/EPERM at open.
/// - `kAudioUnitErr_FormatNotSupported` (-10868): the device refuses the requested sample format
///   or access, or a full-duplex pair disagrees on rate or period.
/// - `kAudio_ParamError` (-50): a request value that can never be valid (zero channels, ...).
/// - `kAudioUnitErr_Uninitialized` (-10867): a stream was given an unconfigured device.
/// - `kAudioUnitErr_FailedInitialization` (-10875): any other failure while opening/configuring.
/// - `kAudioUnitErr_NoConnection` (-10876): a running stream lost its device (persistent error,
///   device gone, or no audio moving) and stopped.
public struct ALSAError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The documented status code the C API returns for this failure.
    public let status: OSStatus
    /// One sentence: what failed, on which device, why (ALSA's words), what to do.
    public let message: String
    /// The negative errno alsa-lib returned, or 0 when the failure did not come from alsa-lib.
    public let alsaCode: Int32

    /// Makes an error from its parts.
    /// Thread: any.
    public init(status: OSStatus, message: String, alsaCode: Int32 = 0) {
        self.status = status
        self.message = message
        self.alsaCode = alsaCode
    }

    /// The message followed by the status number.
    /// Thread: any.
    public var description: String { "\(message) (OSStatus \(status))" }

    /// alsa-lib's description of a negative error code (`snd_strerror`).
    /// Thread: any.
    public static func reason(_ code: Int32) -> String {
        String(cString: snd_strerror(code))
    }
}

extension ALSAError {
    /// The error for a failed `snd_pcm_open`.
    static func opening(_ name: String, _ direction: PCMDirection, code: Int32) -> ALSAError {
        let reason = ALSAError.reason(code)
        let status: OSStatus
        let advice: String
        switch -code {
        case ENOENT, ENODEV, ENXIO:
            status = OSStatus(kAudioUnitErr_InvalidPropertyValue)
            advice = "check the name with `aplay -L` or your asoundrc"
        case EBUSY, EAGAIN:
            status = OSStatus(kAudioUnitErr_CannotDoInCurrentContext)
            advice = "another program is using it; close that program or use a sharing PCM such as dmix"
        case EACCES, EPERM:
            status = OSStatus(kAudio_FilePermissionError)
            advice = "add your user to the audio group or fix the device permissions"
        default:
            status = OSStatus(kAudioUnitErr_FailedInitialization)
            advice = "check the device's configuration"
        }
        return ALSAError(
            status: status,
            message: "Cannot open ALSA \(direction) device \"\(name)\": \(reason); \(advice).",
            alsaCode: code)
    }

    /// The error for a failed hardware or software parameter call while configuring.
    static func configuring(
        _ name: String, _ what: String, code: Int32,
        status: Int32 = kAudioUnitErr_FailedInitialization, detail: String = ""
    ) -> ALSAError {
        ALSAError(
            status: OSStatus(status),
            message: "ALSA device \"\(name)\" refused \(what): \(ALSAError.reason(code))\(detail).",
            alsaCode: code)
    }
}

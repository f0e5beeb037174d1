import AudioToolbox
import CALSA

/// One open ALSA PCM (playback or capture), configured with the "ask, then read back" pattern.
///
/// ```swift
/// let out = try PCMDevice(name: "default", direction: .playback)
/// let granted = try out.configure(PCMRequest(sampleRate: 48_000, channels: 2, format: .s16LE,
///                                            periodFrames: 256, periodCount: 2))
/// print(granted.periodFrames)   // what the device accepted
/// ```
/// A device belongs to one stream at a time; configure it before handing it to `PCMStream`.
public final class PCMDevice {
    /// The ALSA PCM name it was opened with ("default", "hw:1,0", a PCM from an asoundrc).
    public let name: String
    /// Playback or capture.
    public let direction: PCMDirection
    /// What the device granted at the last successful `configure`, nil before.
    public internal(set) var configuration: PCMConfiguration?
    /// The alsa-lib handle (`snd_pcm_t *`); nil after `close()`.
    public private(set) var handle: OpaquePointer?

    /// Opens the PCM `name` in blocking mode (a stream switches it to non-blocking while it runs).
    /// Throws `ALSAError` naming the device and ALSA's reason; see `ALSAError` for the statuses.
    /// Thread: setup (non-real-time).
    public init(name: String, direction: PCMDirection) throws {
        self.name = name
        self.direction = direction
        var pcm: OpaquePointer?
        let code = snd_pcm_open(&pcm, name, direction.alsaStream, 0)
        guard code == 0, let pcm else { throw ALSAError.opening(name, direction, code: code) }
        handle = pcm
    }

    deinit { close() }

    /// Closes the PCM (a `file` PCM finishes its file here). Idempotent.
    /// Thread: setup (non-real-time).
    public func close() {
        if let handle { snd_pcm_close(handle) }
        handle = nil
        configuration = nil
    }

    func openHandle(_ what: String) throws -> OpaquePointer {
        guard let handle else {
            throw ALSAError(
                status: OSStatus(kAudioUnitErr_Uninitialized),
                message: "ALSA device \"\(name)\" is closed; open a new PCMDevice before \(what).")
        }
        return handle
    }
}

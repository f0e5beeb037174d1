import ArgumentParser
import AUHost

/// `auhost capture --voice-processing`: record through the voice-processing I/O unit ('auou'
/// 'vpio' 'appl', webrtc-audio-processing) instead of the plain ALSA I/O unit — noise
/// suppression, gain control and high-pass on the microphone. Capture plays nothing, so the echo
/// canceller has no far end to remove here; a unit that also plays (an app, a graph) gets it.
struct VoiceCaptureOptions: ParsableArguments {
    @Flag(
        name: .customLong("voice-processing"),
        help: "Record through the voice-processing I/O unit (noise suppression, gain control, high-pass).")
    var enabled = false

    @Flag(name: .customLong("no-agc"), help: "With --voice-processing: leave automatic gain control off.")
    var noGainControl = false

    /// Thread: setup.
    func validate(rate: Double, channels: UInt32) throws {
        if noGainControl && !enabled { throw ValidationError("--no-agc goes with --voice-processing.") }
        guard enabled else { return }
        guard channels <= 2 else { throw ValidationError("--voice-processing records 1 or 2 channels, not \(channels).") }
        guard rate.truncatingRemainder(dividingBy: 100) == 0 else {
            throw ValidationError("--voice-processing works in 10 ms chunks: --rate must be divisible by 100, not \(rate).")
        }
    }

    /// The I/O unit capture records through.
    var ioDescription: AudioComponentDescription {
        enabled
            ? AudioComponentDescription(
                componentType: kAudioUnitType_Output, componentSubType: kAudioUnitSubType_VoiceProcessingIO,
                componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0)
            : AudioComponentDescription(
                componentType: kAudioUnitType_Output, componentSubType: OSType(kAudioUnitSubType_AUHostALSAIO),
                componentManufacturer: kAudioUnitManufacturer_AUHost, componentFlags: 0, componentFlagsMask: 0)
    }

    /// Sets gain control as asked. Thread: setup.
    func configure(_ io: AudioUnitInstance) throws {
        guard enabled else { return }
        var agc: UInt32 = noGainControl ? 0 : 1
        try AudioError.check(
            AudioUnitSetProperty(io.handle, kAUVoiceIOProperty_VoiceProcessingEnableAGC, kAudioUnitScope_Global, 0, &agc, 4),
            "Setting gain control failed.")
    }

    /// One line on what processing ran. Thread: setup.
    func report(_ io: AudioUnitInstance) {
        guard enabled else { return }
        var latency: Float64 = 0
        var size = UInt32(8)
        AudioUnitGetProperty(io.handle, kAudioUnitProperty_Latency, kAudioUnitScope_Global, 0, &latency, &size)
        print(
            "Voice processing: noise suppression, high-pass\(noGainControl ? "" : ", gain control") and echo cancellation (no far end played); latency \(String(format: "%.1f", latency * 1000)) ms."
        )
    }
}

import AUHostCore

/// Contributes the offline voice-processing unit ('auou' 'vpof' 'AUHs'). A provider of its own
/// so that only builds that link webrtc-audio-processing list it. (The ALSA voice-processing unit,
/// 'auou' 'vpio' 'appl', comes with the ALSA provider.)
public final class VoiceProcessingProvider: ComponentProvider {
    public let name = "voice-processing"

    /// Thread: setup.
    public init() {}

    /// Thread: setup.
    public func components() -> [Component] {
        [
            Component(
                description: VoiceProcessingOfflineUnit.identity, aliases: [], name: "AUHost: Voice Processing (offline)",
                version: 0x0001_0000, origin: "built-in (webrtc-audio-processing)", unit: { VoiceProcessingOfflineUnit($0) })
        ]
    }
}

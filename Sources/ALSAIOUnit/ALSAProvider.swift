import AUHostCore

/// Contributes the ALSA I/O unit to the registry under AUHost's identity ('auou' 'alsa' 'AUHs')
/// and, with Apple's manufacturer, the documented I/O subtypes RemoteIO, HALOutput and
/// DefaultOutput, so ported code that asks for any of them (manufacturer Apple or 0) gets the
/// ALSA unit on the "default" PCM. A separate provider (not part of `BuiltInProvider`) so that
/// the built-in units do not link alsa-lib. The voice-processing I/O unit ('auou' 'vpio' 'appl')
/// is the ALSA unit with webrtc-audio-processing on its input.
public final class ALSAProvider: ComponentProvider {
    public let name = "alsa"

    /// Thread: setup.
    public init() {}

    /// The one component; the unit answers to whichever description found it.
    ///
    /// Thread: setup.
    public func components() -> [Component] {
        let aliases = [kAudioUnitSubType_RemoteIO, kAudioUnitSubType_HALOutput, kAudioUnitSubType_DefaultOutput].map {
            AudioComponentDescription(type: kAudioUnitType_Output, subType: $0, manufacturer: kAudioUnitManufacturer_Apple)
        }
        return [
            Component(
                description: ALSAIOUnit.identity, aliases: aliases, name: "AUHost: ALSA I/O",
                version: 0x0001_0000, origin: "built-in (alsa-lib)", unit: { ALSAIOUnit($0) }),
            Component(
                description: VoiceProcessingIOUnit.voiceIdentity, aliases: [], name: "AUHost: ALSA Voice-Processing I/O",
                version: 0x0001_0000, origin: "built-in (alsa-lib, webrtc-audio-processing)", unit: { VoiceProcessingIOUnit($0) }),
        ]
    }
}

import AUHostCore

/// AUHost's own units, under its manufacturer code, each also answering to the documented
/// identity (Apple's manufacturer) so that ported code finds it unchanged.
public final class BuiltInProvider: ComponentProvider {
    public let name = "built-in"

    public init() {}

    /// Thread: setup.
    public func components() -> [Component] {
        [
            unit(GenericOutput.identity, "Generic Output") { GenericOutput($0) },
            unit(DelayUnit.identity, "Delay") { DelayUnit($0) },
            unit(IPodEQUnit.identity, "iPod EQ") { IPodEQUnit($0) },
            unit(NBandEQUnit.identity, "N-Band EQ") { NBandEQUnit($0) },
            unit(MultiChannelMixerUnit.identity, "Multichannel Mixer") { MultiChannelMixerUnit($0) },
            unit(FormatConverterUnit.identity, "Format Converter") { FormatConverterUnit($0) },
            unit(Mixer3DUnit.identity, "3D Mixer") { Mixer3DUnit($0) },
            unit(AudioFilePlayerUnit.identity, "Audio File Player") { AudioFilePlayerUnit($0) },
            unit(ReverbUnit.identity, "Reverb 2") { ReverbUnit($0) },
            unit(DistortionUnit.identity, "Distortion") { DistortionUnit($0) },
            unit(NewTimePitchUnit.identity, "New Time Pitch") { NewTimePitchUnit($0) },
            unit(VarispeedUnit.identity, "Varispeed") { VarispeedUnit($0) },
        ]
    }

    private func unit(
        _ identity: AudioComponentDescription, _ name: String,
        make: @escaping (AudioComponentDescription) -> AUBase
    ) -> Component {
        var apple = identity
        apple.componentManufacturer = kAudioUnitManufacturer_Apple
        return Component(
            description: identity, aliases: [apple], name: "AUHost: \(name)", version: 0x0001_0000,
            origin: "built-in", unit: make)
    }
}

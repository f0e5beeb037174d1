import AUHostCore

/// Contributes the JACK I/O unit ('auou' 'jack' 'AUHs') to the registry. Its own provider so
/// that only builds that install it link libjack's client code paths.
public final class JACKProvider: ComponentProvider {
    public let name = "jack"

    /// Thread: setup.
    public init() {}

    /// Thread: setup.
    public func components() -> [Component] {
        [
            Component(
                description: JACKIOUnit.identity, aliases: [], name: "AUHost: JACK I/O", version: 0x0001_0000,
                origin: "built-in (libjack)", unit: { JACKIOUnit($0) })
        ]
    }
}

extension JACKIOUnit {
    /// The sample rate of the JACK server `server` ("default": $JACK_DEFAULT_SERVER), asked
    /// through a short-lived client, so a host can build its graph at that rate.
    /// Errors: kAudioUnitErr_NoConnection when no server answers.
    ///
    /// Thread: setup.
    public static func serverSampleRate(server: String = "default") throws -> Double {
        try JACKClient.sampleRate(server: server)
    }
}

import AUHostCore

/// Contributes the JACK I/O unit ('auou' 'jack' 'AUHs') to the registry. Not among the default
/// providers (the module links libjack, which libauhost and its users need not have): a program
/// that wants the unit calls ``installOnce()``, as `auhost` does at start.
public final class JACKProvider: ComponentProvider {
    public let name = "jack"

    /// Thread: setup.
    public init() {}

    private static let installed: Void = {
        _ = ComponentRegistry.shared.providers  // the default providers first, so searches find them first
        ComponentRegistry.shared.install(JACKProvider())
    }()

    /// Installs the provider after the default ones, once per process.
    ///
    /// Thread: setup.
    public static func installOnce() { installed }

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

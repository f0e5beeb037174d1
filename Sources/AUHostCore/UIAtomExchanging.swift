/// A unit whose plug-in's atoms reach an open UI through another process (an LV2 unit out of
/// process, AUHostIsolation.h): the UI's atom lines go to the plug-in's own rings and what it
/// wrote comes back, in one call at each of the UI's idles. A unit in this process is reached
/// through its rings directly (LV2PluginUIAtoms).
///
/// Thread: setup (the UI's idle).
public protocol UIAtomExchanging: AnyObject {
    /// Hands the plug-in `fromUI` (an atom input's port index and the atom as one line of Turtle,
    /// read with the plug-in side's URID map) and returns what it wrote on its atom outputs since
    /// the last call. Nil when the plug-in has no atom ports or another UI holds them.
    /// Errors: kAudioComponentErr_InstanceInvalidated when the unit's process is gone.
    func exchangeUIAtoms(_ fromUI: [UIAtomLine]) throws -> UIAtomExchange?
    /// Lets another UI take the atoms.
    func closeUIAtoms()
}

/// An atom on the way to or from a UI: the port index and the atom as one line of Turtle.
public struct UIAtomLine: Equatable {
    public var port: UInt32
    public var text: String
    public init(port: UInt32, text: String) {
        self.port = port
        self.text = text
    }
}

/// What one exchange brought back: the plug-in's atoms, and the atoms dropped so far on the far
/// side (refused or not fitting, toward the plug-in; unwritable or not fitting, toward the UI).
public struct UIAtomExchange {
    /// The most atom text one exchange carries each way (a control message holds 4 MiB); more
    /// waits for the next exchange (toward the UI) or is refused and counted (toward the plug-in).
    public static let maximumBytes = 2 << 20
    public var toUI: [UIAtomLine]
    public var droppedToPlugin: Int
    public var droppedToUI: Int
    public init(toUI: [UIAtomLine], droppedToPlugin: Int, droppedToUI: Int) {
        self.toUI = toUI
        self.droppedToPlugin = droppedToPlugin
        self.droppedToUI = droppedToUI
    }
}

/// A unit whose plug-in runs in a process of its own (AUHostIsolation.h) and can show a plug-in
/// UI in that process, beside the plug-in: the only place a UI that requires instance-access or
/// data-access can have the plug-in's handle. LV2PluginUI opens such UIs through it.
///
/// Thread: setup.
public protocol UnitProcessUIHosting: AnyObject {
    /// Starts the UI that `arguments` name (auhost_ui_host.h's arguments) in the unit's process,
    /// on the thread that instantiated the plug-in, and answers the socket that speaks the UI protocol (ui_host_child.h) with
    /// it. `display` nil: the process's own; `requestable` nil: ui:requestValue is unsupported.
    /// Errors: kAudioUnitErr_Uninitialized before Initialize (the UI needs the running plug-in),
    /// kAudioComponentErr_InstanceInvalidated when the unit's process is gone, else the process's.
    func openUIBesidePlugin(arguments: [String], display: String?, requestable: [String]?) throws -> UnitProcessUI
}

/// A UI running in a unit's process: the protocol socket (the caller closes it) and how to
/// learn whether that process died.
public struct UnitProcessUI {
    public let socket: Int32
    /// The signal that ended the unit's process, once it ended on one; nil while it runs.
    public let endSignal: () -> Int32?

    public init(socket: Int32, endSignal: @escaping () -> Int32?) {
        self.socket = socket
        self.endSignal = endSignal
    }
}

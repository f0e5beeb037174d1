import AUHostCore
import CUnitIsolation

/// A UI that needs the plug-in's instance runs in the unit's own process (opcode openUI): the
/// child passes back the UI's socket and shows it on its main thread, between control messages.
extension IsolatedUnit: UnitProcessUIHosting {
    /// Thread: setup.
    public func openUIBesidePlugin(arguments: [String], display: String?, requestable: [String]?) throws -> UnitProcessUI {
        lock.lock()
        defer { lock.unlock() }
        guard isInitialized else {
            throw AudioError(
                kAudioUnitErr_Uninitialized, "\(component.name): its UI needs the running plug-in; initialize the unit first.")
        }
        guard let process, auhost_iso_load(&cycle.pointee.fault) == 0 else {
            throw AudioError(kAudioComponentErr_InstanceInvalidated, faultDescription ?? "\(component.name) has no process.")
        }
        var w = ByteWriter()
        w.u32(UInt32(arguments.count))
        arguments.forEach { w.string($0) }
        w.string(display ?? "")
        w.u32(requestable == nil ? 0 : 1)
        w.string(requestable?.joined(separator: " ") ?? "")
        var socket: Int32 = -1
        try withChild(process, "opening a UI") { socket = try process.callReceivingDescriptor(.openUI, w.bytes) }
        // The process object is kept (not its child: Dispose ends that) so that a crash can be told.
        return UnitProcessUI(socket: socket) { process.endSignal }
    }
}

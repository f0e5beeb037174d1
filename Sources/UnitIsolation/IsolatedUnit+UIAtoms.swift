import AUHostCore
import CUnitIsolation

/// An open UI's atoms cross to the plug-in's own rings in the child (opcodes exchangeUIAtoms and
/// closeUIAtoms), at the UI's idle. What the child answers is read as untrusted: a malformed
/// reply is a fault of the unit, as any other.
extension IsolatedUnit: UIAtomExchanging {
    /// Thread: setup.
    public func exchangeUIAtoms(_ fromUI: [UIAtomLine]) throws -> UIAtomExchange? {
        lock.lock()
        defer { lock.unlock() }
        guard let process, auhost_iso_load(&cycle.pointee.fault) == 0 else {
            throw AudioError(kAudioComponentErr_InstanceInvalidated, faultDescription ?? "\(component.name) has no process.")
        }
        var exchange: UIAtomExchange?
        try withChild(process, "passing a UI's atoms") {
            var w = ByteWriter()
            w.atomLines(fromUI)
            var r = ByteReader(try process.call(.exchangeUIAtoms, w.bytes))
            guard try r.u32() == 1 else { return }
            let toPlugin = Int(try r.u32()), toUI = Int(try r.u32())
            exchange = UIAtomExchange(toUI: try r.atomLines(), droppedToPlugin: toPlugin, droppedToUI: toUI)
        }
        return exchange
    }

    /// Thread: setup.
    public func closeUIAtoms() {
        lock.lock()
        defer { lock.unlock() }
        guard let process, auhost_iso_load(&cycle.pointee.fault) == 0 else { return }
        try? withChild(process, "closing a UI's atoms") { _ = try process.call(.closeUIAtoms) }
    }
}

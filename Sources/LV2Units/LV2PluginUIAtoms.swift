import AUHostCore
import LV2Host

/// The host's side of atoms between an open UI and its in-process LV2 unit (the protocol's `a`
/// lines): what the UI wrote goes, read with the host's URID map, into the unit's ring for its
/// next run; what the plug-in wrote on its atom outputs comes out of the other ring as lines for
/// the UI. One UI per unit holds the rings (a second UI open at once gets no atoms); a unit out of
/// process has none. A line the UI sent that names no atom input, or is no atom, is refused and
/// counted, never trusted. Thread: setup (the owning LV2PluginUI's idle).
final class LV2PluginUIAtoms {
    /// Keeps the unit, and so the link's memory, alive while the UI is open.
    private let owner: LV2Unit
    private let link: LV2UIAtomLink
    private let map: LV2URIDMap
    /// Port index → the slot among the atom inputs (the order LV2PortBuffers connects them in).
    private let inputSlots: [UInt32: Int]
    /// Output slot → port index.
    private let outputPorts: [UInt32]
    private let buffer = UnsafeMutableRawPointer.allocate(byteCount: LV2UIAtomLink.receiveBufferSize, alignment: 16)
    /// Lines from the UI refused here (no such atom input, unreadable, too large), and events of
    /// the plug-in sratom could not write.
    private var refused = 0, unwritten = 0

    /// The rings of `unit` if it is an LV2 unit in this process with atom ports and no other UI
    /// holds them; nil otherwise.
    init?(unit: AudioUnit) {
        guard let lv2 = ComponentInstance.from(unit)?.unit as? LV2Unit, let link = lv2.uiAtoms, link.claim() else { return nil }
        owner = lv2
        self.link = link
        map = lv2.plugin.world.uridMap
        let atoms = lv2.plugin.ports.filter { $0.kind == .atom }
        inputSlots = Dictionary(uniqueKeysWithValues: atoms.filter { $0.direction == .input }.enumerated().map { (UInt32($1.index), $0) })
        outputPorts = atoms.filter { $0.direction != .input }.map { UInt32($0.index) }
    }

    deinit {
        link.release()
        buffer.deallocate()
    }

    /// Atoms dropped on the way to the plug-in (refused here, or the ring full) and to the UI.
    var dropped: (toPlugin: Int, toUI: Int) { (refused + link.droppedToPlugin, unwritten + link.droppedToUI) }

    /// An `a PORT ATOM` line's port and atom text, from the UI.
    func fromUI(port: Substring, text: Substring) {
        guard let port = UInt32(port), let slot = inputSlots[port], let atom = map.atom(fromLine: String(text)) else {
            refused += 1
            return
        }
        _ = atom.withUnsafeBytes { link.send(slot: slot, atom: $0.baseAddress!, size: $0.count) }
    }

    /// Sends every event the plug-in wrote since the last call to the UI, through `send`.
    func toUI(_ send: (String) -> Void) {
        while let (slot, _) = link.receive(into: buffer) {
            guard slot < outputPorts.count, let line = map.line(forAtom: buffer + 8) else {
                unwritten += 1
                continue
            }
            send("a \(outputPorts[slot]) \(line)")
        }
    }
}

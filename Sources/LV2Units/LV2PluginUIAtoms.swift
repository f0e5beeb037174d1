import AUHostCore
import LV2Host

/// One open UI's side of its plug-in's atoms (the protocol's `a` lines): what the UI wrote, on its
/// way to the plug-in's next run; what the plug-in wrote, on its way to the UI at each idle.
///
/// Thread: setup (the owning LV2PluginUI's idle).
protocol LV2UIAtomCarrier: AnyObject {
    /// An `a PORT ATOM` line's port and atom text, from the UI.
    func fromUI(port: Substring, text: Substring)
    /// Sends every atom the plug-in wrote since the last call to the UI, as `a PORT ATOM` lines.
    func toUI(_ send: (String) -> Void)
    /// Atoms dropped on the way to the plug-in and to the UI.
    var dropped: (toPlugin: Int, toUI: Int) { get }
}

/// The host's side of atoms between an open UI and an LV2 unit in this process: what the UI wrote
/// goes, read with the unit's URID map, into the unit's ring for its next run; what the plug-in
/// wrote on its atom outputs comes out of the other ring as lines for the UI. One UI per unit
/// holds the rings (a second UI open at once gets no atoms). A line the UI sent that names no atom
/// input, or is no atom, is refused and counted, never trusted. A unit out of process runs one of
/// these in its child (auhost-unit-host), reached through ``UIAtomExchanging``.
///
/// Thread: setup (the owning LV2PluginUI's idle, or the child's control channel).
public final class LV2PluginUIAtoms: LV2UIAtomCarrier {
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
    public init?(unit: AudioUnit) {
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
    public var dropped: (toPlugin: Int, toUI: Int) { (refused + link.droppedToPlugin, unwritten + link.droppedToUI) }

    func fromUI(port: Substring, text: Substring) {
        guard let port = UInt32(port) else {
            refused += 1
            return
        }
        fromUI(UIAtomLine(port: port, text: String(text)))
    }

    /// An atom from the UI into the ring of its input port (refused and counted when the port is
    /// no atom input or the text no atom).
    public func fromUI(_ line: UIAtomLine) {
        guard let slot = inputSlots[line.port], let atom = map.atom(fromLine: line.text) else {
            refused += 1
            return
        }
        _ = atom.withUnsafeBytes { link.send(slot: slot, atom: $0.baseAddress!, size: $0.count) }
    }

    func toUI(_ send: (String) -> Void) {
        toUI(maximumBytes: .max) { send("a \($0.port) \($0.text)") }
    }

    /// Hands `send` the atoms the plug-in wrote since the last call, until their text passes
    /// `maximumBytes` (the rest wait for the next call).
    public func toUI(maximumBytes: Int, _ send: (UIAtomLine) -> Void) {
        var bytes = 0
        while bytes < maximumBytes, let (slot, _) = link.receive(into: buffer) {
            guard slot < outputPorts.count, let line = map.line(forAtom: buffer + 8) else {
                unwritten += 1
                continue
            }
            bytes += line.utf8.count
            send(UIAtomLine(port: outputPorts[slot], text: line))
        }
    }
}

/// The host's side of atoms between an open UI and an LV2 unit out of process: the UI's lines wait
/// for the idle, which hands them to the unit's child and brings back what the plug-in wrote, in
/// one exchange over the unit's control channel. A child that died loses the lines in flight
/// (counted); its replacement starts with rings of its own.
///
/// Thread: setup (the owning LV2PluginUI's idle).
final class LV2PluginUIRemoteAtoms: LV2UIAtomCarrier {
    private let exchanger: UIAtomExchanging
    private var pending: [UIAtomLine] = []
    private var pendingBytes = 0
    /// Lines refused here (no port number, over the budget, lost with a child that died).
    private var refused = 0
    /// The far side's counts: those of children that ended, and the current child's.
    private var earlier = (toPlugin: 0, toUI: 0), current = (toPlugin: 0, toUI: 0)

    /// The atoms of `unit` if it runs out of process and its plug-in has atom ports no other UI
    /// holds; nil otherwise.
    init?(unit: AudioUnit) {
        guard let exchanger = ComponentInstance.from(unit)?.unit as? UIAtomExchanging,
            let first = try? exchanger.exchangeUIAtoms([])
        else { return nil }
        self.exchanger = exchanger
        count(first)
    }

    deinit { exchanger.closeUIAtoms() }

    var dropped: (toPlugin: Int, toUI: Int) {
        (refused + earlier.toPlugin + current.toPlugin, earlier.toUI + current.toUI)
    }

    func fromUI(port: Substring, text: Substring) {
        guard let port = UInt32(port), pendingBytes + text.utf8.count <= UIAtomExchange.maximumBytes else {
            refused += 1
            return
        }
        pending.append(UIAtomLine(port: port, text: String(text)))
        pendingBytes += text.utf8.count
    }

    func toUI(_ send: (String) -> Void) {
        let lines = pending
        pending = []
        pendingBytes = 0
        guard let exchange = (try? exchanger.exchangeUIAtoms(lines)) ?? nil else {
            refused += lines.count
            return
        }
        count(exchange)
        for line in exchange.toUI { send("a \(line.port) \(line.text)") }
    }

    /// Keeps the far side's counts; lower ones than before come from a new child.
    private func count(_ exchange: UIAtomExchange) {
        if exchange.droppedToPlugin < current.toPlugin || exchange.droppedToUI < current.toUI {
            earlier = (earlier.toPlugin + current.toPlugin, earlier.toUI + current.toUI)
        }
        current = (exchange.droppedToPlugin, exchange.droppedToUI)
    }
}

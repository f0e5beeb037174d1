/// How many ports of each kind a plug-in has: what component-type derivation and bus layout need.
public struct LV2PortSummary: Equatable, Sendable {
    public var audioInputs = 0
    public var audioOutputs = 0
    public var controlInputs = 0
    public var controlOutputs = 0
    /// Atom input ports that accept MIDI events.
    public var midiInputs = 0
    /// Atom output ports that produce MIDI events.
    public var midiOutputs = 0
    /// Atom ports that are not MIDI (patch messages, time position, …), either direction.
    public var otherAtomPorts = 0
    public var cvInputs = 0
    public var cvOutputs = 0
    /// Ports of a kind this host does not know, or with no direction.
    public var unknownPorts = 0

    /// Counts `ports`. Thread: any.
    public init(ports: [LV2PortInfo]) {
        for port in ports { count(port.kind, port.direction, supportsMIDI: port.supportsMIDI) }
    }

    /// Counts one port. Thread: any.
    mutating func count(_ kind: LV2PortInfo.Kind, _ direction: LV2PortInfo.Direction, supportsMIDI: Bool) {
        switch (kind, direction) {
        case (.audio, .input): audioInputs += 1
        case (.audio, .output): audioOutputs += 1
        case (.control, .input): controlInputs += 1
        case (.control, .output): controlOutputs += 1
        case (.cv, .input): cvInputs += 1
        case (.cv, .output): cvOutputs += 1
        case (.atom, .input) where supportsMIDI: midiInputs += 1
        case (.atom, .output) where supportsMIDI: midiOutputs += 1
        case (.atom, .input), (.atom, .output): otherAtomPorts += 1
        default: unknownPorts += 1
        }
    }
}

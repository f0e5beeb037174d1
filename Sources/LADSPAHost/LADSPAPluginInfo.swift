import CLADSPA

/// What a LADSPA descriptor says of one plug-in: found by the describing child, kept in the
/// catalog cache, and enough to lay out its unit without loading its library.
public struct LADSPAPluginInfo: Equatable, Sendable {
    /// The library (.so) it comes from and its index for `ladspa_descriptor`.
    public var library: String
    public var index: Int
    public var uniqueID: UInt
    public var label: String
    public var name: String
    public var maker: String
    public var copyright: String
    /// LADSPA_PROPERTY_* flags.
    public var properties: Int32
    public var ports: [LADSPAPortInfo]
    /// Whether a DSSI descriptor wraps it with `run_synth` (an instrument).
    public var isDSSISynth: Bool

    /// Thread: any.
    public init(
        library: String, index: Int, uniqueID: UInt, label: String, name: String, maker: String, copyright: String,
        properties: Int32, ports: [LADSPAPortInfo], isDSSISynth: Bool = false
    ) {
        self.library = library; self.index = index; self.uniqueID = uniqueID; self.label = label; self.name = name
        self.maker = maker; self.copyright = copyright; self.properties = properties; self.ports = ports
        self.isDSSISynth = isDSSISynth
    }

    /// INPLACE_BROKEN: an output buffer must never be one of the input buffers.
    public var isInPlaceBroken: Bool { properties & LADSPA_PROPERTY_INPLACE_BROKEN != 0 }
    /// Port indices of the audio inputs and outputs, in port order (the channels of its buses).
    public var audioInputs: [Int] { ports.indices.filter { ports[$0].isAudio && ports[$0].isInput } }
    public var audioOutputs: [Int] { ports.indices.filter { ports[$0].isAudio && ports[$0].isOutput } }
    public var controlInputs: [Int] { ports.indices.filter { ports[$0].isControl && ports[$0].isInput } }
    public var controlOutputs: [Int] { ports.indices.filter { ports[$0].isControl && ports[$0].isOutput } }
}

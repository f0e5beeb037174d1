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
    /// The ports as described, or as the catalog cache keeps them until they are asked for.
    public var portTable: LADSPAPortTable
    /// Thread: any (the first read of a cached plug-in's ports allocates them).
    public var ports: [LADSPAPortInfo] {
        get { portTable.ports }
        set { portTable = LADSPAPortTable(newValue) }
    }
    /// Whether it came through `dssi_descriptor` (a DSSI library), and whether that descriptor has
    /// `run_synth` or `run_multiple_synths` (an instrument: MIDI in).
    public var isDSSI: Bool
    public var isDSSISynth: Bool
    /// A DSSI plug-in's programs (`get_program`), in its order: the unit's factory presets.
    public var programs: [LADSPAProgram]

    /// Thread: any.
    public init(
        library: String, index: Int, uniqueID: UInt, label: String, name: String, maker: String, copyright: String,
        properties: Int32, ports: [LADSPAPortInfo], isDSSI: Bool = false, isDSSISynth: Bool = false,
        programs: [LADSPAProgram] = []
    ) {
        self.library = library; self.index = index; self.uniqueID = uniqueID; self.label = label; self.name = name
        self.maker = maker; self.copyright = copyright; self.properties = properties; portTable = LADSPAPortTable(ports)
        self.isDSSI = isDSSI; self.isDSSISynth = isDSSISynth; self.programs = programs
    }

    /// INPLACE_BROKEN: an output buffer must never be one of the input buffers. Thread: any (as
    /// the port lists below).
    public var isInPlaceBroken: Bool { properties & LADSPA_PROPERTY_INPLACE_BROKEN != 0 }
    /// Port indices of the audio inputs and outputs, in port order (the channels of its buses).
    public var audioInputs: [Int] { ports.indices.filter { ports[$0].isAudio && ports[$0].isInput } }
    public var audioOutputs: [Int] { ports.indices.filter { ports[$0].isAudio && ports[$0].isOutput } }
    public var controlInputs: [Int] { ports.indices.filter { ports[$0].isControl && ports[$0].isInput } }
    public var controlOutputs: [Int] { ports.indices.filter { ports[$0].isControl && ports[$0].isOutput } }
}

/// One DSSI program: bank and number for `select_program`, and its name.
public struct LADSPAProgram: Equatable, Sendable {
    public var bank: UInt
    public var program: UInt
    public var name: String

    /// Thread: any.
    public init(bank: UInt, program: UInt, name: String) {
        self.bank = bank; self.program = program; self.name = name
    }
}

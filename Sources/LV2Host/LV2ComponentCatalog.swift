import AudioToolbox

/// The Audio Unit identity of one LV2 plug-in.
public struct LV2ComponentEntry: Equatable, Sendable {
    public let uri: String
    /// `componentType`, `componentSubType`, `componentManufacturer` (flags 0).
    public let description: AudioComponentDescription
    /// The plug-in's name and its maker, for "Manufacturer: Name" display.
    public let name: String
    public let manufacturerName: String

    public static func == (a: Self, b: Self) -> Bool {
        a.uri == b.uri && a.name == b.name && a.manufacturerName == b.manufacturerName
            && a.description.componentType == b.description.componentType
            && a.description.componentSubType == b.description.componentSubType
            && a.description.componentManufacturer == b.description.componentManufacturer
    }
}

/// Plug-ins whose derived (type, subtype, manufacturer) was the same; the first URI in sorted
/// order kept the code, the others were given bumped subtypes.
public struct LV2CodeCollision: Equatable, Sendable {
    public let componentType: UInt32
    public let componentSubType: UInt32
    public let componentManufacturer: UInt32
    /// The colliding URIs, sorted; `uris[0]` kept the code.
    public let uris: [String]
}

/// What the catalog needs to know of one plug-in; made from a descriptor or directly (tests).
public struct LV2CatalogInput: Sendable {
    public var uri: String
    public var name: String
    public var manufacturerName: String
    public var summary: LV2PortSummary
    public var isMixer: Bool

    /// Thread: any.
    public init(uri: String, name: String, manufacturerName: String, summary: LV2PortSummary, isMixer: Bool) {
        self.uri = uri; self.name = name; self.manufacturerName = manufacturerName
        self.summary = summary; self.isMixer = isMixer
    }

    /// Reads the fields from a descriptor (touches its lazy port data). Thread: setup (non-real-time).
    public init(_ descriptor: LV2PluginDescriptor) {
        self.init(
            uri: descriptor.uri, name: descriptor.name, manufacturerName: descriptor.projectName,
            summary: descriptor.portSummary, isMixer: descriptor.isMixer)
    }
}

/// A deterministic mapping from LV2 plug-ins to component descriptions: the same set of
/// plug-ins gives the same codes on every machine and every run, whatever order they load in.
///
/// ```swift
/// let catalog = LV2ComponentCatalog(world: LV2World())
/// let amp = catalog.entry(uri: "http://lv2plug.in/plugins/eg-amp")   // 'aufx' …
/// ```
public struct LV2ComponentCatalog: Sendable {
    /// One entry per plug-in, sorted by URI.
    public let entries: [LV2ComponentEntry]
    /// Every collision that had to be resolved.
    public let collisions: [LV2CodeCollision]
    private let byURI: [String: Int]

    /// The catalog of every plug-in in `world` whose port data can be trusted (a plug-in with
    /// broken `lv2:index` values is left out, as ``LV2CatalogStore`` leaves it out).
    /// Thread: setup (non-real-time).
    public init(world: LV2World) {
        self.init(inputs: world.plugins.filter { $0.portDataProblem == nil }.map(LV2CatalogInput.init))
    }

    /// The catalog of `inputs`; `hash` is FNV-1a unless a test forces collisions. Thread: any.
    public init(inputs: [LV2CatalogInput], hash: (String) -> UInt32 = LV2ComponentCode.fnv1a) {
        // Indices are sorted, not the inputs: each swap of an input moved its three strings.
        let order = inputs.indices.sorted { inputs[$0].uri < inputs[$1].uri }
        /// (type, subtype, manufacturer); a struct, not an array, so no key allocates.
        struct Key: Hashable {
            var type, subType, manufacturer: UInt32
            subscript(_ i: Int) -> UInt32 { i == 0 ? type : i == 1 ? subType : manufacturer }
        }
        func baseKey(_ input: LV2CatalogInput) -> Key {
            Key(
                type: Self.componentType(summary: input.summary, isMixer: input.isMixer),
                subType: LV2ComponentCode.code(hash: hash(input.uri)),
                manufacturer: LV2ComponentCode.code(hash: hash(input.manufacturerName), leadingUppercase: true))
        }
        let baseKeys = order.map { baseKey(inputs[$0]) }
        // Every base key is reserved first so a bumped code never takes another plug-in's own code.
        var taken = Set(baseKeys)
        // The first URI of each base key; a group only for a key given twice (a collision).
        var first: [Key: String] = [:]
        first.reserveCapacity(order.count)
        var groups: [Key: [String]] = [:]
        var entries: [LV2ComponentEntry] = []
        entries.reserveCapacity(order.count)
        for (index, base) in zip(order, baseKeys) {
            let input = inputs[index]
            var key = base
            if let owner = first[base] {
                var suffix = 1
                repeat {
                    key = Key(
                        type: base.type, subType: LV2ComponentCode.code(hash: hash(input.uri + "#\(suffix)")),
                        manufacturer: base.manufacturer)
                    suffix += 1
                } while taken.contains(key)
                taken.insert(key)
                groups[base, default: [owner]].append(input.uri)
            } else {
                first[base] = input.uri
            }
            entries.append(
                LV2ComponentEntry(
                    uri: input.uri,
                    description: AudioComponentDescription(
                        componentType: key[0], componentSubType: key[1],
                        componentManufacturer: key[2], componentFlags: 0,
                        componentFlagsMask: 0),
                    name: input.name, manufacturerName: input.manufacturerName))
        }
        self.entries = entries
        self.collisions =
            groups.map {
                LV2CodeCollision(
                    componentType: $0.key[0], componentSubType: $0.key[1],
                    componentManufacturer: $0.key[2], uris: $0.value)
            }
            .sorted { $0.uris[0] < $1.uris[0] }
        self.byURI = Dictionary(uniqueKeysWithValues: entries.enumerated().map { ($1.uri, $0) })
    }

    /// The entry for `uri`, or nil. Thread: any.
    public func entry(uri: String) -> LV2ComponentEntry? {
        byURI[uri].map { entries[$0] }
    }

    /// The Audio Unit type for a plug-in's ports and class:
    /// mixer class → 'aumx'; MIDI in, audio out, no audio in → 'aumu' (instrument);
    /// MIDI in and audio in → 'aumf' (MIDI-driven effect); MIDI in and no audio at all → 'aumi'
    /// (MIDI processor); no audio in and no MIDI in → 'augn' (generator); otherwise 'aufx'.
    /// Thread: any.
    public static func componentType(summary s: LV2PortSummary, isMixer: Bool) -> UInt32 {
        if isMixer { return UInt32(kAudioUnitType_Mixer) }
        let midiIn = s.midiInputs > 0
        switch (midiIn, s.audioInputs > 0, s.audioOutputs > 0) {
        case (true, false, true): return UInt32(kAudioUnitType_MusicDevice)
        case (true, true, _): return UInt32(kAudioUnitType_MusicEffect)
        case (true, false, false): return UInt32(kAudioUnitType_MIDIProcessor)
        case (false, false, _): return UInt32(kAudioUnitType_Generator)
        default: return UInt32(kAudioUnitType_Effect)
        }
    }
}

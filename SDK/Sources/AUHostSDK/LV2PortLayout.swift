import AudioUnitBase

/// The LV2 ports of a unit, in index order, derived from the unit itself; the Turtle generator and
/// the running instance both use it, so the indices in the Turtle are the ones `run` reads.
///
/// Order: audio inputs, audio outputs, the event input (an instrument's `midi_in`, or `time_in`
/// for an effect that wants musical time), one control input per
/// global parameter (declaration order), `enabled` (effects: bypass), `latency` (units that
/// report latency).
///
/// Channels: an LV2 plug-in has fixed ports, an Audio Unit channel configurations
/// (SupportedNumChannels). The first configuration decides. An SDK effect's kernel processes N
/// channels in and the same N out, so the plug-in gets N inputs and N outputs: 2 when the
/// configuration allows stereo on both sides (−1 → −1, what every LV2 host connects; "up to N"
/// is −N), else the count it names on both sides (1 → 1 gives a mono plug-in). A configuration
/// that allows no N in = N out (1 → 2) is refused when the bundle is made, naming it. An
/// instrument (no input) gets two outputs unless it declares a count. Further configurations are
/// not exported (one LV2 plug-in per unit); lv2apply feeds a mono file to both inputs of a stereo
/// plug-in.
///
/// Thread: setup.
struct LV2PortLayout {
    struct Control {
        let definition: ParameterDefinition
        let symbol: String
    }

    let audioInputs: Int
    let audioOutputs: Int
    let hasMIDI: Bool
    /// Whether the event input supports time:Position (the unit wants musical time).
    let takesTime: Bool
    let controls: [Control]
    let hasEnabled: Bool
    let hasLatency: Bool

    init(unit: AUBase, isInstrument: Bool, wantsMusicalContext: Bool = false) throws {
        let first = unit.channelCapabilities.first ?? AUChannelInfo(inChannels: -1, outChannels: -1)
        if isInstrument {
            audioInputs = 0
            audioOutputs = first.outChannels > 0 ? Int(first.outChannels) : first.outChannels < -1 ? min(-Int(first.outChannels), 2) : 2
        } else {
            guard let n = Self.effectChannels(first) else {
                throw AudioError(
                    kAudioUnitErr_FormatNotSupported,
                    "The unit's first channel configuration (\(first.inChannels) → \(first.outChannels)) has no N in = N out: "
                        + "an SDK effect's kernel processes as many channels out as in, so it has no LV2 port layout.")
            }
            audioInputs = n
            audioOutputs = n
        }
        hasMIDI = isInstrument
        takesTime = wantsMusicalContext
        // time_in is reserved only where the port exists: other bundles keep their symbols.
        var used: Set<String> = ["enabled", "latency", "midi_in"]
        if takesTime { used.insert("time_in") }
        for i in 0..<max(audioInputs, audioOutputs) { used.insert("in_\(i + 1)"); used.insert("out_\(i + 1)") }
        controls = unit.parameterDefinitions.filter { $0.scope == kAudioUnitScope_Global }.map { d in
            let symbol = LV2PortLayout.symbol(for: d.name, id: d.id, avoiding: used)
            used.insert(symbol)
            return Control(definition: d, symbol: symbol)
        }
        hasEnabled = unit.supportsBypass
        hasLatency = unit.latency > 0
    }

    /// The N of an effect's N → N plug-in under configuration `c`: 2 if allowed, else the count
    /// `c` names, if that fits both sides; nil when none does. Thread: any.
    static func effectChannels(_ c: AUChannelInfo) -> Int? {
        func fits(_ declared: Int16, _ n: Int) -> Bool { declared == -1 || (declared < -1 ? n <= -Int(declared) : n == Int(declared)) }
        return [2, Int(c.inChannels), Int(c.outChannels), 1].first { $0 > 0 && fits(c.inChannels, $0) && fits(c.outChannels, $0) }
    }

    /// The event input: MIDI for an instrument, time:Position for a unit that wants it, or both.
    var hasEventInput: Bool { hasMIDI || takesTime }
    var midiIndex: Int { audioInputs + audioOutputs }
    var firstControlIndex: Int { midiIndex + (hasEventInput ? 1 : 0) }
    var enabledIndex: Int { firstControlIndex + controls.count }
    var latencyIndex: Int { enabledIndex + (hasEnabled ? 1 : 0) }
    var portCount: Int { latencyIndex + (hasLatency ? 1 : 0) }

    /// An LV2 symbol (a C identifier) from a parameter's name: lower case, other characters as
    /// `_`, `p<id>` when nothing is left, a digit prefixed with `_`, and `_2`, `_3`… on a clash.
    static func symbol(for name: String, id: AudioUnitParameterID, avoiding used: Set<String>) -> String {
        var s = ""
        for c in name.lowercased().unicodeScalars {
            let ok = (c >= "a" && c <= "z") || (c >= "0" && c <= "9")
            if ok { s.unicodeScalars.append(c) } else if !s.isEmpty && !s.hasSuffix("_") { s += "_" }
        }
        while s.hasSuffix("_") { s.removeLast() }
        if s.isEmpty { s = "p\(id)" }
        if let f = s.unicodeScalars.first, f >= "0" && f <= "9" { s = "_" + s }
        var candidate = s, n = 2
        while used.contains(candidate) {
            candidate = "\(s)_\(n)"
            n += 1
        }
        return candidate
    }
}

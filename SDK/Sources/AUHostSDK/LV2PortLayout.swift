import AudioUnitBase

/// The LV2 ports of a unit, in index order, derived from the unit itself; the Turtle generator and
/// the running instance both use it, so the indices in the Turtle are the ones `run` reads.
///
/// Order: audio inputs, audio outputs, the MIDI input (instruments), one control input per
/// global parameter (declaration order), `enabled` (effects: bypass), `latency` (units that
/// report latency).
///
/// Channels: an LV2 plug-in has fixed ports, an Audio Unit channel configurations
/// (SupportedNumChannels). The first configuration decides, and an effect runs in place, so it
/// gets as many outputs as inputs: any (−1) becomes 2 → 2 (stereo, what every LV2 host
/// connects); an explicit count is kept (1 → 1 gives a mono plug-in); "up to N" (−N) becomes
/// min(N, 2). A configuration with different counts (1 → 2) is not mapped yet: its input count is
/// used on both sides. An instrument (no input) gets two outputs unless it declares a count.
/// Further configurations are not exported (one LV2 plug-in per unit); lv2apply feeds a mono
/// file to both inputs of a stereo plug-in.
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
    let controls: [Control]
    let hasEnabled: Bool
    let hasLatency: Bool

    init(unit: AUBase, isInstrument: Bool) {
        let first = unit.channelCapabilities.first ?? AUChannelInfo(inChannels: -1, outChannels: -1)
        func count(_ n: Int16, default d: Int) -> Int { n > 0 ? Int(n) : n < -1 ? min(-Int(n), d) : d }
        if isInstrument {
            audioInputs = 0
            audioOutputs = count(first.outChannels, default: 2)
        } else {
            audioInputs = first.inChannels == -1 ? count(first.outChannels, default: 2) : count(first.inChannels, default: 2)
            audioOutputs = audioInputs
        }
        hasMIDI = isInstrument
        var used: Set<String> = ["enabled", "latency", "midi_in"]
        for i in 0..<max(audioInputs, audioOutputs) { used.insert("in_\(i + 1)"); used.insert("out_\(i + 1)") }
        controls = unit.parameterDefinitions.filter { $0.scope == kAudioUnitScope_Global }.map { d in
            let symbol = LV2PortLayout.symbol(for: d.name, id: d.id, avoiding: used)
            used.insert(symbol)
            return Control(definition: d, symbol: symbol)
        }
        hasEnabled = unit.supportsBypass
        hasLatency = unit.latency > 0
    }

    var midiIndex: Int { audioInputs + audioOutputs }
    var firstControlIndex: Int { midiIndex + (hasMIDI ? 1 : 0) }
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

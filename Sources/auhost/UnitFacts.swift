import AUHost
import Foundation

/// What `auhost info` shows of a unit, read through the C API from an uninitialized instance.
struct UnitFacts {
    struct Parameter {
        var id: AudioUnitParameterID
        var name: String
        var minValue, maxValue, defaultValue: Float
        var unit: String
        var valueStrings: [String]
        /// False for a read-only meter: its value is the unit's output, not a setting.
        var isWritable = true
    }

    var inputFormats: [AudioStreamBasicDescription] = []
    var outputFormats: [AudioStreamBasicDescription] = []
    var channelConfigurations: [AUChannelInfo] = []
    var parameters: [Parameter] = []
    var presets: [(number: Int32, name: String)] = []
    var latency: Double = 0
    var tailTime: Double = 0

    /// Reads the facts of `unit`. Missing optional properties leave their defaults.
    ///
    /// Thread: setup.
    init(_ unit: AudioUnitInstance) {
        inputFormats = Self.formats(unit, scope: kAudioUnitScope_Input)
        outputFormats = Self.formats(unit, scope: kAudioUnitScope_Output)
        channelConfigurations = Self.channelInfo(unit.handle)
        parameters = ((try? unit.parameterDefinitions()) ?? []).map { id, info in
            Parameter(
                id: id, name: Self.name(info), minValue: info.minValue, maxValue: info.maxValue, defaultValue: info.defaultValue,
                unit: Self.unitName(info.unit), valueStrings: Self.valueStrings(unit.handle, id),
                isWritable: info.flags.contains(.flag_IsWritable))
        }
        presets = Self.factoryPresets(unit.handle)
        latency = (try? unit.property(kAudioUnitProperty_Latency, as: Float64.self)) ?? 0
        tailTime = (try? unit.property(kAudioUnitProperty_TailTime, as: Float64.self)) ?? 0
    }

    static func formats(_ unit: AudioUnitInstance, scope: AudioUnitScope) -> [AudioStreamBasicDescription] {
        let count: UInt32 = (try? unit.property(kAudioUnitProperty_ElementCount, scope: scope)) ?? 0
        return (0..<count).compactMap { try? unit.streamFormat(scope: scope, element: $0) }
    }

    static func channelInfo(_ unit: AudioUnit) -> [AUChannelInfo] {
        var size: UInt32 = 0
        guard AudioUnitGetPropertyInfo(unit, kAudioUnitProperty_SupportedNumChannels, kAudioUnitScope_Global, 0, &size, nil) == noErr,
            size >= 4
        else { return [] }
        var infos = [AUChannelInfo](repeating: AUChannelInfo(), count: Int(size) / MemoryLayout<AUChannelInfo>.size)
        guard AudioUnitGetProperty(unit, kAudioUnitProperty_SupportedNumChannels, kAudioUnitScope_Global, 0, &infos, &size) == noErr else {
            return []
        }
        return infos
    }

    static func name(_ info: AudioUnitParameterInfo) -> String {
        withUnsafeBytes(of: info.name) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
    }

    static func valueStrings(_ unit: AudioUnit, _ id: AudioUnitParameterID) -> [String] {
        var strings: Unmanaged<CFArray>?
        var size = UInt32(MemoryLayout<UnsafeRawPointer>.size)
        guard AudioUnitGetProperty(unit, kAudioUnitProperty_ParameterValueStrings, kAudioUnitScope_Global, id, &strings, &size) == noErr,
            let strings
        else { return [] }
        defer { strings.release() }
        guard case .array(let items)? = CFBridge.value(UnsafeRawPointer(strings.toOpaque())) else { return [] }
        return items.compactMap(\.stringValue)
    }

    static func factoryPresets(_ unit: AudioUnit) -> [(number: Int32, name: String)] {
        var array: Unmanaged<CFArray>?
        var size = UInt32(MemoryLayout<UnsafeRawPointer>.size)
        guard AudioUnitGetProperty(unit, kAudioUnitProperty_FactoryPresets, kAudioUnitScope_Global, 0, &array, &size) == noErr,
            let cfArray = array?.takeRetainedValue()
        else { return [] }
        return (0..<CFArrayGetCount(cfArray)).compactMap { i in
            guard let raw = CFArrayGetValueAtIndex(cfArray, i) else { return nil }
            let preset = raw.assumingMemoryBound(to: AUPreset.self).pointee
            return (preset.presetNumber, String(cfString: preset.presetName?.takeUnretainedValue()) ?? "")
        }
    }

    /// The documented unit names (kAudioUnitParameterUnit_*).
    static func unitName(_ unit: AudioUnitParameterUnit) -> String {
        let names = [
            "generic", "indexed", "boolean", "percent", "seconds", "sample frames", "phase", "rate", "Hz", "cents",
            "relative semitones", "MIDI note", "MIDI controller", "dB", "linear gain", "degrees", "equal-power crossfade",
            "mixer fader curve 1", "pan", "meters", "absolute cents", "octaves", "BPM", "beats", "ms", "ratio", "custom",
            "MIDI 2 controller",
        ]
        let i = Int(unit)
        return i < names.count ? names[i] : "unit \(i)"
    }

    /// "2 in → 2 out" style text for a channel configuration: -1 in both is "any, in = out",
    /// -1 on one side "any", -N "up to N".
    static func describe(_ c: AUChannelInfo) -> String {
        if c.inChannels == -1 && c.outChannels == -1 { return "any in → same count out" }
        func side(_ n: Int16) -> String { n == -1 ? "any" : n < -1 ? "up to \(-n)" : "\(n)" }
        return "\(side(c.inChannels)) in → \(side(c.outChannels)) out"
    }
}

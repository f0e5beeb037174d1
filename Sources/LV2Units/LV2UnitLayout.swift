import AUHostCore
import LV2Host

/// How an LV2 plug-in's ports become a unit's elements and parameters: audio ports grouped into
/// buses (port groups, else stereo pairs), all CV ports of a direction as one extra element,
/// control inputs as writable parameters and control outputs as read-only meters, both with the
/// port index as parameter ID.
struct LV2UnitLayout {
    /// One element: its name and the port indices of its channels, in channel order.
    struct Bus: Equatable {
        var name: String
        var ports: [Int]
    }

    /// One control port as a parameter.
    struct Control {
        var portIndex: Int
        var isOutput: Bool
        /// For an enumeration presented as an index: the scale point value of each index.
        var indexedValues: [Float]?
        var definition: ParameterDefinition
    }

    var inputs: [Bus]
    var outputs: [Bus]
    var controls: [Control]
    var hasMIDIInput: Bool

    /// Reads the layout from the plug-in's data. `sampleRate` scales sample-rate-relative ranges.
    /// Thread: setup (under the world lock).
    init(plugin: LV2PluginDescriptor, sampleRate: Double) {
        let ports = plugin.ports
        let (audioIn, audioOut) = LV2Bus.group(ports)
        func buses(_ groups: [LV2Bus], _ kind: String) -> [Bus] {
            groups.enumerated().map { i, bus in
                Bus(
                    name: bus.groupURI.map { String($0.split(separator: "#").last ?? Substring($0)) }
                        ?? (groups.count == 1 ? kind : "\(kind) \(i + 1)"),
                    ports: bus.portIndices)
            }
        }
        inputs = buses(audioIn, "Input")
        outputs = buses(audioOut, "Output")
        let cvIn = ports.filter { $0.kind == .cv && $0.direction == .input }.map(\.index)
        let cvOut = ports.filter { $0.kind == .cv && $0.direction == .output }.map(\.index)
        if !cvIn.isEmpty { inputs.append(Bus(name: "CV", ports: cvIn)) }
        if !cvOut.isEmpty { outputs.append(Bus(name: "CV", ports: cvOut)) }
        hasMIDIInput = ports.contains { $0.kind == .atom && $0.direction == .input && $0.supportsMIDI }

        var controls = LV2ParameterDescriptor.read(plugin).map { Self.control($0, sampleRate: sampleRate) }
        // A meter declares the range the plug-in's data gives; with none, any finite value (see
        // declaredOutputRanges). The render keeps what it reports inside (lv2UnitReportMeters).
        let outputRanges = LV2ParameterDescriptor.declaredOutputRanges(plugin)
        for port in ports where port.kind == .control && port.direction == .output {
            let range = outputRanges[port.index] ?? -Float.greatestFiniteMagnitude...Float.greatestFiniteMagnitude
            var meter = ParameterDefinition(
                id: AudioUnitParameterID(port.index), name: port.name,
                unit: port.reportsLatency ? kAudioUnitParameterUnit_SampleFrames : kAudioUnitParameterUnit_Generic,
                min: range.lowerBound, max: range.upperBound, default: min(max(0, range.lowerBound), range.upperBound), flags: [])
            meter.flags = [.flag_IsReadable, .flag_MeterReadOnly]
            controls.append(Control(portIndex: port.index, isOutput: true, indexedValues: nil, definition: meter))
        }
        self.controls = controls.sorted { $0.portIndex < $1.portIndex }
    }

    /// The parameter for a control input: toggled → Boolean; enumeration with scale points → an
    /// index 0…n-1 with the labels as value strings; integer → Indexed (labels as value strings
    /// when scale points name every value); log → DisplayLogarithmic; units by symbol.
    static func control(_ p: LV2ParameterDescriptor, sampleRate: Double) -> Control {
        let scale: Float = p.isSampleRateRelative ? Float(sampleRate) : 1
        var minimum = p.minimum * scale, maximum = p.maximum * scale, defaultValue = p.defaultValue * scale
        var unit = unitCode(p.unit)
        var valueStrings: [String] = []
        var indexed: [Float]?
        var flags = AudioUnitParameterOptions.flag_CanRamp
        if p.isToggled {
            unit = kAudioUnitParameterUnit_Boolean
            minimum = 0; maximum = 1
            defaultValue = defaultValue > 0 ? 1 : 0
        } else if p.isEnumeration && !p.scalePoints.isEmpty {
            unit = kAudioUnitParameterUnit_Indexed
            indexed = p.scalePoints.map(\.value)
            valueStrings = p.scalePoints.map(\.label)
            minimum = 0; maximum = Float(p.scalePoints.count - 1)
            defaultValue = Float(nearestIndex(of: defaultValue, in: indexed!))
            flags = []
        } else if p.isInteger {
            unit = kAudioUnitParameterUnit_Indexed
            let low = minimum.rounded(), high = maximum.rounded()
            if high - low < 256, low <= high {
                let labels = stride(from: low, through: high, by: 1).map { value in p.label(for: value) }
                if labels.allSatisfy({ $0 != nil }) { valueStrings = labels.map { $0! } }
            }
            flags = []
        }
        if p.isLogarithmic { flags.insert(.flag_DisplayLogarithmic) }
        let definition = ParameterDefinition(
            id: AudioUnitParameterID(p.portIndex), name: p.name, unit: unit,
            min: minimum, max: maximum, default: defaultValue, flags: flags,
            valueStrings: valueStrings)
        return Control(portIndex: p.portIndex, isOutput: false, indexedValues: indexed, definition: definition)
    }

    /// The index of the value in `values` closest to `value`.
    static func nearestIndex(of value: Float, in values: [Float]) -> Int {
        values.indices.min { abs(values[$0] - value) < abs(values[$1] - value) } ?? 0
    }

    /// The Audio Unit unit for an LV2 unit symbol (units:symbol), Generic when there is none.
    static func unitCode(_ symbol: String?) -> AudioUnitParameterUnit {
        switch symbol {
        case "dB": return kAudioUnitParameterUnit_Decibels
        case "Hz": return kAudioUnitParameterUnit_Hertz
        case "ms": return kAudioUnitParameterUnit_Milliseconds
        case "s": return kAudioUnitParameterUnit_Seconds
        case "%": return kAudioUnitParameterUnit_Percent
        case "ct": return kAudioUnitParameterUnit_Cents
        case "semi": return kAudioUnitParameterUnit_RelativeSemiTones
        case "note": return kAudioUnitParameterUnit_MIDINoteNumber
        case "BPM", "bpm": return kAudioUnitParameterUnit_BPM
        case "beats": return kAudioUnitParameterUnit_Beats
        case "°", "deg": return kAudioUnitParameterUnit_Degrees
        case "oct": return kAudioUnitParameterUnit_Octaves
        case "frames": return kAudioUnitParameterUnit_SampleFrames
        default: return kAudioUnitParameterUnit_Generic
        }
    }
}

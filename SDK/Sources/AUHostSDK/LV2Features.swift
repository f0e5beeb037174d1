import CLV2Export

/// The LV2 URIs the export uses (the specification's; lv2-dev's macros for them are string
/// concatenations Swift does not import).
enum LV2URI {
    static let urid = "http://lv2plug.in/ns/ext/urid#map"
    static let options = "http://lv2plug.in/ns/ext/options#options"
    static let boundedBlockLength = "http://lv2plug.in/ns/ext/buf-size#boundedBlockLength"
    static let maxBlockLength = "http://lv2plug.in/ns/ext/buf-size#maxBlockLength"
    static let nominalBlockLength = "http://lv2plug.in/ns/ext/buf-size#nominalBlockLength"
    static let sampleRate = "http://lv2plug.in/ns/ext/parameters#sampleRate"
    static let atomInt = "http://lv2plug.in/ns/ext/atom#Int"
    static let atomFloat = "http://lv2plug.in/ns/ext/atom#Float"
    static let atomString = "http://lv2plug.in/ns/ext/atom#String"
    static let midiEvent = "http://lv2plug.in/ns/ext/midi#MidiEvent"
    static let stateInterface = "http://lv2plug.in/ns/ext/state#interface"
    /// The key the unit's ClassInfo (an XML property list) is saved under.
    static let classInfoKey = "urn:auhost:lv2:state#classInfo"
}

/// What a host offered at instantiate, as far as the export reads it: urid:map, and the options
/// maxBlockLength, nominalBlockLength and sampleRate (read only when the host also gave urid:map:
/// an option's key is a URID). A host may offer nothing at all (lv2apply): every field is then nil.
///
/// Thread: setup.
struct LV2Features {
    var map: UnsafeMutablePointer<LV2_URID_Map>?
    var boundedBlockLength = false
    var maxBlockLength: Int?
    var nominalBlockLength: Int?
    var sampleRate: Double?

    init(_ features: UnsafePointer<UnsafePointer<LV2_Feature>?>?) {
        var options: UnsafePointer<LV2_Options_Option>?
        var i = 0
        while let features, let f = features[i] {
            switch String(cString: f.pointee.URI) {
            case LV2URI.urid: map = f.pointee.data?.assumingMemoryBound(to: LV2_URID_Map.self)
            case LV2URI.options: options = f.pointee.data.map { UnsafePointer($0.assumingMemoryBound(to: LV2_Options_Option.self)) }
            case LV2URI.boundedBlockLength: boundedBlockLength = true
            default: break
            }
            i += 1
        }
        guard let options, map != nil else { return }
        let maxKey = urid(LV2URI.maxBlockLength), nominalKey = urid(LV2URI.nominalBlockLength)
        let rateKey = urid(LV2URI.sampleRate), intType = urid(LV2URI.atomInt), floatType = urid(LV2URI.atomFloat)
        var o = options
        while o.pointee.key != 0 || o.pointee.value != nil {
            let option = o.pointee
            o += 1
            guard let value = option.value else { continue }
            let number: Double
            if option.type == intType && option.size == 4 {
                number = Double(value.load(as: Int32.self))
            } else if option.type == floatType && option.size == 4 {
                number = Double(value.load(as: Float.self))
            } else {
                continue
            }
            switch option.key {
            case maxKey where number >= 1: maxBlockLength = Int(number)
            case nominalKey where number >= 1: nominalBlockLength = Int(number)
            case rateKey where number > 0: sampleRate = number
            default: break
            }
        }
    }

    /// The host's URID for `uri`, 0 without urid:map.
    func urid(_ uri: String) -> LV2_URID {
        guard let map, let f = map.pointee.map else { return 0 }
        return f(map.pointee.handle, uri)
    }
}

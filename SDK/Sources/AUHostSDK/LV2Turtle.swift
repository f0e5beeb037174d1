import AudioUnitBase
import CLV2Export
import Foundation

/// The bundle's Turtle, written from the unit itself (the way DPF's lv2_ttl_generator asks a
/// plug-in): manifest.ttl, `<Name>.ttl` and, when the unit has factory presets, presets.ttl.
///
/// Thread: setup.
struct LV2Turtle {
    let factory: LV2UnitFactory
    /// From the plug-in's manifest (`<Name>.auplugin.json`): what AudioComponentCopyName returns.
    let name: String
    /// major.minor.bugfix from the manifest's version.
    let version: (minor: Int, micro: Int)
    let binary: String
    let ttlName: String

    static let prefixes = """
        @prefix atom: <http://lv2plug.in/ns/ext/atom#> .
        @prefix bufsz: <http://lv2plug.in/ns/ext/buf-size#> .
        @prefix doap: <http://usefulinc.com/ns/doap#> .
        @prefix lv2: <http://lv2plug.in/ns/lv2core#> .
        @prefix midi: <http://lv2plug.in/ns/ext/midi#> .
        @prefix opts: <http://lv2plug.in/ns/ext/options#> .
        @prefix param: <http://lv2plug.in/ns/ext/parameters#> .
        @prefix pprops: <http://lv2plug.in/ns/ext/port-props#> .
        @prefix pset: <http://lv2plug.in/ns/ext/presets#> .
        @prefix rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#> .
        @prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
        @prefix state: <http://lv2plug.in/ns/ext/state#> .
        @prefix units: <http://lv2plug.in/ns/extensions/units#> .
        @prefix urid: <http://lv2plug.in/ns/ext/urid#> .


        """

    /// The files of the bundle, by name.
    func files() throws -> [(name: String, text: String)] {
        let unit = factory.make()
        let layout = try LV2PortLayout(
            unit: unit, isInstrument: factory.isInstrument, wantsMusicalContext: factory.wantsMusicalContext)
        let presets = try presetValues(layout)
        var out = [(name: "manifest.ttl", text: manifest(presets.map(\.name))), (name: ttlName, text: plugin(unit, layout))]
        if !presets.isEmpty { out.append((name: "presets.ttl", text: presetsTurtle(presets))) }
        return out
    }

    private func manifest(_ presetNames: [String]) -> String {
        let uri = factory.uri
        var t =
            LV2Turtle.prefixes + """
                <\(uri)>
                    a lv2:Plugin ;
                    lv2:binary <\(binary)> ;
                    rdfs:seeAlso <\(ttlName)> .

                """
        for (i, name) in presetNames.enumerated() {
            t += """

                <\(presetURI(i))>
                    a pset:Preset ;
                    lv2:appliesTo <\(uri)> ;
                    rdfs:label \(literal(name)) ;
                    rdfs:seeAlso <presets.ttl> .

                """
        }
        return t
    }

    private func plugin(_ unit: AUBase, _ layout: LV2PortLayout) -> String {
        var classes = ["lv2:Plugin"]
        if let c = LV2Turtle.pluginClass(factory.description.componentType) { classes.append(c) }
        // urid:map is required only where the unit cannot work without it (MIDI atoms); effects
        // use it, when offered, for state and options. hardRTCapable: the SDK's render contract.
        // "Manufacturer: Name" (the manifest's, as AudioComponentCopyName gives it) becomes the
        // plug-in's doap:name and the doap:name of its lv2:project (one per manufacturer code),
        // which hosts show as the maker.
        let parts = name.components(separatedBy: ": ")
        let maker = parts.count > 1 ? parts[0] : nil
        let title = parts.count > 1 ? parts.dropFirst().joined(separator: ": ") : name
        var t =
            LV2Turtle.prefixes + """
                <\(factory.uri)>
                    a \(classes.joined(separator: ", ")) ;
                    doap:name \(literal(title)) ;
                    lv2:minorVersion \(version.minor) ;
                    lv2:microVersion \(version.micro) ;

                """
        if maker != nil { t += "    lv2:project <\(projectURI)> ;\n" }
        if layout.hasMIDI { t += "    lv2:requiredFeature urid:map ;\n" }
        t += "    lv2:optionalFeature lv2:hardRTCapable, opts:options, bufsz:boundedBlockLength"
        t += layout.hasMIDI ? " ;\n" : ", urid:map ;\n"
        t += "    opts:supportedOption bufsz:maxBlockLength, bufsz:nominalBlockLength, param:sampleRate ;\n"
        t += "    lv2:extensionData state:interface ;\n"
        var ports: [String] = []
        for c in 0..<layout.audioInputs {
            ports.append(port(["lv2:InputPort", "lv2:AudioPort"], c, "in_\(c + 1)", "Input \(c + 1)", []))
        }
        for c in 0..<layout.audioOutputs {
            ports.append(port(["lv2:OutputPort", "lv2:AudioPort"], layout.audioInputs + c, "out_\(c + 1)", "Output \(c + 1)", []))
        }
        if layout.hasEventInput {
            var data = ["atom:bufferType atom:Sequence"]
            if layout.hasMIDI { data.append("atom:supports midi:MidiEvent") }
            // In full: the shared prefixes stay as they were for bundles without a time input.
            if layout.takesTime { data.append("atom:supports <http://lv2plug.in/ns/ext/time#Position>") }
            data.append("lv2:designation lv2:control")
            ports.append(
                port(
                    ["lv2:InputPort", "atom:AtomPort"], layout.midiIndex, layout.hasMIDI ? "midi_in" : "time_in",
                    layout.hasMIDI ? "MIDI In" : "Time In", data))
        }
        for (i, control) in layout.controls.enumerated() {
            ports.append(controlPort(layout.firstControlIndex + i, control))
        }
        if layout.hasEnabled {
            ports.append(
                port(
                    ["lv2:InputPort", "lv2:ControlPort"], layout.enabledIndex, "enabled", "Enabled",
                    [
                        "lv2:designation lv2:enabled", "lv2:portProperty lv2:toggled, lv2:integer",
                        "lv2:default 1", "lv2:minimum 0", "lv2:maximum 1",
                    ]))
        }
        if layout.hasLatency {
            ports.append(
                port(
                    ["lv2:OutputPort", "lv2:ControlPort"], layout.latencyIndex, "latency", "Latency",
                    [
                        "lv2:designation lv2:latency", "lv2:portProperty lv2:reportsLatency, lv2:integer, pprops:notOnGUI",
                        "units:unit units:frame", "lv2:minimum 0", "lv2:maximum \(mostLatencyFrames())",
                    ]))
        }
        t += "    lv2:port " + ports.joined(separator: " , ") + " .\n"
        if let maker { t += "\n<\(projectURI)>\n    a doap:Project ;\n    doap:name \(literal(maker)) .\n" }
        return t
    }

    private func port(_ classes: [String], _ index: Int, _ symbol: String, _ name: String, _ more: [String]) -> String {
        let lines =
            ["a \(classes.joined(separator: ", "))", "lv2:index \(index)", "lv2:symbol \(literal(symbol))", "lv2:name \(literal(name))"]
            + more
        return "[\n        " + lines.joined(separator: " ;\n        ") + "\n    ]"
    }

    private func controlPort(_ index: Int, _ control: LV2PortLayout.Control) -> String {
        let d = control.definition
        var more = ["lv2:default \(number(d.defaultValue))", "lv2:minimum \(number(d.minValue))", "lv2:maximum \(number(d.maxValue))"]
        var properties: [String] = []
        switch d.unit {
        case kAudioUnitParameterUnit_Boolean: properties.append("lv2:toggled")
        case kAudioUnitParameterUnit_Indexed:
            properties += ["lv2:integer"] + (d.valueStrings.isEmpty ? [] : ["lv2:enumeration"])
            if !d.valueStrings.isEmpty {
                let points = d.valueStrings.enumerated().map { i, label in
                    "[ rdfs:label \(literal(label)) ; rdf:value \(number(d.minValue + Float(i))) ]"
                }
                more.append("lv2:scalePoint " + points.joined(separator: " , "))
            }
        case kAudioUnitParameterUnit_MIDINoteNumber, kAudioUnitParameterUnit_MIDIController, kAudioUnitParameterUnit_SampleFrames:
            properties.append("lv2:integer")
        default: break
        }
        if d.flags.contains(.flag_DisplayLogarithmic) { properties.append("pprops:logarithmic") }
        if !properties.isEmpty { more.append("lv2:portProperty " + properties.joined(separator: ", ")) }
        if let unit = LV2Turtle.unit(d.unit) { more.append("units:unit units:\(unit)") }
        return port(["lv2:InputPort", "lv2:ControlPort"], index, control.symbol, d.name, more)
    }

    /// Each factory preset as the values of every control port, applied to a fresh unit (so that
    /// parameters a preset does not name keep their defaults, as in `auhost render --preset`).
    private func presetValues(_ layout: LV2PortLayout) throws -> [(name: String, values: [(String, Float)])] {
        let probe = factory.make()
        return try probe.factoryPresets.map { preset in
            let unit = factory.make()
            try unit.applyFactoryPreset(preset.number)
            let values = try layout.controls.map { ($0.symbol, try unit.parameter($0.definition.id)) }
            return (preset.name, values)
        }
    }

    private func presetsTurtle(_ presets: [(name: String, values: [(String, Float)])]) -> String {
        var t = LV2Turtle.prefixes
        for (i, preset) in presets.enumerated() {
            let ports = preset.values.map { symbol, value in "[ lv2:symbol \(literal(symbol)) ; pset:value \(number(value)) ]" }
            t += """
                <\(presetURI(i))>
                    a pset:Preset ;
                    lv2:appliesTo <\(factory.uri)> ;
                    rdfs:label \(literal(preset.name)) ;
                    lv2:port \(ports.joined(separator: " , ")) .


                """
        }
        return t
    }

    /// The maker's project: `urn:auhost:maker:<manufacturer code>`.
    private var projectURI: String {
        "urn:auhost:maker:" + LV2UnitFactory.uriSegment(FourCC.string(factory.description.componentManufacturer))
    }

    private func presetURI(_ i: Int) -> String { "\(factory.uri)#preset\(i)" }

    /// The latency port's range: the most frames a fresh unit reports at the usual rates (22.05
    /// to 192 kHz), so that hosts which map ports to parameters (auhost does) get a finite range.
    func mostLatencyFrames() -> Int {
        let probe = factory.make()
        var most = 1
        for rate in [22_050.0, 44_100, 48_000, 88_200, 96_000, 176_400, 192_000] {
            let channels = probe.outputFormats.first?.mChannelsPerFrame ?? 2
            guard (try? probe.setFormat(.canonical(sampleRate: rate, channels: channels), kAudioUnitScope_Output, 0)) != nil else {
                continue
            }
            let frames = probe.latency * rate
            if frames.isFinite { most = max(most, Int(frames.rounded(.up))) }
        }
        return most
    }

    /// The LV2 plug-in class of a component type. LV2 has no class for effects in general: an
    /// 'aufx' (or 'aumf') unit is a plain lv2:Plugin.
    static func pluginClass(_ type: OSType) -> String? {
        switch type {
        case kAudioUnitType_MusicDevice: return "lv2:InstrumentPlugin"
        case kAudioUnitType_Generator: return "lv2:GeneratorPlugin"
        case kAudioUnitType_Mixer: return "lv2:MixerPlugin"
        case kAudioUnitType_Panner: return "lv2:SpatialPlugin"
        case kAudioUnitType_FormatConverter: return "lv2:ConverterPlugin"
        default: return nil
        }
    }

    /// The LV2 units vocabulary's name for an Audio Unit parameter unit (nil: none fits).
    static func unit(_ unit: AudioUnitParameterUnit) -> String? {
        switch unit {
        case kAudioUnitParameterUnit_Percent: return "pc"
        case kAudioUnitParameterUnit_Seconds: return "s"
        case kAudioUnitParameterUnit_Milliseconds: return "ms"
        case kAudioUnitParameterUnit_SampleFrames: return "frame"
        case kAudioUnitParameterUnit_Hertz: return "hz"
        case kAudioUnitParameterUnit_Cents, kAudioUnitParameterUnit_AbsoluteCents: return "cent"
        case kAudioUnitParameterUnit_RelativeSemiTones: return "semitone12TET"
        case kAudioUnitParameterUnit_MIDINoteNumber: return "midiNote"
        case kAudioUnitParameterUnit_Decibels: return "db"
        case kAudioUnitParameterUnit_LinearGain: return "coef"
        case kAudioUnitParameterUnit_Degrees: return "degree"
        case kAudioUnitParameterUnit_Meters: return "m"
        case kAudioUnitParameterUnit_Octaves: return "oct"
        case kAudioUnitParameterUnit_BPM: return "bpm"
        case kAudioUnitParameterUnit_Beats: return "beat"
        default: return nil
        }
    }

    /// A Float as a Turtle number that reads back as the same Float ("0.8", "-24.0", "1e-05").
    private func number(_ v: Float) -> String { "\(v)" }

    /// A Turtle string literal.
    private func literal(_ s: String) -> String {
        var out = "\""
        for c in s.unicodeScalars {
            switch c {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default: out.unicodeScalars.append(c)
            }
        }
        return out + "\""
    }
}

/// The private extension the build step calls (CLV2Export.h: AUHostLV2TurtleGenerator).
enum LV2TurtleExtension {
    static let generator: UnsafeMutablePointer<AUHostLV2TurtleGenerator> = {
        let g = UnsafeMutablePointer<AUHostLV2TurtleGenerator>.allocate(capacity: 1)
        g.initialize(to: AUHostLV2TurtleGenerator(writeBundle: writeBundle))
        return g
    }()

    private static let writeBundle:
        @convention(c) (UnsafePointer<CChar>?, UnsafePointer<CChar>?, UnsafePointer<CChar>?, UnsafeMutablePointer<CChar>?, UInt32) -> Int32 =
            {
                manifest, bundle, binary, reason, reasonSize in
                do {
                    guard let manifest, let bundle, let binary, let factory = LV2Export.factory else {
                        throw AudioError(kAudio_ParamError, "The generator needs a manifest, a bundle folder and a binary name.")
                    }
                    try write(
                        manifest: String(cString: manifest), bundle: String(cString: bundle), binary: String(cString: binary), factory)
                    return 0
                } catch {
                    let message = (error as? AudioError)?.message ?? "\(error)"
                    if let reason, reasonSize > 0 {
                        let bytes = Array(message.utf8.prefix(Int(reasonSize) - 1))
                        for (i, b) in bytes.enumerated() { reason[i] = CChar(bitPattern: b) }
                        reason[bytes.count] = 0
                    }
                    return 1
                }
            }

    /// Reads the name and version from the plug-in's manifest and writes the Turtle into `bundle`.
    static func write(manifest: String, bundle: String, binary: String, _ factory: LV2UnitFactory) throws {
        guard let data = FileManager.default.contents(atPath: manifest),
            let json = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let components = json["components"] as? [[String: Any]]
        else {
            throw AudioError(kAudioUnitErr_InvalidFile, "\(manifest) is not a plug-in manifest (JSON with \"components\").")
        }
        let own = factory.description
        guard
            let entry = components.first(where: {
                FourCC.code($0["type"] as? String ?? "") == own.componentType
                    && FourCC.code($0["subtype"] as? String ?? "") == own.componentSubType
                    && FourCC.code($0["manufacturer"] as? String ?? "") == own.componentManufacturer
            }), let name = entry["name"] as? String
        else {
            throw AudioError(kAudioUnitErr_InvalidFile, "\(manifest) names no component \(own.tripleString) (the binary's unit).")
        }
        let turtle = LV2Turtle(
            factory: factory, name: name, version: version(entry["version"]), binary: binary,
            ttlName: (URL(fileURLWithPath: manifest).lastPathComponent.components(separatedBy: ".").first ?? "plugin") + ".ttl")
        for file in try turtle.files() {
            let path = URL(fileURLWithPath: bundle).appendingPathComponent(file.name).path
            do {
                try file.text.write(toFile: path, atomically: true, encoding: .utf8)
            } catch {
                throw AudioError(kAudio_FilePermissionError, "Cannot write \(path): \(error.localizedDescription)")
            }
        }
    }

    /// minor and bugfix of "major.minor.bugfix" or of the packed 0xMMMMmmbb.
    static func version(_ value: Any?) -> (minor: Int, micro: Int) {
        if let s = value as? String {
            let parts = s.split(separator: ".").map { Int($0) ?? 0 }
            return (parts.count > 1 ? parts[1] : 0, parts.count > 2 ? parts[2] : 0)
        }
        if let n = value as? Int { return ((n >> 8) & 0xFF, n & 0xFF) }
        return (0, 0)
    }
}

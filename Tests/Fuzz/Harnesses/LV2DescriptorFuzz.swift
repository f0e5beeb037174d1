import AudioTypes
import AudioUnitBase
import Foundation
import LV2Host
import LV2Units

/// A plug-in bundle as a host meets it on start-up: the bytes are its Turtle (manifest.ttl, a NUL,
/// then plugin.ttl; without a NUL, a fixed manifest naming <urn:fuzz:p> and the bytes as
/// plugin.ttl), written to a fresh folder beside an empty amp.so (never opened: no plug-in code
/// runs), loaded into a fresh lilv world as LV2Provider loads a bundle, then read as `auhost list`
/// and `info` do (catalog entry, ports, port summaries) and made a unit (LV2Unit: the checks
/// before loading, the port layout, parameters, presets), without instantiating it.
/// Checked: a plug-in either becomes a unit whose ports are indexed 0..<count each once, whose
/// parameters are its control ports, each once, or is refused with an error naming it.
public enum LV2DescriptorFuzz {
    static let manifest = """
        @prefix lv2: <http://lv2plug.in/ns/lv2core#> .
        @prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
        <urn:fuzz:p> a lv2:Plugin ; lv2:binary <amp.so> ; rdfs:seeAlso <plugin.ttl> .

        """

    /// kLV2UnitPatchParameterBase (AUHostLV2.h): patch parameters' IDs start here.
    static let patchParameterBase: AudioUnitParameterID = 0x5000_0000

    /// Thread: any (one at a time).
    public static func run(_ data: UnsafeRawBufferPointer) {
        let bytes = Array(data)
        var (manifestBytes, pluginBytes) = (Array(manifest.utf8), bytes)
        if let nul = bytes.firstIndex(of: 0) { (manifestBytes, pluginBytes) = (Array(bytes[..<nul]), Array(bytes[(nul + 1)...])) }
        var template = Array("/tmp/auhost-fuzz-lv2-XXXXXX".utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else { return }
        let folder = String(cString: made) + "/fuzz.lv2/"
        defer { try? FileManager.default.removeItem(atPath: String(cString: made)) }
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: folder + "manifest.ttl", contents: Data(manifestBytes))
        _ = FileManager.default.createFile(atPath: folder + "plugin.ttl", contents: Data(pluginBytes))
        _ = FileManager.default.createFile(atPath: folder + "amp.so", contents: Data())
        read(bundle: folder)
    }

    private static func read(bundle folder: String) {
        let world = LV2World(supportBundles: [], lv2Path: nil)
        world.load(bundle: folder)
        let catalog = LV2ComponentCatalog(world: world)
        let plugins = world.plugins
        let access = LV2WorldAccess(world: world)
        for plugin in plugins {
            let ports = plugin.ports
            _ = (plugin.name, plugin.projectName, plugin.className, plugin.binaryPath, plugin.portSummary, plugin.catalogPortSummary)
            _ = (plugin.requiredFeatures, plugin.requiredOptions, plugin.extensionData)
            for (k, port) in ports.enumerated() { precondition(port.index == k, "port \(k) says it is \(port.index)") }
            guard let entry = catalog.entry(uri: plugin.uri) else { continue }
            do {
                let unit = try LV2Unit(plugin: plugin, access: access, description: entry.description)
                check(unit.parameterDefinitions, ports: ports, uri: plugin.uri)
            } catch let error as AudioError {
                let named = error.message.contains(plugin.uri) || error.message.contains(folder)
                precondition(named, "a refusal naming neither plug-in nor bundle: \(error.message)")
            } catch {
                preconditionFailure("a refusal that is not an AudioError: \(error)")
            }
        }
    }

    /// Parameters of an accepted unit: each control port once (ID = port index), nothing else
    /// below the patch parameters' IDs.
    private static func check(_ definitions: [ParameterDefinition], ports: [LV2PortInfo], uri: String) {
        var seen = Set<AudioUnitParameterID>()
        for d in definitions {
            precondition(seen.insert(d.id).inserted, "<\(uri)>: parameter \(d.id) twice")
            guard d.id < patchParameterBase else { continue }
            precondition(Int(d.id) < ports.count && ports[Int(d.id)].kind == .control, "<\(uri)>: parameter \(d.id) is no control port")
        }
        let controls = ports.filter { $0.kind == .control }.map { AudioUnitParameterID($0.index) }
        precondition(controls.allSatisfy(seen.contains), "<\(uri)>: a control port without its parameter")
    }
}

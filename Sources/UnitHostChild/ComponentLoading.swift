import AUHostCore
import Foundation
import LADSPAHost
import LADSPAUnits
import LV2Host
import LV2Units
import PlugInLoader

/// Finds the one component the host asked for without reading any other plug-in: an LV2 plug-in
/// through a world holding only its bundle, an SDK plug-in through a provider over its own folder,
/// a LADSPA plug-in by describing its own library (this process is already the child that may
/// die of it), a built-in unit through the registry (built-in units come first, so no plug-in is read).
///
/// Thread: setup.
func loadComponent(_ description: AudioComponentDescription, origin: String) throws -> Component {
    if origin.hasPrefix("lv2 ") {
        let words = origin.split(separator: " ").map(String.init)
        guard words.count == 3, let bundle = URL(string: words[2]), bundle.isFileURL else {
            throw AudioError(kAudio_ParamError, "The LV2 origin \"\(origin)\" does not name a plug-in URI and a bundle.")
        }
        let uri = words[1]
        let world = LV2World(supportBundles: [bundle.path.hasSuffix("/") ? bundle.path : bundle.path + "/"], lv2Path: nil)
        let access = LV2WorldAccess(world: world)
        let plugin: LV2PluginDescriptor
        do { plugin = try access.withWorld { try $0.plugin(uri: uri) } } catch let error as LV2HostError {
            throw AudioError(error.status, error.message)
        }
        let component = Component(description: description, name: uri, version: 0x0001_0000, origin: origin) { d in
            try LV2Unit(plugin: plugin, access: access, description: d)
        }
        return ComponentRegistry.shared.register(component)
    }
    if origin.hasPrefix("/") && origin.hasSuffix(".so") {
        let folder = (origin as NSString).deletingLastPathComponent
        guard let component = PlugInProvider(folders: [folder]).components().first(where: { $0.description == description }) else {
            throw AudioError(
                kAudioComponentErr_UnsupportedType, "No SDK plug-in in \(folder) has the description \(description.tripleString).")
        }
        return ComponentRegistry.shared.register(component)
    }
    if origin.hasPrefix("ladspa ") {
        // "ladspa LABEL UNIQUE-ID LIBRARY" (LADSPAProvider); the library path may hold spaces.
        let words = origin.split(separator: " ", maxSplits: 3).map(String.init)
        guard words.count == 4 else {
            throw AudioError(kAudio_ParamError, "The LADSPA origin \"\(origin)\" does not name a label, a unique ID and a library.")
        }
        let plugins: [LADSPAPluginInfo]
        do { plugins = try LADSPALibrary.open(words[3]).describe() } catch let error as LADSPAHostError {
            throw AudioError(error.status, error.message)
        }
        guard let plugin = plugins.first(where: { $0.label == words[1] }) else {
            throw AudioError(kAudioUnitErr_ExtensionNotFound, "\(words[3]) has no LADSPA plug-in labelled \(words[1]).")
        }
        let component = Component(description: description, name: plugin.name, version: 0x0001_0000, origin: origin) { d in
            try LADSPAUnit(plugin: plugin, description: d)
        }
        return ComponentRegistry.shared.register(component)
    }
    if origin == "built-in", let component = ComponentRegistry.shared.findNext(after: nil, matching: description) {
        return component
    }
    throw AudioError(
        kAudioComponentErr_UnsupportedType,
        "The component \(description.tripleString) (\(origin)) cannot be loaded out of process: only built-in units, SDK plug-ins, LV2 and LADSPA plug-ins can."
    )
}

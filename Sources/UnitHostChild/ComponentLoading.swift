import AUHostCore
import Foundation
import LV2Host
import LV2Units
import PlugInLoader

/// Finds the one component the host asked for without reading any other plug-in: an LV2 plug-in
/// through a world holding only its bundle, an SDK plug-in through a provider over its own folder,
/// a built-in unit through the registry (built-in units come first, so no plug-in is read).
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
    if origin == "built-in", let component = ComponentRegistry.shared.findNext(after: nil, matching: description) {
        return component
    }
    throw AudioError(
        kAudioComponentErr_UnsupportedType,
        "The component \(description.tripleString) (\(origin)) cannot be loaded out of process: only built-in units, SDK plug-ins and LV2 plug-ins can."
    )
}

import AUHostCore
import Foundation
import LV2Host

/// What opening an LV2 unit's UI needs from the plug-in's data: its URI, name, UIs, ports and
/// patch parameters (a UI may ask the host for their values: ui:requestValue).
/// Read for a unit in this process from its own world, and for a unit out of process
/// (AUHostIsolation.h) from its bundle alone, named by the component's origin, as the unit's
/// child reads it. No plug-in code runs. Thread: setup.
struct LV2PluginUIData {
    let uri: String
    let name: String
    let uis: [LV2PluginUIDescriptor]
    let ports: [LV2PortInfo]
    let patchParameters: [LV2PatchParameter]
    /// The unit runs out of process, where UIs needing the plug-in's instance are shown beside it.
    let isOutOfProcess: Bool

    /// Whether UI `ui` can be shown for this unit.
    func canShow(_ ui: LV2PluginUIDescriptor) -> Bool {
        ui.isSupported || (isOutOfProcess && ui.isShownBesidePlugin)
    }

    init(unit: AudioUnit?, function: String) throws {
        guard let instance = ComponentInstance.from(unit) else {
            throw AudioError(kAudio_ParamError, "\(function) takes an LV2 unit; this is not a unit instance.")
        }
        isOutOfProcess = instance.unit is UnitProcessUIHosting
        if let lv2 = instance.unit as? LV2Unit {
            (uri, name, uis, ports) = lv2.access.withWorld { _ in (lv2.plugin.uri, lv2.plugin.name, lv2.plugin.uis, lv2.plugin.ports) }
            patchParameters = lv2.patchParameters
            return
        }
        // An LV2 unit out of process: the origin is "lv2 URI BUNDLE-URI" (LV2Provider).
        let origin = instance.component.origin
        let words = origin.split(separator: " ").map(String.init)
        guard words.count == 3, words[0] == "lv2", let bundle = URL(string: words[2]), bundle.isFileURL else {
            throw AudioError(kAudio_ParamError, "\(function) takes an LV2 unit; \(instance.component.name) is not one.")
        }
        let world = LV2World(supportBundles: [], lv2Path: nil)
        world.load(bundle: bundle.path.hasSuffix("/") ? bundle.path : bundle.path + "/")
        let plugin: LV2PluginDescriptor
        do { plugin = try world.plugin(uri: words[1]) } catch let error as LV2HostError {
            throw AudioError(error.status, error.message)
        }
        (uri, name, uis, ports) = (plugin.uri, plugin.name, plugin.uis, plugin.ports)
        patchParameters = LV2PatchParameter.read(plugin)
    }
}

import AUHostCore
import AudioToolbox
import Foundation
import LV2Units

// AUHost extensions of AudioComponent.h: where a component comes from, and finding an LV2
// plug-in by its URI without building the catalog of every unit (the Python package and other
// hosts that take a URI from their users need both; Apple's API names components by codes only).

/// Thread: setup.
@_cdecl("AUHostComponentCopyOrigin")
public func _AUHostComponentCopyOrigin(_ component: AudioComponent?) -> UnsafeMutableRawPointer? {
    guard let c = Component.from(component) else { return nil }
    return CFBridge.string(c.origin).toOpaque()
}

/// Thread: setup.
@_cdecl("AUHostComponentFindLV2")
public func _AUHostComponentFindLV2(_ uri: UnsafePointer<CChar>?) -> AudioComponent? {
    guard let uri else { return nil }
    let text = String(cString: uri)
    // Providers install on first use of the registry: touch it before asking LV2 alone.
    _ = ComponentRegistry.shared.providers
    return LV2Provider.component(uri: text)?.handle
}

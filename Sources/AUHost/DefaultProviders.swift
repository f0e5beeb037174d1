import AUHostCore
import BuiltInUnits
import PlugInLoader
import ALSAIOUnit
import LV2Units
import LADSPAUnits
import VoiceProcessing
import UnitIsolation

/// Installs every provider this build links, in a fixed order (built-in units, SDK plug-ins, LV2, LADSPA).
/// The registry calls it the first time it is used; the core finds it by name so that it never
/// imports a provider. Providers join here as their modules land.
///
/// Thread: setup (called once, under the registry's lock).
@_cdecl("AUHostInstallDefaultProviders")
public func installDefaultProviders() {
    for provider in defaultProviders() { ComponentRegistry.shared.install(provider) }
    installUnitIsolation()
}

/// The providers of this build.
func defaultProviders() -> [ComponentProvider] {
    [BuiltInProvider(), ALSAProvider(), VoiceProcessingProvider(), PlugInProvider(), LV2Provider(), LADSPAProvider()]
}

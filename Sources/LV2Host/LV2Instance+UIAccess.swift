import CLilv

/// What a UI in the plug-in's own process may be given: the plug-in's handle (instance-access),
/// its descriptor's extension_data (data-access), and the URID map the plug-in was given (as
/// `LV2_URID_Map *` and `LV2_URID_Unmap *`), so that the UI's URIDs are the plug-in's.
public struct LV2InstanceUIAccess {
    public let handle: UnsafeMutableRawPointer?
    public let extensionData: (@convention(c) (UnsafePointer<CChar>?) -> UnsafeRawPointer?)?
    public let map: UnsafeMutableRawPointer
    public let unmap: UnsafeMutableRawPointer
}

extension LV2Instance {
    /// For a UI that requires instance-access or data-access (auhost-unit-host runs it beside
    /// the plug-in). Valid while this instance lives. Thread: setup.
    public var uiAccess: LV2InstanceUIAccess {
        let map = descriptor.world.uridMap
        return LV2InstanceUIAccess(
            handle: lilv_instance_get_handle(lilvInstance),
            extensionData: lilv_instance_get_descriptor(lilvInstance)?.pointee.extension_data,
            map: UnsafeMutableRawPointer(map.mapFeature), unmap: UnsafeMutableRawPointer(map.unmapFeature))
    }
}

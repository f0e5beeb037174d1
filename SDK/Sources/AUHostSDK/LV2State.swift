import AudioUnitBase
import CLV2Export

/// state:interface: the unit's ClassInfo (kAudioUnitProperty_ClassInfo, the .aupreset
/// dictionary) saved as an XML property list under `urn:auhost:lv2:state#classInfo`, type
/// atom:String, portable and plain data. Keys and types are URIDs, so state needs urid:map (from
/// instantiate, or from the save/restore call's features); without it save and restore answer
/// LV2_STATE_ERR_NO_FEATURE. A host keeps the control ports' values itself; after a restore,
/// a control port overrides the restored value only when it changes.
///
/// Thread: setup (LV2's instantiation class: never concurrent with run).
enum LV2StateExtension {
    static let interface: UnsafeMutablePointer<LV2_State_Interface> = {
        let i = UnsafeMutablePointer<LV2_State_Interface>.allocate(capacity: 1)
        i.initialize(to: LV2_State_Interface(save: save, restore: restore))
        return i
    }()

    /// urid:map from the call's features, else the one given at instantiate.
    private static func map(_ instance: LV2Instance, _ features: UnsafePointer<UnsafePointer<LV2_Feature>?>?) -> LV2Features {
        let offered = LV2Features(features)
        return offered.map != nil ? offered : instance.features
    }

    private static let save:
        @convention(c) (
            LV2_Handle?, LV2_State_Store_Function?, LV2_State_Handle?, UInt32, UnsafePointer<UnsafePointer<LV2_Feature>?>?
        ) -> LV2_State_Status = { handle, store, storeHandle, _, features in
            guard let handle, let store else { return LV2_STATE_ERR_UNKNOWN }
            let instance = LV2Instance.from(handle)
            let urids = map(instance, features)
            let key = urids.urid(LV2URI.classInfoKey), type = urids.urid(LV2URI.atomString)
            guard key != 0, type != 0 else { return LV2_STATE_ERR_NO_FEATURE }
            guard var bytes = try? instance.unit.classInfo().propertyListData() else { return LV2_STATE_ERR_UNKNOWN }
            bytes.append(0)  // an atom:String's body ends in NUL
            let flags = UInt32(LV2_STATE_IS_POD.rawValue | LV2_STATE_IS_PORTABLE.rawValue)
            return bytes.withUnsafeBytes { store(storeHandle, key, $0.baseAddress, $0.count, type, flags) }
        }

    private static let restore:
        @convention(c) (
            LV2_Handle?, LV2_State_Retrieve_Function?, LV2_State_Handle?, UInt32, UnsafePointer<UnsafePointer<LV2_Feature>?>?
        ) -> LV2_State_Status = { handle, retrieve, retrieveHandle, _, features in
            guard let handle, let retrieve else { return LV2_STATE_ERR_UNKNOWN }
            let instance = LV2Instance.from(handle)
            let urids = map(instance, features)
            let key = urids.urid(LV2URI.classInfoKey), stringType = urids.urid(LV2URI.atomString)
            guard key != 0 else { return LV2_STATE_ERR_NO_FEATURE }
            var size = 0, type: UInt32 = 0, flags: UInt32 = 0
            // No saved ClassInfo (state from another version, or a host's empty state): nothing to do.
            guard let value = retrieve(retrieveHandle, key, &size, &type, &flags) else { return LV2_STATE_SUCCESS }
            guard type == stringType else { return LV2_STATE_ERR_BAD_TYPE }
            var bytes = [UInt8](UnsafeRawBufferPointer(start: value, count: size))
            while bytes.last == 0 { bytes.removeLast() }
            guard let plist = try? PropertyListValue(propertyListData: bytes), (try? instance.unit.restoreClassInfo(plist)) != nil else {
                return LV2_STATE_ERR_UNKNOWN
            }
            instance.adoptParameterValues()
            return LV2_STATE_SUCCESS
        }
}

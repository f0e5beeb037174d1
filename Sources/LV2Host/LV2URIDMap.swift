import CLilv
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The host's URID map (urid:map / urid:unmap): URI strings to small integers and back, shared by
/// every instance of a world (state and presets are read with the same map). Grows without
/// limit; tested with 20,000 URIs.
///
/// Real-time note: `map` and `unmap` take an uncontended mutex for a hash lookup. Plug-ins map
/// their URIs in instantiate; the few that call map from run only look up URIs mapped before, so
/// the lock is held for one dictionary lookup and never across plug-in code. It is not lock-free.
///
/// Thread: any.
public final class LV2URIDMap: @unchecked Sendable {
    private struct Table {
        var ids: [String: UInt32] = [:]
        /// C strings by URID - 1; never freed before the map, so unmap results stay valid.
        var strings: [UnsafeMutablePointer<CChar>] = []
    }
    private let table = Mutex(Table())
    /// The feature structs handed to plug-ins; `handle` is this object, unretained.
    let mapFeature: UnsafeMutablePointer<LV2_URID_Map>
    let unmapFeature: UnsafeMutablePointer<LV2_URID_Unmap>

    /// An empty map. Thread: any.
    public init() {
        mapFeature = .allocate(capacity: 1)
        unmapFeature = .allocate(capacity: 1)
        let handle = Unmanaged.passUnretained(self).toOpaque()
        mapFeature.initialize(
            to: LV2_URID_Map(
                handle: handle,
                map: { handle, uri in
                    guard let handle, let uri else { return 0 }
                    return Unmanaged<LV2URIDMap>.fromOpaque(handle).takeUnretainedValue().map(cString: uri)
                }))
        unmapFeature.initialize(
            to: LV2_URID_Unmap(
                handle: handle,
                unmap: { handle, urid in
                    guard let handle else { return nil }
                    return UnsafePointer(Unmanaged<LV2URIDMap>.fromOpaque(handle).takeUnretainedValue().unmapCString(urid))
                }))
    }

    deinit {
        table.withLock { $0.strings.forEach { free($0) } }
        mapFeature.deallocate()
        unmapFeature.deallocate()
    }

    /// The URID of `uri`, assigning the next one (from 1) on first sight. Thread: any (see the
    /// real-time note on the type).
    public func map(_ uri: String) -> UInt32 {
        table.withLock { table in
            if let id = table.ids[uri] { return id }
            table.strings.append(strdup(uri))
            let id = UInt32(table.strings.count)
            table.ids[uri] = id
            return id
        }
    }

    /// The URI of `urid`, or nil if it was never mapped. Thread: any.
    public func unmap(_ urid: UInt32) -> String? {
        unmapCString(urid).map { String(cString: $0) }
    }

    /// How many URIs are mapped. Thread: any.
    public var count: Int { table.withLock { $0.strings.count } }

    func map(cString uri: UnsafePointer<CChar>) -> UInt32 {
        map(String(cString: uri))
    }

    func unmapCString(_ urid: UInt32) -> UnsafeMutablePointer<CChar>? {
        table.withLock { table in
            urid >= 1 && Int(urid) <= table.strings.count ? table.strings[Int(urid) - 1] : nil
        }
    }
}

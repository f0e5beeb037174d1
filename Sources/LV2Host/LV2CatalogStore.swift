import AudioTypes
import CLilv
import Foundation

/// The LV2 catalog of a search path, from the cache where it is current: every bundle is
/// fingerprinted (file sizes and mtimes, no Turtle parsed); bundles whose fingerprint matches
/// their cached record are taken from the cache, the others (added or changed) are read through
/// lilv alone, removed ones dropped, and the cache rewritten. Component codes are then resolved
/// over every plug-in, exactly as ``LV2ComponentCatalog`` does over a fully loaded world, so they
/// are the same with and without the cache.
///
/// ```swift
/// let snapshot = LV2CatalogStore.load(path: LV2SearchPath()) { print($0) }
/// snapshot.catalog.entry(uri: "http://lv2plug.in/plugins/eg-amp")
/// ```
public struct LV2CatalogSnapshot: Sendable {
    /// Every bundle on the path, in search order.
    public let records: [LV2BundleRecord]
    /// Plug-in URI → its data and bundle folder (the first bundle on the path wins a duplicate).
    public let plugins: [String: (plugin: LV2CatalogPlugin, bundle: String)]
    /// The codes of every plug-in.
    public let catalog: LV2ComponentCatalog
    /// How many bundles were read through lilv (0: everything came from the cache).
    public let bundlesRead: Int

    /// Bundles that declare no plug-in (specifications, presets): a world made for one plug-in
    /// loads these too, so its classes, units and presets are as in a fully loaded world.
    public var supportBundles: [String] { records.filter { $0.plugins.isEmpty && $0.warnings.isEmpty }.map(\.path) }

    /// Thread: any.
    public init(records: [LV2BundleRecord], bundlesRead: Int) {
        self.records = records
        self.bundlesRead = bundlesRead
        var plugins: [String: (plugin: LV2CatalogPlugin, bundle: String)] = [:]
        plugins.reserveCapacity(records.reduce(0) { $0 + $1.plugins.count })
        for record in records {
            for plugin in record.plugins where plugins[plugin.uri] == nil { plugins[plugin.uri] = (plugin, record.path) }
        }
        self.plugins = plugins
        catalog = LV2ComponentCatalog(inputs: plugins.values.map(\.plugin.catalogInput))
    }
}

public enum LV2CatalogStore {
    /// The catalog of `path`: cached records where current, the rest read now; the cache file
    /// is rewritten when anything changed. `refresh` ignores the cache (re-reads every bundle).
    /// `warn` receives each bundle warning (a broken plug-in skipped), and one warning if the
    /// cache cannot be written (the catalog then lives in memory for this process).
    /// Thread: setup (file system and lilv).
    public static func load(
        path: LV2SearchPath, refresh: Bool = false, cacheFile: String? = nil,
        warn: (String) -> Void
    ) -> LV2CatalogSnapshot {
        let file = cacheFile ?? LV2CatalogCacheFile.file(for: path)
        let bundles = path.bundles()
        let cached = refresh ? [:] : Dictionary((LV2CatalogCacheFile.read(file) ?? []).map { ($0.path, $0) }) { a, _ in a }
        var records: [LV2BundleRecord?] = []
        var stale: [Int: String] = [:]
        for (i, bundle) in bundles.enumerated() {
            guard let fingerprint = LV2BundleFingerprint.of(bundle) else { records.append(nil); continue }
            if let record = cached[bundle], record.fingerprint == fingerprint {
                records.append(record)
            } else {
                records.append(nil)
                stale[i] = fingerprint
            }
        }
        if !stale.isEmpty {
            let read = readBundles(stale.keys.map { bundles[$0] }, path: path)
            for (i, fingerprint) in stale {
                let (plugins, warnings) = read[normalized(bundles[i])] ?? ([], [])
                records[i] = LV2BundleRecord(path: bundles[i], fingerprint: fingerprint, plugins: plugins, warnings: warnings)
            }
        }
        let current = records.compactMap { $0 }
        for record in current { record.warnings.forEach(warn) }
        if !stale.isEmpty || Set(cached.keys) != Set(current.map(\.path)) {
            do { try LV2CatalogCacheFile.write(current, to: file) } catch {
                warn(
                    "lv2: cannot write the plug-in catalog cache \(file) (\(error.localizedDescription)); "
                        + "keeping it in memory for this run. Set XDG_CACHE_HOME to a writable folder to keep it.")
            }
        }
        return LV2CatalogSnapshot(records: current, bundlesRead: stale.count)
    }

    /// Reads the plug-ins of `bundles` through one lilv world over the whole path (lilv reads only
    /// manifests until a plug-in's data is asked for, so the other bundles cost little). A
    /// plug-in whose port data is broken is left out with a warning naming it and its bundle.
    /// One world, on one thread: lilv 0.24 names each file's blank nodes from one static buffer
    /// shared by every world (lilv_world_blank_node_prefix), so two worlds reading at once can
    /// give two files of one world the same prefix, merging their ports. Two worlds on two
    /// threads did that (ZamDynamicEQ read with 5 audio inputs and no output, once in three
    /// runs of testTwoWorldsReadWhatOneWorldReads), and the cache would have kept it.
    static func readBundles(_ bundles: [String], path: LV2SearchPath) -> [String: ([LV2CatalogPlugin], [String])] {
        let wanted = Set(bundles.map(normalized))
        let world = LV2World(lv2Path: path.text)
        var result: [String: ([LV2CatalogPlugin], [String])] = [:]
        for descriptor in world.plugins {
            let bundleURI = descriptor.bundleURI
            guard let bundle = filePath(of: bundleURI).map(normalized), wanted.contains(bundle) else { continue }
            if let problem = descriptor.portDataProblem {
                result[bundle, default: ([], [])].1.append(
                    "lv2: skipping plug-in <\(descriptor.uri)> in \(bundle): broken port data (\(problem)).")
                continue
            }
            let plugin = LV2CatalogPlugin(
                uri: descriptor.uri, name: descriptor.name, manufacturerName: descriptor.projectName,
                summary: descriptor.catalogPortSummary, isMixer: descriptor.isMixer, bundleURI: bundleURI,
                presetNames: descriptor.presets.map(\.label))
            result[bundle, default: ([], [])].0.append(plugin)
        }
        for claim in world.ignoredClaims where wanted.contains(normalized(claim.bundle)) {
            result[normalized(claim.bundle), default: ([], [])].1.append(
                "lv2: ignoring plug-in <\(claim.uri)> in \(claim.bundle): \(claim.reason); the one in \(claim.standing) stands for it.")
        }
        return result
    }

    /// The path of a file URI, or nil.
    static func filePath(of uri: String) -> String? {
        guard let path = lilv_file_uri_parse(uri, nil) else { return nil }
        defer { lilv_free(path) }
        return String(cString: path)
    }

    /// A folder path with repeated slashes collapsed and one trailing slash.
    static func normalized(_ path: String) -> String {
        var out = ""
        for c in path where !(c == "/" && out.hasSuffix("/")) { out.append(c) }
        return out.hasSuffix("/") ? out : out + "/"
    }
}

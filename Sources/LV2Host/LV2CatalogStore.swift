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

    /// What a catalog read found in each bundle: its plug-ins and its warnings.
    typealias Found = [String: ([LV2CatalogPlugin], [String])]

    /// Reads the plug-ins of `bundles` through lilv. Parsing their data is the whole cost of a
    /// cold catalog, and two worlds of one process cannot parse at once (``LV2TurtleReads``). So
    /// with many bundles and more than one core, a child process (`lv2-sweep-child
    /// --catalog-share`) reads every other plug-in in a world of its own while this process reads
    /// the rest. By plug-in, not by bundle: one bundle can be most of the work (lsp-plugins.lv2,
    /// 3.3 of 3.9 s with the large collection). When the child cannot start, or ends without a
    /// whole answer, this process reads its share too: the result is the same either way.
    static func readBundles(_ bundles: [String], path: LV2SearchPath) -> Found {
        let wanted = Set(bundles.map(normalized))
        let shared = wanted.count >= 8 && sysconf(Int32(_SC_NPROCESSORS_ONLN)) > 1
        let arguments = [LV2Sweep.defaultChildPath(), shareFlag, path.text] + wanted.sorted()
        let child = shared ? try? HelperChild.start(arguments, quiet: true).get() : nil
        let world = LV2World(lv2Path: path.text)
        var found = read(wanted, in: world, share: 0, of: child == nil ? 1 : 2)
        if let child {
            found.merge(answer(of: child) ?? read(wanted, in: world, share: 1, of: 2)) { mine, theirs in
                ((mine.0 + theirs.0).sorted { $0.uri < $1.uri }, (mine.1 + theirs.1).sorted())
            }
        }
        return found
    }

    /// The child's argument that reads the second of two shares of a catalog read:
    /// `--catalog-share LV2-PATH BUNDLE…`. It prints what it found in the cache file's format, the
    /// bundles' fingerprints left empty.
    public static let shareFlag = "--catalog-share"

    /// The child's side of ``readBundles(_:path:)``. Thread: setup (the child's main).
    public static func shareChildMain(arguments: [String]) -> Never {
        guard let path = arguments.first else { exit(2) }
        let found = read(Set(arguments.dropFirst()), in: LV2World(lv2Path: path), share: 1, of: 2)
        let records = found.keys.sorted().map { LV2BundleRecord(path: $0, fingerprint: "", plugins: found[$0]!.0, warnings: found[$0]!.1) }
        print(LV2CatalogCacheFile.text(of: records), terminator: "")
        exit(0)
    }

    /// What the child found, or nil when it crashed or its answer is not whole (the checksum).
    private static func answer(of child: HelperChild) -> Found? {
        let (output, status) = child.finish()
        guard status == 0, let records = LV2CatalogCacheFile.records(in: output) else { return nil }
        return Dictionary(records.map { ($0.path, ($0.plugins, $0.warnings)) }) { first, _ in first }
    }

    /// The plug-ins of the `wanted` bundles at positions `share`, `share + shares`, … of `world`'s
    /// plug-in list (a world over the whole path: lilv reads only manifests until a plug-in's data
    /// is asked for, so the other plug-ins cost little). A plug-in whose port data is broken is
    /// left out with a warning naming it and its bundle; the first share also warns of ignored
    /// claims. Each bundle's plug-ins come in URI order and its warnings sorted, so that shares
    /// merge into what one share gives.
    private static func read(_ wanted: Set<String>, in world: LV2World, share: Int, of shares: Int) -> Found {
        var result: Found = [:]
        for (position, descriptor) in world.plugins.enumerated() where position % shares == share {
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
        for claim in world.ignoredClaims where share == 0 && wanted.contains(normalized(claim.bundle)) {
            result[normalized(claim.bundle), default: ([], [])].1.append(
                "lv2: ignoring plug-in <\(claim.uri)> in \(claim.bundle): \(claim.reason); the one in \(claim.standing) stands for it.")
        }
        return result.mapValues { ($0.0, $0.1.sorted()) }
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

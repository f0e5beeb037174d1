import AudioToolbox
import LV2Host

/// The LADSPA plug-ins of a search path with their component codes. Codes come from
/// ``LV2ComponentCatalog`` over (label, maker) — the label stands where LV2 has its URI — so they
/// are derived, resolved on collision and stable over runs exactly as LV2's are.
public struct LADSPACatalogSnapshot: Sendable {
    /// Every library on the path, in search order.
    public let records: [LADSPALibraryRecord]
    /// The plug-ins, one per label (the first library on the path wins a label given twice).
    public let plugins: [LADSPAPluginInfo]
    public let catalog: LV2ComponentCatalog
    /// Labels given by more than one library with different unique IDs: a sentence each.
    public let duplicateWarnings: [String]
    /// How many libraries were described by the child now (0: all from the cache).
    public let librariesDescribed: Int

    /// Thread: any.
    public init(records: [LADSPALibraryRecord], librariesDescribed: Int) {
        self.records = records
        self.librariesDescribed = librariesDescribed
        var byLabel: [String: LADSPAPluginInfo] = [:]
        var plugins: [LADSPAPluginInfo] = []
        var duplicates: [String] = []
        for plugin in records.flatMap(\.plugins) {
            if let first = byLabel[plugin.label] {
                // The same unique ID is the same plug-in shipped twice (ladspa-sdk's examples are
                // also in CMT): nothing to warn about.
                if first.uniqueID != plugin.uniqueID {
                    duplicates.append(
                        "ladspa: ignoring plug-in \(plugin.label) in \(plugin.library): \(first.library) also has that label and stands for it."
                    )
                }
                continue
            }
            byLabel[plugin.label] = plugin
            plugins.append(plugin)
        }
        self.plugins = plugins
        duplicateWarnings = duplicates
        catalog = LV2ComponentCatalog(inputs: plugins.map(Self.catalogInput))
    }

    /// The catalog's view of a plug-in: label as identity, maker as manufacturer, audio ports (and
    /// a DSSI synth's MIDI input) for the type. Thread: any.
    public static func catalogInput(_ p: LADSPAPluginInfo) -> LV2CatalogInput {
        var summary = LV2PortSummary(ports: [])
        let counts = p.portTable.counts
        summary.audioInputs = counts.audioInputs
        summary.audioOutputs = counts.audioOutputs
        summary.controlInputs = counts.controlInputs
        summary.controlOutputs = counts.controlOutputs
        summary.midiInputs = p.isDSSISynth ? 1 : 0
        return LV2CatalogInput(uri: p.label, name: p.name, manufacturerName: p.maker, summary: summary, isMixer: false)
    }
}

public enum LADSPACatalogStore {
    /// The catalog of `path`: libraries whose fingerprint (size, mtime) matches the cache are
    /// taken from it; the others are described in a child (``LADSPAScan``), and the cache is
    /// rewritten; `timeoutSeconds` bounds each library's description. `warn` receives each skipped
    /// library's warning, each duplicate label when the cache is rewritten (libraries added,
    /// removed or changed), and one warning if the cache cannot be written. Thread: setup.
    public static func load(
        path: LADSPASearchPath, refresh: Bool = false, cacheFile: String? = nil,
        childPath: String = LV2Sweep.defaultChildPath(), timeoutSeconds: UInt32 = 10, warn: (String) -> Void
    ) -> LADSPACatalogSnapshot {
        let file = cacheFile ?? LADSPACatalogCacheFile.file(for: path)
        let cached = refresh ? [:] : Dictionary((LADSPACatalogCacheFile.read(file) ?? []).map { ($0.path, $0) }) { a, _ in a }
        var records: [LADSPALibraryRecord] = []
        var stale: [(index: Int, fingerprint: String)] = []
        for library in path.libraries() {
            guard let fingerprint = LADSPASearchPath.fingerprint(library) else { continue }
            if let record = cached[library], record.fingerprint == fingerprint {
                records.append(record)
            } else {
                stale.append((records.count, fingerprint))
                records.append(LADSPALibraryRecord(path: library, fingerprint: fingerprint, plugins: [], warning: nil))
            }
        }
        // Libraries no child could describe: warned about, and left out of the cache so that the
        // next run (with the child in place) describes them instead of skipping them for good.
        var undescribed: Set<String> = []
        if !stale.isEmpty {
            let outcomes = LADSPAScan.describe(
                stale.map { records[$0.index].path }, childPath: childPath, timeoutSeconds: timeoutSeconds)
            for (index, _) in stale {
                switch outcomes[records[index].path] {
                case .described(let plugins): records[index].plugins = plugins
                case .skipped(let warning): records[index].warning = warning
                case .unavailable(let warning):
                    records[index].warning = warning
                    undescribed.insert(records[index].path)
                case nil: records[index].warning = "ladspa: skipping \(records[index].path): it was not described."
                }
            }
        }
        let snapshot = LADSPACatalogSnapshot(records: records, librariesDescribed: stale.count)
        for record in records { if let warning = record.warning { warn(warning) } }
        if !stale.isEmpty || Set(cached.keys) != Set(records.map(\.path)) {
            // A label shadowed by an earlier library is the path's order working as meant (ladspa-sdk's
            // examples and CMT share labels on every Debian machine with both): said when the set of
            // libraries changes, not on every run. A broken library above is said every run.
            snapshot.duplicateWarnings.forEach(warn)
            do { try LADSPACatalogCacheFile.write(records.filter { !undescribed.contains($0.path) }, to: file) } catch {
                warn(
                    "ladspa: cannot write the plug-in catalog cache \(file) (\(error.localizedDescription)); "
                        + "keeping it in memory for this run. Set XDG_CACHE_HOME to a writable folder to keep it.")
            }
        }
        return snapshot
    }
}

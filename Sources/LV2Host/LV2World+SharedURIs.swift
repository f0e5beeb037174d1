import CLilv
import Foundation

/// Two bundles that claim one plug-in URI. lilv keeps the first bundle found (or the one whose
/// manifest declares a higher lv2:minorVersion/microVersion) as the plug-in's bundle, but every
/// manifest's statements stay in its model: a second bundle's ports are merged into the first's
/// ("port index 0 is used twice"), and a malformed bundle found first hides a good one.
///
/// AUHost's rule: lilv's choice stands when its data is sound (port data passes
/// ``LV2PluginDescriptor/portDataProblem`` and `lv2:binary` names a readable file). Otherwise each
/// claiming bundle is read alone, and the sound one with the highest version stands (ties: the
/// first on the path). A bundle that does not stand is ignored for that URI and listed in
/// ``LV2World/ignoredClaims``. Only URIs claimed by two or more bundles (seen by their
/// `lv2:binary` and `rdfs:seeAlso` statements) are examined, so a world without duplicates pays
/// two queries per plug-in.
public struct LV2IgnoredClaim: Equatable, Sendable {
    public let uri: String
    /// The bundle folder ignored, and the one whose data stands for the URI.
    public let bundle: String
    public let standing: String
    public let reason: String
}

extension LV2World {
    /// Applies the rule above to every URI with several claiming bundles. Thread: setup.
    func resolveSharedURIs() {
        for descriptor in plugins {
            let claimants = claimingBundles(descriptor)
            guard claimants.count > 1 else { continue }
            let first = LV2World.folder(ofFileURI: descriptor.bundleURI) ?? ""
            if Self.soundness(descriptor) == nil { continue }
            var best: (descriptor: LV2PluginDescriptor, version: (Int, Int))?
            var problems: [String: String] = [:]
            for bundle in [first] + claimants.filter({ $0 != first }) {
                let alone = LV2World(supportBundles: [bundle], lv2Path: lv2Path)
                guard let candidate = try? alone.plugin(uri: descriptor.uri) else {
                    problems[bundle] = "it declares no such plug-in on its own"
                    continue
                }
                if let problem = Self.soundness(candidate) {
                    problems[bundle] = problem
                    continue
                }
                let version = candidate.version
                if best == nil || version > best!.version { best = (candidate, version) }
            }
            guard let best else { continue }
            let standing = LV2World.folder(ofFileURI: best.descriptor.bundleURI) ?? ""
            replace(descriptor, with: best.descriptor)
            for bundle in claimants where bundle != standing {
                ignoredClaims.append(
                    LV2IgnoredClaim(
                        uri: descriptor.uri, bundle: bundle, standing: standing,
                        reason: problems[bundle] ?? "the plug-in in \(standing) has the same or a higher version"))
            }
        }
    }

    /// Why a descriptor cannot stand for its URI, or nil. Thread: setup.
    static func soundness(_ descriptor: LV2PluginDescriptor) -> String? {
        if let problem = descriptor.portDataProblem { return "broken port data (\(problem))" }
        guard let binary = descriptor.binaryPath else { return "no lv2:binary" }
        guard access(binary, R_OK) == 0 else { return "its lv2:binary \(binary) cannot be read" }
        return nil
    }

    /// The bundle folders whose statements name `descriptor`'s binary or data files, path order.
    private func claimingBundles(_ descriptor: LV2PluginDescriptor) -> [String] {
        var folders: [String] = []
        for predicate in [LV2URI.core + "binary", "http://www.w3.org/2000/01/rdf-schema#seeAlso"] {
            let node = lilv_new_uri(world, predicate)
            defer { lilv_node_free(node) }
            let files = LV2World.strings(lilv_world_find_nodes(world, lilv_plugin_get_uri(descriptor.unreadPlugin), node, nil))
            for file in files {
                if let folder = LV2World.folder(ofFileURI: file).map({ ($0 as NSString).deletingLastPathComponent + "/" }),
                    !folders.contains(folder)
                {
                    folders.append(folder)
                }
            }
        }
        return folders
    }

    /// The path of a file URI (a folder URI keeps its trailing slash). Thread: any.
    static func folder(ofFileURI uri: String) -> String? {
        guard let path = lilv_file_uri_parse(uri, nil) else { return nil }
        defer { lilv_free(path) }
        return String(cString: path)
    }
}

extension LV2PluginDescriptor {
    /// (lv2:minorVersion, lv2:microVersion), 0 where not declared. Thread: setup.
    var version: (Int, Int) {
        func read(_ name: String) -> Int {
            let predicate = lilv_new_uri(world.world, LV2URI.core + name)
            defer { lilv_node_free(predicate) }
            return LV2World.strings(lilv_plugin_get_value(plugin, predicate)).first.flatMap { Int($0) } ?? 0
        }
        return (read("minorVersion"), read("microVersion"))
    }
}

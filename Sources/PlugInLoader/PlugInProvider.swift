import AUHostCore
import AUHostPlugInABI
import Foundation

/// Components from plug-in shared objects built with the SDK (or any binary exporting an
/// AudioComponentPlugInInterface factory): listed from their manifests on the search path without
/// opening any binary, opened with dlopen when the first instance is made.
///
/// Errors at instantiation come back as AudioComponentInstanceNew's status, with a sentence naming
/// the file from AUHostCopyLastErrorMessage:
///
/// | fault | status |
/// |---|---|
/// | manifest's ABI version newer than the host's | kAudioComponentErr_UnsupportedType (-66751) |
/// | binary missing | kAudio_FileNotFoundError (-43) |
/// | binary cannot be loaded (dlopen: undefined symbol, wrong architecture…) | kAudioUnitErr_InvalidFile (-10871) |
/// | factory symbol missing | kAudioUnitErr_ExtensionNotFound (-66744) |
/// | manifest's triple is not what the SDK factory makes | kAudioUnitErr_InvalidFile (-10871) |
/// | factory returns NULL | kAudioUnitErr_FailedInitialization (-10875) |
/// | the plug-in's Open fails | Open's status |
///
/// A manifest that cannot be read is skipped when listing, reported in ``diagnostics`` and on
/// standard error (once: when the components are first asked for).
public final class PlugInProvider: ComponentProvider {
    public let name = "SDK plug-ins"
    /// The folders searched, in order.
    public let folders: [String]
    /// Sentences about manifests that were skipped because they are unreadable or invalid.
    public private(set) var diagnostics: [String] = []
    /// Manifests whose triple an earlier folder already provides (the search path working, as
    /// PATH does: not reported).
    public private(set) var shadowed: [String] = []

    /// A provider over `folders` (default: ``PlugInSearchPath/folders(environment:)``).
    ///
    /// Thread: setup.
    public init(folders: [String] = PlugInSearchPath.folders()) {
        self.folders = folders
    }

    /// Thread: setup.
    public func components() -> [Component] {
        var found: [Component] = []
        var claimed = Set<AudioComponentDescription>()
        diagnostics = []
        shadowed = []
        for folder in folders {
            for path in PlugInSearchPath.manifests(in: folder) {
                let manifest: PlugInManifest
                do { manifest = try PlugInManifest(contentsOf: path) } catch {
                    diagnostics.append("\(error)")
                    continue
                }
                for entry in manifest.components {
                    guard claimed.insert(entry.description).inserted else {
                        shadowed.append(
                            "plug-in manifest \(path): \(entry.description.tripleString) is already provided by a plug-in earlier on the search path; skipped."
                        )
                        continue
                    }
                    found.append(component(entry, manifest))
                }
            }
        }
        // The registry asks once per process, so each broken manifest is reported once.
        for diagnostic in diagnostics {
            FileHandle.standardError.write(Data(("plug-ins: skipped: \(diagnostic)\n").utf8))
        }
        return found
    }

    private func component(_ entry: PlugInManifest.Entry, _ manifest: PlugInManifest) -> Component {
        Component(description: entry.description, name: entry.name, version: entry.version, origin: manifest.binaryPath) { d in
            guard manifest.abiVersion >= 1, manifest.abiVersion <= Int(AUHOST_PLUGIN_ABI_VERSION) else {
                throw AudioError(
                    kAudioComponentErr_UnsupportedType,
                    "plug-in manifest \(manifest.path) declares plug-in ABI version \(manifest.abiVersion); this host supports 1…\(AUHOST_PLUGIN_ABI_VERSION). Update AUHost or use a plug-in built for this version."
                )
            }
            let binary = try PlugInBinary.open(manifest.binaryPath, manifest: manifest.path)
            return try binary.makePlugIn(factory: entry.factoryFunction, description: d)
        }
    }
}

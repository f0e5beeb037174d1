import CLilv
import Foundation

// User presets as LV2 presets: the plug-in's state saved through lilv into a bundle of its own
// (manifest.ttl declaring a pset:Preset that lv2:appliesTo the plug-in, and the state file), the
// layout jalv and Ardour use in ~/.lv2, so lv2ls, lv2info and every LV2 host list it.

extension LV2Instance {
    /// Saves the plug-in's own state and its control inputs, labelled `label`, as a preset bundle
    /// at `bundle` (a directory, created or updated), and loads the bundle into this process's
    /// world so that the plug-in's presets include it at once. `controls` (port index → value)
    /// stand for what the control ports would hold at the next run (a host's parameters set since
    /// the last run); other control inputs are saved as they are. Returns the preset's URI.
    ///
    /// Thread: setup (non-real-time), never concurrent with run.
    @discardableResult
    public func savePreset(label: String, bundle: String, controls: [Int: Float] = [:]) throws -> String {
        // lilv makes file URIs of it, which a relative path cannot be (LV2SearchPath).
        let bundle = LV2SearchPath.absolute(bundle)
        let world = descriptor.world
        let fileName = LV2Instance.fileSafe(label) + ".ttl"
        LV2FeatureSet.makeParentDirectories(of: bundle + "/" + fileName)
        let source = PresetControlValues(self, controls)
        defer { source.values.deallocate() }
        let user = Unmanaged.passUnretained(source).toOpaque()
        let made = withExtendedLifetime(source) {
            lilv_state_new_from_instance(
                descriptor.plugin, lilvInstance, world.uridMap.mapFeature, scratchDirectory, bundle, bundle, bundle,
                LV2Instance.presetControlValue, user, UInt32(LV2_STATE_IS_POD.rawValue | LV2_STATE_IS_PORTABLE.rawValue), features.features)
        }
        guard let state = made else {
            throw LV2HostError(LV2Status.stateFileError, "LV2 plug-in <\(descriptor.uri)> refused to save its state.")
        }
        defer { lilv_state_free(state) }
        lilv_state_set_label(state, label)
        let uri = URL(fileURLWithPath: bundle).appendingPathComponent(fileName).absoluteString
        let status = lilv_state_save(world.world, world.uridMap.mapFeature, world.uridMap.unmapFeature, state, uri, bundle, fileName)
        guard status == 0 else {
            throw LV2HostError(
                LV2Status.stateFileError,
                "Could not write the preset \"\(label)\" of <\(descriptor.uri)> into \(bundle) (lilv status \(status)); check the directory is writable."
            )
        }
        let bundleNode = lilv_new_file_uri(world.world, nil, bundle.hasSuffix("/") ? bundle : bundle + "/")
        defer { lilv_node_free(bundleNode) }
        // A bundle saved into before holds the older statements: unload them first.
        lilv_world_unload_bundle(world.world, bundleNode)
        LV2TurtleReads.withLock { lilv_world_load_bundle(world.world, bundleNode) }
        return uri
    }

    /// The control input values a preset is saved with: the ports' own, with the host's overrides.
    private final class PresetControlValues {
        let instance: LV2Instance
        let values: UnsafeMutablePointer<Float>

        init(_ instance: LV2Instance, _ overrides: [Int: Float]) {
            self.instance = instance
            let count = max(instance.descriptor.ports.count, 1)
            values = .allocate(capacity: count)
            values.initialize(from: instance.buffers.controls, count: instance.descriptor.ports.count)
            for (index, value) in overrides where index >= 0 && index < instance.descriptor.ports.count { values[index] = value }
        }
    }

    /// lilv's get-port-value callback for presets: control inputs as atom:Float.
    private static let presetControlValue:
        @convention(c) (UnsafePointer<CChar>?, UnsafeMutableRawPointer?, UnsafeMutablePointer<UInt32>?, UnsafeMutablePointer<UInt32>?)
            -> UnsafeRawPointer? = { symbol, user, size, type in
                guard let symbol, let user else { return nil }
                let source = Unmanaged<PresetControlValues>.fromOpaque(user).takeUnretainedValue()
                let name = String(cString: symbol)
                guard let port = source.instance.descriptor.ports.first(where: { $0.symbol == name }), port.kind == .control,
                    port.direction == .input
                else { return nil }
                size?.pointee = 4
                type?.pointee = source.instance.descriptor.world.uridMap.map(LV2URI.atomFloat)
                return UnsafeRawPointer(source.values + port.index)
            }

    /// `text` with every character but letters, digits, '-' and '_' replaced by '_' (as jalv
    /// names its preset bundles).
    ///
    /// Thread: any.
    public static func fileSafe(_ text: String) -> String {
        String(
            text.unicodeScalars.map {
                CharacterSet.alphanumerics.contains($0) && $0.isASCII || $0 == "-" || $0 == "_" ? Character($0) : "_"
            })
    }
}

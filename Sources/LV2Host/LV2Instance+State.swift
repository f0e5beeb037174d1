import CLilv
#if canImport(Glibc)
import Glibc
#endif

/// State (lilv_state): save, restore, the plug-in's default state and presets.
extension LV2Instance {
    /// Restores the state the plug-in's own data describes (`state:loadDefaultState`); does
    /// nothing when it declares none. Called by init when the plug-in requires it.
    /// Thread: setup (non-real-time), never concurrent with run.
    public func loadDefaultState() throws {
        let world = descriptor.world
        let subject = lilv_new_uri(world.world, descriptor.uri)
        defer { lilv_node_free(subject) }
        guard let state = lilv_state_new_from_world(world.world, world.uridMap.mapFeature, subject) else { return }
        defer { lilv_state_free(state) }
        restore(state)
    }

    /// Loads preset `uri` (one of `descriptor.presets`): its port values and plug-in state.
    /// Throws `kAudioUnitErr_InvalidFile` if the preset's data cannot be read.
    /// Thread: setup (non-real-time), never concurrent with run.
    public func loadPreset(uri: String) throws {
        let world = descriptor.world
        let node = lilv_new_uri(world.world, uri)
        defer { lilv_node_free(node) }
        world.loadResource(node)
        guard let state = lilv_state_new_from_world(world.world, world.uridMap.mapFeature, node) else {
            throw LV2HostError(
                LV2Status.stateFileError,
                "The LV2 preset <\(uri)> could not be read for <\(descriptor.uri)>; "
                    + "check that it is installed and its Turtle data is valid.")
        }
        defer { lilv_state_free(state) }
        restore(state)
    }

    /// Saves the plug-in's state and control input values into `directory` (created if needed)
    /// as `fileName`, with files the state refers to copied or linked beside it (lilv's
    /// mapPath/makePath); returns the state file's path. Throws `kAudioUnitErr_InvalidFile` on
    /// failure. Thread: setup (non-real-time).
    @discardableResult
    public func saveState(directory: String, fileName: String = "state.ttl") throws -> String {
        let world = descriptor.world
        LV2FeatureSet.makeParentDirectories(of: directory + "/" + fileName)
        let user = Unmanaged.passUnretained(self).toOpaque()
        guard
            let state = lilv_state_new_from_instance(
                descriptor.plugin, lilvInstance, world.uridMap.mapFeature, scratchDirectory, directory, directory,
                directory, lv2GetPortValue, user, UInt32(LV2_STATE_IS_POD.rawValue | LV2_STATE_IS_PORTABLE.rawValue),
                features.features)
        else {
            throw LV2HostError(LV2Status.stateFileError, "LV2 plug-in <\(descriptor.uri)> refused to save its state.")
        }
        defer { lilv_state_free(state) }
        let status = lilv_state_save(
            world.world, world.uridMap.mapFeature, world.uridMap.unmapFeature, state,
            nil, directory, fileName)
        guard status == 0 else {
            throw LV2HostError(
                LV2Status.stateFileError,
                "Could not write the state of <\(descriptor.uri)> to \(directory)/\(fileName) "
                    + "(lilv status \(status)); check the directory is writable.")
        }
        return directory + "/" + fileName
    }

    /// Restores state saved by `saveState` from the file at `path`. Throws
    /// `kAudioUnitErr_InvalidFile` if it cannot be read. Thread: setup (non-real-time), never
    /// concurrent with run.
    public func restoreState(path: String) throws {
        let world = descriptor.world
        guard let state = lilv_state_new_from_file(world.world, world.uridMap.mapFeature, nil, path) else {
            throw LV2HostError(
                LV2Status.stateFileError,
                "The LV2 state file \(path) could not be read; check the path and its Turtle data.")
        }
        defer { lilv_state_free(state) }
        restore(state)
    }

    private func restore(_ state: OpaquePointer) {
        let user = Unmanaged.passUnretained(self).toOpaque()
        lilv_state_restore(state, lilvInstance, lv2SetPortValue, user, 0, features.features)
        // Work a plug-in schedules while restoring (e.g. loading a sample) is done now when
        // offline, so the next run already has its result; live, the worker thread does it.
        if !configuration.live { performPendingWork() }
    }

    /// A state value for the port `symbol` into its control float (atom:Float, Double, Int, Bool).
    func setPortValue(symbol: String, value: UnsafeRawPointer?, size: UInt32, type: UInt32) {
        guard let value, let port = descriptor.ports.first(where: { $0.symbol == symbol }), port.kind == .control else { return }
        let map = descriptor.world.uridMap
        let number: Float?
        switch type {
        case map.map(LV2URI.atomFloat) where size == 4: number = value.load(as: Float.self)
        case map.map(LV2URI.atomDouble) where size == 8: number = Float(value.load(as: Double.self))
        case map.map(LV2URI.atomInt) where size == 4, map.map(LV2URI.atomBool) where size == 4:
            number = Float(value.load(as: Int32.self))
        default: number = nil
        }
        if let number { buffers.controls[port.index] = number }
    }
}

/// lilv's get-port-value callback: control inputs are saved as atom:Float.
private let lv2GetPortValue:
    @convention(c) (
        UnsafePointer<CChar>?, UnsafeMutableRawPointer?,
        UnsafeMutablePointer<UInt32>?, UnsafeMutablePointer<UInt32>?
    ) -> UnsafeRawPointer? = {
        symbol, user, size, type in
        guard let symbol, let user else { return nil }
        let instance = Unmanaged<LV2Instance>.fromOpaque(user).takeUnretainedValue()
        let name = String(cString: symbol)
        guard let port = instance.descriptor.ports.first(where: { $0.symbol == name }),
            port.kind == .control, port.direction == .input
        else { return nil }
        size?.pointee = 4
        type?.pointee = instance.descriptor.world.uridMap.map(LV2URI.atomFloat)
        return UnsafeRawPointer(instance.buffers.controls + port.index)
    }

/// lilv's set-port-value callback.
private let lv2SetPortValue:
    @convention(c) (
        UnsafePointer<CChar>?, UnsafeMutableRawPointer?,
        UnsafeRawPointer?, UInt32, UInt32
    ) -> Void = {
        symbol, user, value, size, type in
        guard let symbol, let user else { return }
        Unmanaged<LV2Instance>.fromOpaque(user).takeUnretainedValue()
            .setPortValue(symbol: String(cString: symbol), value: value, size: size, type: type)
    }

/// State as text: what a host keeps inside its own documents (Audio Unit ClassInfo) instead of
/// in a directory of files.
extension LV2Instance {
    /// The plug-in's state and control input values as a Turtle document. Files the state refers
    /// to are kept as absolute paths (nothing is copied), so the text stays valid while they exist.
    /// Throws `kAudioUnitErr_InvalidFile` if the plug-in refuses. Thread: setup (non-real-time).
    public func stateString() throws -> String {
        let world = descriptor.world
        let user = Unmanaged.passUnretained(self).toOpaque()
        guard
            let state = lilv_state_new_from_instance(
                descriptor.plugin, lilvInstance, world.uridMap.mapFeature, scratchDirectory, nil, nil, nil,
                lv2GetPortValue, user, UInt32(LV2_STATE_IS_POD.rawValue | LV2_STATE_IS_PORTABLE.rawValue),
                features.features)
        else {
            throw LV2HostError(LV2Status.stateFileError, "LV2 plug-in <\(descriptor.uri)> refused to save its state.")
        }
        defer { lilv_state_free(state) }
        guard
            let text = lilv_state_to_string(
                world.world, world.uridMap.mapFeature, world.uridMap.unmapFeature, state,
                LV2Instance.stateSubject, nil)
        else {
            throw LV2HostError(LV2Status.stateFileError, "The state of <\(descriptor.uri)> could not be written as Turtle.")
        }
        defer { lilv_free(text) }
        return String(cString: text)
    }

    /// Restores state made by `stateString()` (by this plug-in). Throws `kAudioUnitErr_InvalidFile`
    /// if the text cannot be read. Thread: setup (non-real-time), never concurrent with run.
    public func restoreState(string: String) throws {
        let world = descriptor.world
        guard let state = lilv_state_new_from_string(world.world, world.uridMap.mapFeature, string) else {
            throw LV2HostError(
                LV2Status.stateFileError,
                "The saved LV2 state for <\(descriptor.uri)> is not a state document lilv can read.")
        }
        defer { lilv_state_free(state) }
        restore(state)
    }

    /// The subject URI state documents are written under.
    static let stateSubject = "urn:auhost:lv2-state"
}

extension LV2PluginDescriptor {
    /// The control port values preset `uri` sets, by port symbol (its other state needs an
    /// instance: `LV2Instance.loadPreset`). Throws `kAudioUnitErr_InvalidFile` if the preset cannot
    /// be read. Thread: setup (non-real-time).
    public func presetPortValues(uri: String) throws -> [String: Float] {
        let node = lilv_new_uri(world.world, uri)
        defer { lilv_node_free(node) }
        world.loadResource(node)
        guard let state = lilv_state_new_from_world(world.world, world.uridMap.mapFeature, node) else {
            throw LV2HostError(
                LV2Status.stateFileError,
                "The LV2 preset <\(uri)> could not be read for <\(self.uri)>; "
                    + "check that it is installed and its Turtle data is valid.")
        }
        defer { lilv_state_free(state) }
        let collector = LV2PortValueCollector(map: world.uridMap)
        lilv_state_emit_port_values(
            state,
            { symbol, user, value, size, type in
                guard let symbol, let user, let value else { return }
                let collector = Unmanaged<LV2PortValueCollector>.fromOpaque(user).takeUnretainedValue()
                collector.add(String(cString: symbol), value, size, type)
            }, Unmanaged.passUnretained(collector).toOpaque())
        return collector.values
    }
}

/// Gathers numeric port values lilv emits.
private final class LV2PortValueCollector {
    let map: LV2URIDMap
    var values: [String: Float] = [:]
    init(map: LV2URIDMap) { self.map = map }

    func add(_ symbol: String, _ value: UnsafeRawPointer, _ size: UInt32, _ type: UInt32) {
        switch type {
        case map.map(LV2URI.atomFloat) where size == 4: values[symbol] = value.load(as: Float.self)
        case map.map(LV2URI.atomDouble) where size == 8: values[symbol] = Float(value.load(as: Double.self))
        case map.map(LV2URI.atomInt) where size == 4, map.map(LV2URI.atomBool) where size == 4:
            values[symbol] = Float(value.load(as: Int32.self))
        default: break
        }
    }
}

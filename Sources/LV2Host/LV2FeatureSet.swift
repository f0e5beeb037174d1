import CLilv
#if canImport(Glibc)
import Glibc
#endif

/// The features and options the host passes to one instance, in C memory that lives as long as
/// the instance: urid map/unmap, options, buf-size, worker, log, state paths, isLive.
final class LV2FeatureSet {
    /// NULL-terminated, for lilv_plugin_instantiate.
    let features: UnsafeMutablePointer<UnsafePointer<LV2_Feature>?>
    /// Every feature URI offered, for the required-feature check.
    let providedURIs: Set<String>
    private var owned: [UnsafeMutableRawPointer] = []
    private var featureCount = 0
    private let scratchDirectory: String

    /// Thread: setup (non-real-time).
    init(
        configuration c: LV2InstanceConfiguration, map: LV2URIDMap, worker: LV2Worker, log: LV2Log,
        requirements: LV2BlockLengthRequirements, scratchDirectory: String
    ) {
        self.scratchDirectory = scratchDirectory
        var list: [(String, UnsafeMutableRawPointer?)] = [
            (LV2URI.uridMap, UnsafeMutableRawPointer(map.mapFeature)),
            (LV2URI.uridUnmap, UnsafeMutableRawPointer(map.unmapFeature)),
            (LV2URI.boundedBlockLength, nil),
            (LV2URI.workerSchedule, UnsafeMutableRawPointer(worker.scheduleFeature)),
            (LV2URI.logFeature, UnsafeMutableRawPointer(log.feature)),
            (LV2URI.loadDefaultState, nil),
            (LV2URI.threadSafeRestore, nil),
        ]
        // Fixed and power-of-two lengths are promises about every run: offered only when the
        // plug-in requires them, and then enforced by run.
        if requirements.fixed { list.append((LV2URI.fixedBlockLength, nil)) }
        if requirements.powerOf2 { list.append((LV2URI.powerOf2BlockLength, nil)) }
        if c.live { list.append((LV2URI.isLive, nil)) }

        features = .allocate(capacity: list.count + 4)
        providedURIs = Self.offeredURIs(live: c.live, requirements: requirements)
        for (uri, data) in list { add(uri, data) }
        add(LV2URI.optionsFeature, makeOptions(c, map: map))
        add(LV2URI.makePath, makePathFeature())
        add(LV2URI.freePath, freePathFeature())
        features[featureCount] = nil
    }

    /// Every feature URI an instance with this mode and these block-length needs is offered
    /// (what `init` passes, plus the ones that are promises rather than data). Thread: any.
    static func offeredURIs(live: Bool, requirements: LV2BlockLengthRequirements) -> Set<String> {
        var uris: Set<String> = [
            LV2URI.uridMap, LV2URI.uridUnmap, LV2URI.boundedBlockLength, LV2URI.workerSchedule,
            LV2URI.logFeature, LV2URI.loadDefaultState, LV2URI.threadSafeRestore,
            LV2URI.optionsFeature, LV2URI.makePath, LV2URI.freePath,
            LV2URI.hardRTCapable, LV2URI.inPlaceBroken,
        ]
        if requirements.fixed { uris.insert(LV2URI.fixedBlockLength) }
        if requirements.powerOf2 { uris.insert(LV2URI.powerOf2BlockLength) }
        if live { uris.insert(LV2URI.isLive) }
        return uris
    }

    private func add(_ uri: String, _ data: UnsafeMutableRawPointer?) {
        let feature = UnsafeMutablePointer<LV2_Feature>.allocate(capacity: 1)
        let name = strdup(uri)!
        owned.append(UnsafeMutableRawPointer(name))
        owned.append(UnsafeMutableRawPointer(feature))
        feature.initialize(to: LV2_Feature(URI: name, data: data))
        features[featureCount] = UnsafePointer(feature)
        featureCount += 1
    }

    private func makeOptions(_ c: LV2InstanceConfiguration, map: LV2URIDMap) -> UnsafeMutableRawPointer {
        let floatType = map.map(LV2URI.atomFloat), intType = map.map(LV2URI.atomInt)
        let values = UnsafeMutablePointer<Int32>.allocate(capacity: 5)
        let rate = UnsafeMutablePointer<Float>.allocate(capacity: 1)
        rate.initialize(to: Float(c.sampleRate))
        values.initialize(
            from: [
                Int32(c.minBlockLength), Int32(c.maxBlockLength), Int32(c.nominalBlockLength),
                Int32(c.sequenceSize), 0,
            ], count: 5)
        owned.append(UnsafeMutableRawPointer(values))
        owned.append(UnsafeMutableRawPointer(rate))
        let keys = [LV2URI.minBlockLength, LV2URI.maxBlockLength, LV2URI.nominalBlockLength, LV2URI.sequenceSize]
        let options = UnsafeMutablePointer<LV2_Options_Option>.allocate(capacity: keys.count + 2)
        owned.append(UnsafeMutableRawPointer(options))
        options[0] = LV2_Options_Option(
            context: LV2_OPTIONS_INSTANCE, subject: 0, key: map.map(LV2URI.sampleRate),
            size: 4, type: floatType, value: rate)
        for (i, key) in keys.enumerated() {
            options[i + 1] = LV2_Options_Option(
                context: LV2_OPTIONS_INSTANCE, subject: 0, key: map.map(key),
                size: 4, type: intType, value: values + i)
        }
        options[keys.count + 1] = LV2_Options_Option(
            context: LV2_OPTIONS_INSTANCE, subject: 0, key: 0,
            size: 0, type: 0, value: nil)
        return UnsafeMutableRawPointer(options)
    }

    /// `state:makePath`: files a plug-in creates at any time go under the instance's scratch
    /// directory (created on demand).
    private func makePathFeature() -> UnsafeMutableRawPointer {
        let directory = strdup(scratchDirectory)!
        owned.append(UnsafeMutableRawPointer(directory))
        let feature = UnsafeMutablePointer<LV2_State_Make_Path>.allocate(capacity: 1)
        owned.append(UnsafeMutableRawPointer(feature))
        feature.initialize(
            to: LV2_State_Make_Path(
                handle: UnsafeMutableRawPointer(directory),
                path: { handle, path in
                    guard let handle, let path else { return nil }
                    let directory = String(cString: handle.assumingMemoryBound(to: CChar.self))
                    let full = directory + "/" + String(cString: path)
                    LV2FeatureSet.makeParentDirectories(of: full)
                    return strdup(full)
                }))
        return UnsafeMutableRawPointer(feature)
    }

    /// `state:freePath`: frees strings the host returned from makePath (and lilv's mapPath).
    private func freePathFeature() -> UnsafeMutableRawPointer {
        let feature = UnsafeMutablePointer<LV2_State_Free_Path>.allocate(capacity: 1)
        owned.append(UnsafeMutableRawPointer(feature))
        feature.initialize(to: LV2_State_Free_Path(handle: nil, free_path: { _, path in free(path) }))
        return UnsafeMutableRawPointer(feature)
    }

    /// mkdir -p of the directories above `path`. Thread: setup (non-real-time).
    static func makeParentDirectories(of path: String) {
        var prefix = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/").dropLast() {
            prefix += "/" + component
            mkdir(prefix, 0o755)
        }
    }

    /// Finds the feature `uri` in the list (for passing a subset to state restore).
    func feature(_ uri: String) -> UnsafePointer<LV2_Feature>? {
        for i in 0..<featureCount where String(cString: features[i]!.pointee.URI) == uri { return features[i] }
        return nil
    }

    deinit {
        for pointer in owned { free(pointer) }
        features.deallocate()
    }
}

import CLilv

/// The lilv nodes for every URI this module asks lilv about, made once per world so discovery
/// does not build and free nodes per query.
final class LV2Vocabulary {
    let world: OpaquePointer

    let audioPort, controlPort, cvPort, atomPort, inputPort, outputPort: OpaquePointer
    let connectionOptional, reportsLatency, designation, latency: OpaquePointer
    let toggled, integer, enumeration, logarithmic, sampleRateProperty: OpaquePointer
    let atomSupports, midiEvent, timePosition, patchMessage, rszMinimumSize: OpaquePointer
    let unitsUnit, unitsSymbol, rdfsLabel, doapName, presetClass: OpaquePointer
    let portGroup, mixerPlugin, mainInput, mainOutput, requiredOption: OpaquePointer
    let port, index: OpaquePointer

    init(world: OpaquePointer) {
        self.world = world
        func uri(_ string: String) -> OpaquePointer { lilv_new_uri(world, string) }
        port = uri(LV2URI.core + "port")
        index = uri(LV2URI.core + "index")
        audioPort = uri(LV2URI.audioPort)
        controlPort = uri(LV2URI.controlPort)
        cvPort = uri(LV2URI.cvPort)
        atomPort = uri(LV2URI.atomPort)
        inputPort = uri(LV2URI.inputPort)
        outputPort = uri(LV2URI.outputPort)
        connectionOptional = uri(LV2URI.connectionOptional)
        reportsLatency = uri(LV2URI.reportsLatency)
        designation = uri(LV2URI.designation)
        latency = uri(LV2URI.latency)
        toggled = uri(LV2URI.toggled)
        integer = uri(LV2URI.integer)
        enumeration = uri(LV2URI.enumeration)
        logarithmic = uri(LV2URI.logarithmic)
        sampleRateProperty = uri(LV2URI.sampleRateProperty)
        atomSupports = uri(LV2URI.atomSupports)
        midiEvent = uri(LV2URI.midiEvent)
        timePosition = uri(LV2URI.timePosition)
        patchMessage = uri(LV2URI.patchMessage)
        rszMinimumSize = uri(LV2URI.rszMinimumSize)
        unitsUnit = uri(LV2URI.unitsUnit)
        unitsSymbol = uri(LV2URI.unitsSymbol)
        rdfsLabel = uri(LV2URI.rdfsLabel)
        doapName = uri(LV2URI.doapName)
        presetClass = uri(LV2URI.presetClass)
        portGroup = uri(LV2URI.portGroup)
        mixerPlugin = uri(LV2URI.mixerPlugin)
        mainInput = uri(LV2URI.mainInput)
        mainOutput = uri(LV2URI.mainOutput)
        requiredOption = uri(LV2URI.requiredOption)
    }

    /// Frees the nodes. LV2WorldData calls it before lilv_world_free: a node freed after its world
    /// reads the freed world (a deinit here ran after the world's, Swift releasing stored
    /// properties after deinit's body). Thread: setup, once, as the world ends.
    func free() {
        for node in [
            audioPort, controlPort, cvPort, atomPort, inputPort, outputPort, connectionOptional,
            reportsLatency, designation, latency, toggled, integer, enumeration, logarithmic,
            sampleRateProperty, atomSupports, midiEvent, timePosition, patchMessage, rszMinimumSize, unitsUnit, unitsSymbol, rdfsLabel,
            doapName, presetClass, portGroup, mixerPlugin, mainInput, mainOutput, requiredOption, port, index,
        ] {
            lilv_node_free(node)
        }
    }
}

/// Swift strings from lilv nodes.
extension LV2Vocabulary {
    /// The node's string form (URI or literal), or nil. Does not free the node.
    static func string(_ node: OpaquePointer?) -> String? {
        guard let node, let chars = lilv_node_as_string(node) else { return nil }
        return String(cString: chars)
    }

    /// The string of an owned node (one lilv returns for the caller to free), freeing it.
    static func takeString(_ node: OpaquePointer?) -> String? {
        defer { if let node { lilv_node_free(node) } }
        return string(node)
    }

    /// The node's numeric value, or nil if it is not a number. Does not free the node.
    static func float(_ node: OpaquePointer?) -> Float? {
        guard let node, lilv_node_is_float(node) || lilv_node_is_int(node) else { return nil }
        return lilv_node_as_float(node)
    }
}

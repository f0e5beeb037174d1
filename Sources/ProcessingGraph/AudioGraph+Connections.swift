import AUHostCore

// Connections and input callbacks, with the rules users trip over refused up front: a cycle, two
// sources into one input bus, buses that do not exist. Changes to an initialized graph wait for
// AUGraphUpdate.

extension AudioGraph {
    /// AUGraphConnectNodeInput.
    public func connect(_ source: AUNode, _ sourceOutput: UInt32, to destination: AUNode, _ destinationInput: UInt32) throws {
        lock.lock()
        defer { lock.unlock() }
        let src = try node(source), dst = try node(destination)
        try checkBus(src, scope: kAudioUnitScope_Output, sourceOutput)
        try checkBus(dst, scope: kAudioUnitScope_Input, destinationInput)
        try checkFree(BusKey(node: destination, bus: destinationInput))
        if dependsOnInputs(source, sourceOutput) && (source == destination || reaches(from: destination, to: source)) {
            let path = ([destination] + pathNodes(from: destination, to: source)).map(describe).joined(separator: " → ")
            throw AudioError(
                kAUGraphErr_InvalidConnection,
                "Connecting \(describe(source)) output \(sourceOutput) to \(describe(destination)) input \(destinationInput) would close a cycle (\(path) → \(describe(destination))); a graph must be acyclic."
            )
        }
        var interaction = AUNodeInteraction()
        interaction.nodeInteractionType = kAUNodeInteraction_Connection
        interaction.nodeInteraction.connection = AUNodeConnection(
            sourceNode: source, sourceOutputNumber: sourceOutput,
            destNode: destination, destInputNumber: destinationInput)
        interactions.append(interaction)
    }

    /// AUGraphSetNodeInputCallback: replaces a callback already on that bus.
    public func setInputCallback(_ destination: AUNode, _ input: UInt32, _ callback: AURenderCallbackStruct) throws {
        lock.lock()
        defer { lock.unlock() }
        let dst = try node(destination)
        try checkBus(dst, scope: kAudioUnitScope_Input, input)
        let key = BusKey(node: destination, bus: input)
        interactions.removeAll { $0.nodeInteractionType == kAUNodeInteraction_InputCallback && $0.destination == key }
        try checkFree(key)
        var interaction = AUNodeInteraction()
        interaction.nodeInteractionType = kAUNodeInteraction_InputCallback
        interaction.nodeInteraction.inputCallback = AUNodeRenderCallback(destNode: destination, destInputNumber: input, cback: callback)
        interactions.append(interaction)
    }

    /// AUGraphDisconnectNodeInput: removes the connection or callback on an input bus.
    public func disconnect(_ destination: AUNode, _ input: UInt32) throws {
        lock.lock()
        defer { lock.unlock() }
        _ = try node(destination)
        let key = BusKey(node: destination, bus: input)
        interactions.removeAll { $0.destination == key }
    }

    /// AUGraphClearConnections.
    public func clearConnections() {
        lock.lock()
        defer { lock.unlock() }
        interactions.removeAll()
    }

    /// Interactions touching a node (AUGraphGetNodeInteractions).
    public func interactions(of node: AUNode) throws -> [AUNodeInteraction] {
        lock.lock()
        defer { lock.unlock() }
        _ = try self.node(node)
        return interactions.filter { $0.involves(node) }
    }

    private func checkFree(_ key: BusKey) throws {
        if let existing = interactions.first(where: { $0.destination == key }) {
            let what =
                existing.nodeInteractionType == kAUNodeInteraction_Connection
                ? "\(describe(existing.nodeInteraction.connection.sourceNode)) output \(existing.nodeInteraction.connection.sourceOutputNumber)"
                : "an input callback"
            throw AudioError(
                kAUGraphErr_InvalidConnection,
                "Input \(key.bus) of \(describe(key.node)) is already fed by \(what). One input bus takes one source: to combine sources, connect each to its own input of a mixer (kAudioUnitSubType_MultiChannelMixer)."
            )
        }
    }

    /// When the unit exists, the bus must be one of its elements.
    private func checkBus(_ node: Node, scope: AudioUnitScope, _ bus: UInt32) throws {
        guard let unit = node.unit else { return }
        var count: UInt32 = 0
        var size = UInt32(4)
        guard AudioUnitGetProperty(unit, kAudioUnitProperty_ElementCount, scope, 0, &count, &size) == noErr else { return }
        guard bus < count else {
            throw AudioError(
                kAudioUnitErr_InvalidElement,
                "\(describe(node.id)) has \(count) \(scopeName(scope)) bus\(count == 1 ? "" : "es"); bus \(bus) does not exist.")
        }
    }

    /// Whether a node's output bus depends on its inputs. An I/O unit's output bus 1 is the
    /// device's input: it depends on nothing in the graph, so input → mixer → output through one
    /// I/O unit is not a cycle (as on Apple's platforms).
    func dependsOnInputs(_ node: AUNode, _ outputBus: UInt32) -> Bool {
        !(outputBus == 1 && nodes.first(where: { $0.id == node })?.isOutput == true)
    }

    /// Connections along which rendering depends (what cycles and ordering are about).
    var dependencies: [AUNodeConnection] { connections.filter { dependsOnInputs($0.sourceNode, $0.sourceOutputNumber) } }

    /// Whether `to` is reachable from `from` along connections.
    func reaches(from: AUNode, to: AUNode) -> Bool { !pathNodes(from: from, to: to).isEmpty || from == to }

    /// The nodes after `from` on a path to `to` (empty when unreachable).
    private func pathNodes(from: AUNode, to: AUNode) -> [AUNode] {
        var previous: [AUNode: AUNode] = [:]
        var queue = [from], seen: Set<AUNode> = [from]
        while !queue.isEmpty {
            let n = queue.removeFirst()
            for c in dependencies where c.sourceNode == n {
                let next = c.destNode
                guard seen.insert(next).inserted else { continue }
                previous[next] = n
                if next == to {
                    var path = [to], cursor = to
                    while let p = previous[cursor], p != from { path.insert(p, at: 0); cursor = p }
                    return path
                }
                queue.append(next)
            }
        }
        return []
    }
}

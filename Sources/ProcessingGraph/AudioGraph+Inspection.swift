import AUHostCore

extension AudioGraph {
    /// Node ids in the order they were added.
    ///
    /// Thread: setup.
    public var nodeIDs: [AUNode] {
        lock.lock()
        defer { lock.unlock() }
        return nodes.map(\.id)
    }

    /// A node's description (as added) and unit (nil until the graph is open).
    ///
    /// Thread: setup.
    public func info(_ node: AUNode) throws -> (description: AudioComponentDescription, unit: AudioUnit?) {
        lock.lock()
        defer { lock.unlock() }
        let n = try self.node(node)
        return (n.description, n.unit)
    }

    /// Every connection and input callback, in the order they were made.
    ///
    /// Thread: setup.
    public var allInteractions: [AUNodeInteraction] {
        lock.lock()
        defer { lock.unlock() }
        return interactions
    }

    /// The CAShow text: nodes, wiring, state, latency and load.
    ///
    /// Thread: setup.
    public var showText: String {
        lock.lock()
        defer { lock.unlock() }
        var lines = [
            "AudioUnitGraph \(Unmanaged.passUnretained(self).toOpaque()):",
            "  Member Nodes:",
        ]
        for n in nodes {
            lines.append(
                "    node \(n.id): '\(n.component.description.tripleString)', \(n.component.name)\(n.isOutput ? " (head)" : "")\(n.unit == nil ? ", not open" : "")"
            )
        }
        lines.append("  Connections:")
        for i in interactions {
            if i.nodeInteractionType == kAUNodeInteraction_Connection {
                let c = i.nodeInteraction.connection
                lines.append("    node \(c.sourceNode) bus \(c.sourceOutputNumber) => node \(c.destNode) bus \(c.destInputNumber)")
            } else {
                let c = i.nodeInteraction.inputCallback
                lines.append("    callback => node \(c.destNode) bus \(c.destInputNumber)")
            }
        }
        lines.append(
            "  \(isOpen ? "Open" : "Closed"), \(isInitialized ? "Initialized" : "Uninitialized"), \(isRunning ? "Running" : "Stopped")")
        lines.append("  Latency: \(latencyFrames) frames; CPU load: \(String(format: "%.4f", cpuLoad(resetMaximum: false).last))")
        return lines.joined(separator: "\n") + "\n"
    }
}

import AUHost
import AudioToolbox
import Foundation

/// One connection the engine made: a source's output bus into a destination's input bus, in
/// `format`, through a rate converter when the destination is a mixer running at another rate.
struct EngineConnection {
    let source: AVAudioNode
    let sourceBus: AVAudioNodeBus
    let destination: AVAudioNode
    let destinationBus: AVAudioNodeBus
    let format: AVAudioFormat
    let converter: MixerRateConverter?
}

/// A destination node and its input bus (Apple's AVAudioConnectionPoint), for fan-out.
public final class AVAudioConnectionPoint {
    public private(set) weak var node: AVAudioNode?
    public let bus: AVAudioNodeBus

    /// Thread: any.
    public init(node: AVAudioNode, bus: AVAudioNodeBus) {
        self.node = node
        self.bus = bus
    }
}

extension AVAudioEngine {
    /// Connects a source's bus 0 to a destination (a mixer's next free input bus, otherwise bus 0).
    /// `format` nil: the source's output format.
    ///
    /// Thread: setup.
    public func connect(_ node1: AVAudioNode, to node2: AVAudioNode, format: AVAudioFormat?) {
        let bus = (node2 as? AVAudioMixerNode)?.nextAvailableInputBus ?? 0
        connect(node1, to: node2, fromBus: 0, toBus: bus, format: format)
    }

    /// Connects `bus1` of a source to `bus2` of a destination, breaking any connection either bus
    /// had, with the source's output and the destination's input both set to `format` (nil: the
    /// source's output format). Impossible connections (a node not attached, a bus it lacks, a
    /// format it refuses, a cycle) are recorded in ``configurationError``.
    ///
    /// Thread: setup.
    public func connect(
        _ node1: AVAudioNode, to node2: AVAudioNode, fromBus bus1: AVAudioNodeBus, toBus bus2: AVAudioNodeBus, format: AVAudioFormat?
    ) {
        lock.lock()
        defer { lock.unlock() }
        connections.removeAll { c in
            let replaced = (c.source === node1 && c.sourceBus == bus1) || (c.destination === node2 && c.destinationBus == bus2)
            if replaced { unplug(c) }
            return replaced
        }
        _ = makeConnection(node1, bus1, node2, bus2, format)
        updateGraph()
    }

    /// Connects one source bus to several destinations (fan-out), breaking the source bus's
    /// other connections.
    ///
    /// Thread: setup.
    public func connect(
        _ sourceNode: AVAudioNode, to destNodes: [AVAudioConnectionPoint], fromBus sourceBus: AVAudioNodeBus, format: AVAudioFormat?
    ) {
        lock.lock()
        defer { lock.unlock() }
        connections.removeAll { c in
            let replaced =
                (c.source === sourceNode && c.sourceBus == sourceBus)
                || destNodes.contains { $0.node === c.destination && $0.bus == c.destinationBus }
            if replaced { unplug(c) }
            return replaced
        }
        for point in destNodes {
            guard let node = point.node else { continue }
            _ = makeConnection(sourceNode, sourceBus, node, point.bus, format)
        }
        updateGraph()
    }

    private func makeConnection(
        _ node1: AVAudioNode, _ bus1: AVAudioNodeBus, _ node2: AVAudioNode, _ bus2: AVAudioNodeBus, _ format: AVAudioFormat?
    ) -> Bool {
        guard node1.engine === self, let source = node1.graphNode else {
            fail(kAUGraphErr_NodeNotFound, "connect: the source \(node1.nodeName) is not attached to this engine; attach it first")
            return false
        }
        guard node2.engine === self, let destination = node2.graphNode else {
            fail(kAUGraphErr_NodeNotFound, "connect: the destination \(node2.nodeName) is not attached to this engine; attach it first")
            return false
        }
        if let mixer = node2 as? AVAudioMixerNode { mixer.ensureInputBus(bus2) }
        guard bus1 >= 0, bus1 < node1.numberOfOutputs else {
            fail(kAudioUnitErr_InvalidElement, "connect: \(node1.nodeName) has no output bus \(bus1)")
            return false
        }
        guard bus2 >= 0, bus2 < node2.numberOfInputs else {
            fail(kAudioUnitErr_InvalidElement, "connect: \(node2.nodeName) has no input bus \(bus2)")
            return false
        }
        let f = format ?? node1.outputFormat(forBus: bus1)
        var converter: MixerRateConverter?
        do {
            try node1.setOutputFormat(f, bus: bus1)
            if let mixer = node2 as? AVAudioMixerNode, let made = try rateConverter(for: f, into: mixer), let via = made.graphNode {
                converter = made
                try node2.setInputFormat(made.outputFormat(forBus: 0), bus: bus2)
                try graph.connect(source, UInt32(bus1), to: via, 0)
                try graph.connect(via, 0, to: destination, UInt32(bus2))
            } else {
                try node2.setInputFormat(f, bus: bus2)
                try graph.connect(source, UInt32(bus1), to: destination, UInt32(bus2))
            }
        } catch {
            if let id = converter?.graphNode { try? graph.detach(id) }
            let e = asNSError(error, kAudioUnitErr_FormatNotSupported)
            fail(e.code32, "connect \(node1.nodeName) → \(node2.nodeName): \(e.localizedDescription)")
            return false
        }
        connections.append(
            EngineConnection(source: node1, sourceBus: bus1, destination: node2, destinationBus: bus2, format: f, converter: converter))
        node2.connectionsChanged()
        if node1 is AVAudioMixing { node1.applyMixingToMixers() }
        return true
    }

    /// Breaks the connection into one input bus.
    ///
    /// Thread: setup.
    public func disconnectNodeInput(_ node: AVAudioNode, bus: AVAudioNodeBus) {
        disconnect { $0.destination === node && $0.destinationBus == bus }
    }

    /// Breaks every connection into a node.
    ///
    /// Thread: setup.
    public func disconnectNodeInput(_ node: AVAudioNode) { disconnect { $0.destination === node } }

    /// Breaks the connections out of one output bus.
    ///
    /// Thread: setup.
    public func disconnectNodeOutput(_ node: AVAudioNode, bus: AVAudioNodeBus) {
        disconnect { $0.source === node && $0.sourceBus == bus }
    }

    /// Breaks every connection out of a node.
    ///
    /// Thread: setup.
    public func disconnectNodeOutput(_ node: AVAudioNode) { disconnect { $0.source === node } }

    private func disconnect(_ matching: (EngineConnection) -> Bool) {
        lock.lock()
        defer { lock.unlock() }
        for c in connections where matching(c) { unplug(c) }
        connections.removeAll(where: matching)
        updateGraph()
    }

    /// Where an output bus goes.
    ///
    /// Thread: setup.
    public func outputConnectionPoints(for node: AVAudioNode, outputBus bus: AVAudioNodeBus) -> [AVAudioConnectionPoint] {
        lock.lock()
        defer { lock.unlock() }
        return connections.filter { $0.source === node && $0.sourceBus == bus }.map {
            AVAudioConnectionPoint(node: $0.destination, bus: $0.destinationBus)
        }
    }

    /// Where an input bus comes from (nil when nothing is connected).
    ///
    /// Thread: setup.
    public func inputConnectionPoint(for node: AVAudioNode, inputBus bus: AVAudioNodeBus) -> AVAudioConnectionPoint? {
        lock.lock()
        defer { lock.unlock() }
        return connections.first { $0.destination === node && $0.destinationBus == bus }.map {
            AVAudioConnectionPoint(node: $0.source, bus: $0.sourceBus)
        }
    }
}

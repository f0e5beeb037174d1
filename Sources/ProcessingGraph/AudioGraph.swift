import AUHostCore
import CAUHostAtomics
import Foundation

/// An audio processing graph (AUGraph): nodes holding units, connections between their buses,
/// input callbacks, and one I/O unit at the head. The model lives here (setup side, under a lock);
/// what the render thread uses is a compiled ``Schedule`` (AudioGraph+Render.swift).
///
/// Thread: every method is setup-thread unless it says otherwise; a graph may be used from several
/// setup threads (calls are serialised by its lock).
public final class AudioGraph {
    struct Node {
        let id: AUNode
        let description: AudioComponentDescription
        let component: Component
        var unit: AudioUnit?
        /// Whether AUGraphInitialize/Update has initialized the unit for this graph.
        var joined = false
        /// Whether the unit lives in a child process of its own (AUHostIsolation.h).
        var outOfProcess = false
        /// Whether the unit was made outside the graph and handed to it (``attach(adopting:)``):
        /// its owner disposes it, the graph never does.
        var adopted = false
        var isOutput: Bool { component.description.componentType == kAudioUnitType_Output }
    }

    struct BusKey: Hashable {
        let node: AUNode
        let bus: UInt32
    }

    let lock = NSRecursiveLock()
    var nodes: [Node] = []
    var interactions: [AUNodeInteraction] = []
    private var nextNodeID: AUNode = 1
    public internal(set) var isOpen = false
    public internal(set) var isInitialized = false
    /// Latency compensation on parallel paths (AUHost extension; on by default).
    public var latencyCompensation = true

    /// The render side; its address is stable for the graph's life.
    let render: UnsafeMutablePointer<GraphRenderState>
    /// Input ports the graph manages: their render callback is the trampoline, refCon the port.
    /// (Ports are never removed while the graph lives: a port's id is its creation index, so the
    /// ids are 0..<ports.count and a schedule's input table is indexed by them.)
    var ports: [BusKey: UnsafeMutablePointer<InputPort>] = [:]
    /// Buses whose trampoline is installed on the unit.
    var attached: Set<BusKey> = []
    /// The schedule last published (setup side's view).
    var published: UnsafeMutablePointer<Schedule>?
    /// Schedules replaced but possibly still in use by a render cycle, with what to do once free.
    var retired: [Retired] = []
    /// Units removed from an initialized graph, disposed once no schedule can reach them.
    var removedUnits: [AudioUnit] = []
    /// Notifications the application added, installed on the head.
    var notifies: [(proc: AURenderCallback, refCon: UnsafeMutableRawPointer?)] = []
    /// The head unit the cycle notification is installed on.
    var notifiedHead: AudioUnit?
    /// Swift input blocks, kept alive while the graph lives.
    var inputBlocks: [BusKey: InputBlockBox] = [:]
    /// AUGraphSetTempo's transport (GraphTransport.swift), nil when none.
    var transport: UnsafeMutablePointer<HostTransportState>?
    /// Frames rendered through ``render(frames:into:)`` (its time stamps).
    var renderedFrames: Double = 0
    /// Threads that render the graph (``renderThreads``; AudioGraph+Parallel.swift).
    var threadCount = AudioGraph.defaultRenderThreads
    /// Why the last compiled schedule renders serially (nil: it renders in parallel).
    var lastSerialReason: String?
    /// The worker threads' shared state; its address is stable for the graph's life.
    let workerPool = makeWorkerPool()
    /// The running workers (started at initialize, stopped at uninitialize).
    var workerThreads: [pthread_t] = []
    /// While ``profile(cycles:_:)`` measures: every graph gets a plan, and its tasks are timed.
    var profiling = false
    /// The last plan's tasks (serial pull order) and the tasks each waits for (for profiles).
    var planOrder: [AUNode] = []
    var planSources: [AUNode: [AUNode]] = [:]

    struct Retired {
        let schedule: UnsafeMutablePointer<Schedule>
        let cycle: UInt64
        let cycleWasRunning: Bool
        let detach: [BusKey]
        let dispose: [AudioUnit]
    }

    /// Thread: setup.
    public init() {
        render = .allocate(capacity: 1)
        render.initialize(to: GraphRenderState())
    }

    deinit {
        dispose()
        transport?.deallocate()  // the units holding its callbacks were disposed with the graph
        for port in ports.values { port.deallocate() }
        resizeWorkers(to: 0)
        freeWorkerPool(workerPool)
        render.deallocate()
    }

    /// Stops, uninitializes, closes. Idempotent.
    func dispose() {
        lock.lock()
        defer { lock.unlock() }
        if isInitialized { try? uninitialize() }
        if isOpen { close() }
    }

    // MARK: Nodes

    /// AUGraphAddNode: adds a node for the first unit matching `description`.
    public func attach(_ description: AudioComponentDescription) throws -> AUNode {
        try attach(description, outOfProcess: false)
    }

    /// Adds a node whose unit, with `outOfProcess`, lives in a child process of its own
    /// (AUHostIsolation.h).
    public func attach(_ description: AudioComponentDescription, outOfProcess: Bool) throws -> AUNode {
        lock.lock()
        defer { lock.unlock() }
        guard let component = ComponentRegistry.shared.findNext(after: nil, matching: description) else {
            throw AudioError(
                kAUGraphErr_InvalidAudioUnit, "No unit matches \(description.tripleString); AUGraphAddNode needs an installed unit.")
        }
        if component.description.componentType == kAudioUnitType_Output, let head = nodes.first(where: \.isOutput) {
            throw AudioError(
                kAUGraphErr_OutputNodeErr,
                "The graph already has an output unit (node \(head.id), \(head.component.name)); a graph has exactly one I/O head.")
        }
        var node = Node(id: nextNodeID, description: description, component: component)
        node.outOfProcess = outOfProcess
        nextNodeID += 1
        if isOpen { node.unit = try instantiate(component, outOfProcess: outOfProcess) }
        nodes.append(node)
        return node.id
    }

    /// Adds a node for a unit made outside the graph (AVAudioEngine's nodes own their units, which
    /// exist before they are attached). The graph initializes and renders it like its own but never
    /// disposes it: the owner keeps it alive until an update after ``detach(_:)`` has retired every
    /// schedule that reached it.
    public func attach(adopting unit: AudioUnit) throws -> AUNode {
        lock.lock()
        defer { lock.unlock() }
        guard let component = ComponentInstance.from(unit)?.component else {
            throw AudioError(kAUGraphErr_InvalidAudioUnit, "The unit to adopt is not a live AudioUnit instance.")
        }
        if component.description.componentType == kAudioUnitType_Output, let head = nodes.first(where: \.isOutput) {
            throw AudioError(
                kAUGraphErr_OutputNodeErr,
                "The graph already has an output unit (node \(head.id), \(head.component.name)); a graph has exactly one I/O head.")
        }
        var node = Node(id: nextNodeID, description: component.description, component: component)
        node.unit = unit
        node.adopted = true
        nextNodeID += 1
        nodes.append(node)
        return node.id
    }

    /// AUGraphRemoveNode: its connections and callbacks go too.
    public func detach(_ id: AUNode) throws {
        lock.lock()
        defer { lock.unlock() }
        let index = try nodeIndex(id)
        interactions.removeAll { $0.involves(id) }
        let node = nodes.remove(at: index)
        guard let unit = node.unit else { return }
        if node.adopted {
            // Its owner may attach it elsewhere: the trampoline goes now (the unit's own
            // configuration swap makes this safe while a cycle renders it).
            var none = AURenderCallbackStruct(inputProc: nil, inputProcRefCon: nil)
            for key in ports.keys where key.node == id && attached.remove(key) != nil {
                AudioUnitSetProperty(
                    unit, kAudioUnitProperty_SetRenderCallback, kAudioUnitScope_Input, key.bus, &none,
                    UInt32(MemoryLayout<AURenderCallbackStruct>.size))
            }
            return
        }
        if isInitialized && node.joined {
            removedUnits.append(unit)  // disposed after the next update retires its schedule
        } else {
            AudioComponentInstanceDispose(unit)
        }
        for key in ports.keys where key.node == id { attached.remove(key) }
    }

    /// The node's index, or NodeNotFound.
    func nodeIndex(_ id: AUNode) throws -> Int {
        guard let i = nodes.firstIndex(where: { $0.id == id }) else {
            throw AudioError(kAUGraphErr_NodeNotFound, "The graph has no node \(id).")
        }
        return i
    }

    func node(_ id: AUNode) throws -> Node { nodes[try nodeIndex(id)] }

    /// The head: the graph's output unit, if it has one.
    var head: Node? { nodes.first(where: \.isOutput) }

    /// "node 3 (AUHost: Delay)" for messages.
    func describe(_ id: AUNode) -> String {
        guard let n = nodes.first(where: { $0.id == id }) else { return "node \(id)" }
        return "node \(id) (\(n.component.name))"
    }

    func instantiate(_ component: Component, outOfProcess: Bool = false) throws -> AudioUnit {
        if outOfProcess { return try makeAudioUnit(component, outOfProcess: true) }
        var unit: AudioUnit?
        let status = AudioComponentInstanceNew(component.handle, &unit)
        guard status == noErr, let unit else {
            throw AudioError(
                status == noErr ? kAUGraphErr_InvalidAudioUnit : status,
                LastErrorMessage.current ?? "Could not make \(component.name).")
        }
        return unit
    }

    // MARK: Open and close

    /// AUGraphOpen: instantiates every node's unit.
    public func open() throws {
        lock.lock()
        defer { lock.unlock() }
        guard !isOpen else { return }
        for i in nodes.indices where nodes[i].unit == nil {
            nodes[i].unit = try instantiate(nodes[i].component, outOfProcess: nodes[i].outOfProcess)
        }
        isOpen = true
    }

    /// AUGraphClose: disposes every unit (uninitializing first).
    public func close() {
        lock.lock()
        defer { lock.unlock() }
        if isInitialized { try? uninitialize() }
        for i in nodes.indices where !nodes[i].adopted {
            if let unit = nodes[i].unit { AudioComponentInstanceDispose(unit) }
            nodes[i].unit = nil
        }
        for i in nodes.indices { nodes[i].joined = false }
        attached.removeAll()
        isOpen = false
    }
}

extension AUNodeInteraction {
    /// Whether this interaction touches a node (as source or destination).
    func involves(_ node: AUNode) -> Bool {
        switch nodeInteractionType {
        case kAUNodeInteraction_Connection:
            return nodeInteraction.connection.sourceNode == node || nodeInteraction.connection.destNode == node
        default:
            return nodeInteraction.inputCallback.destNode == node
        }
    }

    /// The input bus this interaction feeds.
    var destination: AudioGraph.BusKey {
        nodeInteractionType == kAUNodeInteraction_Connection
            ? AudioGraph.BusKey(node: nodeInteraction.connection.destNode, bus: nodeInteraction.connection.destInputNumber)
            : AudioGraph.BusKey(node: nodeInteraction.inputCallback.destNode, bus: nodeInteraction.inputCallback.destInputNumber)
    }
}

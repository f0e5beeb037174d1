import AUHost
import LV2Units
import AudioToolbox
import Foundation
import Synchronization

/// An audio engine (Apple's AVAudioEngine): nodes attached and connected into one graph (an
/// AUGraph underneath: ProcessingGraph's AudioGraph, with one I/O head) that renders to the
/// output device, or into the application's buffers in manual rendering mode.
///
/// ```swift
/// let engine = AVAudioEngine()
/// let player = AVAudioPlayerNode()
/// engine.attach(player)
/// engine.connect(player, to: engine.mainMixerNode, format: buffer.format)
/// try engine.enableManualRenderingMode(.offline, format: buffer.format, maximumFrameCount: 4096)
/// try engine.start()
/// ```
///
/// Thread: setup for every member unless it says otherwise; calls are serialised by the engine.
open class AVAudioEngine {
    /// The graph as an AUGraph handle (what MusicSequenceSetAUGraph takes) and as the object.
    let graphHandle: AUGraph
    let graph: AudioGraph
    let delivery = DeliveryThread()
    /// Who hears the output device stop by itself (AVAudioEngine+DeviceWatch.swift).
    let deviceWatch = EngineDeviceWatch()
    let lock = NSRecursiveLock()
    var nodes: [ObjectIdentifier: AVAudioNode] = [:]
    var connections: [EngineConnection] = []
    var outputNode_: AVAudioOutputNode?
    var mainMixerNode_: AVAudioMixerNode?
    var inputNode_: AVAudioInputNode?
    /// Manual rendering's state, shared with the render block.
    let manual = ManualRenderState()
    var manualFormat: AVAudioFormat?
    var manualMode: AVAudioEngineManualRenderingMode?
    public private(set) var isRunning = false

    /// The first configuration call that failed since the last start (AUHost addition): Apple's
    /// engine raises an exception where a connect, attach or tap is impossible; this one records
    /// the error (domain NSOSStatusErrorDomain, the status Apple's units give) and ``start()``
    /// throws it.
    public internal(set) var configurationError: NSError?
    /// The error of a tap installed on a node that belongs to no engine.
    nonisolated(unsafe) static var orphanError: NSError?

    /// Thread: setup.
    public init() {
        var handle: AUGraph?
        NewAUGraph(&handle)  // cannot fail with a non-NULL out pointer
        graphHandle = handle!
        graph = Unmanaged<AudioGraph>.fromOpaque(UnsafeRawPointer(handle!)).takeUnretainedValue()
    }

    deinit {
        delivery.stop()
        stopSinks()
        try? graph.uninitialize()
        for node in nodes.values {
            for tap in node.taps.values { tap.remove() }
            node.taps = [:]
            if let id = node.graphNode { try? graph.detach(id) }
            node.graphNode = nil
            node.engine = nil
        }
        DisposeAUGraph(graphHandle)
    }

    /// Records the first configuration failure (see ``configurationError``).
    func fail(_ status: OSStatus, _ message: String) {
        lock.lock()
        defer { lock.unlock() }
        if configurationError == nil { configurationError = osStatusError(status, message) }
    }

    /// Every attached node.
    ///
    /// Thread: setup.
    public var attachedNodes: Set<AVAudioNode> {
        lock.lock()
        defer { lock.unlock() }
        return Set(nodes.values)
    }

    /// Adds a node to the engine (a node belongs to one engine at a time).
    ///
    /// Thread: setup.
    public func attach(_ node: AVAudioNode) {
        lock.lock()
        defer { lock.unlock() }
        if node.engine === self { return }
        if node.engine != nil {
            return fail(kAudioUnitErr_CannotDoInCurrentContext, "attach: \(node.nodeName) is attached to another engine; detach it first")
        }
        if let missing = (node as? AVAudioUnit)?.missing {
            return fail(
                kAUGraphErr_InvalidAudioUnit,
                "attach: no audio unit matches \(fourCC(missing.componentType)) \(fourCC(missing.componentSubType)) "
                    + "\(fourCC(missing.componentManufacturer)); `auhost list` shows what is installed")
        }
        do {
            node.graphNode = try graph.attach(adopting: node.unit)
        } catch {
            return fail(asNSError(error).code32, "attach: \(node.nodeName): \(error)")
        }
        node.engine = self
        nodes[ObjectIdentifier(node)] = node
        if let source = node as? DeliverySource { delivery.add(source) }
        (node as? AVAudioPlayerNode)?.adoptWake(delivery.wake)
    }

    /// Removes a node, breaking its connections.
    ///
    /// Thread: setup.
    public func detach(_ node: AVAudioNode) {
        lock.lock()
        defer { lock.unlock() }
        guard node.engine === self, let id = node.graphNode else {
            return fail(kAUGraphErr_NodeNotFound, "detach: \(node.nodeName) is not attached to this engine")
        }
        (node as? AVAudioSinkNode)?.detachPull()
        for c in connections where c.source === node || c.destination === node { unplug(c) }
        connections.removeAll { $0.source === node || $0.destination === node }
        try? graph.detach(id)
        updateGraph()
        // No schedule reaches the unit now: it may take new formats when attached again.
        AudioUnitUninitialize(node.unit)
        if let source = node as? DeliverySource { delivery.remove(source) }
        for tap in node.taps.values { tap.remove() }
        node.taps = [:]
        node.graphNode = nil
        node.engine = nil
        nodes[ObjectIdentifier(node)] = nil
        if node === mainMixerNode_ { mainMixerNode_ = nil }
    }

    /// Publishes the graph's changes when it renders (blocking: the old schedule is free after).
    func updateGraph() {
        if graph.isInitialized {
            do { _ = try graph.update(blocking: true) } catch {
                fail(asNSError(error).code32, "The engine could not apply the change: \(error)")
            }
        }
    }

    /// The engine's output: the device (ALSA's, or JACK when AUHOST_AUDIO_DEVICE says "jack"), or
    /// in manual rendering mode the application.
    ///
    /// Thread: setup.
    public var outputNode: AVAudioOutputNode {
        lock.lock()
        defer { lock.unlock() }
        if let outputNode_ { return outputNode_ }
        let node = AVAudioOutputNode(manual: manualMode != nil)
        outputNode_ = node
        if manualMode != nil, let manualFormat { try? node.setManualFormat(manualFormat, maximumFrameCount: manual.maximumFrames) }
        attach(node)
        return node
    }

    /// The engine's input: on the device, what the ALSA PCM captures (the output node's I/O unit
    /// runs full duplex once this is asked for: input element 1 enabled at start); in manual
    /// rendering mode what ``AVAudioInputNode/setManualRenderingInputPCMFormat(_:inputBlock:)`` supplies.
    ///
    /// Thread: setup.
    public var inputNode: AVAudioInputNode {
        lock.lock()
        defer { lock.unlock() }
        if let inputNode_ { return inputNode_ }
        let node = AVAudioInputNode()
        if manualMode == nil {
            // The device's side: the output device's rate, two channels (the I/O unit maps the
            // PCM's capture channels onto them).
            let device = AVAudioFormat(standardFormatWithSampleRate: outputNode.outputFormat(forBus: 0).sampleRate, channels: 2)!
            try? setStreamFormat(node.unit, kAudioUnitScope_Input, 0, device, "The input node")
            try? setStreamFormat(node.unit, kAudioUnitScope_Output, 0, device, "The input node")
        }
        inputNode_ = node
        attach(node)
        return node
    }

    /// The mixer connected to the output node, made (and connected) the first time it is asked for.
    ///
    /// Thread: setup.
    public var mainMixerNode: AVAudioMixerNode {
        lock.lock()
        defer { lock.unlock() }
        if let mainMixerNode_ { return mainMixerNode_ }
        let mixer = AVAudioMixerNode()
        attach(mixer)
        mainMixerNode_ = mixer
        let output = outputNode
        let outside = output.outputFormat(forBus: 0)
        connect(mixer, to: output, format: AVAudioFormat(standardFormatWithSampleRate: outside.sampleRate, channels: outside.channelCount))
        return mixer
    }

    /// Initializes the graph (formats fixed, units initialized) so that start is quick. A failure
    /// is kept in ``configurationError`` and thrown by start.
    ///
    /// Thread: setup.
    public func prepare() {
        lock.lock()
        defer { lock.unlock() }
        do { try initializeGraph() } catch { fail(asNSError(error).code32, "prepare: \(asNSError(error).localizedDescription)") }
    }

    func initializeGraph() throws {
        if let error = outputNode.deviceError { throw error }
        if let inputNode_, !graph.isInitialized { try inputNode_.captureFrom(outputNode) }
        if !graph.isInitialized { reconcileMixerRates() }
        if manualMode == .offline, !graph.isInitialized {
            // Offline, as Apple's engine does: units render for a file, not a deadline
            // (OfflineRender), and LV2 workers run right after each run, deterministically.
            for node in nodes.values {
                setUInt32Property(node.unit, kAudioUnitProperty_OfflineRender, 1)
                setUInt32Property(node.unit, kLV2UnitProperty_LiveWorker, 0)
            }
        }
        try graph.initialize()
    }

    /// Starts rendering: the device plays, or manual rendering may render.
    ///
    /// Thread: setup.
    public func start() throws {
        lock.lock()
        defer { lock.unlock() }
        if let error = configurationError {
            configurationError = nil
            throw error
        }
        do {
            try initializeGraph()
            try startSinks()
            if manualMode == nil {
                watchOutputDevice()
                try graph.start()
                if let device = outputNode.device { AVAudioSession.sharedInstance().deviceStarted(outputNode.unit, device: device) }
            }
        } catch {
            stopSinks()
            throw asNSError(error)
        }
        manual.running.store(1, ordering: .releasing)
        isRunning = true
    }

    /// Stops rendering, keeping the graph initialized.
    ///
    /// Thread: setup.
    public func pause() {
        lock.lock()
        defer { lock.unlock() }
        if manualMode == nil { try? graph.stop() }
        stopSinks()
        manual.running.store(0, ordering: .releasing)
        isRunning = false
    }

    /// Every attached sink node starts being pulled by the head.
    private func startSinks() throws {
        let head = outputNode.unit
        let frames = manualMode != nil ? manual.maximumFrames : (uint32Property(head, kAudioUnitProperty_MaximumFramesPerSlice) ?? 4096)
        for case let sink as AVAudioSinkNode in nodes.values where sink.sink.head == nil {
            try sink.attachPull(to: head, maximumFrames: frames)
        }
    }

    private func stopSinks() {
        for case let sink as AVAudioSinkNode in nodes.values { sink.detachPull() }
    }

    /// Stops rendering and releases what prepare took (the graph is uninitialized).
    ///
    /// Thread: setup.
    public func stop() {
        lock.lock()
        defer { lock.unlock() }
        pause()
        try? graph.uninitialize()
        delivery.drain()
    }

    /// Resets every node (delay lines, filters, players' schedules stay).
    ///
    /// Thread: setup.
    public func reset() {
        lock.lock()
        defer { lock.unlock() }
        for node in nodes.values { node.reset() }
    }

    /// The time of the last cycle rendered in manual rendering mode (nil before one, and for the device).
    ///
    /// Thread: any.
    public var lastRenderTime: AVAudioTime? {
        guard manualMode != nil, let format = manualFormat else { return nil }
        let t = manual.lastSampleTime.load(ordering: .acquiring)
        guard t >= 0 else { return nil }
        return AVAudioTime(sampleTime: t, atRate: format.sampleRate)
    }

    /// Calls every tap block and completion handler the render thread has left, on this thread
    /// (AUHost addition: lets offline code see them before it goes on; they arrive on the
    /// engine's own thread otherwise).
    ///
    /// Thread: setup.
    public func deliverPendingCallbacks() { delivery.drain() }
}

extension AVAudioNode: Hashable {
    /// Identity, as NSObject's.
    ///
    /// Thread: any.
    public static func == (a: AVAudioNode, b: AVAudioNode) -> Bool { a === b }
    /// Thread: any.
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}

extension NSError {
    /// The code as an OSStatus.
    var code32: OSStatus { OSStatus(truncatingIfNeeded: code) }
}

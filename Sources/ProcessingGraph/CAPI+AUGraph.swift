import AUHostCore
import Foundation

// The AUGraph* functions of AUGraph.h. An AUGraph handle points at an AudioGraph; handles are
// checked against the live set so a disposed one answers an error instead of crashing.

private let liveLock = NSLock()
nonisolated(unsafe) private var liveGraphs: Set<UnsafeRawPointer> = []

private func graph(_ handle: AUGraph?) -> AudioGraph? {
    guard let handle else { return nil }
    liveLock.lock()
    defer { liveLock.unlock() }
    return liveGraphs.contains(UnsafeRawPointer(handle))
        ? Unmanaged<AudioGraph>.fromOpaque(UnsafeRawPointer(handle)).takeUnretainedValue() : nil
}

/// Runs a graph call: NULL handle → kAudio_ParamError; unknown handle → kAUGraphErr_InvalidAudioUnit.
private func call(_ handle: AUGraph?, _ body: (AudioGraph) throws -> Void) -> OSStatus {
    guard handle != nil else { return kAudio_ParamError }
    guard let g = graph(handle) else {
        LastErrorMessage.set("The AUGraph handle is not a live graph (disposed, or never made by NewAUGraph).")
        return kAUGraphErr_InvalidAudioUnit
    }
    return LastErrorMessage.status { try body(g) }
}

private func out<T>(_ pointer: UnsafeMutablePointer<T>?, _ what: String) throws -> UnsafeMutablePointer<T> {
    guard let pointer else { throw AudioError(kAudio_ParamError, "\(what) must not be NULL.") }
    return pointer
}

@_cdecl("NewAUGraph")
public func _NewAUGraph(_ outGraph: UnsafeMutablePointer<AUGraph?>?) -> OSStatus {
    guard let outGraph else { return kAudio_ParamError }
    let handle = UnsafeRawPointer(Unmanaged.passRetained(AudioGraph()).toOpaque())
    liveLock.lock(); liveGraphs.insert(handle); liveLock.unlock()
    outGraph.pointee = OpaquePointer(handle)
    CAShowRegistry.registerGraphDescriber()
    return noErr
}

@_cdecl("DisposeAUGraph")
public func _DisposeAUGraph(_ handle: AUGraph?) -> OSStatus {
    guard let handle else { return kAudio_ParamError }
    liveLock.lock()
    let wasLive = liveGraphs.remove(UnsafeRawPointer(handle)) != nil
    liveLock.unlock()
    guard wasLive else { return kAUGraphErr_InvalidAudioUnit }
    let g = Unmanaged<AudioGraph>.fromOpaque(UnsafeRawPointer(handle))
    g.takeUnretainedValue().dispose()
    g.release()
    return noErr
}

@_cdecl("AUGraphAddNode")
public func _AUGraphAddNode(_ h: AUGraph?, _ desc: UnsafePointer<AudioComponentDescription>?, _ outNode: UnsafeMutablePointer<AUNode>?)
    -> OSStatus
{
    call(h) { g in
        guard let desc else { throw AudioError(kAudio_ParamError, "The description must not be NULL.") }
        let node = try g.attach(desc.pointee)
        outNode?.pointee = node
    }
}

/// AUHost extension (AUGraph.h): a node whose unit lives in a child process (AUHostIsolation.h),
/// as `"isolated": true` in graph files, for C hosts and the Python door. Thread: setup.
@_cdecl("AUHostGraphAddNodeOutOfProcess")
public func _AUHostGraphAddNodeOutOfProcess(
    _ h: AUGraph?, _ desc: UnsafePointer<AudioComponentDescription>?, _ outNode: UnsafeMutablePointer<AUNode>?
) -> OSStatus {
    call(h) { g in
        guard let desc else { throw AudioError(kAudio_ParamError, "The description must not be NULL.") }
        let node = try g.attach(desc.pointee, outOfProcess: true)
        outNode?.pointee = node
    }
}

@_cdecl("AUGraphRemoveNode")
public func _AUGraphRemoveNode(_ h: AUGraph?, _ node: AUNode) -> OSStatus { call(h) { try $0.detach(node) } }

@_cdecl("AUGraphGetNodeCount")
public func _AUGraphGetNodeCount(_ h: AUGraph?, _ outCount: UnsafeMutablePointer<UInt32>?) -> OSStatus {
    call(h) { g in try out(outCount, "outNumberOfNodes").pointee = UInt32(g.nodeIDs.count) }
}

@_cdecl("AUGraphGetIndNode")
public func _AUGraphGetIndNode(_ h: AUGraph?, _ index: UInt32, _ outNode: UnsafeMutablePointer<AUNode>?) -> OSStatus {
    call(h) { g in
        let ids = g.nodeIDs
        guard Int(index) < ids.count else {
            throw AudioError(kAUGraphErr_NodeNotFound, "The graph has \(ids.count) nodes; index \(index) is past the end.")
        }
        try out(outNode, "outNode").pointee = ids[Int(index)]
    }
}

@_cdecl("AUGraphNodeInfo")
public func _AUGraphNodeInfo(
    _ h: AUGraph?, _ node: AUNode, _ outDesc: UnsafeMutablePointer<AudioComponentDescription>?,
    _ outUnit: UnsafeMutablePointer<AudioUnit?>?
) -> OSStatus {
    call(h) { g in
        let info = try g.info(node)
        outDesc?.pointee = info.description
        outUnit?.pointee = info.unit
    }
}

@_cdecl("AUGraphOpen") public func _AUGraphOpen(_ h: AUGraph?) -> OSStatus { call(h) { try $0.open() } }
@_cdecl("AUGraphClose") public func _AUGraphClose(_ h: AUGraph?) -> OSStatus { call(h) { $0.close() } }
@_cdecl("AUGraphInitialize") public func _AUGraphInitialize(_ h: AUGraph?) -> OSStatus { call(h) { try $0.initialize() } }
@_cdecl("AUGraphUninitialize") public func _AUGraphUninitialize(_ h: AUGraph?) -> OSStatus { call(h) { try $0.uninitialize() } }
@_cdecl("AUGraphStart") public func _AUGraphStart(_ h: AUGraph?) -> OSStatus { call(h) { try $0.start() } }
@_cdecl("AUGraphStop") public func _AUGraphStop(_ h: AUGraph?) -> OSStatus { call(h) { try $0.stop() } }

@_cdecl("AUGraphIsOpen")
public func _AUGraphIsOpen(_ h: AUGraph?, _ o: UnsafeMutablePointer<UInt8>?) -> OSStatus {
    call(h) { g in try out(o, "outIsOpen").pointee = g.isOpen ? 1 : 0 }
}

@_cdecl("AUGraphIsInitialized")
public func _AUGraphIsInitialized(_ h: AUGraph?, _ o: UnsafeMutablePointer<UInt8>?) -> OSStatus {
    call(h) { g in try out(o, "outIsInitialized").pointee = g.isInitialized ? 1 : 0 }
}

@_cdecl("AUGraphIsRunning")
public func _AUGraphIsRunning(_ h: AUGraph?, _ o: UnsafeMutablePointer<UInt8>?) -> OSStatus {
    call(h) { g in try out(o, "outIsRunning").pointee = g.isRunning ? 1 : 0 }
}

@_cdecl("AUGraphConnectNodeInput")
public func _AUGraphConnectNodeInput(_ h: AUGraph?, _ src: AUNode, _ srcOut: UInt32, _ dst: AUNode, _ dstIn: UInt32) -> OSStatus {
    call(h) { try $0.connect(src, srcOut, to: dst, dstIn) }
}

@_cdecl("AUGraphSetNodeInputCallback")
public func _AUGraphSetNodeInputCallback(_ h: AUGraph?, _ dst: AUNode, _ input: UInt32, _ cb: UnsafePointer<AURenderCallbackStruct>?)
    -> OSStatus
{
    call(h) { g in
        guard let cb, cb.pointee.inputProc != nil else { throw AudioError(kAudio_ParamError, "The callback must not be NULL.") }
        try g.setInputCallback(dst, input, cb.pointee)
    }
}

@_cdecl("AUGraphDisconnectNodeInput")
public func _AUGraphDisconnectNodeInput(_ h: AUGraph?, _ dst: AUNode, _ input: UInt32) -> OSStatus {
    call(h) { try $0.disconnect(dst, input) }
}

@_cdecl("AUGraphClearConnections")
public func _AUGraphClearConnections(_ h: AUGraph?) -> OSStatus { call(h) { $0.clearConnections() } }

@_cdecl("AUGraphGetNumberOfInteractions")
public func _AUGraphGetNumberOfInteractions(_ h: AUGraph?, _ o: UnsafeMutablePointer<UInt32>?) -> OSStatus {
    call(h) { g in try out(o, "outNumInteractions").pointee = UInt32(g.allInteractions.count) }
}

@_cdecl("AUGraphGetInteractionInfo")
public func _AUGraphGetInteractionInfo(_ h: AUGraph?, _ index: UInt32, _ o: UnsafeMutablePointer<AUNodeInteraction>?) -> OSStatus {
    call(h) { g in
        let all = g.allInteractions
        guard Int(index) < all.count else {
            throw AudioError(kAudio_ParamError, "The graph has \(all.count) interactions; index \(index) is past the end.")
        }
        try out(o, "outInteraction").pointee = all[Int(index)]
    }
}

@_cdecl("AUGraphCountNodeInteractions")
public func _AUGraphCountNodeInteractions(_ h: AUGraph?, _ node: AUNode, _ o: UnsafeMutablePointer<UInt32>?) -> OSStatus {
    call(h) { g in try out(o, "outNumInteractions").pointee = UInt32(try g.interactions(of: node).count) }
}

@_cdecl("AUGraphGetNodeInteractions")
public func _AUGraphGetNodeInteractions(
    _ h: AUGraph?, _ node: AUNode, _ ioCount: UnsafeMutablePointer<UInt32>?,
    _ o: UnsafeMutablePointer<AUNodeInteraction>?
) -> OSStatus {
    call(h) { g in
        let count = try out(ioCount, "ioNumInteractions")
        let list = try g.interactions(of: node)
        let n = min(Int(count.pointee), list.count)
        if n > 0 { try out(o, "outInteractions").update(from: list, count: n) }
        count.pointee = UInt32(n)
    }
}

@_cdecl("AUGraphUpdate")
public func _AUGraphUpdate(_ h: AUGraph?, _ outIsUpdated: UnsafeMutablePointer<UInt8>?) -> OSStatus {
    call(h) { g in
        let updated = try g.update(blocking: outIsUpdated == nil)
        outIsUpdated?.pointee = updated ? 1 : 0
    }
}

@_cdecl("AUGraphGetCPULoad")
public func _AUGraphGetCPULoad(_ h: AUGraph?, _ o: UnsafeMutablePointer<Float32>?) -> OSStatus {
    call(h) { g in try out(o, "outAverageCPULoad").pointee = Float32(g.cpuLoad(resetMaximum: false).last) }
}

@_cdecl("AUGraphGetMaxCPULoad")
public func _AUGraphGetMaxCPULoad(_ h: AUGraph?, _ o: UnsafeMutablePointer<Float32>?) -> OSStatus {
    call(h) { g in try out(o, "outMaxLoad").pointee = Float32(g.cpuLoad(resetMaximum: true).maximum) }
}

@_cdecl("AUGraphAddRenderNotify")
public func _AUGraphAddRenderNotify(_ h: AUGraph?, _ proc: AURenderCallback?, _ refCon: UnsafeMutableRawPointer?) -> OSStatus {
    call(h) { g in
        guard let proc else { throw AudioError(kAudio_ParamError, "The notification must not be NULL.") }
        try g.addRenderNotify(proc, refCon)
    }
}

@_cdecl("AUGraphRemoveRenderNotify")
public func _AUGraphRemoveRenderNotify(_ h: AUGraph?, _ proc: AURenderCallback?, _ refCon: UnsafeMutableRawPointer?) -> OSStatus {
    call(h) { g in
        guard let proc else { throw AudioError(kAudio_ParamError, "The notification must not be NULL.") }
        try g.removeRenderNotify(proc, refCon)
    }
}

@_cdecl("AUGraphSetLatencyCompensation")
public func _AUGraphSetLatencyCompensation(_ h: AUGraph?, _ enabled: UInt8) -> OSStatus {
    call(h) { $0.latencyCompensation = enabled != 0 }
}

@_cdecl("AUGraphSetRenderThreadCount")
public func _AUGraphSetRenderThreadCount(_ h: AUGraph?, _ threads: UInt32) -> OSStatus {
    call(h) { try $0.setRenderThreads(Int(threads)) }
}

@_cdecl("AUGraphSetTempo")
public func _AUGraphSetTempo(_ h: AUGraph?, _ bpm: Float64, _ beatsPerBar: UInt32, _ beatUnit: UInt32) -> OSStatus {
    call(h) { try $0.setTempo(bpm, beatsPerBar: beatsPerBar, beatUnit: beatUnit) }
}

@_cdecl("AUGraphGetRenderThreadCount")
public func _AUGraphGetRenderThreadCount(_ h: AUGraph?, _ o: UnsafeMutablePointer<UInt32>?) -> OSStatus {
    call(h) { g in try out(o, "outThreads").pointee = UInt32(g.renderThreads) }
}

@_cdecl("AUGraphGetLatency")
public func _AUGraphGetLatency(_ h: AUGraph?, _ o: UnsafeMutablePointer<Float64>?) -> OSStatus {
    call(h) { g in try out(o, "outSeconds").pointee = Double(g.latencyFrames) / g.headSampleRate }
}

extension CAShowRegistry {
    private static let once: Void = {
        CAShowRegistry.add { object in graph(OpaquePointer(object)).map { $0.showText } }
    }()

    /// Makes CAShow describe AUGraph handles.
    static func registerGraphDescriber() { _ = once }
}

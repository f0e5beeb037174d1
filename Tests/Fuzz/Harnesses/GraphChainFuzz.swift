import AUHost
import Foundation

/// Serial chains the graph renders flat (AudioUnitProcessMultiple, AudioGraph+ProcessRuns.swift)
/// against a twin chain of the same units pulling one another (kAudioUnitProperty_MakeConnection,
/// no graph). The bytes choose 1…6 built-in effects (every one an AUEffectBase), then up to 48
/// steps applied alike to both: renders of generated lengths (some past the slice limit), parameter
/// sets and scheduled changes (immediate and ramped), bypass, reset, a source that marks its
/// output silent, render notifications added to and removed from the graph's units, which moves
/// them between ProcessMultiple and AudioUnitRender, and units leaving the chain and coming back
/// at their place (the graph rewired and updated while initialized, so its runs are compiled
/// again). Every render must give the twin's status and, when it succeeds, the twin's samples bit
/// for bit.
///
/// Thread: one thread at a time (libFuzzer's, or a test's).
public enum GraphChainFuzz {
    static let effects: [OSType] = [
        kAudioUnitSubType_Delay, kAudioUnitSubType_Distortion, kAudioUnitSubType_AUiPodEQ, kAudioUnitSubType_NBandEQ,
        kAudioUnitSubType_Reverb2,
    ]
    static let lengths: [UInt32] = [1, 2, 63, 64, 256, 511, 512, 1024, 1156, 1157, 4096]

    /// What the source callbacks of both chains read: whether to answer silence.
    struct Source { var silent = false }

    /// Runs the chain and steps `data` describes.
    ///
    /// Thread: one thread at a time.
    public static func run(_ data: UnsafeRawBufferPointer) {
        var input = CAPIFuzzInput(data)
        let subtypes = (0...input.below(6)).map { _ in effects[input.below(effects.count)] }
        let source = UnsafeMutablePointer<Source>.allocate(capacity: 1)
        source.initialize(to: Source())
        defer { source.deallocate() }
        guard let flat = FlatChain(subtypes, source: source), let pulled = PulledChain(subtypes, source: source) else {
            preconditionFailure("a chain of built-in effects did not initialize: \(subtypes.map(FourCC.string))")
        }
        defer { flat.dispose(); pulled.dispose() }
        var time = AudioTimeStamp()
        time.mFlags = .sampleTimeValid
        var notified = [Bool](repeating: false, count: subtypes.count)
        var active = Array(subtypes.indices)
        for step in 0..<48 where !input.isAtEnd {
            let op = input.u8(), k = Int(op >> 3) % subtypes.count
            let (a, b) = (flat.units[k], pulled.units[k])
            switch op & 7 {
            case 0, 1:
                source.pointee.silent = op & 0x80 != 0 && op & 0x40 != 0
                let frames = UInt32(input.pick(lengths, rawShare: 0))
                let statusA = render(flat.head, time: &time, frames: frames, into: flat.output)
                let statusB = render(pulled.units[active.last!], time: &time, frames: frames, into: pulled.output)
                precondition(
                    statusA == statusB,
                    "step \(step): the graph answered \(statusA), the pulled chain \(statusB) (\(subtypes.map(FourCC.string)))")
                if statusA == noErr {
                    compare(flat.output, pulled.output, frames: Int(frames), step: step, subtypes: subtypes)
                    time.mSampleTime += Double(frames)
                }
            case 2:
                let id = parameterID(&input), value = input.float()
                let statusA = AudioUnitSetParameter(a, id, kAudioUnitScope_Global, 0, value, 0)
                precondition(statusA == AudioUnitSetParameter(b, id, kAudioUnitScope_Global, 0, value, 0))
            case 3:
                var event = AudioUnitParameterEvent()
                event.scope = kAudioUnitScope_Global
                event.parameter = parameterID(&input)
                if op & 0x80 != 0 {
                    event.eventType = .parameterEvent_Ramped
                    event.eventValues.ramp = .init(
                        startBufferOffset: Int32(input.below(1200)) - 8, durationInFrames: UInt32(input.below(1200)),
                        startValue: input.float(), endValue: input.float())
                } else {
                    event.eventType = .parameterEvent_Immediate
                    event.eventValues.immediate = .init(bufferOffset: UInt32(input.below(1200)), value: input.float())
                }
                let statusA = AudioUnitScheduleParameters(a, &event, 1)
                precondition(statusA == AudioUnitScheduleParameters(b, &event, 1))
            case 4:
                var bypass: UInt32 = op & 0x80 != 0 ? 1 : 0
                let size = UInt32(MemoryLayout<UInt32>.size)
                let statusA = AudioUnitSetProperty(a, kAudioUnitProperty_BypassEffect, kAudioUnitScope_Global, 0, &bypass, size)
                precondition(statusA == AudioUnitSetProperty(b, kAudioUnitProperty_BypassEffect, kAudioUnitScope_Global, 0, &bypass, size))
            case 5:
                precondition(AudioUnitReset(a, kAudioUnitScope_Global, 0) == AudioUnitReset(b, kAudioUnitScope_Global, 0))
            case 6:
                // A notification changes no sample; it only decides how the graph renders the unit.
                if notified[k] {
                    precondition(AudioUnitRemoveRenderNotify(a, countingNotify, nil) == noErr)
                } else {
                    precondition(AudioUnitAddRenderNotify(a, countingNotify, nil) == noErr)
                }
                notified[k].toggle()
            default:
                // Out of the chain (never the last one left) or back at its place; its state waits.
                if let at = active.firstIndex(of: k) {
                    guard active.count > 1 else { break }
                    active.remove(at: at)
                } else {
                    active.insert(k, at: active.firstIndex { $0 > k } ?? active.count)
                }
                precondition(flat.wire(active, source: source) && pulled.wire(active, source: source), "rewiring \(active) failed")
            }
        }
    }

    /// 0…15 (every unit's own), or one of NBandEQ's per-band IDs (1000…5015).
    private static func parameterID(_ input: inout CAPIFuzzInput) -> AudioUnitParameterID {
        let band = input.u8()
        return AudioUnitParameterID(band & 0x80 != 0 ? 1000 * (1 + input.below(5)) + Int(band & 15) : Int(band & 15))
    }

    private static func render(_ unit: AudioUnit, time: inout AudioTimeStamp, frames: UInt32, into output: AudioBufferStorage)
        -> OSStatus
    {
        output.prepare(frames: min(frames, output.capacity))
        var flags: AudioUnitRenderActionFlags = []
        return AudioUnitRender(unit, &flags, &time, 0, frames, output.list)
    }

    private static func compare(_ a: AudioBufferStorage, _ b: AudioBufferStorage, frames: Int, step: Int, subtypes: [OSType]) {
        for channel in 0..<2 {
            let x = a.samples(channel: channel, frames: frames), y = b.samples(channel: channel, frames: frames)
            guard let first = x.indices.first(where: { x[$0].bitPattern != y[$0].bitPattern }) else { continue }
            preconditionFailure(
                "step \(step), channel \(channel), frame \(first) of \(frames): the graph gave \(x[first]), the pulled chain "
                    + "\(y[first]) (\(subtypes.map(FourCC.string)))")
        }
    }

    private static let countingNotify: AURenderCallback = { _, _, _, _, _, _ in noErr }

    /// Both chains' first input: a fixed noise of the sample time, or silence marked as such.
    static let sourceCallback: AURenderCallback = { refCon, flags, time, _, frames, data in
        let silent = refCon.assumingMemoryBound(to: Source.self).pointee.silent
        let start = Int64(time.pointee.mSampleTime)
        for (channel, buffer) in UnsafeMutableAudioBufferListPointer(data!).enumerated() {
            let samples = buffer.mData!.assumingMemoryBound(to: Float.self)
            for i in 0..<Int(frames) {
                var x = UInt64(bitPattern: start &+ Int64(i)) &* 0x9E37_79B9_7F4A_7C15 &+ UInt64(channel) << 61
                x ^= x >> 29
                samples[i] = silent ? 0 : Float(Int32(truncatingIfNeeded: x >> 32)) / Float(Int32.max) * 0.5
            }
        }
        if silent { flags.pointee.insert(.unitRenderAction_OutputIsSilence) }
        return noErr
    }

    static func description(_ subtype: OSType) -> AudioComponentDescription {
        AudioComponentDescription(
            componentType: kAudioUnitType_Effect, componentSubType: subtype, componentManufacturer: kAudioUnitManufacturer_Apple,
            componentFlags: 0, componentFlagsMask: 0)
    }
}

/// The chain in an AUGraph headed by a generic output: rendered flat.
private struct FlatChain {
    let graph: AUGraph
    let head: AudioUnit
    let headNode: AUNode
    let nodes: [AUNode]
    let units: [AudioUnit]
    let output = AudioBufferStorage(format: .canonical(sampleRate: 44_100, channels: 2), capacity: 4096)

    init?(_ subtypes: [OSType], source: UnsafeMutablePointer<GraphChainFuzz.Source>) {
        var made: AUGraph?
        guard NewAUGraph(&made) == noErr, let graph = made else { return nil }
        self.graph = graph
        var headDescription = AudioComponentDescription(
            componentType: kAudioUnitType_Output, componentSubType: kAudioUnitSubType_GenericOutput,
            componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0)
        var headNode: AUNode = 0
        var nodes: [AUNode] = []
        _ = AUGraphAddNode(graph, &headDescription, &headNode)
        for subtype in subtypes {
            var description = GraphChainFuzz.description(subtype)
            var node: AUNode = 0
            _ = AUGraphAddNode(graph, &description, &node)
            nodes.append(node)
        }
        (self.headNode, self.nodes) = (headNode, nodes)
        func unit(_ node: AUNode) -> AudioUnit? {
            var unit: AudioUnit?
            return AUGraphNodeInfo(graph, node, nil, &unit) == noErr ? unit : nil
        }
        guard Self.connect(graph, nodes, head: headNode, Array(nodes.indices), source: source), AUGraphOpen(graph) == noErr,
            AUGraphInitialize(graph) == noErr,
            let head = unit(headNode)
        else {
            DisposeAUGraph(graph)
            return nil
        }
        self.head = head
        units = nodes.compactMap(unit)
    }

    /// Connects the nodes at `active` in that order, the source before the first, the head after the last.
    private static func connect(
        _ graph: AUGraph, _ nodes: [AUNode], head: AUNode, _ active: [Int], source: UnsafeMutablePointer<GraphChainFuzz.Source>
    ) -> Bool {
        var callback = AURenderCallbackStruct(inputProc: GraphChainFuzz.sourceCallback, inputProcRefCon: source)
        var ok = AUGraphClearConnections(graph) == noErr && AUGraphSetNodeInputCallback(graph, nodes[active[0]], 0, &callback) == noErr
        for (from, to) in zip(active.map { nodes[$0] }, active.dropFirst().map { nodes[$0] } + [head]) where ok {
            ok = AUGraphConnectNodeInput(graph, from, 0, to, 0) == noErr
        }
        return ok
    }

    /// Rewires an initialized graph: the change takes effect at AUGraphUpdate.
    func wire(_ active: [Int], source: UnsafeMutablePointer<GraphChainFuzz.Source>) -> Bool {
        Self.connect(graph, nodes, head: headNode, active, source: source) && AUGraphUpdate(graph, nil) == noErr
    }

    func dispose() { DisposeAUGraph(graph) }
}

/// The same chain as separate instances, each pulling the one before through a connection.
private struct PulledChain {
    let units: [AudioUnit]
    let output = AudioBufferStorage(format: .canonical(sampleRate: 44_100, channels: 2), capacity: 4096)

    init?(_ subtypes: [OSType], source: UnsafeMutablePointer<GraphChainFuzz.Source>) {
        var units: [AudioUnit] = []
        for subtype in subtypes {
            var description = GraphChainFuzz.description(subtype)
            var made: AudioUnit?
            guard AudioComponentInstanceNew(AudioComponentFindNext(nil, &description)!, &made) == noErr, let unit = made else { break }
            units.append(unit)
        }
        self.units = units
        guard units.count == subtypes.count, wire(Array(units.indices), source: source),
            units.allSatisfy({ AudioUnitInitialize($0) == noErr })
        else {
            dispose()
            return nil
        }
    }

    /// The first of `active` takes the source's callback, each other one a connection from the one before.
    func wire(_ active: [Int], source: UnsafeMutablePointer<GraphChainFuzz.Source>) -> Bool {
        var callback = AURenderCallbackStruct(inputProc: GraphChainFuzz.sourceCallback, inputProcRefCon: source)
        var ok =
            AudioUnitSetProperty(
                units[active[0]], kAudioUnitProperty_SetRenderCallback, kAudioUnitScope_Input, 0, &callback,
                UInt32(MemoryLayout<AURenderCallbackStruct>.size)) == noErr
        for (from, to) in zip(active, active.dropFirst()) where ok {
            var connection = AudioUnitConnection(sourceAudioUnit: units[from], sourceOutputNumber: 0, destInputNumber: 0)
            ok =
                AudioUnitSetProperty(
                    units[to], kAudioUnitProperty_MakeConnection, kAudioUnitScope_Input, 0, &connection,
                    UInt32(MemoryLayout<AudioUnitConnection>.size)) == noErr
        }
        return ok
    }

    func dispose() { for unit in units { AudioComponentInstanceDispose(unit) } }
}

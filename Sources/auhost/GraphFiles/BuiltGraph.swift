import AUHost
import Foundation
import GraphFileFormat

/// A graph file built into an `AudioGraph`: one node per file node, the head (generic output for
/// a file, the ALSA I/O unit for a device), the connections, parameters and presets, and an input
/// file fed to the source nodes. Open and initialized when `init` returns.
final class BuiltGraph {
    let file: GraphFile
    /// Made by NewAUGraph (and disposed with the BuiltGraph), so C-API users such as
    /// MusicSequenceSetAUGraph and JACKMIDIInput reach the same graph (GraphHandle below).
    let handle = GraphHandle()
    let graph: AudioGraph
    let head: AUNode
    private(set) var nodes: [String: AUNode] = [:]
    private(set) var components: [String: Component] = [:]
    /// The nodes the input file feeds (bus 0): a node called "input", else the first without inputs connected.
    private(set) var sources: [String] = []
    /// Keeps the input feeds alive while the graph may pull them.
    private var feeds: [InputFeed] = []
    /// Channels the head receives.
    private(set) var outputChannels = 0
    /// Reports and restarts faulted out-of-process nodes (`"isolated": true`).
    private(set) var isolation = IsolationSupervisor([])

    /// Builds `file`; `input` (deinterleaved canonical samples) feeds the source nodes when given.
    /// `initialize` false leaves the graph open only (an ALSA head then opens no device).
    ///
    /// Thread: setup.
    init(_ file: GraphFile, input: AudioBufferStorage? = nil, inputFrames: Int = 0, initialize: Bool = true) throws {
        self.file = file
        graph = handle.graph
        for n in file.nodes {
            do { components[n.name] = try UnitLookup.component(n.unit) } catch let e as AudioError {
                throw file.error(n.line, "node \"\(GraphFile.shown(n.name))\": \(e.message)", status: e.status)
            }
            let component = components[n.name]!
            // The head is made from "output"; an I/O unit among the nodes would be a second head.
            guard component.description.componentType != kAudioUnitType_Output else {
                throw file.error(
                    n.line,
                    "node \"\(GraphFile.shown(n.name))\": \(component.name) is an I/O unit; the graph's head comes from \"output\""
                        + " (a file or a device), and nodes are effects, mixers, generators or instruments.",
                    status: kAUGraphErr_OutputNodeErr)
            }
            do { nodes[n.name] = try graph.attach(component.description, outOfProcess: n.isolated) } catch let e as AudioError {
                throw file.error(n.line, "node \"\(GraphFile.shown(n.name))\": \(e.message)", status: e.status)
            }
        }
        let headType: OSType
        switch file.head {
        case .file: headType = kAudioUnitSubType_GenericOutput
        case .device(let name) where JACKDevice.clientName(name) != nil: headType = kAudioUnitSubType_AUHostJACKIO
        case .device: headType = file.voiceProcessing == nil ? OSType(kAudioUnitSubType_AUHostALSAIO) : kAudioUnitSubType_VoiceProcessingIO
        }
        head = try graph.attach(
            AudioComponentDescription(
                componentType: kAudioUnitType_Output, componentSubType: headType,
                componentManufacturer: headType == kAudioUnitSubType_VoiceProcessingIO
                    ? kAudioUnitManufacturer_Apple : kAudioUnitManufacturer_AUHost,
                componentFlags: 0, componentFlagsMask: 0))
        do { try graph.open() } catch let e as AudioError {
            // Nodes are instantiated in order: the first without a unit is the one that failed.
            let failed = file.nodes.first { n in ((try? graph.unit(nodes[n.name]!)) ?? nil) == nil }
            throw file.error(
                failed?.line ?? file.headLine,
                "\(failed.map { "node \"\(GraphFile.shown($0.name))\"" } ?? "the head") could not be"
                    + " instantiated: \(e.message)", status: e.status)
        }
        for n in file.nodes {
            let unit = try self.unit(n.name)
            guard AudioComponentInstanceGetComponent(unit) == components[n.name]!.handle else {
                throw file.error(
                    n.line,
                    "node \"\(GraphFile.shown(n.name))\": another unit shares the triple of \(components[n.name]!.name); name it by its URI or triple instead."
                )
            }
            try configure(unit, node: n)
            if n.isolated, case .file = file.head {
                // Offline, a slow cycle is no fault: only a child stuck for 10 s is declared hung.
                var seconds = 10.0
                AudioUnitSetProperty(unit, kAUHostIsolatedUnitProperty_RenderDeadline, kAudioUnitScope_Global, 0, &seconds, 8)
            }
        }
        isolation = IsolationSupervisor(
            try file.nodes.filter(\.isolated).map { ("node \"\(GraphFile.shown($0.name))\"", try self.unit($0.name)) })
        try connect(input: input, inputFrames: inputFrames)
        try configureHead()
        if let threads = file.threads { try graph.setRenderThreads(threads) }
        if let tempo = file.tempo { try graph.setTempo(tempo, beatsPerBar: file.meter.beatsPerBar, beatUnit: file.meter.beatUnit) }
        guard initialize else { return }
        do { try graph.initialize() } catch let e as AudioError {
            throw file.error(file.headLine, "the graph did not initialize: \(e.message)", status: e.status)
        }
    }

    /// The unit of node `name`.
    ///
    /// Thread: setup.
    func unit(_ name: String) throws -> AudioUnit {
        guard let id = nodes[name], let unit = try graph.unit(id) else {
            throw AudioError(kAUGraphErr_NodeNotFound, "The graph has no open node \"\(name)\".")
        }
        return unit
    }

    /// The largest TailTime of the nodes, in seconds.
    ///
    /// Thread: setup.
    var tailSeconds: Double {
        file.nodes.compactMap { n -> Double? in
            guard let unit = try? unit(n.name) else { return nil }
            var tail: Float64 = 0
            var size = UInt32(MemoryLayout<Float64>.size)
            return AudioUnitGetProperty(unit, kAudioUnitProperty_TailTime, kAudioUnitScope_Global, 0, &tail, &size) == noErr ? tail : nil
        }.max() ?? 0
    }

    /// Block size, formats (the file's channels where the unit takes them, else its own count),
    /// then the preset and parameters.
    private func configure(_ unit: AudioUnit, node: GraphFile.Node) throws {
        var frames = file.block
        AudioUnitSetProperty(unit, kAudioUnitProperty_MaximumFramesPerSlice, kAudioUnitScope_Global, 0, &frames, 4)
        // Every element's format is set (a mixer's bus 1 at 44.1 kHz would not meet a 48 kHz
        // output); a unit reporting absurdly many elements has only the first 1024 set.
        for scope in [kAudioUnitScope_Input, kAudioUnitScope_Output] {
            for element in 0..<min(elementCount(unit, scope), 1024) {
                if set(format(file.channels), on: unit, scope: scope, element: element) == noErr { continue }
                var own = AudioStreamBasicDescription()
                var size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
                AudioUnitGetProperty(unit, kAudioUnitProperty_StreamFormat, scope, element, &own, &size)
                let status = set(format(Int(own.mChannelsPerFrame)), on: unit, scope: scope, element: element)
                guard status == noErr else {
                    throw file.error(
                        node.line,
                        "node \"\(GraphFile.shown(node.name))\" refuses \(Int(file.sampleRate)) Hz: \(LastErrorMessage.current ?? "status \(status)").",
                        status: status)
                }
            }
        }
        do {
            try UnitSettings.apply(preset: node.preset, parameters: node.parameters, to: unit, named: components[node.name]!.name)
        } catch let e as AudioError {
            throw file.error(node.line, "node \"\(GraphFile.shown(node.name))\": \(e.message)", status: e.status)
        }
    }

    /// The file's connections (a single sink goes to the head when none does), and the input feeds.
    private func connect(input: AudioBufferStorage?, inputFrames: Int) throws {
        var connections = file.connections
        if !connections.contains(where: { $0.to == GraphFile.headName }) {
            let sinks = file.nodes.filter { n in !connections.contains { $0.from == n.name } }
            guard sinks.count == 1 else {
                throw file.error(
                    file.headLine,
                    "no connection goes to \"\(GraphFile.headName)\" and \(sinks.count) nodes have no outgoing connection"
                        + " (\(sinks.map(\.name).joined(separator: ", "))); connect one of them to \"\(GraphFile.headName)\".")
            }
            connections.append(GraphFile.Connection(from: sinks[0].name, fromBus: 0, to: GraphFile.headName, toBus: 0, line: file.headLine))
        }
        for c in connections {
            let to = c.to == GraphFile.headName ? head : nodes[c.to]!
            do { try graph.connect(nodes[c.from]!, c.fromBus, to: to, c.toBus) } catch let e as AudioError {
                throw file.error(c.line, "cannot connect \(c.from):\(c.fromBus) to \(c.to):\(c.toBus): \(e.message)", status: e.status)
            }
        }
        let unfed = file.nodes.filter { n in
            !connections.contains { $0.to == n.name } && ((try? elementCount(unit(n.name), kAudioUnitScope_Input)) ?? 0) > 0
        }
        if file.nodes.contains(where: { $0.name == "input" }) {
            sources = ["input"]
        } else if let first = unfed.first {
            sources = [first.name]
        }
        guard let input else { return }
        for name in sources {
            let feed = InputFeed(samples: input, frames: inputFrames)
            feeds.append(feed)
            do {
                try graph.setInputCallback(
                    nodes[name]!, 0,
                    AURenderCallbackStruct(
                        inputProc: inputFeedCallback,
                        inputProcRefCon: UnsafeMutableRawPointer(feed.state)))
            } catch let e as AudioError {
                let line = file.nodes.first { $0.name == name }?.line ?? file.headLine
                throw file.error(line, "node \"\(GraphFile.shown(name))\" cannot take the input file: \(e.message)", status: e.status)
            }
        }
    }

    /// The head takes what its source sends; the ALSA I/O unit gets its device and rate.
    private func configureHead() throws {
        guard
            let feeder = file.connections.first(where: { $0.to == GraphFile.headName })?.from
                ?? file.nodes.first(where: { n in !file.connections.contains { $0.from == n.name } })?.name
        else { return }
        var sent = AudioStreamBasicDescription()
        var size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
        AudioUnitGetProperty(try unit(feeder), kAudioUnitProperty_StreamFormat, kAudioUnitScope_Output, 0, &sent, &size)
        outputChannels = Int(sent.mChannelsPerFrame)
        guard let headUnit = try graph.unit(head) else { return }
        var frames = file.block
        AudioUnitSetProperty(headUnit, kAudioUnitProperty_MaximumFramesPerSlice, kAudioUnitScope_Global, 0, &frames, 4)
        switch file.head {
        case .file:
            for scope in [kAudioUnitScope_Input, kAudioUnitScope_Output] {
                guard set(format(outputChannels), on: headUnit, scope: scope) == noErr else {
                    throw file.error(file.headLine, "the generic output refused \(outputChannels) channels at \(Int(file.sampleRate)) Hz.")
                }
            }
        case .device(let name) where JACKDevice.clientName(name) != nil:
            guard set(format(outputChannels), on: headUnit, scope: kAudioUnitScope_Input) == noErr else {
                throw file.error(file.headLine, "the JACK I/O unit refused \(outputChannels) channels at \(Int(file.sampleRate)) Hz.")
            }
            let client = CFStringCreateWithCString(nil, JACKDevice.clientName(name)!, CFStringBuiltInEncodings.UTF8.rawValue)
            let status = withUnsafeBytes(of: client) {
                AudioUnitSetProperty(headUnit, kAUHostJACKProperty_ClientName, kAudioUnitScope_Global, 0, $0.baseAddress, UInt32($0.count))
            }
            guard status == noErr else {
                throw file.error(
                    file.headLine, "JACK client name of \"\(name)\": \(LastErrorMessage.current ?? "refused").", status: status)
            }
        case .device(let name):
            guard set(format(outputChannels), on: headUnit, scope: kAudioUnitScope_Input) == noErr else {
                throw file.error(file.headLine, "the ALSA I/O unit refused \(outputChannels) channels at \(Int(file.sampleRate)) Hz.")
            }
            var rate = file.sampleRate
            AudioUnitSetProperty(headUnit, kAUHostALSAProperty_PreferredSampleRate, kAudioUnitScope_Global, 0, &rate, 8)
            let status = setCurrentDevice(headUnit, name)
            guard status == noErr else {
                throw file.error(
                    file.headLine, "device \"\(name)\": \(LastErrorMessage.current ?? "refused (status \(status))").", status: status)
            }
            if let voice = file.voiceProcessing { try configureVoiceProcessing(headUnit, voice) }
        }
    }

    private func format(_ channels: Int) -> AudioStreamBasicDescription {
        .canonical(sampleRate: file.sampleRate, channels: UInt32(channels))
    }

    private func set(_ format: AudioStreamBasicDescription, on unit: AudioUnit, scope: AudioUnitScope, element: UInt32 = 0) -> OSStatus {
        var format = format
        return AudioUnitSetProperty(
            unit, kAudioUnitProperty_StreamFormat, scope, element, &format, UInt32(MemoryLayout<AudioStreamBasicDescription>.size))
    }

    private func elementCount(_ unit: AudioUnit, _ scope: AudioUnitScope) -> UInt32 {
        var count: UInt32 = 0
        var size: UInt32 = 4
        return AudioUnitGetProperty(unit, kAudioUnitProperty_ElementCount, scope, 0, &count, &size) == noErr ? count : 0
    }
}

/// An AUGraph made by NewAUGraph and the AudioGraph its handle points at (CAPI+AUGraph.swift:
/// "An AUGraph handle points at an AudioGraph"); DisposeAUGraph when the owner goes.
final class GraphHandle {
    let handle: AUGraph
    let graph: AudioGraph

    /// Thread: setup.
    init() {
        var made: AUGraph?
        // NewAUGraph fails only for a NULL out pointer.
        _ = NewAUGraph(&made)
        handle = made!
        graph = Unmanaged<AudioGraph>.fromOpaque(UnsafeRawPointer(made!)).takeUnretainedValue()
    }

    deinit { DisposeAUGraph(handle) }
}

/// An input file held in memory, played once into a source node's bus 0 (silence after its end).
/// The render callback gets `state` (plain memory, no class), and only it moves the position.
final class InputFeed {
    struct State {
        var channels: UnsafeMutablePointer<UnsafeMutablePointer<Float>>
        var channelCount: Int
        var frames: Int
        var position: Int
    }

    let samples: AudioBufferStorage
    let state: UnsafeMutablePointer<State>

    /// Thread: setup.
    init(samples: AudioBufferStorage, frames: Int) {
        self.samples = samples
        let channels = UnsafeMutablePointer<UnsafeMutablePointer<Float>>.allocate(capacity: samples.bufferCount)
        for c in 0..<samples.bufferCount { channels[c] = samples.channel(c) }
        state = .allocate(capacity: 1)
        state.initialize(to: State(channels: channels, channelCount: samples.bufferCount, frames: frames, position: 0))
    }

    deinit {
        state.pointee.channels.deallocate()
        state.deallocate()
    }
}

/// Copies the next frames of the feed into the node's input (channel c from file channel c mod count).
/// Thread: render — copies only.
let inputFeedCallback: AURenderCallback = { refCon, _, _, _, frames, ioData in
    guard let ioData else { return kAudio_ParamError }
    let feed = refCon.assumingMemoryBound(to: InputFeed.State.self)
    let buffers = UnsafeMutableAudioBufferListPointer(ioData)
    let count = Int(frames), position = feed.pointee.position
    let have = max(0, min(count, feed.pointee.frames - position))
    for i in 0..<buffers.count {
        guard let data = buffers[i].mData?.assumingMemoryBound(to: Float.self) else { continue }
        if have > 0 { data.update(from: feed.pointee.channels[i % feed.pointee.channelCount] + position, count: have) }
        if have < count { (data + have).update(repeating: 0, count: count - have) }
        buffers[i].mDataByteSize = UInt32(count * 4)
    }
    feed.pointee.position = position + count
    return noErr
}

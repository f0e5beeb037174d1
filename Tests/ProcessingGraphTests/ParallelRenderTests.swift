import XCTest
import TestSupport

/// Parallel rendering must not change a sample: each graph shape is rendered serially (0 threads)
/// and with 1, 2 and 4 render threads, from fresh graphs fed the same input, and the outputs
/// compared bit for bit. Each shape is also checked to really render in parallel (the plan is not
/// silently serial), and the branches use different gains and stateful units, so a branch
/// rendered twice, skipped, or read before it is rendered changes the output.
final class ParallelRenderTests: XCTestCase {
    /// Builds a shape into a fixture; returns what must stay alive while it renders.
    typealias Shape = (GraphFixture) throws -> [AnyObject]

    /// Pull sizes vary (a head pulls what its caller asks) and include a size the tasks never saw.
    private let pulls: [UInt32] = [512, 512, 256, 64, 512, 1024, 333, 512, 512, 128, 512, 512]

    private func render(_ shape: Shape, threads: UInt32) throws -> (left: [Float], right: [Float], reason: String?) {
        let f = try GraphFixture()
        XCTAssertEqual(AUGraphSetRenderThreadCount(f.graph!, threads), noErr, lastMessage())
        let alive = try shape(f)
        XCTAssertEqual(AUGraphInitialize(f.graph!), noErr, lastMessage())
        var left: [Float] = [], right: [Float] = []
        for frames in pulls {
            XCTAssertEqual(f.pull(frames), noErr, lastMessage())
            left += f.left(Int(frames))
            right += f.right(Int(frames))
        }
        let reason = graphObject(f.graph!).serialReason
        withExtendedLifetime(alive) {}
        return (left, right, reason)
    }

    private func assertIdentical(_ name: String, _ shape: Shape, file: StaticString = #filePath, line: UInt = #line) throws {
        let serial = try render(shape, threads: 0)
        XCTAssertEqual(serial.reason, "the graph's thread count is 0", file: file, line: line)
        XCTAssertTrue(serial.left.contains { $0 != 0 }, "\(name): the graph renders sound", file: file, line: line)
        for threads: UInt32 in [1, 2, 4] {
            let parallel = try render(shape, threads: threads)
            XCTAssertNil(parallel.reason, "\(name) with \(threads) threads renders in parallel", file: file, line: line)
            let differing = zip(serial.left, parallel.left).enumerated().first { $0.element.0.bitPattern != $0.element.1.bitPattern }
            XCTAssertNil(
                differing.map { "frame \($0.offset): \($0.element.0) serial, \($0.element.1) parallel" },
                "\(name), \(threads) threads, left", file: file, line: line)
            XCTAssertEqual(
                serial.left.map(\.bitPattern), parallel.left.map(\.bitPattern), "\(name), \(threads) threads, left", file: file, line: line)
            XCTAssertEqual(
                serial.right.map(\.bitPattern), parallel.right.map(\.bitPattern), "\(name), \(threads) threads, right", file: file,
                line: line)
        }
    }

    // MARK: Building blocks

    /// A node fed by a ramp callback (pinned to the head's thread), scaled by `gain`.
    private func rampSource(_ f: GraphFixture, gain: Float, _ alive: inout [AnyObject]) throws -> AUNode {
        let counter = Counter()
        alive.append(counter)
        let node = try f.add(TestGainUnit.description)
        var cb = counter.callback
        XCTAssertEqual(AUGraphSetNodeInputCallback(f.graph!, node, 0, &cb), noErr)
        try setGain(f, node, gain)
        return node
    }

    private func gain(_ f: GraphFixture, _ value: Float, after source: AUNode, _ bus: UInt32 = 0) throws -> AUNode {
        let node = try f.add(TestGainUnit.description)
        try setGain(f, node, value)
        XCTAssertEqual(AUGraphConnectNodeInput(f.graph!, source, bus, node, 0), noErr, lastMessage())
        return node
    }

    private func setGain(_ f: GraphFixture, _ node: AUNode, _ value: Float) throws {
        XCTAssertEqual(AUGraphOpen(f.graph!), noErr)
        XCTAssertEqual(AudioUnitSetParameter(f.unit(node), 0, kAudioUnitScope_Global, 0, value, 0), noErr)
    }

    /// A chain: gain → latency-free gain → gain, each with its own factor.
    private func branch(_ f: GraphFixture, from source: AUNode, _ factors: [Float]) throws -> AUNode {
        var last = source
        for factor in factors { last = try gain(f, factor, after: last) }
        return last
    }

    private func sum(_ f: GraphFixture, inputs: [AUNode]) throws -> AUNode {
        let mixer = try f.add(TestSumUnit.description)
        XCTAssertEqual(AUGraphOpen(f.graph!), noErr)
        var count = UInt32(inputs.count)
        XCTAssertEqual(AudioUnitSetProperty(f.unit(mixer), kAudioUnitProperty_ElementCount, kAudioUnitScope_Input, 0, &count, 4), noErr)
        for (bus, input) in inputs.enumerated() {
            XCTAssertEqual(AUGraphConnectNodeInput(f.graph!, input, 0, mixer, UInt32(bus)), noErr, lastMessage())
        }
        return mixer
    }

    private func toHead(_ f: GraphFixture, _ node: AUNode) {
        XCTAssertEqual(AUGraphConnectNodeInput(f.graph!, node, 0, f.head, 0), noErr, lastMessage())
    }

    // MARK: Shapes

    func testFanOutIsBitIdentical() throws {
        try assertIdentical("fan-out") { f in
            var alive: [AnyObject] = []
            let source = try self.rampSource(f, gain: 0.37, &alive)
            let branches = try [[0.1, 1.3], [0.7, 0.3, 2.1], [1.7], [0.013, 3.3, 0.9]].map { try self.branch(f, from: source, $0) }
            self.toHead(f, try self.sum(f, inputs: branches))
            return alive
        }
    }

    func testFanInThroughTheMultiChannelMixerIsBitIdentical() throws {
        try assertIdentical("fan-in through a mixer") { f in
            var alive: [AnyObject] = []
            let mixer = try f.add(
                AudioComponentDescription(
                    componentType: kAudioUnitType_Mixer, componentSubType: kAudioUnitSubType_MultiChannelMixer,
                    componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0))
            XCTAssertEqual(AUGraphOpen(f.graph!), noErr)
            var four: UInt32 = 4
            XCTAssertEqual(AudioUnitSetProperty(f.unit(mixer), kAudioUnitProperty_ElementCount, kAudioUnitScope_Input, 0, &four, 4), noErr)
            for bus in 0..<4 {
                let source = try self.rampSource(f, gain: 0.11 * Float(bus + 1), &alive)
                let end = try self.branch(f, from: source, [0.3 + Float(bus), 1.0 / Float(bus + 3)])
                XCTAssertEqual(AUGraphConnectNodeInput(f.graph!, end, 0, mixer, UInt32(bus)), noErr, lastMessage())
                XCTAssertEqual(
                    AudioUnitSetParameter(
                        f.unit(mixer), kMultiChannelMixerParam_Volume, kAudioUnitScope_Input, UInt32(bus), 0.9 - 0.2 * Float(bus), 0), noErr
                )
            }
            self.toHead(f, mixer)
            return alive
        }
    }

    func testDiamondIsBitIdentical() throws {
        try assertIdentical("diamond") { f in
            var alive: [AnyObject] = []
            let top = try self.rampSource(f, gain: 0.5, &alive)
            let left = try self.branch(f, from: top, [0.3, 1.9])
            let right = try self.branch(f, from: top, [1.1])
            let bottom = try self.gain(f, 0.77, after: try self.sum(f, inputs: [left, right]))
            self.toHead(f, bottom)
            return alive
        }
    }

    func testLatencyCompensatedPathsAreBitIdentical() throws {
        try assertIdentical("latency-compensated paths") { f in
            var alive: [AnyObject] = []
            let source = try self.rampSource(f, gain: 1, &alive)
            let dry = try self.gain(f, 0.25, after: source)
            let late = try f.add(TestLatencyUnit.description)
            XCTAssertEqual(AUGraphConnectNodeInput(f.graph!, source, 0, late, 0), noErr)
            let lateGain = try self.gain(f, 0.6, after: late)
            let later = try f.add(TestLatencyUnit.description)
            XCTAssertEqual(AUGraphConnectNodeInput(f.graph!, lateGain, 0, later, 0), noErr)
            let other = try self.branch(f, from: source, [0.9, 0.4])
            self.toHead(f, try self.sum(f, inputs: [dry, later, other]))
            return alive
        }
        // The compensation itself is in force: the graph reports two latency units' worth.
        let f = try GraphFixture()
        XCTAssertEqual(AUGraphSetRenderThreadCount(f.graph!, 2), noErr)
        var alive: [AnyObject] = []
        let source = try rampSource(f, gain: 1, &alive)
        let late = try f.add(TestLatencyUnit.description)
        XCTAssertEqual(AUGraphConnectNodeInput(f.graph!, source, 0, late, 0), noErr)
        let dry = try gain(f, 1, after: source)
        let other = try gain(f, 1, after: source)
        toHead(f, try sum(f, inputs: [dry, late, other]))
        XCTAssertEqual(AUGraphInitialize(f.graph!), noErr, lastMessage())
        XCTAssertNil(graphObject(f.graph!).serialReason)
        var out: [Float] = []
        for _ in 0..<4 { XCTAssertEqual(f.pull(200), noErr); out += f.left(200) }
        for n in 0..<800 { XCTAssertEqual(out[n], n < 240 ? 0 : 3 * Float(n - 240), "frame \(n)") }
    }

    /// AUHost has no sub-graph nodes (Apple's are macOS-only and deprecated): a graph nests another
    /// by feeding a node from a render callback that renders the inner graph's generic output.
    /// Both graphs render in parallel; the inner one from the outer head's thread.
    func testNestedGraphIsBitIdentical() throws {
        try assertIdentical("sub-graph") { f in
            var alive: [AnyObject] = []
            let inner = try GraphFixture()
            var innerThreads: UInt32 = 0
            XCTAssertEqual(AUGraphGetRenderThreadCount(f.graph!, &innerThreads), noErr)
            XCTAssertEqual(AUGraphSetRenderThreadCount(inner.graph!, innerThreads), noErr)
            let innerSource = try self.rampSource(inner, gain: 0.21, &alive)
            let a = try self.branch(inner, from: innerSource, [1.3, 0.7])
            let b = try self.branch(inner, from: innerSource, [0.3])
            self.toHead(inner, try self.sum(inner, inputs: [a, b]))
            XCTAssertEqual(AUGraphInitialize(inner.graph!), noErr, lastMessage())
            alive.append(inner)

            let nested = try f.add(TestGainUnit.description)
            try self.setGain(f, nested, 0.8)
            var cb = AURenderCallbackStruct(inputProc: renderInnerGraph, inputProcRefCon: Unmanaged.passUnretained(inner).toOpaque())
            XCTAssertEqual(AUGraphSetNodeInputCallback(f.graph!, nested, 0, &cb), noErr)
            let outerSource = try self.rampSource(f, gain: 0.05, &alive)
            let outerBranch = try self.branch(f, from: outerSource, [2.5, 0.31])
            let nestedBranch = try self.branch(f, from: nested, [0.6])
            self.toHead(f, try self.sum(f, inputs: [nestedBranch, outerBranch]))
            return alive
        }
    }

    /// A format converter resampling one branch pulls its source with time stamps and sizes of its
    /// own: its task renders that source itself.
    func testResamplingBranchIsBitIdentical() throws {
        try assertIdentical("resampling consumer") { f in
            var alive: [AnyObject] = []
            let source = try self.rampSource(f, gain: 0.001, &alive)
            var fast = AudioStreamBasicDescription.canonical(sampleRate: 48_000, channels: 2)
            let size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
            XCTAssertEqual(
                AudioUnitSetProperty(f.unit(source), kAudioUnitProperty_StreamFormat, kAudioUnitScope_Input, 0, &fast, size), noErr)
            XCTAssertEqual(
                AudioUnitSetProperty(f.unit(source), kAudioUnitProperty_StreamFormat, kAudioUnitScope_Output, 0, &fast, size), noErr)
            let converter = try f.add(
                AudioComponentDescription(
                    componentType: kAudioUnitType_FormatConverter, componentSubType: kAudioUnitSubType_AUConverter,
                    componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0))
            XCTAssertEqual(AUGraphOpen(f.graph!), noErr)
            XCTAssertEqual(AUGraphConnectNodeInput(f.graph!, source, 0, converter, 0), noErr)
            let slow = try self.gain(f, 0.9, after: converter)
            let other = try self.rampSource(f, gain: 0.002, &alive)
            let others = try [[0.4, 1.2], [3.1]].map { try self.branch(f, from: other, $0) }
            self.toHead(f, try self.sum(f, inputs: [slow] + others))
            return alive
        }
    }

    /// Two sources' callbacks advance one shared counter: the output depends on the order they run
    /// in, which must be the serial pull order (bus 0's branch first), on the pulling thread.
    func testInputCallbacksRunOnThePullingThreadInTheSerialOrder() throws {
        try assertIdentical("callbacks sharing a counter") { f in
            let shared = Counter()
            var branches: [AUNode] = []
            for factor: Float in [0.3, 1.7] {
                let source = try f.add(TestGainUnit.description)
                var cb = shared.callback
                XCTAssertEqual(AUGraphSetNodeInputCallback(f.graph!, source, 0, &cb), noErr)
                branches.append(try self.branch(f, from: source, [factor, 0.9]))
            }
            self.toHead(f, try self.sum(f, inputs: branches))
            return [shared]
        }
        let f = try GraphFixture()
        XCTAssertEqual(AUGraphSetRenderThreadCount(f.graph!, 4), noErr)
        let record = ThreadRecord()
        var branches: [AUNode] = []
        for _ in 0..<3 {
            let source = try f.add(TestGainUnit.description)
            var cb = AURenderCallbackStruct(inputProc: recordThread, inputProcRefCon: Unmanaged.passUnretained(record).toOpaque())
            XCTAssertEqual(AUGraphSetNodeInputCallback(f.graph!, source, 0, &cb), noErr)
            branches.append(try branch(f, from: source, [1, 1]))
        }
        toHead(f, try sum(f, inputs: branches))
        XCTAssertEqual(AUGraphInitialize(f.graph!), noErr)
        XCTAssertNil(graphObject(f.graph!).serialReason)
        record.expected = pthread_self()
        for _ in 0..<50 { XCTAssertEqual(f.pull(256), noErr) }
        XCTAssertEqual(record.calls, 150)
        XCTAssertEqual(record.elsewhere, 0, "callbacks run on a worker")
    }

    // MARK: Serial fallbacks

    func testAChainRendersSerially() throws {
        let f = try GraphFixture()
        XCTAssertEqual(AUGraphSetRenderThreadCount(f.graph!, 2), noErr)
        var alive: [AnyObject] = []
        let source = try rampSource(f, gain: 1, &alive)
        toHead(f, try branch(f, from: source, [0.5, 2, 3]))
        XCTAssertEqual(AUGraphInitialize(f.graph!), noErr)
        XCTAssertEqual(graphObject(f.graph!).serialReason, "its nodes form one chain (the critical path is all the work)")
        XCTAssertEqual(f.pull(64), noErr)
        XCTAssertEqual(f.left(64), (0..<64).map { Float($0) * 3 })
    }

    /// A node a format converter pulls (with time stamps of its own) that also feeds another node
    /// could be rendered by two threads at once: such a graph renders serially, and correctly.
    func testANodeSharedByAConverterAndAnotherNodeRendersSerially() throws {
        let f = try GraphFixture()
        XCTAssertEqual(AUGraphSetRenderThreadCount(f.graph!, 2), noErr)
        var alive: [AnyObject] = []
        let source = try rampSource(f, gain: 1, &alive)
        let converter = try f.add(
            AudioComponentDescription(
                componentType: kAudioUnitType_FormatConverter, componentSubType: kAudioUnitSubType_AUConverter,
                componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0))
        XCTAssertEqual(AUGraphConnectNodeInput(f.graph!, source, 0, converter, 0), noErr)
        let other = try gain(f, 2, after: source)
        let third = try branch(f, from: other, [1])
        toHead(f, try sum(f, inputs: [converter, other, third]))
        XCTAssertEqual(AUGraphInitialize(f.graph!), noErr, lastMessage())
        let reason = try XCTUnwrap(graphObject(f.graph!).serialReason)
        XCTAssertTrue(reason.contains("feeds both the converting"), reason)
        XCTAssertEqual(f.pull(64), noErr)
        XCTAssertEqual(f.left(64), (0..<64).map { Float($0) * 5 }, "1 (converted, same format) + 2 + 2")
        XCTAssertEqual(graphObject(f.graph!).parallelRunCount, 0)
        withExtendedLifetime(alive) {}
    }

    func testThreadCountIsBoundedAndAdoptedWhileInitialized() throws {
        let f = try GraphFixture()
        var threads: UInt32 = 0
        XCTAssertEqual(AUGraphGetRenderThreadCount(f.graph!, &threads), noErr)
        XCTAssertEqual(Int(threads), min(ProcessInfo.processInfo.activeProcessorCount, 64), "default: one per core")
        XCTAssertEqual(AUGraphSetRenderThreadCount(f.graph!, 65), kAudio_ParamError)
        XCTAssertTrue(lastMessage().contains("65"), lastMessage())
        var alive: [AnyObject] = []
        let source = try rampSource(f, gain: 1, &alive)
        toHead(f, try sum(f, inputs: [try gain(f, 1, after: source), try gain(f, 2, after: source)]))
        XCTAssertEqual(AUGraphSetRenderThreadCount(f.graph!, 3), noErr)
        XCTAssertEqual(AUGraphInitialize(f.graph!), noErr)
        XCTAssertEqual(graphObject(f.graph!).renderWorkerCount, 2)
        XCTAssertEqual(f.pull(64), noErr)
        XCTAssertEqual(f.left(64), (0..<64).map { Float($0) * 3 })
        XCTAssertEqual(AUGraphSetRenderThreadCount(f.graph!, 0), noErr)
        XCTAssertEqual(graphObject(f.graph!).renderWorkerCount, 0)
        XCTAssertEqual(graphObject(f.graph!).serialReason, "the graph's thread count is 0")
        XCTAssertEqual(f.pull(64), noErr)
        XCTAssertEqual(f.left(64), (64..<128).map { Float($0) * 3 })
        XCTAssertEqual(AUGraphSetRenderThreadCount(f.graph!, 2), noErr)
        XCTAssertEqual(graphObject(f.graph!).renderWorkerCount, 1)
        XCTAssertEqual(f.pull(64), noErr)
        XCTAssertEqual(f.left(64), (128..<192).map { Float($0) * 3 })
        XCTAssertEqual(AUGraphUninitialize(f.graph!), noErr)
        XCTAssertEqual(graphObject(f.graph!).renderWorkerCount, 0, "an uninitialized graph holds no threads")
        withExtendedLifetime(alive) {}
    }
}

/// The Swift object behind an AUGraph handle.
func graphObject(_ graph: AUGraph) -> AudioGraph {
    Unmanaged<AudioGraph>.fromOpaque(UnsafeRawPointer(graph)).takeUnretainedValue()
}

/// Renders an inner graph's head into the buffers of the outer graph's input.
private let renderInnerGraph: AURenderCallback = { refCon, flags, timeStamp, _, frames, ioData in
    let inner = Unmanaged<GraphFixture>.fromOpaque(refCon).takeUnretainedValue()
    var head: AudioUnit?
    AUGraphNodeInfo(inner.graph!, inner.head, nil, &head)
    return AudioUnitRender(head!, flags, timeStamp, 0, frames, ioData!)
}

/// Which threads an input callback ran on (only ever touched by the pulling thread, or the test fails).
final class ThreadRecord {
    var expected = pthread_self()
    var calls = 0
    var elsewhere = 0
}

private let recordThread: AURenderCallback = { refCon, _, _, _, frames, ioData in
    let record = Unmanaged<ThreadRecord>.fromOpaque(refCon).takeUnretainedValue()
    record.calls += 1
    if pthread_equal(record.expected, pthread_self()) == 0 { record.elsewhere += 1 }
    for buffer in UnsafeMutableAudioBufferListPointer(ioData!) {
        buffer.mData!.initializeMemory(as: Float.self, repeating: 0.5, count: Int(frames))
    }
    return noErr
}

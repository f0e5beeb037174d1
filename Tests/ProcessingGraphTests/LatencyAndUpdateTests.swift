import XCTest
import TestSupport

final class LatencyAndUpdateTests: XCTestCase {
    /// A dry path and a path through a unit reporting 240 frames of latency, summed in a mixer.
    private func latencyGraph(compensate: Bool) throws -> (GraphFixture, Counter) {
        let f = try GraphFixture()
        let source = try f.add(TestGainUnit.description)
        let late = try f.add(TestLatencyUnit.description)
        let mixer = try f.add(TestSumUnit.description)
        let input = Counter()
        var cb = input.callback
        XCTAssertEqual(AUGraphSetNodeInputCallback(f.graph!, source, 0, &cb), noErr)
        XCTAssertEqual(AUGraphConnectNodeInput(f.graph!, source, 0, mixer, 0), noErr)
        XCTAssertEqual(AUGraphConnectNodeInput(f.graph!, source, 0, late, 0), noErr)
        XCTAssertEqual(AUGraphConnectNodeInput(f.graph!, late, 0, mixer, 1), noErr)
        XCTAssertEqual(AUGraphConnectNodeInput(f.graph!, mixer, 0, f.head, 0), noErr)
        XCTAssertEqual(AUGraphSetLatencyCompensation(f.graph!, compensate ? 1 : 0), noErr)
        XCTAssertEqual(AUGraphInitialize(f.graph!), noErr, lastMessage())
        return (f, input)
    }

    func testParallelPathsComeOutSampleAligned() throws {
        let (f, input) = try latencyGraph(compensate: true)
        defer { withExtendedLifetime(input) {} }
        var seconds: Float64 = 0
        XCTAssertEqual(AUGraphGetLatency(f.graph!, &seconds), noErr)
        XCTAssertEqual(Int((seconds * 44_100).rounded()), 240)
        var out: [Float] = []
        for _ in 0..<4 { XCTAssertEqual(f.pull(200), noErr); out += f.left(200) }
        for n in 0..<800 { XCTAssertEqual(out[n], n < 240 ? 0 : 2 * Float(n - 240), "frame \(n)") }
    }

    /// A latency the delay lines cannot be sized by (NaN trapped, 1e300 exhausted memory) fails
    /// AUGraphInitialize naming the node; without compensation nothing is sized by it.
    func testALatencyNoDelayLineCanHoldIsRefused() throws {
        defer { TestLatencyUnit.reportedLatency = nil }
        for bad in [Double.nan, .infinity, -1, 1e300, 61] {
            TestLatencyUnit.reportedLatency = bad
            let f = try GraphFixture()
            let source = try f.add(TestGainUnit.description)
            let late = try f.add(TestLatencyUnit.description)
            let input = Counter()
            var cb = input.callback
            XCTAssertEqual(AUGraphSetNodeInputCallback(f.graph!, source, 0, &cb), noErr)
            XCTAssertEqual(AUGraphConnectNodeInput(f.graph!, source, 0, late, 0), noErr)
            XCTAssertEqual(AUGraphConnectNodeInput(f.graph!, late, 0, f.head, 0), noErr)
            XCTAssertEqual(AUGraphInitialize(f.graph!), kAudioUnitErr_InvalidPropertyValue, "latency \(bad)")
            XCTAssertTrue(lastMessage().contains("reports a latency of \(bad) s"), lastMessage())
            XCTAssertEqual(AUGraphSetLatencyCompensation(f.graph!, 0), noErr)
            XCTAssertEqual(AUGraphInitialize(f.graph!), noErr, lastMessage())
            var out: [Float] = []
            for _ in 0..<4 { XCTAssertEqual(f.pull(100), noErr); out += f.left(100) }
            XCTAssertEqual(out, (0..<400).map { $0 < 240 ? 0 : Float($0 - 240) }, "latency \(bad): the unit's own 240-frame delay")
            withExtendedLifetime(input) {}
        }
    }

    /// AudioGraph.profile compiles the graph's own schedule again when it is done. When that fails
    /// (here a unit's latency no delay line can hold, once compensation is turned on meanwhile)
    /// the error is reported, not dropped, and the graph keeps rendering.
    func testProfileReportsAScheduleItCannotRestore() throws {
        TestLatencyUnit.reportedLatency = .nan
        defer { TestLatencyUnit.reportedLatency = nil }
        registerGraphTestUnits()
        let graph = AudioGraph()
        let head = try graph.attach(
            AudioComponentDescription(
                type: kAudioUnitType_Output, subType: kAudioUnitSubType_GenericOutput, manufacturer: kAudioUnitManufacturer_Apple))
        let late = try graph.attach(TestLatencyUnit.description)
        try graph.connect(late, 0, to: head, 0)
        try graph.setInputBlock(late, 0) { frames, buffers in
            for c in 0..<buffers.count { buffers.floatChannel(c)?.initialize(repeating: 1, count: Int(frames)) }
            return noErr
        }
        graph.latencyCompensation = false
        try graph.initialize()
        let out = AudioBufferStorage(format: .canonical(sampleRate: 44_100, channels: 2), capacity: 512)
        var cycles = 0
        XCTAssertThrowsError(
            try graph.profile(cycles: 2) {
                cycles += 1
                graph.latencyCompensation = true
                try graph.render(frames: 256, into: out)
            }
        ) { error in
            XCTAssertEqual((error as? AudioError)?.status, kAudioUnitErr_InvalidPropertyValue, "\(error)")
            XCTAssertTrue("\(error)".contains("keeps rendering with the timed schedule"), "\(error)")
        }
        XCTAssertEqual(cycles, 2, "the graph was measured before the schedule was compiled again")
        XCTAssertNoThrow(try graph.render(frames: 256, into: out))
        XCTAssertEqual(out.samples(channel: 0, frames: 256), [Float](repeating: 1, count: 256))
    }

    func testWithoutCompensationThePathsAreMisaligned() throws {
        let (f, input) = try latencyGraph(compensate: false)
        defer { withExtendedLifetime(input) {} }
        var seconds: Float64 = -1
        XCTAssertEqual(AUGraphGetLatency(f.graph!, &seconds), noErr)
        XCTAssertEqual(Int((seconds * 44_100).rounded()), 240, "the head still reports the longest path")
        var out: [Float] = []
        for _ in 0..<2 { XCTAssertEqual(f.pull(200), noErr); out += f.left(200) }
        for n in 0..<400 { XCTAssertEqual(out[n], Float(n) + (n < 240 ? 0 : Float(n - 240))) }
    }

    func testAttachingACallbackThreadSafelyTakesEffectAtUpdate() throws {
        // Listing 2-4: AUGraphSetNodeInputCallback, then AUGraphUpdate.
        let f = try GraphFixture()
        let first = Counter(), second = Counter()
        second.pointer.pointee = 10_000
        var cb = first.callback
        XCTAssertEqual(AUGraphSetNodeInputCallback(f.graph!, f.head, 0, &cb), noErr)
        XCTAssertEqual(AUGraphStart(f.graph!), noErr)
        XCTAssertEqual(f.pull(16), noErr)
        XCTAssertEqual(f.left(1), [0])
        var callbackStruct = second.callback
        XCTAssertEqual(AUGraphSetNodeInputCallback(f.graph!, f.head, 0, &callbackStruct), noErr)
        XCTAssertEqual(f.pull(16), noErr)
        XCTAssertEqual(f.left(1), [16], "not applied before AUGraphUpdate")
        var graphUpdated: UInt8 = 0
        XCTAssertEqual(AUGraphUpdate(f.graph!, &graphUpdated), noErr)
        XCTAssertEqual(graphUpdated, 1)
        XCTAssertEqual(f.pull(16), noErr)
        XCTAssertEqual(f.left(1), [10_000])
        XCTAssertEqual(AUGraphStop(f.graph!), noErr)
    }

    func testNodesAddedAndRemovedWhileRunningJoinAtUpdate() throws {
        let f = try GraphFixture()
        let input = Counter()
        let gain = try f.add(TestGainUnit.description)
        var cb = input.callback
        XCTAssertEqual(AUGraphSetNodeInputCallback(f.graph!, gain, 0, &cb), noErr)
        XCTAssertEqual(AUGraphConnectNodeInput(f.graph!, gain, 0, f.head, 0), noErr)
        XCTAssertEqual(AUGraphStart(f.graph!), noErr, lastMessage())
        XCTAssertEqual(f.pull(8), noErr)
        XCTAssertEqual(f.left(8), (0..<8).map(Float.init))

        let doubler = try f.add(TestGainUnit.description)
        XCTAssertEqual(AudioUnitSetParameter(f.unit(doubler), 0, kAudioUnitScope_Global, 0, 2, 0), noErr)
        XCTAssertEqual(AUGraphDisconnectNodeInput(f.graph!, f.head, 0), noErr)
        XCTAssertEqual(AUGraphConnectNodeInput(f.graph!, gain, 0, doubler, 0), noErr)
        XCTAssertEqual(AUGraphConnectNodeInput(f.graph!, doubler, 0, f.head, 0), noErr)
        XCTAssertEqual(AUGraphUpdate(f.graph!, nil), noErr, lastMessage())
        XCTAssertEqual(f.pull(8), noErr)
        XCTAssertEqual(f.left(8), (8..<16).map { 2 * Float($0) })

        XCTAssertEqual(AUGraphRemoveNode(f.graph!, doubler), noErr)
        XCTAssertEqual(AUGraphConnectNodeInput(f.graph!, gain, 0, f.head, 0), noErr)
        XCTAssertEqual(AUGraphUpdate(f.graph!, nil), noErr, lastMessage())
        XCTAssertEqual(f.pull(8), noErr)
        XCTAssertEqual(f.left(8), (16..<24).map(Float.init))
    }
}

import XCTest
import CAUHostAtomics
import Foundation
import TestSupport

/// A serial graph renders a chain of units that support AudioUnitProcessMultiple by calling it on
/// two alternating lists in dependency order (AudioGraph+ProcessRuns.swift). What a user relies
/// on: the samples are the pull's, and render notifications, scheduled parameter changes, bypass
/// and a source's silence mark keep their meaning.
final class GraphProcessRunTests: XCTestCase {
    override func setUp() {
        registerGraphTestUnits()
        ComponentRegistry.shared.register(
            Component(description: EntryCountingGain.description, name: "Tests: Entry-counting gain", version: 1) {
                EntryCountingGain($0)
            })
        ComponentRegistry.shared.register(
            Component(description: OffsetUnit.description, name: "Tests: Offset", version: 1) { OffsetUnit($0) })
    }

    /// Chains of odd and even length: the last unit writes into the consumer's buffers either way.
    func testAChainIsProcessedWithTheSamplesOfAPull() throws {
        for gains: [Float] in [[2], [2, 0.5], [2, 0.5, 3, 1.25, 4], [2, 0.5, 3, 1.25, 4, 0.75]] {
            let c = try GainChain(gains)
            for _ in 0..<4 { try c.pullAndCheck() }
            XCTAssertEqual(c.units.map(\.processCalls), Array(repeating: 4, count: gains.count))
            XCTAssertEqual(c.units.map(\.renderCalls), Array(repeating: 0, count: gains.count))
        }
    }

    /// ProcessMultiple calls no render notification: a unit that has one is rendered, and so are the units
    /// before it (it pulls them); those after it are still processed. Without it, Process again.
    func testAUnitWithARenderNotificationIsRenderedAndNotified() throws {
        let c = try GainChain([2, 0.5, 3, 1.25, 4, 0.75])
        let calls = UnsafeMutablePointer<Int>.allocate(capacity: 2)
        calls.initialize(repeating: 0, count: 2)
        defer { calls.deallocate() }
        let notify: AURenderCallback = { refCon, flags, _, _, _, _ in
            let calls = refCon.assumingMemoryBound(to: Int.self)
            if flags.pointee.contains(.unitRenderAction_PreRender) { calls[0] += 1 }
            if flags.pointee.contains(.unitRenderAction_PostRender) { calls[1] += 1 }
            return noErr
        }
        XCTAssertEqual(AudioUnitAddRenderNotify(c.fixture.unit(c.nodes[2]), notify, calls), noErr)
        for _ in 0..<3 { try c.pullAndCheck() }
        XCTAssertEqual([calls[0], calls[1]], [3, 3])
        XCTAssertEqual(c.units.map(\.renderCalls), [3, 3, 3, 0, 0, 0])
        XCTAssertEqual(c.units.map(\.processCalls), [0, 0, 0, 3, 3, 3])

        XCTAssertEqual(AudioUnitRemoveRenderNotify(c.fixture.unit(c.nodes[2]), notify, calls), noErr)
        try c.pullAndCheck()
        XCTAssertEqual(c.units.map(\.processCalls), [1, 1, 1, 4, 4, 4])
        XCTAssertEqual([calls[0], calls[1]], [3, 3])
    }

    /// A notification added to and removed from a mid-chain unit, again and again, while another
    /// thread pulls: the unit moves between ProcessMultiple and AudioUnitRender, every block keeps
    /// the chain's samples, and a removed notification is not called once removal returns.
    func testNotificationsComingAndGoingWhileTheChainRenders() throws {
        let c = try GainChain([2, 0.5, 3, 1.25])
        nonisolated(unsafe) let shared = UnsafeMutablePointer<UInt64>.allocate(capacity: 3)  // stop, wrong blocks, calls
        shared.initialize(repeating: 0, count: 3)
        defer { shared.deallocate() }
        let notify: AURenderCallback = { refCon, _, _, _, _, _ in
            _ = auhost_atomic_add_u64(refCon.assumingMemoryBound(to: UInt64.self), 1)
            return noErr
        }
        let done = DispatchSemaphore(value: 0)
        let puller = Thread {
            while auhost_atomic_load_u64(shared) == 0 {
                if !c.pullMatches() { _ = auhost_atomic_add_u64(shared + 1, 1) }
            }
            done.signal()
        }
        puller.start()
        let unit = c.fixture.unit(c.nodes[1])
        let end = Date().addingTimeInterval(0.5)
        var rounds = 0
        while Date() < end {
            XCTAssertEqual(AudioUnitAddRenderNotify(unit, notify, shared + 2), noErr)
            usleep(200)
            XCTAssertEqual(AudioUnitRemoveRenderNotify(unit, notify, shared + 2), noErr)
            usleep(200)
            rounds += 1
        }
        let callsAfterRemoval = auhost_atomic_load_u64(shared + 2)
        auhost_atomic_store_u64(shared, 1)
        done.wait()
        XCTAssertEqual(auhost_atomic_load_u64(shared + 1), 0, "blocks with wrong samples")
        XCTAssertEqual(auhost_atomic_load_u64(shared + 2), callsAfterRemoval, "called after its removal returned")
        XCTAssertGreaterThan(c.units[1].renderCalls, 0)
        XCTAssertGreaterThan(c.units[1].processCalls, 0)
        XCTAssertGreaterThan(rounds, 10)
    }

    func testABypassedUnitPassesItsInputOn() throws {
        let c = try GainChain([2, 0.5, 3])
        var on: UInt32 = 1
        let unit = c.fixture.unit(c.nodes[1])
        XCTAssertEqual(AudioUnitSetProperty(unit, kAudioUnitProperty_BypassEffect, kAudioUnitScope_Global, 0, &on, 4), noErr)
        XCTAssertEqual(c.fixture.pull(256), noErr)
        XCTAssertEqual(c.fixture.left(256), (0..<256).map { Float($0) * 2 * 3 })
        XCTAssertEqual(c.units.map(\.processCalls), [1, 1, 1])
    }

    func testAScheduledParameterChangeLandsOnItsFrame() throws {
        let c = try GainChain([2, 0.5, 3])
        var event = AudioUnitParameterEvent()
        event.scope = kAudioUnitScope_Global
        event.parameter = 0
        event.eventType = .parameterEvent_Immediate
        event.eventValues.immediate = .init(bufferOffset: 100, value: 5)
        XCTAssertEqual(AudioUnitScheduleParameters(c.fixture.unit(c.nodes[1]), &event, 1), noErr)
        XCTAssertEqual(c.fixture.pull(256), noErr)
        let left = c.fixture.left(256)
        for i in 0..<256 { XCTAssertEqual(left[i], Float(i) * 2 * (i < 100 ? 0.5 : 5) * 3, "frame \(i)") }
        XCTAssertEqual(c.units.map(\.processCalls), [1, 1, 1])
    }

    /// The chain's first unit gets its source's OutputIsSilence mark, as a pull gives it: silent
    /// input (this unit has no tail) comes out as silence, unprocessed; unmarked zeros are processed.
    func testTheSourcesSilenceMarkReachesTheFirstUnit() throws {
        for marked in [true, false] {
            let f = try GraphFixture()
            let offset = try f.add(OffsetUnit.description), gain = try f.add(EntryCountingGain.description)
            var source = AURenderCallbackStruct(inputProc: marked ? silentSource : zeroSource, inputProcRefCon: nil)
            XCTAssertEqual(AUGraphSetNodeInputCallback(f.graph!, offset, 0, &source), noErr)
            XCTAssertEqual(AUGraphConnectNodeInput(f.graph!, offset, 0, gain, 0), noErr)
            XCTAssertEqual(AUGraphConnectNodeInput(f.graph!, gain, 0, f.head, 0), noErr)
            XCTAssertEqual(AUGraphOpen(f.graph!), noErr)
            XCTAssertEqual(AudioUnitSetParameter(f.unit(gain), 0, kAudioUnitScope_Global, 0, 2, 0), noErr)
            XCTAssertEqual(AUGraphInitialize(f.graph!), noErr, lastMessage())
            XCTAssertEqual(f.pull(64), noErr)
            XCTAssertEqual(f.left(64), Array(repeating: marked ? 0 : 2, count: 64), marked ? "marked silent" : "unmarked zeros")
            let unit = try XCTUnwrap(ComponentInstance.from(f.unit(gain))?.unit as? EntryCountingGain)
            XCTAssertEqual(unit.processCalls, 1)
        }
    }

    /// A unit's silence mark reaches the unit after it, as a connection made with MakeConnection
    /// passes it (Apple's graph is made of those): silence through a gain, then the offset, which
    /// leaves marked silence alone and adds 1 to unmarked zeros. Processed as a run, and pulled
    /// (a render notification on the offset), alike.
    func testASilenceMarkPassesFromUnitToUnit() throws {
        for notified in [false, true] {
            let f = try GraphFixture()
            let gain = try f.add(EntryCountingGain.description), offset = try f.add(OffsetUnit.description)
            var source = AURenderCallbackStruct(inputProc: silentSource, inputProcRefCon: nil)
            XCTAssertEqual(AUGraphSetNodeInputCallback(f.graph!, gain, 0, &source), noErr)
            XCTAssertEqual(AUGraphConnectNodeInput(f.graph!, gain, 0, offset, 0), noErr)
            XCTAssertEqual(AUGraphConnectNodeInput(f.graph!, offset, 0, f.head, 0), noErr)
            XCTAssertEqual(AUGraphOpen(f.graph!), noErr)
            XCTAssertEqual(AUGraphInitialize(f.graph!), noErr, lastMessage())
            let notify: AURenderCallback = { _, _, _, _, _, _ in noErr }
            if notified { XCTAssertEqual(AudioUnitAddRenderNotify(f.unit(offset), notify, nil), noErr) }
            XCTAssertEqual(f.pull(64), noErr)
            XCTAssertEqual(f.left(64), Array(repeating: 0, count: 64), notified ? "pulled" : "processed as a run")
            let unit = try XCTUnwrap(ComponentInstance.from(f.unit(gain))?.unit as? EntryCountingGain)
            XCTAssertEqual([unit.processCalls, unit.renderCalls], notified ? [0, 1] : [1, 0])
        }
    }

    /// AudioUnitProcess and AudioUnitProcessMultiple read the input's silence mark from their
    /// flags and mark their output, as AudioUnitRender does for a pulled input (and Apple's
    /// AUEffectBase does for both).
    func testProcessTakesAndGivesTheSilenceMark() throws {
        var d = OffsetUnit.description
        var unit: AudioUnit?
        XCTAssertEqual(AudioComponentInstanceNew(try XCTUnwrap(AudioComponentFindNext(nil, &d)), &unit), noErr)
        defer { AudioComponentInstanceDispose(unit!) }
        XCTAssertEqual(AudioUnitInitialize(unit!), noErr)
        let input = AudioBufferStorage(format: .canonical(sampleRate: 44_100, channels: 2), capacity: 64)
        let output = AudioBufferStorage(format: .canonical(sampleRate: 44_100, channels: 2), capacity: 64)
        var timeStamp = AudioTimeStamp()
        timeStamp.mFlags = .sampleTimeValid
        for (marked, multiple) in [(true, false), (false, false), (true, true), (false, true)] {
            input.prepare(frames: 64)
            output.prepare(frames: 64)
            writeZeros(input.list, 64)
            if !multiple { writeZeros(output.list, 64) }
            var flags: AudioUnitRenderActionFlags = marked ? .unitRenderAction_OutputIsSilence : []
            if multiple {
                var inputs = [UnsafePointer(input.list)]
                var outputs = [output.list]
                XCTAssertEqual(AudioUnitProcessMultiple(unit!, &flags, &timeStamp, 64, 1, &inputs, 1, &outputs), noErr)
            } else {
                XCTAssertEqual(AudioUnitProcess(unit!, &flags, &timeStamp, 64, output.list), noErr)
            }
            XCTAssertEqual(output.samples(channel: 1, frames: 64), Array(repeating: marked ? 0 : 1, count: 64))
            XCTAssertEqual(flags.contains(.unitRenderAction_OutputIsSilence), marked)
            timeStamp.mSampleTime += 64
        }
    }
}

/// A chain of entry-counting gains fed by the ramp callback into the fixture's head.
private final class GainChain {
    let fixture: GraphFixture
    let gains: [Float]
    let nodes: [AUNode]
    let units: [EntryCountingGain]
    let input = Counter()
    private var frame = 0

    init(_ gains: [Float]) throws {
        fixture = try GraphFixture()
        self.gains = gains
        let f = fixture
        nodes = try gains.map { _ in try f.add(EntryCountingGain.description) }
        var source = input.callback
        XCTAssertEqual(AUGraphSetNodeInputCallback(f.graph!, nodes[0], 0, &source), noErr)
        for (from, to) in zip(nodes, nodes.dropFirst()) { XCTAssertEqual(AUGraphConnectNodeInput(f.graph!, from, 0, to, 0), noErr) }
        XCTAssertEqual(AUGraphConnectNodeInput(f.graph!, nodes.last!, 0, f.head, 0), noErr)
        XCTAssertEqual(AUGraphOpen(f.graph!), noErr)
        for (node, gain) in zip(nodes, gains) {
            XCTAssertEqual(AudioUnitSetParameter(f.unit(node), 0, kAudioUnitScope_Global, 0, gain, 0), noErr)
        }
        XCTAssertEqual(AUGraphInitialize(f.graph!), noErr, lastMessage())
        units = try nodes.map { try XCTUnwrap(ComponentInstance.from(f.unit($0))?.unit as? EntryCountingGain) }
    }

    /// Pulls 256 frames and checks both channels against the gains applied one after another.
    func pullAndCheck(file: StaticString = #filePath, line: UInt = #line) throws {
        XCTAssertTrue(pullMatches(), "the block from frame \(frame - 256)", file: file, line: line)
    }

    /// Pulls 256 frames; whether the pull succeeded and both channels are the gains applied in turn.
    func pullMatches() -> Bool {
        let status = fixture.pull(256)
        let matches = [fixture.left(256), fixture.right(256)].enumerated().allSatisfy { channel, samples in
            samples == (0..<256).map { i in gains.reduce(Float(frame + i + 1000 * channel)) { $0 * $1 } }
        }
        frame += 256
        return status == noErr && matches
    }
}

/// A gain (parameter 0) that counts how it was asked to render: AudioUnitRender or
/// AudioUnitProcessMultiple.
/// Identity 'aufx' 'tcnt' 'AUHt'.
final class EntryCountingGain: AUEffectBase {
    static let description = AudioComponentDescription(
        type: kAudioUnitType_Effect, subType: FourCC.code("tcnt")!, manufacturer: FourCC.code("AUHt")!)
    var renderCalls = 0
    var processCalls = 0

    init(_ description: AudioComponentDescription) {
        super.init(description: description, parameters: [ParameterDefinition(id: 0, name: "Gain", min: 0, max: 8, default: 1)])
    }

    override func renderBus(
        _ bus: UInt32, flags: UnsafeMutablePointer<AudioUnitRenderActionFlags>, timeStamp: UnsafePointer<AudioTimeStamp>,
        frames: UInt32, output: UnsafeMutablePointer<AudioBufferList>
    ) -> OSStatus {
        renderCalls += 1
        return super.renderBus(bus, flags: flags, timeStamp: timeStamp, frames: frames, output: output)
    }

    override func processMultiple(
        _ flags: UnsafeMutablePointer<AudioUnitRenderActionFlags>?, _ timeStamp: UnsafePointer<AudioTimeStamp>?,
        _ frames: UInt32, inputs: UnsafeBufferPointer<UnsafePointer<AudioBufferList>?>,
        outputs: UnsafeBufferPointer<UnsafeMutablePointer<AudioBufferList>?>
    ) -> OSStatus {
        processCalls += 1
        return super.processMultiple(flags, timeStamp, frames, inputs: inputs, outputs: outputs)
    }

    override func processChannel(_ channel: Int, input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>, frames: Int) {
        let gain = parameterValues[0]
        for i in 0..<frames { output[i] = input[i] * gain }
    }
}

/// Adds 1 to every sample (so processing silence is audible). Identity 'aufx' 'toff' 'AUHt'.
final class OffsetUnit: AUEffectBase {
    static let description = AudioComponentDescription(
        type: kAudioUnitType_Effect, subType: FourCC.code("toff")!, manufacturer: FourCC.code("AUHt")!)
    init(_ description: AudioComponentDescription) { super.init(description: description) }
    override func processChannel(_ channel: Int, input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>, frames: Int) {
        for i in 0..<frames { output[i] = input[i] + 1 }
    }
}

/// Zeros, marked OutputIsSilence.
private let silentSource: AURenderCallback = { _, flags, _, _, frames, ioData in
    writeZeros(ioData!, frames)
    flags.pointee.insert(.unitRenderAction_OutputIsSilence)
    return noErr
}

/// Zeros, not marked.
private let zeroSource: AURenderCallback = { _, _, _, _, frames, ioData in
    writeZeros(ioData!, frames)
    return noErr
}

private func writeZeros(_ list: UnsafeMutablePointer<AudioBufferList>, _ frames: UInt32) {
    for buffer in UnsafeMutableAudioBufferListPointer(list) {
        buffer.mData!.initializeMemory(as: UInt8.self, repeating: 0, count: Int(frames) * 4)
    }
}

import XCTest
import TestSupport

/// The hosting guide's design patterns, built with the AUGraph API and checked sample by sample.
/// The ramp callback writes frame number n (+1000 on the right channel).
final class DesignPatternTests: XCTestCase {
    func testPassThroughToAGenericOutputHead() throws {
        let f = try GraphFixture()
        let input = Counter()
        var cb = input.callback
        XCTAssertEqual(AUGraphSetNodeInputCallback(f.graph!, f.head, 0, &cb), noErr)
        XCTAssertEqual(AUGraphInitialize(f.graph!), noErr, lastMessage())
        XCTAssertEqual(f.pull(256), noErr)
        XCTAssertEqual(f.left(256), (0..<256).map(Float.init))
        XCTAssertEqual(f.right(256), (0..<256).map { Float($0 + 1000) })
    }

    func testInputThroughAMixerWithoutCallbacksInBetween() throws {
        let f = try GraphFixture()
        let mixer = try f.add(TestSumUnit.description)
        let input = Counter()
        var cb = input.callback
        XCTAssertEqual(AUGraphSetNodeInputCallback(f.graph!, mixer, 0, &cb), noErr)
        XCTAssertEqual(AUGraphConnectNodeInput(f.graph!, mixer, 0, f.head, 0), noErr)
        XCTAssertEqual(AUGraphInitialize(f.graph!), noErr, lastMessage())
        XCTAssertEqual(f.pull(128), noErr)
        XCTAssertEqual(f.left(128), (0..<128).map(Float.init), "bus 1 has no source: silence")
    }

    func testRenderCallbackBetweenInputAndOutput() throws {
        // Pattern 3: the application's callback feeds the head, pulling the "input" unit itself
        // with AudioUnitRender and processing what it gets (here: negating it).
        let f = try GraphFixture()
        let source = try f.add(TestGainUnit.description)
        let input = Counter()
        var sourceCallback = input.callback
        XCTAssertEqual(AUGraphSetNodeInputCallback(f.graph!, source, 0, &sourceCallback), noErr)
        final class Context { var unit: AudioUnit? }
        let context = Context()
        let middle: AURenderCallback = { refCon, flags, timeStamp, _, frames, ioData in
            let ctx = Unmanaged<Context>.fromOpaque(refCon).takeUnretainedValue()
            let status = AudioUnitRender(ctx.unit!, flags, timeStamp, 0, frames, ioData!)
            guard status == noErr else { return status }
            for buffer in UnsafeMutableAudioBufferListPointer(ioData!) {
                let samples = buffer.mData!.assumingMemoryBound(to: Float.self)
                for i in 0..<Int(frames) { samples[i] = -samples[i] }
            }
            return noErr
        }
        var headCallback = AURenderCallbackStruct(inputProc: middle, inputProcRefCon: Unmanaged.passUnretained(context).toOpaque())
        XCTAssertEqual(AUGraphSetNodeInputCallback(f.graph!, f.head, 0, &headCallback), noErr)
        XCTAssertEqual(AUGraphInitialize(f.graph!), noErr, lastMessage())
        context.unit = f.unit(source)
        XCTAssertEqual(f.pull(64), noErr)
        XCTAssertEqual(f.left(64), (0..<64).map { -Float($0) })
    }

    func testTwoSourcesOneThroughTheEQIntoAMixer() throws {
        // Figure 2-5: source A → EQ (a gain of 0.5 here) → mixer bus 0; source B → mixer bus 1.
        let f = try GraphFixture()
        let eq = try f.add(TestGainUnit.description)
        let mixer = try f.add(TestSumUnit.description)
        let a = Counter(), b = Counter()
        var cbA = a.callback, cbB = b.callback
        XCTAssertEqual(AUGraphSetNodeInputCallback(f.graph!, eq, 0, &cbA), noErr)
        XCTAssertEqual(AUGraphConnectNodeInput(f.graph!, eq, 0, mixer, 0), noErr)
        XCTAssertEqual(AUGraphSetNodeInputCallback(f.graph!, mixer, 1, &cbB), noErr)
        XCTAssertEqual(AUGraphConnectNodeInput(f.graph!, mixer, 0, f.head, 0), noErr)
        XCTAssertEqual(AUGraphOpen(f.graph!), noErr)
        XCTAssertEqual(AudioUnitSetParameter(f.unit(eq), 0, kAudioUnitScope_Global, 0, 0.5, 0), noErr)
        XCTAssertEqual(AUGraphInitialize(f.graph!), noErr, lastMessage())
        for block in 0..<3 {
            XCTAssertEqual(f.pull(100), noErr)
            XCTAssertEqual(f.left(100), (0..<100).map { Float(block * 100 + $0) * 1.5 })
            XCTAssertEqual(f.right(100), (0..<100).map { Float(block * 100 + $0 + 1000) * 1.5 })
        }
    }

    func testOneOutputFeedsSeveralInputsAndRendersOncePerCycle() throws {
        let f = try GraphFixture()
        let source = try f.add(TestGainUnit.description)
        let left = try f.add(TestGainUnit.description), right = try f.add(TestGainUnit.description)
        let mixer = try f.add(TestSumUnit.description)
        let input = Counter()
        var cb = input.callback
        XCTAssertEqual(AUGraphSetNodeInputCallback(f.graph!, source, 0, &cb), noErr)
        XCTAssertEqual(AUGraphConnectNodeInput(f.graph!, source, 0, left, 0), noErr)
        XCTAssertEqual(AUGraphConnectNodeInput(f.graph!, source, 0, right, 0), noErr, "fan-out needs no splitter")
        XCTAssertEqual(AUGraphConnectNodeInput(f.graph!, left, 0, mixer, 0), noErr)
        XCTAssertEqual(AUGraphConnectNodeInput(f.graph!, right, 0, mixer, 1), noErr)
        XCTAssertEqual(AUGraphConnectNodeInput(f.graph!, mixer, 0, f.head, 0), noErr)
        XCTAssertEqual(AUGraphOpen(f.graph!), noErr)
        XCTAssertEqual(AudioUnitSetParameter(f.unit(left), 0, kAudioUnitScope_Global, 0, 2, 0), noErr)
        XCTAssertEqual(AudioUnitSetParameter(f.unit(right), 0, kAudioUnitScope_Global, 0, 3, 0), noErr)
        XCTAssertEqual(AUGraphInitialize(f.graph!), noErr, lastMessage())
        XCTAssertEqual(f.pull(64), noErr)
        XCTAssertEqual(input.value, 64, "the shared source rendered once")
        XCTAssertEqual(f.left(64), (0..<64).map { Float($0) * 5 })
        XCTAssertEqual(f.pull(64), noErr)
        XCTAssertEqual(input.value, 128)
    }

    func testAGraphWithAGenericOutputHeadFeedsAnotherGraph() throws {
        // Core Audio Essentials figure 2-6: a sub-graph rendered from a node input of the outer graph.
        let inner = try GraphFixture()
        let input = Counter()
        var cb = input.callback
        XCTAssertEqual(AUGraphSetNodeInputCallback(inner.graph!, inner.head, 0, &cb), noErr)
        XCTAssertEqual(AUGraphInitialize(inner.graph!), noErr)
        let outer = try GraphFixture()
        let gain = try outer.add(TestGainUnit.description)
        let pullInner: AURenderCallback = { refCon, flags, timeStamp, _, frames, ioData in
            AudioUnitRender(OpaquePointer(refCon), flags, timeStamp, 0, frames, ioData!)
        }
        var sub = AURenderCallbackStruct(inputProc: pullInner, inputProcRefCon: UnsafeMutableRawPointer(inner.unit(inner.head)))
        XCTAssertEqual(AUGraphSetNodeInputCallback(outer.graph!, gain, 0, &sub), noErr)
        XCTAssertEqual(AUGraphConnectNodeInput(outer.graph!, gain, 0, outer.head, 0), noErr)
        XCTAssertEqual(AUGraphOpen(outer.graph!), noErr)
        XCTAssertEqual(AudioUnitSetParameter(outer.unit(gain), 0, kAudioUnitScope_Global, 0, 0.25, 0), noErr)
        XCTAssertEqual(AUGraphInitialize(outer.graph!), noErr, lastMessage())
        XCTAssertEqual(outer.pull(32), noErr)
        XCTAssertEqual(outer.left(32), (0..<32).map { Float($0) * 0.25 })
    }
}

/// The Swift API drives the same graph.
final class SwiftGraphAPITests: XCTestCase {
    func testAttachConnectInputBlockAndOfflineRender() throws {
        registerGraphTestUnits()
        let graph = AudioGraph()
        let head = try graph.attach(AudioComponentDescription(type: kAudioUnitType_Output, subType: kAudioUnitSubType_GenericOutput))
        let gain = try graph.attach(TestGainUnit.description)
        try graph.connect(gain, 0, to: head, 0)
        var next: Float = 0
        try graph.setInputBlock(gain, 0) { frames, buffers in
            for c in 0..<buffers.count {
                for i in 0..<Int(frames) { buffers.floatChannel(c)![i] = next + Float(i) }
            }
            next += Float(frames)
            return noErr
        }
        try graph.open()
        XCTAssertEqual(AudioUnitSetParameter(try graph.unit(gain)!, 0, kAudioUnitScope_Global, 0, 3, 0), noErr)
        try graph.initialize()
        let out = AudioBufferStorage(format: .canonical(sampleRate: 44_100, channels: 2), capacity: 128)
        try graph.render(frames: 128, into: out)
        try graph.render(frames: 128, into: out)
        XCTAssertEqual(out.samples(channel: 1, frames: 128), (128..<256).map { 3 * Float($0) })
        XCTAssertThrowsError(try graph.connect(gain, 0, to: gain, 0)) { error in
            XCTAssertEqual((error as? AudioError)?.status, kAUGraphErr_InvalidConnection)
        }
        try graph.detach(gain)
        XCTAssertEqual(graph.nodeIDs, [head])
    }
}

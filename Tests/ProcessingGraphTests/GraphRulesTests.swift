import XCTest
import TestSupport

/// The rules users hit with AUGraph: refused with the documented code and a sentence that helps.
final class GraphRulesTests: XCTestCase {
    func testASecondOutputUnitIsRefused() throws {
        let f = try GraphFixture()
        var desc = AudioComponentDescription(type: kAudioUnitType_Output, subType: kAudioUnitSubType_GenericOutput)
        var node: AUNode = 0
        XCTAssertEqual(AUGraphAddNode(f.graph!, &desc, &node), kAUGraphErr_OutputNodeErr)
        XCTAssertTrue(lastMessage().contains("exactly one I/O head"), lastMessage())
    }

    func testACycleIsRefusedNamingTheNodes() throws {
        let f = try GraphFixture()
        let a = try f.add(TestGainUnit.description), b = try f.add(TestGainUnit.description)
        XCTAssertEqual(AUGraphConnectNodeInput(f.graph!, a, 0, b, 0), noErr)
        XCTAssertEqual(AUGraphConnectNodeInput(f.graph!, b, 0, a, 0), kAUGraphErr_InvalidConnection)
        XCTAssertTrue(
            lastMessage().contains("cycle") && lastMessage().contains("node \(a)") && lastMessage().contains("node \(b)"), lastMessage())
        XCTAssertEqual(AUGraphConnectNodeInput(f.graph!, a, 0, a, 0), kAUGraphErr_InvalidConnection)
    }

    func testTwoSourcesIntoOneBusPointAtTheMixer() throws {
        let f = try GraphFixture()
        let a = try f.add(TestGainUnit.description), b = try f.add(TestGainUnit.description), c = try f.add(TestGainUnit.description)
        XCTAssertEqual(AUGraphConnectNodeInput(f.graph!, a, 0, c, 0), noErr)
        XCTAssertEqual(AUGraphConnectNodeInput(f.graph!, b, 0, c, 0), kAUGraphErr_InvalidConnection)
        XCTAssertTrue(lastMessage().contains("mixer"), lastMessage())
    }

    func testUnknownNodesAndBuses() throws {
        let f = try GraphFixture()
        XCTAssertEqual(AUGraphConnectNodeInput(f.graph!, 99, 0, f.head, 0), kAUGraphErr_NodeNotFound)
        XCTAssertEqual(AUGraphRemoveNode(f.graph!, 99), kAUGraphErr_NodeNotFound)
        XCTAssertEqual(AUGraphOpen(f.graph!), noErr)
        let g = try f.add(TestGainUnit.description)
        XCTAssertEqual(AUGraphConnectNodeInput(f.graph!, g, 3, f.head, 0), kAudioUnitErr_InvalidElement)
        var missing = AudioComponentDescription(type: kAudioUnitType_Effect, subType: FourCC.code("none")!)
        var node: AUNode = 0
        XCTAssertEqual(AUGraphAddNode(f.graph!, &missing, &node), kAUGraphErr_InvalidAudioUnit)
        XCTAssertEqual(_AUGraphInitialize(nil), kAudio_ParamError)  // the C entry point, as a C caller passing NULL reaches it
    }

    func testAFormatMismatchNamesBothEndsAndBothFormats() throws {
        let f = try GraphFixture()
        let a = try f.add(TestGainUnit.description), b = try f.add(TestGainUnit.description)
        let input = Counter()
        var cb = input.callback
        XCTAssertEqual(AUGraphSetNodeInputCallback(f.graph!, a, 0, &cb), noErr)
        XCTAssertEqual(AUGraphConnectNodeInput(f.graph!, a, 0, b, 0), noErr)
        XCTAssertEqual(AUGraphConnectNodeInput(f.graph!, b, 0, f.head, 0), noErr)
        XCTAssertEqual(AUGraphOpen(f.graph!), noErr)
        // b is initialized by hand in another format: the graph cannot change it.
        var mono = AudioStreamBasicDescription.canonical(sampleRate: 44_100, channels: 1)
        let size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
        XCTAssertEqual(AudioUnitSetProperty(f.unit(b), kAudioUnitProperty_StreamFormat, kAudioUnitScope_Input, 0, &mono, size), noErr)
        XCTAssertEqual(AudioUnitSetProperty(f.unit(b), kAudioUnitProperty_StreamFormat, kAudioUnitScope_Output, 0, &mono, size), noErr)
        XCTAssertEqual(AudioUnitInitialize(f.unit(b)), noErr)
        XCTAssertEqual(AUGraphInitialize(f.graph!), kAudioUnitErr_FormatNotSupported)
        let message = lastMessage()
        XCTAssertTrue(message.contains("node \(a)") && message.contains("node \(b)"), message)
        XCTAssertTrue(message.contains("2 ch") && message.contains("1 ch"), message)
    }

    func testInteractionsAreListedPerGraphAndPerNode() throws {
        let f = try GraphFixture()
        let a = try f.add(TestGainUnit.description)
        let input = Counter()
        var cb = input.callback
        XCTAssertEqual(AUGraphSetNodeInputCallback(f.graph!, a, 0, &cb), noErr)
        XCTAssertEqual(AUGraphConnectNodeInput(f.graph!, a, 0, f.head, 0), noErr)
        var count: UInt32 = 0
        XCTAssertEqual(AUGraphGetNumberOfInteractions(f.graph!, &count), noErr)
        XCTAssertEqual(count, 2)
        var info = AUNodeInteraction()
        XCTAssertEqual(AUGraphGetInteractionInfo(f.graph!, 1, &info), noErr)
        XCTAssertEqual(info.nodeInteractionType, kAUNodeInteraction_Connection)
        XCTAssertEqual(info.nodeInteraction.connection.sourceNode, a)
        XCTAssertEqual(AUGraphCountNodeInteractions(f.graph!, f.head, &count), noErr)
        XCTAssertEqual(count, 1)
        var list = [AUNodeInteraction](repeating: AUNodeInteraction(), count: 4)
        count = 4
        XCTAssertEqual(AUGraphGetNodeInteractions(f.graph!, a, &count, &list), noErr)
        XCTAssertEqual(count, 2)
        XCTAssertEqual(list[0].nodeInteractionType, kAUNodeInteraction_InputCallback)
        XCTAssertEqual(AUGraphDisconnectNodeInput(f.graph!, f.head, 0), noErr)
        XCTAssertEqual(AUGraphGetNumberOfInteractions(f.graph!, &count), noErr)
        XCTAssertEqual(count, 1)
        var nodes: UInt32 = 0
        XCTAssertEqual(AUGraphGetNodeCount(f.graph!, &nodes), noErr)
        XCTAssertEqual(nodes, 2)
        var second: AUNode = 0
        XCTAssertEqual(AUGraphGetIndNode(f.graph!, 1, &second), noErr)
        XCTAssertEqual(second, a)
    }

    func testLifecycleFlagsStartStopCPULoadAndCAShow() throws {
        let f = try GraphFixture()
        let input = Counter()
        var cb = input.callback
        XCTAssertEqual(AUGraphSetNodeInputCallback(f.graph!, f.head, 0, &cb), noErr)
        var flag: UInt8 = 9
        XCTAssertEqual(AUGraphIsOpen(f.graph!, &flag), noErr); XCTAssertEqual(flag, 0)
        XCTAssertEqual(AUGraphStart(f.graph!), noErr, lastMessage())
        XCTAssertEqual(AUGraphIsInitialized(f.graph!, &flag), noErr); XCTAssertEqual(flag, 1)
        XCTAssertEqual(AUGraphIsRunning(f.graph!, &flag), noErr); XCTAssertEqual(flag, 1)
        XCTAssertEqual(f.pull(512), noErr)
        var load: Float32 = -1
        XCTAssertEqual(AUGraphGetCPULoad(f.graph!, &load), noErr)
        XCTAssertGreaterThan(load, 0)
        XCTAssertEqual(AUGraphGetMaxCPULoad(f.graph!, &load), noErr)
        XCTAssertGreaterThan(load, 0)
        XCTAssertEqual(AUGraphStop(f.graph!), noErr)
        XCTAssertEqual(AUGraphIsRunning(f.graph!, &flag), noErr); XCTAssertEqual(flag, 0)
        let path = NSTemporaryDirectory() + "graph-show-\(getpid()).txt"
        let file = fopen(path, "w")
        CAShowFile(UnsafeMutableRawPointer(f.graph!), file!)
        fclose(file)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        XCTAssertTrue(text.contains("callback => node \(f.head) bus 0") && text.contains("Initialized"), text)
        unlink(path)
    }

    func testRenderNotifiesOnTheGraphRunAroundTheHead() throws {
        let f = try GraphFixture()
        let input = Counter()
        var cb = input.callback
        XCTAssertEqual(AUGraphSetNodeInputCallback(f.graph!, f.head, 0, &cb), noErr)
        let log = UnsafeMutablePointer<UInt32>.allocate(capacity: 4)
        log.initialize(repeating: 0, count: 4)
        defer { log.deallocate() }
        let notify: AURenderCallback = { refCon, flags, _, _, _, _ in
            let l = refCon.assumingMemoryBound(to: UInt32.self)
            if flags.pointee.contains(.unitRenderAction_PreRender) { l[0] += 1 }
            if flags.pointee.contains(.unitRenderAction_PostRender) { l[1] += 1 }
            return noErr
        }
        XCTAssertEqual(AUGraphAddRenderNotify(f.graph!, notify, log), noErr)
        XCTAssertEqual(AUGraphInitialize(f.graph!), noErr)
        f.pull(32); f.pull(32)
        XCTAssertEqual([log[0], log[1]], [2, 2])
        XCTAssertEqual(AUGraphRemoveRenderNotify(f.graph!, notify, log), noErr)
        f.pull(32)
        XCTAssertEqual(log[0], 2)
    }

    func testDisposedGraphHandleIsRefused() throws {
        var graph: AUGraph?
        XCTAssertEqual(NewAUGraph(&graph), noErr)
        XCTAssertEqual(DisposeAUGraph(graph!), noErr)
        XCTAssertEqual(AUGraphOpen(graph!), kAUGraphErr_InvalidAudioUnit)
    }
}

/// An I/O unit's input (output bus 1) feeding a mixer that feeds the same I/O unit's output is the
/// hosting guide's pattern 2, not a cycle.
final class IOUnitBusesTests: XCTestCase {
    func testInputThroughAMixerBackToTheSameIOUnitIsNotACycle() throws {
        let f = try GraphFixture()
        let mixer = try f.add(TestSumUnit.description)
        XCTAssertEqual(AUGraphConnectNodeInput(f.graph!, f.head, 1, mixer, 0), noErr, lastMessage())
        XCTAssertEqual(AUGraphConnectNodeInput(f.graph!, mixer, 0, f.head, 0), noErr, lastMessage())
        XCTAssertEqual(
            AUGraphConnectNodeInput(f.graph!, f.head, 0, mixer, 1), kAUGraphErr_InvalidConnection,
            "output bus 0 does depend on the head's input")
    }
}

import XCTest
import TestSupport

/// A graph under test with a generic output head, pulled the way an offline application pulls it.
final class GraphFixture {
    var graph: AUGraph?
    var head: AUNode = 0
    let output = AudioBufferStorage(format: .canonical(sampleRate: 44_100, channels: 2), capacity: 4096)
    var timeStamp = AudioTimeStamp()

    init() throws {
        registerGraphTestUnits()
        try AudioError.check(NewAUGraph(&graph), "NewAUGraph")
        var desc = AudioComponentDescription(
            componentType: kAudioUnitType_Output, componentSubType: kAudioUnitSubType_GenericOutput,
            componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0)
        try AudioError.check(AUGraphAddNode(graph!, &desc, &head), "add head")
        timeStamp.mFlags = .sampleTimeValid
    }

    deinit { DisposeAUGraph(graph!) }

    func add(_ description: AudioComponentDescription) throws -> AUNode {
        var d = description
        var node: AUNode = 0
        try AudioError.check(AUGraphAddNode(graph!, &d, &node), lastMessage())
        return node
    }

    func unit(_ node: AUNode) -> AudioUnit {
        var unit: AudioUnit?
        AUGraphNodeInfo(graph!, node, nil, &unit)
        return unit!
    }

    /// Pulls `frames` frames from the head, as an offline application does.
    @discardableResult
    func pull(_ frames: UInt32) -> OSStatus {
        output.prepare(frames: frames)
        var flags: AudioUnitRenderActionFlags = []
        let status = AudioUnitRender(unit(head), &flags, &timeStamp, 0, frames, output.list)
        timeStamp.mSampleTime += Double(frames)
        return status
    }

    func left(_ frames: Int) -> [Float] { output.samples(channel: 0, frames: frames) }
    func right(_ frames: Int) -> [Float] { output.samples(channel: 1, frames: frames) }
}

func lastMessage() -> String { String(cfString: AUHostCopyLastErrorMessage()?.takeRetainedValue()) ?? "" }

/// A counter the ramp callback advances; heap memory because the graph keeps the pointer.
final class Counter {
    let pointer = UnsafeMutablePointer<Int>.allocate(capacity: 1)
    init() { pointer.initialize(to: 0) }
    deinit { pointer.deallocate() }
    var value: Int { pointer.pointee }
    var callback: AURenderCallbackStruct { AURenderCallbackStruct(inputProc: rampCallback, inputProcRefCon: pointer) }
}

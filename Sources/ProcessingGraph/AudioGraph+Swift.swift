import AUHostCore
import Foundation

// The Swift face of a graph: the same object the C API drives, with throwing calls, node units,
// Swift input blocks and offline rendering.
//
// ```swift
// let graph = AudioGraph()
// let head = try graph.attach(AudioComponentDescription(type: kAudioUnitType_Output, subType: kAudioUnitSubType_GenericOutput))
// let delay = try graph.attach(AudioComponentDescription(type: kAudioUnitType_Effect, subType: kAudioUnitSubType_Delay))
// try graph.connect(delay, 0, to: head, 0)
// try graph.setInputBlock(delay, 0) { frames, buffers in /* fill */ noErr }
// try graph.initialize()
// let out = AudioBufferStorage(format: .canonical(sampleRate: 44_100, channels: 2), capacity: 512)
// try graph.render(frames: 512, into: out)
// ```

extension AudioGraph {
    /// The unit of a node (nil until the graph is open).
    ///
    /// Thread: setup.
    public func unit(_ node: AUNode) throws -> AudioUnit? { try info(node).unit }

    /// Feeds an input bus from a Swift closure. The closure runs on the render thread and is called
    /// through its context, which Swift reference-counts: use it for offline rendering and tools;
    /// real-time code should pass an AURenderCallback to ``setInputCallback(_:_:_:)``.
    ///
    /// Thread: setup.
    public func setInputBlock(
        _ node: AUNode, _ input: UInt32,
        _ block: @escaping (_ frames: UInt32, _ buffers: UnsafeMutableAudioBufferListPointer) -> OSStatus
    ) throws {
        let box = InputBlockBox(block)
        lock.lock()
        inputBlocks[BusKey(node: node, bus: input)] = box
        lock.unlock()
        try setInputCallback(
            node, input,
            AURenderCallbackStruct(
                inputProc: inputBlockCallback,
                inputProcRefCon: Unmanaged.passUnretained(box).toOpaque()))
    }

    /// Pulls `frames` frames through the head into `buffers` (offline rendering), advancing the
    /// graph's own time stamp.
    ///
    /// Thread: render (the application's rendering thread).
    public func render(frames: UInt32, into buffers: AudioBufferStorage) throws {
        // The head the graph notifies is known once initialized: no search (and no allocation) per call.
        guard let head = notifiedHead ?? head?.unit else {
            throw AudioError(kAUGraphErr_OutputNodeErr, "The graph has no output unit to render through.")
        }
        buffers.prepare(frames: frames)
        var flags: AudioUnitRenderActionFlags = []
        var timeStamp = AudioTimeStamp()
        timeStamp.mFlags = .sampleTimeValid
        timeStamp.mSampleTime = renderedFrames
        try AudioError.check(
            AudioUnitRender(head, &flags, &timeStamp, 0, frames, buffers.list),
            LastErrorMessage.current ?? "The graph failed to render \(frames) frames.")
        renderedFrames += Double(frames)
    }
}

/// A Swift input block, kept alive by the graph.
final class InputBlockBox {
    let block: (UInt32, UnsafeMutableAudioBufferListPointer) -> OSStatus
    init(_ block: @escaping (UInt32, UnsafeMutableAudioBufferListPointer) -> OSStatus) { self.block = block }
}

let inputBlockCallback: AURenderCallback = { refCon, _, _, _, frames, ioData in
    guard let ioData else { return kAudio_ParamError }
    return Unmanaged<InputBlockBox>.fromOpaque(refCon)._withUnsafeGuaranteedRef {
        $0.block(frames, UnsafeMutableAudioBufferListPointer(ioData))
    }
}

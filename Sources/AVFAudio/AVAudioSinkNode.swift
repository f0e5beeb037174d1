import AudioToolbox
import Foundation

/// The block a sink node calls with each cycle's input: its time, frame count and buffers (valid
/// only during the call).
public typealias AVAudioSinkNodeReceiverBlock = (UnsafePointer<AudioTimeStamp>, AVAudioFrameCount, UnsafePointer<AudioBufferList>) ->
    OSStatus

/// A node that hands what is connected into it to a block (Apple's AVAudioSinkNode). The engine
/// pulls every attached sink once per cycle, before the output (the head's pre-render
/// notification), so a source it shares with the output renders once. Here it works in manual
/// rendering too (Apple's works only on the device; docs/PORTING.md).
///
/// Thread: setup; the block runs on the render thread.
public final class AVAudioSinkNode: AVAudioNode {
    let sink: SinkState

    /// Thread: setup.
    public init(receiverBlock block: @escaping AVAudioSinkNodeReceiverBlock) {
        let unit = try! makeUnit(AVAudioPlayerNode.converter)  // built in: always there
        sink = SinkState(unit: unit, block: block)
        super.init(unit: unit)
    }

    /// The sink's output follows its input (it converts nothing).
    override func setInputFormat(_ format: AVAudioFormat, bus: AVAudioNodeBus) throws {
        try setStreamFormat(unit, kAudioUnitScope_Input, bus, format, "The sink node")
        try setStreamFormat(unit, kAudioUnitScope_Output, bus, format, "The sink node")
    }

    /// Starts being pulled by `head` (buffers for `maximumFrames` frames of the input format).
    func attachPull(to head: AudioUnit, maximumFrames: AVAudioFrameCount) throws {
        try sink.prepare(format: inputFormat(forBus: 0), maximumFrames: maximumFrames)
        try checkStatus(
            AudioUnitAddRenderNotify(head, sinkPullNotify, Unmanaged.passUnretained(sink).toOpaque()), "The output refused the sink's pull")
        sink.head = head
    }

    /// Stops being pulled; when this returns the block is not running.
    func detachPull() {
        guard let head = sink.head else { return }
        AudioUnitRemoveRenderNotify(head, sinkPullNotify, Unmanaged.passUnretained(sink).toOpaque())
        sink.head = nil
    }
}

/// A sink's render-side state: its unit, buffers for a cycle, the block.
final class SinkState {
    let unit: AudioUnit
    let block: AVAudioSinkNodeReceiverBlock
    var head: AudioUnit?
    private(set) var list: UnsafeMutableAudioBufferListPointer?
    private var storage: UnsafeMutablePointer<Float>?
    var maximumFrames: UInt32 = 0

    init(unit: AudioUnit, block: @escaping AVAudioSinkNodeReceiverBlock) {
        self.unit = unit
        self.block = block
    }

    deinit {
        storage?.deallocate()
        if let list { free(list.unsafeMutablePointer) }
    }

    /// Thread: setup (while not pulled).
    func prepare(format: AVAudioFormat, maximumFrames frames: AVAudioFrameCount) throws {
        guard format.isStandard else {
            throw osStatusError(kAudioUnitErr_FormatNotSupported, "A sink node takes the standard format, not \(format)")
        }
        storage?.deallocate()
        if let list { free(list.unsafeMutablePointer) }
        let channels = Int(format.channelCount)
        maximumFrames = frames
        let memory = UnsafeMutablePointer<Float>.allocate(capacity: channels * Int(frames))
        let l = AudioBufferList.allocate(maximumBuffers: channels)
        for c in 0..<channels { l[c] = AudioBuffer(mNumberChannels: 1, mDataByteSize: 0, mData: memory + c * Int(frames)) }
        storage = memory
        list = l
    }
}

/// The head's pre-render notification: renders the sink's unit for this cycle and hands the
/// result to the block. No allocation, no lock, no reference count.
///
/// Thread: render.
let sinkPullNotify: AURenderCallback = { refCon, flags, timeStamp, bus, frames, _ in
    guard flags.pointee.contains(.unitRenderAction_PreRender), bus == 0 else { return noErr }
    return Unmanaged<SinkState>.fromOpaque(refCon)._withUnsafeGuaranteedRef { sink -> OSStatus in
        guard let list = sink.list, frames <= sink.maximumFrames else { return noErr }
        for b in 0..<list.count { list[b].mDataByteSize = frames * 4 }
        var renderFlags: AudioUnitRenderActionFlags = []
        let status = AudioUnitRender(sink.unit, &renderFlags, timeStamp, 0, frames, list.unsafeMutablePointer)
        guard status == noErr else { return noErr }  // the sink's failure is not the output's
        _ = sink.block(timeStamp, frames, UnsafePointer(list.unsafeMutablePointer))
        return noErr
    }
}

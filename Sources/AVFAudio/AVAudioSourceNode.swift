import AudioToolbox
import Foundation

/// The block a source node calls for each render: set the Bool to true when the output is
/// silence; fill the buffer list's `frameCount` frames; return noErr or a status.
public typealias AVAudioSourceNodeRenderBlock = (
    _ isSilence: UnsafeMutablePointer<ObjCBool>, _ timestamp: UnsafePointer<AudioTimeStamp>, _ frameCount: AVAudioFrameCount,
    _ outputData: UnsafeMutablePointer<AudioBufferList>
) -> OSStatus

/// A node whose output the application renders in a block (Apple's AVAudioSourceNode). Its unit
/// is a format converter whose input is the block, in the block's format (the connection's when
/// none is given), converted to the output's.
///
/// Thread: setup; the block runs on the render thread.
public final class AVAudioSourceNode: AVAudioNode, AVAudioMixing {
    private let box: SourceBlockBox
    private let fixedFormat: AVAudioFormat?

    /// A source whose block renders in the output format of the connection made from it.
    ///
    /// Thread: setup.
    public convenience init(renderBlock block: @escaping AVAudioSourceNodeRenderBlock) {
        self.init(format: nil, block)
    }

    /// A source whose block renders in `format` (the node converts to its output format).
    ///
    /// Thread: setup.
    public convenience init(format: AVAudioFormat, renderBlock block: @escaping AVAudioSourceNodeRenderBlock) {
        self.init(format: format, block)
    }

    private init(format: AVAudioFormat?, _ block: @escaping AVAudioSourceNodeRenderBlock) {
        box = SourceBlockBox(block)
        fixedFormat = format
        super.init(unit: try! makeUnit(AVAudioPlayerNode.converter))  // built in: always there
        if let format {
            try? setStreamFormat(unit, kAudioUnitScope_Input, 0, format, "The source node")
            try? setStreamFormat(unit, kAudioUnitScope_Output, 0, format, "The source node")
        }
        var callback = AURenderCallbackStruct(
            inputProc: sourceNodeRenderCallback, inputProcRefCon: Unmanaged.passUnretained(box).toOpaque())
        AudioUnitSetProperty(
            unit, kAudioUnitProperty_SetRenderCallback, kAudioUnitScope_Input, 0, &callback,
            UInt32(MemoryLayout<AURenderCallbackStruct>.size))
    }

    deinit {
        var none = AURenderCallbackStruct(inputProc: nil, inputProcRefCon: nil)
        AudioUnitSetProperty(
            unit, kAudioUnitProperty_SetRenderCallback, kAudioUnitScope_Input, 0, &none, UInt32(MemoryLayout<AURenderCallbackStruct>.size))
    }

    /// Without a format of its own, the block renders in the connection's format.
    override func setOutputFormat(_ format: AVAudioFormat, bus: AVAudioNodeBus) throws {
        if fixedFormat == nil { try setStreamFormat(unit, kAudioUnitScope_Input, 0, format, "The source node") }
        try setStreamFormat(unit, kAudioUnitScope_Output, bus, format, "The source node")
    }

}

/// The block, kept by the node; the render callback reaches it unretained.
final class SourceBlockBox {
    let block: AVAudioSourceNodeRenderBlock
    init(_ block: @escaping AVAudioSourceNodeRenderBlock) { self.block = block }
}

/// The converter's input callback: calls the application's block (whose own code is the
/// application's to keep real-time safe).
///
/// Thread: render.
let sourceNodeRenderCallback: AURenderCallback = { refCon, flags, timeStamp, _, frames, ioData in
    guard let ioData else { return kAudio_ParamError }
    var silence = ObjCBool(false)
    let status = Unmanaged<SourceBlockBox>.fromOpaque(refCon)._withUnsafeGuaranteedRef { $0.block(&silence, timeStamp, frames, ioData) }
    if silence.boolValue { flags.pointee.insert(.unitRenderAction_OutputIsSilence) }
    return status
}

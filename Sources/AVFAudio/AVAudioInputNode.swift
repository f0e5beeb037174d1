import AudioToolbox
import Foundation

/// Supplies `frameCount` frames of input in manual rendering mode (nil: no data now, silence).
public typealias AVAudioIONodeInputBlock = (AVAudioFrameCount) -> UnsafePointer<AudioBufferList>?

/// The engine's input (Apple's AVAudioInputNode). Its unit is a format converter whose input is
/// the device's capture (element 1 of the output node's ALSA I/O unit, full duplex) or, in manual
/// rendering mode, the input block, converted from that format to the node's output.
///
/// Thread: setup; the block runs on the render thread.
public final class AVAudioInputNode: AVAudioIONode, AVAudioMixing {
    private let box = InputBlockState()

    init() {
        super.init(unit: try! makeUnit(AVAudioPlayerNode.converter))  // built in: always there
        var callback = AURenderCallbackStruct(inputProc: inputNodeRenderCallback, inputProcRefCon: Unmanaged.passUnretained(box).toOpaque())
        AudioUnitSetProperty(
            unit, kAudioUnitProperty_SetRenderCallback, kAudioUnitScope_Input, 0, &callback,
            UInt32(MemoryLayout<AURenderCallbackStruct>.size))
    }

    deinit {
        var none = AURenderCallbackStruct(inputProc: nil, inputProcRefCon: nil)
        AudioUnitSetProperty(
            unit, kAudioUnitProperty_SetRenderCallback, kAudioUnitScope_Input, 0, &none, UInt32(MemoryLayout<AURenderCallbackStruct>.size))
    }

    /// The block the engine calls for input in manual rendering mode, supplying `format`. False
    /// when the format cannot be taken (not PCM) or the engine is running.
    ///
    /// Thread: setup (while the engine is stopped).
    public func setManualRenderingInputPCMFormat(_ format: AVAudioFormat, inputBlock block: @escaping AVAudioIONodeInputBlock) -> Bool {
        guard engine?.isRunning != true, format.streamDescription.pointee.mFormatID == kAudioFormatLinearPCM else { return false }
        if (try? setStreamFormat(unit, kAudioUnitScope_Input, 0, format, "The input node")) == nil { return false }
        box.block = block
        box.bytesPerFrame = format.streamDescription.pointee.mBytesPerFrame
        return true
    }

    /// Takes input from `output`'s device when it is the ALSA I/O unit (its input element 1
    /// enabled, delivering the converter's input format), else from the input block. Called before
    /// the graph initializes.
    ///
    /// Thread: setup (while the engine is stopped).
    func captureFrom(_ output: AVAudioOutputNode) throws {
        guard output.isDevice else {
            box.captureUnit = nil
            return
        }
        try checkStatus(
            setUInt32Property(output.unit, kAudioOutputUnitProperty_EnableIO, 1, kAudioUnitScope_Input, 1),
            "The device's input cannot be enabled")
        guard var format = streamFormat(unit, kAudioUnitScope_Input, 0) else {
            throw osStatusError(kAudioUnitErr_FormatNotSupported, "The input node has no input format")
        }
        try checkStatus(
            AudioUnitSetProperty(
                output.unit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Output, 1, &format,
                UInt32(MemoryLayout<AudioStreamBasicDescription>.size)),
            "The device's input cannot deliver the input node's format")
        box.captureUnit = output.unit
    }
}

/// The input block, or the I/O unit whose element 1 is captured; set only while the engine is stopped.
final class InputBlockState {
    var block: AVAudioIONodeInputBlock?
    var bytesPerFrame: UInt32 = 4
    var captureUnit: AudioUnit?
}

/// The converter's input callback: copies what the input block supplies (silence without one).
///
/// Thread: render.
let inputNodeRenderCallback: AURenderCallback = { refCon, flags, timeStamp, _, frames, ioData in
    guard let ioData else { return kAudio_ParamError }
    let out = UnsafeMutableAudioBufferListPointer(ioData)
    return Unmanaged<InputBlockState>.fromOpaque(refCon)._withUnsafeGuaranteedRef { state -> OSStatus in
        // On the device: the period just captured (the I/O unit renders element 1 from inside
        // its own cycle, as an AUHAL does in full duplex).
        if let io = state.captureUnit { return AudioUnitRender(io, flags, timeStamp, 1, frames, ioData) }
        let bytes = Int(frames * state.bytesPerFrame)
        guard let block = state.block, let supplied = block(frames) else {
            for b in 0..<out.count { if let d = out[b].mData { memset(d, 0, Int(out[b].mDataByteSize)) } }
            flags.pointee.insert(.unitRenderAction_OutputIsSilence)
            return noErr
        }
        let source = UnsafeMutableAudioBufferListPointer(UnsafeMutablePointer(mutating: supplied))
        for b in 0..<min(out.count, source.count) {
            guard let d = out[b].mData, let s = source[b].mData else { continue }
            memcpy(d, s, min(bytes, Int(source[b].mDataByteSize), Int(out[b].mDataByteSize)))
        }
        return noErr
    }
}

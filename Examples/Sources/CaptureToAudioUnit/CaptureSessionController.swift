import AudioToolbox
import AUHost
import Foundation

/// AVCaptureToAudioUnit's CaptureSessionController, in Swift: captured buffers are pushed through
/// a delay unit (a render callback hands the unit the stored input when AudioUnitRender pulls it)
/// and the output is written with ExtAudioFileWriteAsync. On Linux the AVCaptureSession and its
/// AVCaptureAudioDataOutput are replaced by the ALSA I/O unit with input only: its input
/// callback is captureOutput(_:didOutputSampleBuffer:) and AudioUnitRender on its element 1
/// stands in for CMSampleBufferGetAudioBufferListWithRetainedBlockBuffer.
final class CaptureSessionController {
    var captureUnit: AudioUnit?
    var effectUnit: AudioUnit?
    var extAudioFile: ExtAudioFileRef?
    let currentInputASBD: AudioStreamBasicDescription
    /// The captured buffers ("the Input AudioBufferList" the render callback reads).
    let currentInputAudioBufferList: AudioBufferStorage
    /// AUOutputBL: the delay unit's output, NULL mData so the unit renders into its own buffers.
    let outputBufferList: AudioBufferStorage
    var currentSampleTime: Float64 = 0
    let framesWritten = UnsafeMutablePointer<Int>.allocate(capacity: 1)
    var framesWanted = 0
    var lastError: OSStatus = noErr

    init(format: AudioStreamBasicDescription, maximumFrames: UInt32) {
        currentInputASBD = format
        currentInputAudioBufferList = AudioBufferStorage(format: format, capacity: maximumFrames)
        outputBufferList = AudioBufferStorage(format: format, capacity: maximumFrames)
        framesWritten.initialize(to: 0)
    }

    var refCon: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

    /// Thread: setup. applicationDidFinishLaunching's part: the capture "session", the delay
    /// effect with its render callback, and the output file primed for asynchronous writes.
    func setUp(device: String, delayTime: Float32, outputPath: String) throws {
        var captureDescription = AudioComponentDescription(
            componentType: kAudioUnitType_Output, componentSubType: kAudioUnitSubType_HALOutput,
            componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0)
        try AudioError.check(
            AudioComponentInstanceNew(AudioComponentFindNext(nil, &captureDescription)!, &captureUnit), "create the capture unit")
        let capture = captureUnit!
        let name = CFStringCreateWithCString(nil, device, CFStringBuiltInEncodings.UTF8.rawValue)!
        var on: UInt32 = 1, off: UInt32 = 0, period: UInt32 = 256
        var format = currentInputASBD
        let asbdSize = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
        // The property takes a CFStringRef: hand over the reference's own bytes.
        try AudioError.check(
            withUnsafeBytes(of: name) {
                AudioUnitSetProperty(
                    capture, kAudioOutputUnitProperty_CurrentDevice, kAudioUnitScope_Global, 0, $0.baseAddress, UInt32($0.count))
            }, "set the capture device")
        try AudioError.check(
            AudioUnitSetProperty(capture, kAUHostALSAProperty_PreferredPeriodFrames, kAudioUnitScope_Global, 0, &period, 4),
            "set the capture period")
        try AudioError.check(
            AudioUnitSetProperty(capture, kAudioOutputUnitProperty_EnableIO, kAudioUnitScope_Input, 1, &on, 4), "enable input")
        try AudioError.check(
            AudioUnitSetProperty(capture, kAudioOutputUnitProperty_EnableIO, kAudioUnitScope_Output, 0, &off, 4), "disable output")
        try AudioError.check(
            AudioUnitSetProperty(capture, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Output, 1, &format, asbdSize),
            "set the captured format")
        var captured = AURenderCallbackStruct(inputProc: captureOutputDidOutputSampleBuffer, inputProcRefCon: refCon)
        try AudioError.check(
            AudioUnitSetProperty(
                capture, kAudioOutputUnitProperty_SetInputCallback, kAudioUnitScope_Global, 0, &captured,
                UInt32(MemoryLayout<AURenderCallbackStruct>.size)), "set the capture callback")

        // The delay effect, fed by a render callback, in the canonical format.
        var delayDescription = AudioComponentDescription(
            componentType: kAudioUnitType_Effect, componentSubType: kAudioUnitSubType_Delay,
            componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0)
        try AudioError.check(
            AudioComponentInstanceNew(AudioComponentFindNext(nil, &delayDescription)!, &effectUnit), "create the delay unit")
        let effect = effectUnit!
        try AudioError.check(
            AudioUnitSetProperty(effect, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Input, 0, &format, asbdSize), "delay input format"
        )
        try AudioError.check(
            AudioUnitSetProperty(effect, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Output, 0, &format, asbdSize),
            "delay output format")
        var maximumFrames: UInt32 = 4096
        try AudioError.check(
            AudioUnitSetProperty(effect, kAudioUnitProperty_MaximumFramesPerSlice, kAudioUnitScope_Global, 0, &maximumFrames, 4),
            "delay MaximumFramesPerSlice")
        var input = AURenderCallbackStruct(inputProc: pushCurrentInputBufferIntoAudioUnit, inputProcRefCon: refCon)
        try AudioError.check(
            AudioUnitSetProperty(
                effect, kAudioUnitProperty_SetRenderCallback, kAudioUnitScope_Input, 0, &input,
                UInt32(MemoryLayout<AURenderCallbackStruct>.size)), "set the delay's input callback")
        try AudioError.check(AudioUnitSetParameter(effect, kDelayParam_WetDryMix, kAudioUnitScope_Global, 0, 100, 0), "wet/dry")
        try AudioError.check(AudioUnitSetParameter(effect, kDelayParam_Feedback, kAudioUnitScope_Global, 0, 0, 0), "feedback")
        try AudioError.check(AudioUnitSetParameter(effect, kDelayParam_DelayTime, kAudioUnitScope_Global, 0, delayTime, 0), "delay time")
        try AudioError.check(AudioUnitInitialize(effect), "initialize the delay")

        // The file: 32-bit float WAV; the client format is the delay's output format.
        var fileFormat = AudioStreamBasicDescription(
            mSampleRate: format.mSampleRate, mFormatID: kAudioFormatLinearPCM,
            mFormatFlags: kAudioFormatFlagIsFloat | kAudioFormatFlagIsPacked,
            mBytesPerPacket: 4 * format.mChannelsPerFrame, mFramesPerPacket: 1,
            mBytesPerFrame: 4 * format.mChannelsPerFrame, mChannelsPerFrame: format.mChannelsPerFrame,
            mBitsPerChannel: 32, mReserved: 0)
        try AudioError.check(
            ExtAudioFileCreateWithPath(outputPath, kAudioFileWAVEType, &fileFormat, nil, AudioFileFlags.eraseFile.rawValue, &extAudioFile),
            "create \(outputPath)")
        try AudioError.check(
            ExtAudioFileSetProperty(extAudioFile!, kExtAudioFileProperty_ClientDataFormat, asbdSize, &format), "client format")
        try AudioError.check(ExtAudioFileWriteAsync(extAudioFile!, 0, nil), "prime ExtAudioFileWriteAsync")
    }

    /// Thread: setup. Starts "recording" and stops after `frames` frames were written.
    func record(frames: Int) throws {
        framesWanted = frames
        try AudioError.check(AudioOutputUnitStart(captureUnit!), "start capturing")
        let deadline = Date().addingTimeInterval(30)
        while framesWritten.pointee < frames && Date() < deadline { usleep(1000) }
        try AudioError.check(AudioOutputUnitStop(captureUnit!), "stop capturing")
        try AudioError.check(lastError, "the capture callback")
        try AudioError.check(ExtAudioFileDispose(extAudioFile!), "close the file")
        AudioComponentInstanceDispose(effectUnit!)
        AudioComponentInstanceDispose(captureUnit!)
        if framesWritten.pointee < frames {
            throw AudioError(kAudioUnitErr_NoConnection, "only \(framesWritten.pointee) frames were captured")
        }
    }
}

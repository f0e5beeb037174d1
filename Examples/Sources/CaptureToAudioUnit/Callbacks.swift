import AudioToolbox
import AUHost

/// Thread: render. captureOutput:didOutputSampleBuffer:fromConnection: — take the captured
/// buffer (AudioUnitRender on the capture unit's element 1), store it as the current input,
/// pull it through the delay with AudioUnitRender, and queue the output for the file.
let captureOutputDidOutputSampleBuffer: AURenderCallback = { refCon, flags, timeStamp, bus, numberOfFrames, _ in
    let controller = Unmanaged<CaptureSessionController>.fromOpaque(refCon).takeUnretainedValue()
    guard controller.framesWritten.pointee < controller.framesWanted else { return noErr }  // recording finished
    controller.currentInputAudioBufferList.prepare(frames: numberOfFrames)
    var err = AudioUnitRender(controller.captureUnit!, flags, timeStamp, bus, numberOfFrames, controller.currentInputAudioBufferList.list)
    if err == noErr {
        var renderFlags: AudioUnitRenderActionFlags = []
        var renderTime = AudioTimeStamp()
        renderTime.mFlags = .sampleTimeValid
        renderTime.mSampleTime = controller.currentSampleTime
        controller.outputBufferList.prepareNull(frames: numberOfFrames)  // AUOutputBL::Prepare, NULL mData
        err = AudioUnitRender(controller.effectUnit!, &renderFlags, &renderTime, 0, numberOfFrames, controller.outputBufferList.list)
        controller.currentSampleTime += Float64(numberOfFrames)
    }
    if err == noErr { err = ExtAudioFileWriteAsync(controller.extAudioFile!, numberOfFrames, controller.outputBufferList.list) }
    if err != noErr {
        if controller.lastError == noErr { controller.lastError = err }
        return err
    }
    controller.framesWritten.pointee += Int(numberOfFrames)
    return noErr
}

/// Thread: render. The delay's input callback: hand it the stored input buffers.
let pushCurrentInputBufferIntoAudioUnit: AURenderCallback = { refCon, _, _, _, numberOfFrames, ioData in
    let controller = Unmanaged<CaptureSessionController>.fromOpaque(refCon).takeUnretainedValue()
    let from = UnsafeMutableAudioBufferListPointer(controller.currentInputAudioBufferList.list)
    let to = UnsafeMutableAudioBufferListPointer(ioData!)
    for (target, source) in zip(to, from) {
        if target.mData == nil { return kAudio_ParamError }
        target.mData!.copyMemory(from: source.mData!, byteCount: Int(numberOfFrames) * 4)
    }
    return noErr
}

import AudioToolbox
import AUHost

/// Thread: render. The blog's recordCallbackFunc: render the captured period into the engine's
/// buffers (ShouldAllocateBuffer is 0, so they are ours).
let recordCallbackFunc: AURenderCallback = { inRefCon, ioActionFlags, inTimeStamp, inBusNumber, inNumberFrames, _ in
    let engine = Unmanaged<AudioEngine>.fromOpaque(inRefCon).takeUnretainedValue()
    engine.recorded.prepare(frames: inNumberFrames)
    let err = AudioUnitRender(engine.mVoipUnit!, ioActionFlags, inTimeStamp, inBusNumber, inNumberFrames, engine.recorded.list)
    if err != noErr { engine.lastRecordError = err }
    return err
}

/// Thread: render. The blog's playbackCallbackFunc: bus 0 plays what was recorded; bus 1 (the
/// mixer's "beats" bus in the graph form) plays a generated sound.
let playbackCallbackFunc: AURenderCallback = { inRefCon, _, _, inBusNumber, inNumberFrames, ioData in
    let engine = Unmanaged<AudioEngine>.fromOpaque(inRefCon).takeUnretainedValue()
    let out = UnsafeMutableAudioBufferListPointer(ioData!)
    if inBusNumber == 0 {
        let from = UnsafeMutableAudioBufferListPointer(engine.recorded.list)
        for (target, source) in zip(out, from) {
            target.mData!.copyMemory(from: source.mData!, byteCount: Int(source.mDataByteSize))
        }
        engine.framesPlayed.pointee += Int(inNumberFrames)
    } else {
        for (channel, buffer) in out.enumerated() {
            let samples = buffer.mData!.assumingMemoryBound(to: Float.self)
            for i in 0..<Int(inNumberFrames) {
                let frame = engine.beatsFrame + i
                samples[i] = Float((frame * 11 + channel * 300) % 499 - 249) / 512  // the examples' second signal
            }
        }
        engine.beatsFrame += Int(inNumberFrames)
    }
    return noErr
}

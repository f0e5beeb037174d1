import AudioToolbox

/// One manual render call: pulls the head (the output node's generic output) into the caller's
/// buffers at the engine's sample time. No allocation, lock or reference count.
///
/// Thread: render.
@_noAllocation @_noLocks
func renderManually(
    _ state: ManualRenderState, _ frames: AVAudioFrameCount, _ list: UnsafeMutablePointer<AudioBufferList>,
    _ outStatus: UnsafeMutablePointer<OSStatus>?
) -> AVAudioEngineManualRenderingStatus {
    guard state.running.load(ordering: .acquiring) != 0, let unit = state.unit else {
        outStatus?.pointee = kAudioUnitErr_Uninitialized
        return .error
    }
    guard frames <= state.maximumFrames else {
        outStatus?.pointee = kAudioUnitErr_TooManyFramesToProcess
        return .error
    }
    let (buffers, count) = renderBuffers(list)
    for b in 0..<count { buffers[b].mDataByteSize = frames * state.bytesPerFrame }
    let t = state.sampleTime.load(ordering: .relaxed)
    var timeStamp = AudioTimeStamp()
    timeStamp.mSampleTime = Double(t)
    timeStamp.mFlags = .sampleTimeValid
    var flags = AudioUnitRenderActionFlags(rawValue: 0)
    // The head's render is checked where it is written (AUBase+Render.swift).
    let status = _unsafePerformance { AudioUnitRender(unit, &flags, &timeStamp, 0, frames, list) }
    outStatus?.pointee = status
    guard status == noErr else { return .error }
    state.lastSampleTime.store(t, ordering: .releasing)
    state.sampleTime.store(t + Int64(frames), ordering: .releasing)
    return .success
}

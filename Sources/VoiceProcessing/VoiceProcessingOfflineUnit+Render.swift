import AUHostCore

// Everything the offline voice-processing unit's render runs, in one file so that the compiler's
// real-time checks see every body.

/// The render thread's state of a `VoiceProcessingOfflineUnit`, set up while uninitialized.
struct OfflineVoiceContext {
    var kernel: UnsafeMutablePointer<VoiceProcessingKernel>?
    var switches: UnsafeMutablePointer<VoiceIOSwitches>?
    /// The far end pulled by the last element-1 render (for element 0 of the same time stamp).
    var far: UnsafeMutablePointer<Float>?
    var farChannels = 0
    var farCapacity = 0
    var farSampleTime = -1.0
    var farFrames = 0
    /// Whether the last render was bypassed (the kernel restarts when processing resumes).
    var wasBypassed = false

    /// Thread: setup (nothing renders).
    mutating func configure(kernel: UnsafeMutablePointer<VoiceProcessingKernel>, farChannels: Int, maximumFrames: Int) {
        release()
        self.kernel = kernel
        self.farChannels = farChannels
        farCapacity = maximumFrames
        far = .allocate(capacity: farChannels * maximumFrames)
        far?.initialize(repeating: 0, count: farChannels * maximumFrames)
        farSampleTime = -1
        farFrames = 0
        wasBypassed = false
    }

    /// Thread: setup (nothing renders).
    mutating func release() {
        if let kernel {
            kernel.pointee.release()
            kernel.deinitialize(count: 1)
            kernel.deallocate()
        }
        kernel = nil
        far?.deallocate()
        far = nil
    }
}

/// Output element 1: pulls the far end (input 0) and the microphone (input 1, straight into the
/// caller's buffers), then processes the microphone in place. Output element 0: the far end of the
/// same time stamp, or a fresh pull of input 0.
@_noAllocation @_noLocks
func renderOfflineVoice(
    _ context: UnsafeMutablePointer<OfflineVoiceContext>, _ state: UnsafeMutablePointer<RenderState>, _ bus: UInt32,
    _ flags: UnsafeMutablePointer<AudioUnitRenderActionFlags>, _ timeStamp: UnsafePointer<AudioTimeStamp>, _ frames: UInt32,
    _ output: UnsafeMutablePointer<AudioBufferList>
) -> OSStatus {
    guard let kernel = context.pointee.kernel, let far = context.pointee.far, let switches = context.pointee.switches else {
        return kAudioUnitErr_Uninitialized
    }
    let n = Int(frames)
    guard n <= context.pointee.farCapacity else { return kAudioUnitErr_TooManyFramesToProcess }
    let (bypass, mute) = switches.load()
    if bus == 0 {
        if timeStamp.pointee.mSampleTime == context.pointee.farSampleTime && n <= context.pointee.farFrames {
            writeChannels(
                from: far, channels: context.pointee.farChannels, stride: context.pointee.farCapacity, silent: mute, to: output, frames: n)
            return noErr
        }
        let status = state.pointee.pullInput(0, flags, timeStamp, frames, into: output)
        if status == noErr && mute { silence(output, frames: n) }
        return status
    }
    guard bus == 1 else { return kAudioUnitErr_InvalidElement }
    var status = state.pointee.pullInput(0, flags, timeStamp, frames)
    guard status == noErr, let farList = state.pointee.inputs[0].buffers.list else { return status }
    // Keep the far end as played (silent when muted): element 0's output and the echo reference.
    readChannels(farList, into: far, channels: context.pointee.farChannels, stride: context.pointee.farCapacity, silent: mute, frames: n)
    context.pointee.farSampleTime = timeStamp.pointee.mSampleTime
    context.pointee.farFrames = n
    status = state.pointee.pullInput(1, flags, timeStamp, frames, into: output)
    guard status == noErr else { return status }
    if bypass {
        context.pointee.wasBypassed = true
        return noErr
    }
    if context.pointee.wasBypassed {
        kernel.pointee.restart()
        context.pointee.wasBypassed = false
    }
    if mute { silence(farList, frames: n) }
    kernel.pointee.addReference(farList, frames: n)
    kernel.pointee.process(output, into: output, frames: n)
    return noErr
}

@_noAllocation @_noLocks
private func readChannels(
    _ list: UnsafeMutablePointer<AudioBufferList>, into store: UnsafeMutablePointer<Float>, channels: Int, stride: Int, silent: Bool,
    frames: Int
) {
    let buffers = bufferArray(list)
    let count = Int(list.pointee.mNumberBuffers)
    for c in 0..<channels {
        let target = store + c * stride
        if !silent, c < count, let data = buffers[c].mData {
            copyFloats(data.assumingMemoryBound(to: Float.self), to: target, frames)
        } else {
            target.update(repeating: 0, count: frames)
        }
    }
}

@_noAllocation @_noLocks
private func writeChannels(
    from store: UnsafeMutablePointer<Float>, channels: Int, stride: Int, silent: Bool, to list: UnsafeMutablePointer<AudioBufferList>,
    frames: Int
) {
    let buffers = bufferArray(list)
    for c in 0..<min(channels, Int(list.pointee.mNumberBuffers)) {
        guard let data = buffers[c].mData?.assumingMemoryBound(to: Float.self) else { continue }
        if silent { data.update(repeating: 0, count: frames) } else { copyFloats(store + c * stride, to: data, frames) }
    }
}

@_noAllocation @_noLocks
private func silence(_ list: UnsafeMutablePointer<AudioBufferList>, frames: Int) {
    let buffers = bufferArray(list)
    for c in 0..<Int(list.pointee.mNumberBuffers) {
        buffers[c].mData?.assumingMemoryBound(to: Float.self).update(repeating: 0, count: frames)
    }
}

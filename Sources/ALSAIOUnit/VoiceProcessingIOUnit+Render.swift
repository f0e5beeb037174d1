import AUHostCore
import VoiceProcessing

// What the device thread runs for the voice-processing unit, in one file so that the compiler's
// real-time checks see every body. The stream's input and render functions (ALSAIOUnit+Render)
// call these around the plain unit's work: the captured period is processed in place before the
// input callback or AudioUnitRender of element 1 reads it, and each rendered playback period is
// the echo reference (silenced first when the output is muted).

/// The device thread's voice-processing state, set up while the device thread is stopped.
struct VoiceIOContext {
    let kernel: UnsafeMutablePointer<VoiceProcessingKernel>
    let switches: UnsafeMutablePointer<VoiceIOSwitches>
    /// Whether the last captured period was bypassed (processing restarts its chunking after).
    var wasBypassed = false
}

/// Processes the captured device floats in place (untouched when bypassed).
/// Thread: render (the device thread).
@_noAllocation @_noLocks
func voiceCaptured(_ voice: UnsafeMutablePointer<VoiceIOContext>, _ buffers: UnsafeMutablePointer<AudioBufferList>, _ frames: UInt32) {
    let (bypass, _) = voice.pointee.switches.load()
    if bypass {
        voice.pointee.wasBypassed = true
        return
    }
    let kernel = voice.pointee.kernel
    // The kernel's render functions are checked (@_noAllocation @_noLocks) in their own module.
    _unsafePerformance {
        if voice.pointee.wasBypassed {
            kernel.pointee.restart()
            voice.pointee.wasBypassed = false
        }
        kernel.pointee.process(buffers, into: buffers, frames: Int(frames))
    }
}

/// Mutes the rendered device floats if asked, then hands them to the canceller as the reference.
/// Thread: render (the device thread).
@_noAllocation @_noLocks
func voicePlayed(_ voice: UnsafeMutablePointer<VoiceIOContext>, _ buffers: UnsafeMutablePointer<AudioBufferList>, _ frames: UInt32) {
    let (bypass, mute) = voice.pointee.switches.load()
    if mute {
        let deviceBuffers = audioBuffers(buffers)
        for c in 0..<Int(buffers.pointee.mNumberBuffers) {
            deviceBuffers[c].mData?.initializeMemory(as: UInt8.self, repeating: 0, count: Int(frames) * 4)
        }
    }
    if bypass { return }
    let kernel = voice.pointee.kernel
    // The kernel's render functions are checked (@_noAllocation @_noLocks) in their own module.
    _unsafePerformance { kernel.pointee.addReference(buffers, frames: Int(frames)) }
}

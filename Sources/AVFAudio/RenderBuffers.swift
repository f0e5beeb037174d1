import AudioToolbox

/// The buffers of a buffer list, as a pointer to its first AudioBuffer (what render code indexes:
/// UnsafeMutableAudioBufferListPointer's accessors are not visible to the real-time checker).
///
/// Thread: any (render-safe).
@_noAllocation @_noLocks
@inline(__always)
func renderBuffers(_ list: UnsafeMutablePointer<AudioBufferList>) -> (buffers: UnsafeMutablePointer<AudioBuffer>, count: Int) {
    let buffers = UnsafeMutableRawPointer(list)
        .advanced(by: (MemoryLayout<UInt32>.size + MemoryLayout<AudioBuffer>.alignment - 1) & ~(MemoryLayout<AudioBuffer>.alignment - 1))
        .assumingMemoryBound(to: AudioBuffer.self)
    return (buffers, Int(list.pointee.mNumberBuffers))
}

import AudioToolbox

/// An owned canonical buffer list: Float32, non-interleaved, one `AudioBuffer` per channel, each
/// `capacityFrames` long. Allocated at setup; the render thread uses `list` and `channel(_:)`.
/// A plain struct of pointers: copying it does not copy the memory.
public struct FloatBufferList {
    /// The list (`mNumberBuffers == channels`, `mDataByteSize == capacityFrames * 4`).
    public let list: UnsafeMutablePointer<AudioBufferList>
    /// Channel count.
    public let channels: Int
    /// Frames per channel buffer.
    public let capacityFrames: Int
    /// The memory behind each buffer, kept so the list can be reset after a callee swapped
    /// `mData` for its own buffers (Audio Unit render callees may do that).
    public let channelMemory: UnsafeMutablePointer<UnsafeMutablePointer<Float>>

    /// Allocates zeroed buffers.
    /// Thread: setup (non-real-time).
    public static func allocate(channels: Int, frames: Int) -> FloatBufferList {
        let bytes = SampleConversion.bufferListOffset + max(channels, 1) * MemoryLayout<AudioBuffer>.stride
        let raw = UnsafeMutableRawPointer.allocate(byteCount: bytes, alignment: MemoryLayout<AudioBuffer>.alignment)
        raw.initializeMemory(as: UInt8.self, repeating: 0, count: bytes)
        let list = raw.bindMemory(to: AudioBufferList.self, capacity: 1)
        let memory = UnsafeMutablePointer<UnsafeMutablePointer<Float>>.allocate(capacity: max(channels, 1))
        for channel in 0..<channels {
            memory[channel] = .allocate(capacity: max(frames, 1))
            memory[channel].initialize(repeating: 0, count: max(frames, 1))
        }
        let result = FloatBufferList(list: list, channels: channels, capacityFrames: frames, channelMemory: memory)
        result.reset(frames: frames)
        return result
    }

    /// Frees the memory. Call once, after the last use.
    /// Thread: setup (non-real-time).
    public func deallocate() {
        for channel in 0..<channels { channelMemory[channel].deallocate() }
        channelMemory.deallocate()
        UnsafeMutableRawPointer(list).deallocate()
    }

    /// Points every buffer back at its own memory and sets its size to `frames` frames.
    /// Thread: render (real-time).
    @inlinable @_noAllocation @_noLocks
    public func reset(frames: Int) {
        list.pointee.mNumberBuffers = UInt32(channels)
        for channel in 0..<channels {
            let buffer = SampleConversion.buffer(list, channel)
            buffer.pointee.mNumberChannels = 1
            buffer.pointee.mDataByteSize = UInt32(frames * MemoryLayout<Float>.size)
            buffer.pointee.mData = UnsafeMutableRawPointer(channelMemory[channel])
        }
    }

    /// Channel `index`'s own memory.
    /// Thread: any (render-safe).
    @inlinable
    public func channel(_ index: Int) -> UnsafeMutablePointer<Float> { channelMemory[index] }
}

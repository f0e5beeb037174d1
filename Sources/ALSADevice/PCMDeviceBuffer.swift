/// Device-format sample memory for one period, laid out as the device wants it (interleaved: one
/// block; non-interleaved: one block per channel). Allocated at setup, used on the render thread.
/// A plain struct of pointers: copying it does not copy or retain the memory.
public struct PCMDeviceBuffer {
    /// Sample format of the memory.
    public let format: PCMSampleFormat
    /// Layout of the memory.
    public let access: PCMAccess
    /// Channels per frame.
    public let channels: Int
    /// Frames the memory holds.
    public let capacityFrames: Int
    /// Bytes between consecutive samples of one channel (a frame when interleaved).
    public let strideBytes: Int
    /// Address of each channel's first sample: `channels` entries. For non-interleaved access this
    /// is the `void **` array `snd_pcm_readn`/`snd_pcm_writen` take.
    public let channelStarts: UnsafeMutablePointer<UnsafeMutableRawPointer?>
    /// Scratch array of the same shape for transfers that resume part-way through a period.
    public let offsetStarts: UnsafeMutablePointer<UnsafeMutableRawPointer?>
    /// The whole block (all channels).
    public let memory: UnsafeMutableRawPointer
    /// Bytes in `memory`.
    public let byteCount: Int

    /// Allocates zeroed (silent) memory for `frames` frames.
    /// Thread: setup (non-real-time).
    public static func allocate(format: PCMSampleFormat, access: PCMAccess, channels: Int, frames: Int) -> PCMDeviceBuffer {
        let bytes = max(format.bytesPerSample * channels * frames, 1)
        let block = UnsafeMutableRawPointer.allocate(byteCount: bytes, alignment: 16)
        block.initializeMemory(as: UInt8.self, repeating: 0, count: bytes)
        let starts = UnsafeMutablePointer<UnsafeMutableRawPointer?>.allocate(capacity: max(channels, 1))
        let offsets = UnsafeMutablePointer<UnsafeMutableRawPointer?>.allocate(capacity: max(channels, 1))
        for channel in 0..<channels {
            starts[channel] =
                access == .interleaved
                ? block + channel * format.bytesPerSample
                : block + channel * format.bytesPerSample * frames
            offsets[channel] = starts[channel]
        }
        let stride = access == .interleaved ? format.bytesPerSample * channels : format.bytesPerSample
        return PCMDeviceBuffer(
            format: format, access: access, channels: channels, capacityFrames: frames,
            strideBytes: stride, channelStarts: starts, offsetStarts: offsets,
            memory: block, byteCount: bytes)
    }

    /// Frees the memory. Call once, after the last use.
    /// Thread: setup (non-real-time).
    public func deallocate() {
        memory.deallocate()
        channelStarts.deallocate()
        offsetStarts.deallocate()
    }

    /// Sets every sample to silence (all-zero bytes is silence for every supported format).
    /// Thread: render (real-time).
    @inlinable @_noAllocation @_noLocks
    public func silence() {
        memory.initializeMemory(as: UInt8.self, repeating: 0, count: byteCount)
    }

    /// Pointers for a transfer starting `frame` frames into the buffer: for interleaved access the
    /// single address to pass to `snd_pcm_readi`/`writei`, for non-interleaved the array to pass
    /// to `snd_pcm_readn`/`writen` (`offsetStarts`, refreshed here).
    /// Thread: render (real-time).
    @inlinable @_noAllocation @_noLocks
    public func transferAddress(atFrame frame: Int) -> UnsafeMutableRawPointer? {
        switch access {
        case .interleaved: return channelStarts[0].map { $0 + frame * strideBytes }
        case .nonInterleaved: break
        }
        for channel in 0..<channels {
            offsetStarts[channel] = channelStarts[channel].map { $0 + frame * strideBytes }
        }
        return UnsafeMutableRawPointer(offsetStarts)
    }
}

import AudioToolbox

/// An AudioBufferList that owns its memory, sized from a format and a frame capacity: the
/// AUOutputBL helper of the Core Audio samples.
///
/// Allocate at setup; on the render thread call ``prepare(frames:)`` (buffers point at the owned
/// memory) or ``prepareNull(frames:)`` (mData is NULL so the unit rendered into provides its own
/// buffers — the "nil mData" mode), then hand ``list`` to AudioUnitRender.
///
/// ```swift
/// let buffers = AudioBufferStorage(format: .canonical(sampleRate: 48_000, channels: 2), capacity: 512)
/// buffers.prepare(frames: 512)
/// AudioUnitRender(unit, &flags, &timeStamp, 0, 512, buffers.list)
/// ```
public final class AudioBufferStorage {
    /// The list; valid for the object's lifetime.
    public let list: UnsafeMutablePointer<AudioBufferList>
    /// The format the buffers were sized for.
    public let format: AudioStreamBasicDescription
    /// Frames each buffer holds.
    public let capacity: UInt32
    private let memory: UnsafeMutableRawPointer
    private let bytesPerBuffer: Int
    private let channelsPerBuffer: UInt32
    private let bytesPerFrame: UInt32

    /// Allocates buffers for `capacity` frames of `format` (zeroed).
    ///
    /// Thread: setup.
    public init(format: AudioStreamBasicDescription, capacity: UInt32) {
        self.format = format
        self.capacity = capacity
        channelsPerBuffer = format.channelsPerBuffer
        bytesPerFrame = format.mBytesPerFrame
        let count = Int(max(format.bufferCount, 1))
        list = AudioBufferStorage.allocateList(bufferCount: count)
        bytesPerBuffer = (Int(format.mBytesPerFrame) * Int(capacity) + 15) & ~15
        memory = UnsafeMutableRawPointer.allocate(byteCount: max(bytesPerBuffer * count, 16), alignment: 16)
        memory.initializeMemory(as: UInt8.self, repeating: 0, count: max(bytesPerBuffer * count, 16))
        prepare(frames: capacity)
    }

    deinit {
        memory.deallocate()
        AudioBufferStorage.deallocateList(list)
    }

    /// Number of AudioBuffers in the list.
    public var bufferCount: Int { Int(list.pointee.mNumberBuffers) }

    /// Points every buffer at the owned memory, sized for `frames` frames (at most `capacity`).
    ///
    /// Thread: render.
    @_noAllocation @_noLocks
    public func prepare(frames: UInt32) {
        let n = min(frames, capacity)
        let buffers = audioBuffers(list)
        for i in 0..<Int(list.pointee.mNumberBuffers) {
            buffers[i].mNumberChannels = channelsPerBuffer
            buffers[i].mDataByteSize = n * bytesPerFrame
            buffers[i].mData = memory + i * bytesPerBuffer
        }
    }

    /// Sets every buffer's mData to NULL with sizes for `frames` frames, so that the unit rendered
    /// into points them at its own output ("nil mData" mode).
    ///
    /// Thread: render.
    @_noAllocation @_noLocks
    public func prepareNull(frames: UInt32) {
        let buffers = audioBuffers(list)
        for i in 0..<Int(list.pointee.mNumberBuffers) {
            buffers[i].mNumberChannels = channelsPerBuffer
            buffers[i].mDataByteSize = min(frames, capacity) * bytesPerFrame
            buffers[i].mData = nil
        }
    }

    /// Zeroes `frames` frames of the owned memory.
    ///
    /// Thread: render.
    @_noAllocation @_noLocks
    public func clear(frames: UInt32) {
        let bytes = Int(min(frames, capacity) * bytesPerFrame)
        for i in 0..<Int(list.pointee.mNumberBuffers) {
            (memory + i * bytesPerBuffer).initializeMemory(as: UInt8.self, repeating: 0, count: bytes)
        }
    }

    /// The samples of channel `index` in canonical (Float32 non-interleaved) storage.
    ///
    /// Thread: any.
    public func channel(_ index: Int) -> UnsafeMutablePointer<Float> {
        (memory + index * bytesPerBuffer).assumingMemoryBound(to: Float.self)
    }

    /// A copy of channel `index`'s first `frames` samples (for tests and tools).
    ///
    /// Thread: setup.
    public func samples(channel index: Int, frames: Int) -> [Float] {
        Array(UnsafeBufferPointer(start: channel(index), count: min(frames, Int(capacity))))
    }

    /// Allocates an AudioBufferList with room for `bufferCount` AudioBuffers (all zero).
    ///
    /// Thread: setup.
    public static func allocateList(bufferCount: Int) -> UnsafeMutablePointer<AudioBufferList> {
        let bytes = MemoryLayout<AudioBufferList>.size + max(bufferCount - 1, 0) * MemoryLayout<AudioBuffer>.stride
        let raw = UnsafeMutableRawPointer.allocate(byteCount: bytes, alignment: MemoryLayout<AudioBufferList>.alignment)
        raw.initializeMemory(as: UInt8.self, repeating: 0, count: bytes)
        let list = raw.assumingMemoryBound(to: AudioBufferList.self)
        list.pointee.mNumberBuffers = UInt32(bufferCount)
        return list
    }

    /// Frees a list from ``allocateList(bufferCount:)`` (not the data its buffers point at).
    ///
    /// Thread: setup.
    public static func deallocateList(_ list: UnsafeMutablePointer<AudioBufferList>) {
        UnsafeMutableRawPointer(list).deallocate()
    }
}

/// The mBuffers array of a list. Inlinable, so that a real-time function in any file or module
/// may call it under the checks (debug builds compile file by file).
///
/// Thread: any.
@inlinable @inline(__always) @_noAllocation @_noLocks
public func audioBuffers(_ list: UnsafeMutablePointer<AudioBufferList>) -> UnsafeMutablePointer<AudioBuffer> {
    UnsafeMutableRawPointer(list)
        .advanced(by: (MemoryLayout<UInt32>.size + MemoryLayout<AudioBuffer>.alignment - 1) & ~(MemoryLayout<AudioBuffer>.alignment - 1))
        .assumingMemoryBound(to: AudioBuffer.self)
}

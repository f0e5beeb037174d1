import AudioToolbox

/// What the queue keeps beside each AudioQueueBuffer it hands out. The AudioQueueBuffer is the
/// first field, so an AudioQueueBufferRef is the slot's address; the render thread reads the rest
/// without touching any Swift object (no reference counting there).
struct QueueBufferSlot {
    var buffer: AudioQueueBuffer
    /// Marks slots this queue allocated (a stray pointer fails the check on setup calls).
    var owner: UnsafeMutableRawPointer
    /// 1 from Enqueue until the buffer is returned to the callback. Setup side only (under the queue's lock).
    var enqueued: UInt32
    /// Frames skipped at the start and end of the buffer (EnqueueBufferWithParameters).
    var trimStart: UInt32
    var trimEnd: UInt32
    /// Parameter events applied when the buffer starts to play; NaN = not given.
    var volume: Float32
    var pan: Float32
    var rampTime: Float32
    /// Recording: when the first frame was captured.
    var startTime: AudioTimeStamp

    /// Allocates a slot with `capacity` bytes of audio and `packetDescriptions` descriptions.
    ///
    /// Thread: setup.
    static func allocate(owner: UnsafeMutableRawPointer, capacity: UInt32, packetDescriptions: UInt32) -> UnsafeMutablePointer<
        QueueBufferSlot
    > {
        let slot = UnsafeMutablePointer<QueueBufferSlot>.allocate(capacity: 1)
        let data = UnsafeMutableRawPointer.allocate(byteCount: max(Int(capacity), 1), alignment: 16)
        data.initializeMemory(as: UInt8.self, repeating: 0, count: max(Int(capacity), 1))
        let descriptions =
            packetDescriptions > 0 ? UnsafeMutablePointer<AudioStreamPacketDescription>.allocate(capacity: Int(packetDescriptions)) : nil
        descriptions?.initialize(repeating: AudioStreamPacketDescription(), count: Int(packetDescriptions))
        slot.initialize(
            to: QueueBufferSlot(
                buffer: AudioQueueBuffer(
                    mAudioDataBytesCapacity: capacity, mAudioData: data, mAudioDataByteSize: 0, mUserData: nil,
                    mPacketDescriptionCapacity: packetDescriptions, mPacketDescriptions: descriptions, mPacketDescriptionCount: 0),
                owner: owner, enqueued: 0, trimStart: 0, trimEnd: 0, volume: .nan, pan: .nan, rampTime: .nan,
                startTime: AudioTimeStamp()))
        return slot
    }

    /// Frees a slot and its memory.
    ///
    /// Thread: setup.
    static func free(_ slot: UnsafeMutablePointer<QueueBufferSlot>) {
        slot.pointee.buffer.mAudioData.deallocate()
        slot.pointee.buffer.mPacketDescriptions?.deallocate()
        slot.deinitialize(count: 1)
        slot.deallocate()
    }
}

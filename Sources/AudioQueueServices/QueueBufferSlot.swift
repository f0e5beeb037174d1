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
    /// Compressed queues: the buffer's packets decoded at enqueue (Float32 interleaved), which the
    /// engine plays instead of mAudioData; nil for PCM queues.
    var decoded: UnsafeMutablePointer<Float>?
    var decodedFrames: UInt32
    var decodedCapacity: Int

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
                startTime: AudioTimeStamp(), decoded: nil, decodedFrames: 0, decodedCapacity: 0))
        return slot
    }

    /// Frees a slot and its memory.
    ///
    /// Thread: setup.
    static func free(_ slot: UnsafeMutablePointer<QueueBufferSlot>) {
        slot.pointee.buffer.mAudioData.deallocate()
        slot.pointee.buffer.mPacketDescriptions?.deallocate()
        slot.pointee.decoded?.deallocate()
        slot.deinitialize(count: 1)
        slot.deallocate()
    }

    /// Copies `frames` decoded frames into the slot's decoded storage (grown when too small).
    ///
    /// Thread: setup, while the slot is not enqueued (the render thread does not hold it).
    static func storeDecoded(_ samples: [Float], frames: Int, channels: Int, in slot: UnsafeMutablePointer<QueueBufferSlot>) {
        let count = frames * channels
        if slot.pointee.decodedCapacity < max(count, 1) {
            slot.pointee.decoded?.deallocate()
            slot.pointee.decoded = .allocate(capacity: max(count, 1))
            slot.pointee.decodedCapacity = max(count, 1)
        }
        samples.withUnsafeBufferPointer { slot.pointee.decoded!.update(from: $0.baseAddress!, count: count) }
        slot.pointee.decodedFrames = UInt32(frames)
    }
}

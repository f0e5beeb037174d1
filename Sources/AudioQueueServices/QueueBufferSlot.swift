import AudioToolbox
import Foundation

/// What the queue keeps beside each AudioQueueBuffer it hands out. The AudioQueueBuffer is the
/// first field, so an AudioQueueBufferRef is the slot's address; the render thread reads the rest
/// without touching any Swift object (no reference counting there).
struct QueueBufferSlot {
    var buffer: AudioQueueBuffer
    /// The bytes allocated for mAudioData, and the bytes to play as checked at Enqueue. The device
    /// thread reads these, never the caller-visible fields, which a caller may rewrite while the
    /// buffer is enqueued.
    let capacity: UInt32
    var enqueuedBytes: UInt32
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

    /// Allocates a slot with `capacity` bytes of audio and `packetDescriptions` descriptions, or nil
    /// when the system has no memory for them. Both come from calloc: a large buffer is then fresh
    /// zero pages the kernel fills only when touched (allocating 64 MiB no longer writes 64 MiB).
    ///
    /// Thread: setup.
    static func allocate(owner: UnsafeMutableRawPointer, capacity: UInt32, packetDescriptions: UInt32) -> UnsafeMutablePointer<
        QueueBufferSlot
    >? {
        guard let data = calloc(max(Int(capacity), 1), 1) else { return nil }
        var descriptions: UnsafeMutablePointer<AudioStreamPacketDescription>?
        if packetDescriptions > 0 {
            guard let memory = calloc(Int(packetDescriptions), MemoryLayout<AudioStreamPacketDescription>.stride) else {
                Foundation.free(data)
                return nil
            }
            descriptions = memory.assumingMemoryBound(to: AudioStreamPacketDescription.self)
        }
        let slot = UnsafeMutablePointer<QueueBufferSlot>.allocate(capacity: 1)
        slot.initialize(
            to: QueueBufferSlot(
                buffer: AudioQueueBuffer(
                    mAudioDataBytesCapacity: capacity, mAudioData: data, mAudioDataByteSize: 0, mUserData: nil,
                    mPacketDescriptionCapacity: packetDescriptions, mPacketDescriptions: descriptions, mPacketDescriptionCount: 0),
                capacity: capacity, enqueuedBytes: 0, owner: owner, enqueued: 0, trimStart: 0, trimEnd: 0, volume: .nan, pan: .nan,
                rampTime: .nan,
                startTime: AudioTimeStamp(), decoded: nil, decodedFrames: 0, decodedCapacity: 0))
        return slot
    }

    /// Frees a slot and its memory.
    ///
    /// Thread: setup.
    static func free(_ slot: UnsafeMutablePointer<QueueBufferSlot>) {
        Foundation.free(slot.pointee.buffer.mAudioData)
        Foundation.free(slot.pointee.buffer.mPacketDescriptions)
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

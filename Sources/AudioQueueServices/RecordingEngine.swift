import AudioToolbox
import AudioTypes
import Foundation
import Synchronization

/// Everything the device thread does for a recording queue, in one file: fill the buffers handed
/// over through `incoming` with captured frames (Float32 from the I/O unit, stored in the queue's
/// format), hand full ones back through `finished` with their start time, and post `wake`.
/// Frames that arrive while no buffer is enqueued are dropped and counted. It allocates nothing,
/// takes no lock and never waits.
final class RecordingEngine: @unchecked Sendable {
    let format: QueueSampleFormat
    let incoming: PointerRing
    let finished: PointerRing
    let wake: UnsafeMutablePointer<sem_t>
    let meter: LevelMeter
    let meteringEnabled = Atomic<Bool>(false)
    /// Frames captured since Start (the queue's sample time) and frames dropped for want of a buffer.
    let framesCaptured = Atomic<Int>(0)
    let framesDropped = Atomic<Int>(0)
    let renderThread = Atomic<UInt>(0)

    private var current: UnsafeMutablePointer<QueueBufferSlot>?
    private var position = 0
    private var capacityFrames = 0

    /// Thread: setup.
    init(format: QueueSampleFormat, capacity: Int, wake: UnsafeMutablePointer<sem_t>) {
        self.format = format
        incoming = PointerRing(capacity: capacity)
        finished = PointerRing(capacity: capacity)
        self.wake = wake
        meter = LevelMeter(channels: format.channels)
    }

    /// Stores `frames` captured frames (non-interleaved Float32, one buffer per channel).
    ///
    /// Thread: render.
    func capture(frames: Int, from data: UnsafeMutablePointer<AudioBufferList>, sampleTime: Int) {
        renderThread.store(UInt(pthread_self()), ordering: .relaxed)
        let channels = UnsafeMutableAudioBufferListPointer(data)
        if meteringEnabled.load(ordering: .relaxed) {
            meter.accumulate(channels, offset: 0, frames: frames)
            meter.publish()
        }
        var done = 0
        while done < frames {
            if current == nil, !takeNextBuffer(sampleTime: sampleTime + done) { break }
            // A buffer smaller than one frame (AudioQueueAllocateBuffer(q, 1, …)) was returned
            // at once by takeNextBuffer: take the next one (current! trapped on the device thread).
            guard let slot = current else { continue }
            let n = min(frames - done, capacityFrames - position)
            let out = slot.pointee.buffer.mAudioData
            for f in 0..<n {
                for c in 0..<format.channels {
                    let sample = c < channels.count ? channels[c].mData!.assumingMemoryBound(to: Float.self)[done + f] : 0
                    format.store(sample, out, (position + f) * format.channels + c)
                }
            }
            position += n
            done += n
            if position >= capacityFrames { finishCurrent() }
        }
        if done < frames { framesDropped.add(frames - done, ordering: .relaxed) }
        framesCaptured.add(frames, ordering: .releasing)
    }

    /// Returns the partly filled buffer (with what it holds) and every waiting one (empty).
    /// Only while no capture call runs (device stopped).
    ///
    /// Thread: setup.
    func returnEverything() {
        if current != nil { finishCurrent(post: false) }
        while let pointer = incoming.pop() {
            let slot = pointer.assumingMemoryBound(to: QueueBufferSlot.self)
            slot.pointee.buffer.mAudioDataByteSize = 0
            slot.pointee.buffer.mPacketDescriptionCount = 0
            _ = finished.push(pointer)
        }
    }

    @inline(__always)
    private func takeNextBuffer(sampleTime: Int) -> Bool {
        guard let pointer = incoming.pop() else { return false }
        let slot = pointer.assumingMemoryBound(to: QueueBufferSlot.self)
        capacityFrames = Int(slot.pointee.capacity) / format.bytesPerFrame
        position = 0
        var time = AudioTimeStamp()
        time.mSampleTime = Double(sampleTime)
        time.mFlags = .sampleTimeValid
        slot.pointee.startTime = time
        current = slot
        if capacityFrames == 0 { finishCurrent() }
        return true
    }

    @inline(__always)
    private func finishCurrent(post: Bool = true) {
        guard let slot = current else { return }
        current = nil
        slot.pointee.buffer.mAudioDataByteSize = UInt32(position * format.bytesPerFrame)
        slot.pointee.buffer.mPacketDescriptionCount = 0
        _ = finished.push(UnsafeMutableRawPointer(slot))
        if post { sem_post(wake) }
    }
}

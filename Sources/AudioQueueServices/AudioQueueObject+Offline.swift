import AudioToolbox
import AudioTypes
import Foundation

extension AudioQueueObject {
    /// Enters offline mode for `format` (nil leaves it).
    ///
    /// Thread: setup.
    func setOfflineRenderFormat(_ format: AudioStreamBasicDescription?) throws {
        guard direction == .output else {
            throw AudioError(kAudioQueueErr_InvalidQueueType, "Offline render is for playback queues (this one records).")
        }
        try lock.withLock {
            guard !isRunning, unit == nil else {
                throw AudioError(kAudioQueueErr_InvalidRunState, "Set the offline render format while the queue is stopped.")
            }
            let renderer = try format.map { try OfflineRenderer(queue: self, format: $0) }
            offline?.dispose()
            offline = renderer
            playback!.drainFrames.store(0, ordering: .relaxed)  // no device buffer to play out
        }
    }

    /// Renders `frames` frames into `buffer` in the offline format, then returns finished buffers
    /// to the callback on this thread.
    ///
    /// Thread: setup (the app's rendering thread).
    func offlineRender(time: AudioTimeStamp, into buffer: UnsafeMutablePointer<AudioQueueBuffer>?, frames: UInt32) throws {
        let (renderer, slot): (OfflineRenderer, UnsafeMutablePointer<QueueBufferSlot>) = try lock.withLock {
            guard let offline else {
                throw AudioError(kAudioQueueErr_InvalidOfflineMode, "AudioQueueOfflineRender needs AudioQueueSetOfflineRenderFormat first.")
            }
            guard hasStarted else { throw AudioError(kAudioQueueErr_InvalidRunState, "Start the queue before rendering it offline.") }
            let slot = try self.slot(buffer)
            let needed = Int(frames) * Int(offline.outputFormat.mBytesPerFrame)
            guard needed <= Int(slot.pointee.capacity) else {
                throw AudioError(
                    kAudio_ParamError,
                    "\(frames) frames need \(needed) bytes; the buffer holds \(slot.pointee.capacity).")
            }
            return (offline, slot)
        }
        slot.pointee.buffer.mAudioDataByteSize = 0
        guard frames > 0, lock.withLock({ isRunning }) else { return }  // a stopped queue renders nothing
        let produced = try renderer.render(engine: playback!, time: time, frames: Int(frames), into: slot.pointee.buffer.mAudioData)
        slot.pointee.buffer.mAudioDataByteSize = UInt32(produced) * renderer.outputFormat.mBytesPerFrame
        deliverFinishedBuffers()
        completeStopIfDrained()
    }
}

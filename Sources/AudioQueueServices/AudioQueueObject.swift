import AudioToolbox
import AudioTypes
import Foundation
import Synchronization

/// One audio queue (an AudioQueueRef): its format, buffers, callbacks, the thread that calls
/// them, and the I/O unit it runs on while started. Setup calls take `lock`; the device thread
/// only talks to the queue's engine (PlaybackEngine / RecordingEngine) through lock-free rings.
public final class AudioQueueObject: @unchecked Sendable {
    enum Direction { case output, input }
    /// At most this many buffers per queue (the rings are sized for it at creation).
    static let maximumBuffers = 1024

    let direction: Direction
    let streamDescription: AudioStreamBasicDescription
    let format: QueueSampleFormat
    let outputCallback: AudioQueueOutputCallback?
    let inputCallback: AudioQueueInputCallback?
    let userData: UnsafeMutableRawPointer?
    /// A queue created with a run loop calls its callbacks there, in its mode, as on Apple (nil:
    /// on the callback thread). Offline render still calls them on OfflineRender's caller.
    let runLoopCallbacks: RunLoopCallbacks?
    let playback: PlaybackEngine?
    /// Compressed playback queues: decodes each buffer when it is enqueued (nil for PCM).
    let decoder: QueueDecoder?
    let recording: RecordingEngine?
    let wake: UnsafeMutablePointer<sem_t>
    let lock = NSLock()

    // Under `lock`.
    var slots: Set<UnsafeMutableRawPointer> = []
    var unit: AudioUnit?
    var captureContext: CaptureContext?
    var deviceName = "default"
    var isRunning = false
    var isPaused = false
    var hasStarted = false
    var stoppingAfterQueued = false
    var listeners: [(id: AudioQueuePropertyID, proc: AudioQueuePropertyListenerProc, userData: UnsafeMutableRawPointer?)] = []
    var magicCookie: [UInt8] = []
    var channelLayout: [UInt8] = []
    var decodeBufferSizeFrames: UInt32 = 2048
    var timelines: [UnsafeMutableRawPointer: Bool] = [:]
    var offline: OfflineRenderer?
    var volume: Float = 1, rampTime: Float = 0, pan: Float = 0, playRate: Float = 1, pitch: Float = 0
    var timePitchAlgorithm = kAudioQueueTimePitchAlgorithm_TimeDomain
    var framesEnqueued = 0

    /// True while the queue expects its I/O unit to run: an IsRunning change meanwhile sets
    /// `deviceFailed` for the callback thread, which reads IsRunning (0: the device failed).
    let unitShouldRun = Atomic<Bool>(false)
    let deviceFailed = Atomic<Bool>(false)
    /// Set while Stop(true), Reset or Dispose hands buffers back: Enqueue is refused meanwhile.
    let resetting = Atomic<Bool>(false)
    let exiting = Atomic<Bool>(false)
    /// The callback thread's id, and barriers it acknowledges once it has returned every buffer.
    let callbackThreadID = Atomic<UInt>(0)
    let barrierRequests = Atomic<Int>(0)
    let barrierDone: UnsafeMutablePointer<sem_t>
    /// The callback thread, joined by Dispose: once joined, nothing of it is left (its Swift
    /// context and thread-local values are freed before pthread_join returns).
    var callbackThread = pthread_t()

    /// Thread: setup.
    init(
        direction: Direction, format description: AudioStreamBasicDescription, output: AudioQueueOutputCallback?,
        input: AudioQueueInputCallback?, userData: UnsafeMutableRawPointer?, runLoop: RunLoopCallbacks? = nil
    ) throws {
        self.direction = direction
        streamDescription = description
        if QueueDecoder.decodes(description) {
            guard direction == .output else {
                throw AudioError(
                    kAudioFileUnsupportedDataFormatError,
                    "Audio queue format '\(FourCC.string(description.mFormatID))': recording queues record linear PCM (encoding is not offered)."
                )
            }
            let decoder = try QueueDecoder(description)
            self.decoder = decoder
            format = try QueueSampleFormat(decoder.pcmFormat)
        } else {
            decoder = nil
            format = try QueueSampleFormat(description)
        }
        outputCallback = output
        inputCallback = input
        self.userData = userData
        runLoopCallbacks = runLoop
        wake = .allocate(capacity: 1)
        sem_init(wake, 0, 0)
        barrierDone = .allocate(capacity: 1)
        sem_init(barrierDone, 0, 0)
        let capacity = Self.maximumBuffers
        playback = direction == .output ? PlaybackEngine(format: format, capacity: capacity, wake: wake) : nil
        recording = direction == .input ? RecordingEngine(format: format, capacity: capacity, wake: wake) : nil
    }

    deinit {
        sem_destroy(wake)
        wake.deallocate()
        sem_destroy(barrierDone)
        barrierDone.deallocate()
    }

    /// The AudioQueueRef of this queue.
    ///
    /// Thread: any.
    var handle: OpaquePointer { OpaquePointer(Unmanaged.passUnretained(self).toOpaque()) }

    /// Whether the calling thread is the queue's callback thread.
    ///
    /// Thread: any.
    var onCallbackThread: Bool { callbackThreadID.load(ordering: .acquiring) == UInt(pthread_self()) }

    // MARK: the callback thread

    /// Starts the thread that returns buffers to the app (callbacks never run on the device thread).
    ///
    /// Thread: setup.
    func startCallbackThread() {
        // A joinable pthread (Foundation's Thread cannot be joined): the thread holds the queue
        // (+1) until its loop ends.
        let queue = Unmanaged.passRetained(self).toOpaque()
        pthread_create(
            &callbackThread, nil,
            { arg in
                let queue = Unmanaged<AudioQueueObject>.fromOpaque(arg!).takeRetainedValue()
                queue.runCallbackLoop()
                return nil
            }, queue)
    }

    /// Returns finished buffers to the app until Dispose asks the thread to exit.
    ///
    /// Thread: the callback thread.
    private func runCallbackLoop() {
        callbackThreadID.store(UInt(pthread_self()), ordering: .releasing)
        while true {
            while sem_wait(wake) != 0 {}
            if exiting.load(ordering: .acquiring) { break }
            if lock.withLock({ offline != nil }) { continue }  // OfflineRender returns buffers itself
            deliverFinishedBuffers()
            completeStopIfDrained()
            stopAfterDeviceFailure()
            acknowledgeBarriers()
        }
        acknowledgeBarriers()
        // The message a callback's failed call left is freed by a thread-exit destructor: free it
        // now, while the thread is still the queue's.
        LastErrorMessage.set(nil)
    }

    /// Calls the app's callback with every buffer the engine finished.
    ///
    /// Thread: the callback thread (or OfflineRender's caller in offline mode).
    func deliverFinishedBuffers() {
        let ring = playback?.finished ?? recording!.finished
        while let pointer = ring.pop() {
            let slot = pointer.assumingMemoryBound(to: QueueBufferSlot.self)
            // Read under the lock that marks it returned: from then on another thread may free
            // it (AudioQueueDevice fuzzing: FreeBuffer between the two read the freed slot).
            let (frames, startTime) = lock.withLock {
                slot.pointee.enqueued = 0
                return (slot.pointee.buffer.mAudioDataByteSize / UInt32(format.bytesPerFrame), slot.pointee.startTime)
            }
            let buffer = UnsafeMutableRawPointer(slot).assumingMemoryBound(to: AudioQueueBuffer.self)
            if let runLoopCallbacks, onCallbackThread {
                runLoopCallbacks.post { [self] in callBack(buffer, frames: frames, startTime: startTime) }
            } else {
                callBack(buffer, frames: frames, startTime: startTime)
            }
        }
    }

    /// Calls the app's output or input callback with `buffer`.
    ///
    /// Thread: the callback thread, the queue's run loop, or OfflineRender's caller.
    private func callBack(_ buffer: AudioQueueBufferRef, frames: UInt32, startTime: AudioTimeStamp) {
        if let outputCallback {
            outputCallback(userData, handle, buffer)
        } else if let inputCallback {
            withUnsafePointer(to: startTime) { time in inputCallback(userData, handle, buffer, time, frames, nil) }
        }
    }

    private func acknowledgeBarriers() {
        while barrierRequests.load(ordering: .acquiring) > 0 {
            barrierRequests.subtract(1, ordering: .acquiringAndReleasing)
            sem_post(barrierDone)
        }
    }

    /// Waits until the callback thread has returned every finished buffer (at once when called on
    /// the callback thread itself, which then returns them inline).
    ///
    /// Thread: setup.
    func waitForCallbacks() {
        if onCallbackThread || exiting.load(ordering: .acquiring) {
            if onCallbackThread { deliverFinishedBuffers() }
            return
        }
        if lock.withLock({ offline != nil }) {
            deliverFinishedBuffers()
            return
        }
        barrierRequests.add(1, ordering: .acquiringAndReleasing)
        sem_post(wake)
        while sem_wait(barrierDone) != 0 {}
    }

    // MARK: running state

    /// Tells the listeners of `id`.
    ///
    /// Thread: setup (never the device thread).
    func notify(_ id: AudioQueuePropertyID) {
        let targets = lock.withLock { listeners.filter { $0.id == id } }
        for listener in targets { listener.proc(listener.userData, handle, id) }
    }

    /// Marks every timeline discontinuous (a stop, reset or failure broke the queue's time).
    ///
    /// Thread: setup, under `lock`.
    func markDiscontinuity() {
        for key in timelines.keys { timelines[key] = true }
    }

    /// After Stop(false) on a playback queue: once the engine has played everything, stop the
    /// device and tell the IsRunning listeners.
    ///
    /// Thread: the callback thread, or OfflineRender's caller.
    func completeStopIfDrained() {
        guard let playback, playback.drained.load(ordering: .acquiring) == 1 else { return }
        let wasRunning: Bool = lock.withLock {
            guard stoppingAfterQueued else { return false }
            stoppingAfterQueued = false
            closeDevice()
            playback.stopAfterQueued.store(0, ordering: .relaxed)
            playback.drained.store(0, ordering: .relaxed)
            decoder?.reset()  // a later Start plays a new stream
            markDiscontinuity()
            let was = isRunning
            isRunning = false
            isPaused = false
            return was
        }
        deliverFinishedBuffers()
        if wasRunning { notify(kAudioQueueProperty_IsRunning) }
    }

    /// After the device failed under a running queue: close it, return every buffer, and tell
    /// the IsRunning listeners (AUHostCopyLastErrorMessage on a later Start says why).
    ///
    /// Thread: the callback thread.
    func stopAfterDeviceFailure() {
        guard deviceFailed.exchange(false, ordering: .acquiringAndReleasing) else { return }
        let wasRunning: Bool = lock.withLock {
            guard let unit, unitShouldRun.load(ordering: .acquiring) else { return false }
            var running: UInt32 = 1
            var size = UInt32(4)
            let status = AudioUnitGetProperty(unit, kAudioOutputUnitProperty_IsRunning, kAudioUnitScope_Global, 0, &running, &size)
            guard status == noErr, running == 0 else { return false }  // a start, not a failure
            closeDevice()
            playback?.returnEverything()
            recording?.returnEverything()
            stoppingAfterQueued = false
            framesEnqueued = 0
            decoder?.reset()
            markDiscontinuity()
            defer {
                isRunning = false
                isPaused = false
            }
            return isRunning
        }
        deliverFinishedBuffers()
        if wasRunning { notify(kAudioQueueProperty_IsRunning) }
    }

    // MARK: buffers

    /// The slot behind `buffer`, if this queue allocated it.
    ///
    /// Thread: setup, under `lock`.
    func slot(_ buffer: UnsafeMutablePointer<AudioQueueBuffer>?) throws -> UnsafeMutablePointer<QueueBufferSlot> {
        guard let buffer, slots.contains(UnsafeMutableRawPointer(buffer)) else {
            throw AudioError(kAudioQueueErr_InvalidBuffer, "The AudioQueueBufferRef is NULL, freed, or belongs to another queue.")
        }
        return UnsafeMutableRawPointer(buffer).assumingMemoryBound(to: QueueBufferSlot.self)
    }

    /// Thread: setup.
    func allocateBuffer(bytes: UInt32, packetDescriptions: UInt32) throws -> UnsafeMutablePointer<AudioQueueBuffer> {
        try lock.withLock {
            guard slots.count < Self.maximumBuffers else {
                throw AudioError(kAudioQueueErr_InvalidBuffer, "An audio queue holds at most \(Self.maximumBuffers) buffers.")
            }
            guard bytes > 0 else { throw AudioError(kAudio_ParamError, "AudioQueueAllocateBuffer needs a size above 0 bytes.") }
            guard
                let slot = QueueBufferSlot.allocate(
                    owner: Unmanaged.passUnretained(self).toOpaque(), capacity: bytes, packetDescriptions: packetDescriptions)
            else {
                throw AudioError(
                    kAudio_MemFullError, "No memory for a buffer of \(bytes) bytes and \(packetDescriptions) packet descriptions.")
            }
            slots.insert(UnsafeMutableRawPointer(slot))
            return UnsafeMutableRawPointer(slot).assumingMemoryBound(to: AudioQueueBuffer.self)
        }
    }

    /// Thread: setup.
    func freeBuffer(_ buffer: UnsafeMutablePointer<AudioQueueBuffer>?) throws {
        try lock.withLock {
            let slot = try slot(buffer)
            guard slot.pointee.enqueued == 0 else {
                throw AudioError(
                    kAudioQueueErr_BufferInQueue, "The buffer is still enqueued; free it after the queue returns it (or after Stop/Reset).")
            }
            slots.remove(UnsafeMutableRawPointer(slot))
            QueueBufferSlot.free(slot)
        }
    }

    /// Hands `buffer` to the engine with its trims and parameter events.
    ///
    /// Thread: setup (any thread but the device's).
    func enqueue(
        _ buffer: UnsafeMutablePointer<AudioQueueBuffer>?,
        descriptions: UnsafeBufferPointer<AudioStreamPacketDescription> = UnsafeBufferPointer(start: nil, count: 0),
        trimStart: UInt32 = 0, trimEnd: UInt32 = 0,
        events: UnsafeBufferPointer<AudioQueueParameterEvent> = UnsafeBufferPointer(start: nil, count: 0)
    ) throws {
        guard !resetting.load(ordering: .acquiring) else {
            throw AudioError(kAudioQueueErr_EnqueueDuringReset, "Buffers cannot be enqueued during Stop, Reset or Dispose.")
        }
        try lock.withLock {
            let slot = try slot(buffer)
            guard slot.pointee.enqueued == 0 else {
                throw AudioError(kAudioQueueErr_BufferEnqueuedTwice, "The buffer is already enqueued (wait for the callback to return it).")
            }
            slot.pointee.volume = .nan
            slot.pointee.pan = .nan
            slot.pointee.rampTime = .nan
            slot.pointee.trimStart = trimStart
            slot.pointee.trimEnd = trimEnd
            if direction == .output {
                guard slot.pointee.buffer.mAudioDataByteSize > 0 else {
                    throw AudioError(kAudioQueueErr_BufferEmpty, "The buffer's mAudioDataByteSize is 0: fill it before enqueueing.")
                }
                guard slot.pointee.buffer.mAudioDataByteSize <= slot.pointee.capacity else {
                    throw AudioError(
                        kAudioQueueErr_InvalidBuffer,
                        "mAudioDataByteSize \(slot.pointee.buffer.mAudioDataByteSize) exceeds the buffer's capacity \(slot.pointee.capacity)."
                    )
                }
                slot.pointee.enqueuedBytes = slot.pointee.buffer.mAudioDataByteSize
                for event in events {
                    switch event.mID {
                    case kAudioQueueParam_Volume: slot.pointee.volume = try Self.checked(event.mID, event.mValue)
                    case kAudioQueueParam_Pan: slot.pointee.pan = try Self.checked(event.mID, event.mValue)
                    case kAudioQueueParam_VolumeRampTime: slot.pointee.rampTime = try Self.checked(event.mID, event.mValue)
                    default:
                        throw AudioError(
                            kAudioQueueErr_InvalidParameter,
                            "Parameter \(event.mID) cannot travel with a buffer here (Volume, VolumeRampTime and Pan can).")
                    }
                }
                if let decoder {
                    // The buffer's own descriptions serve when none are passed (as Apple documents).
                    let own = UnsafeBufferPointer(
                        start: slot.pointee.buffer.mPacketDescriptions,
                        count: Int(min(slot.pointee.buffer.mPacketDescriptionCount, slot.pointee.buffer.mPacketDescriptionCapacity)))
                    framesEnqueued += try decoder.decode(slot, descriptions: descriptions.isEmpty ? own : descriptions)
                } else {
                    framesEnqueued += Int(slot.pointee.buffer.mAudioDataByteSize) / format.bytesPerFrame
                }
            } else {
                slot.pointee.buffer.mAudioDataByteSize = 0
            }
            slot.pointee.enqueued = 1
            let ring = playback?.incoming ?? recording!.incoming
            _ = ring.push(UnsafeMutableRawPointer(slot))  // capacity = maximumBuffers: never full
        }
    }

    /// A parameter value in its documented range, or kAudioQueueErr_InvalidParameter.
    ///
    /// Thread: any.
    static func checked(_ id: AudioQueueParameterID, _ value: Float) throws -> Float {
        let range: ClosedRange<Float>
        switch id {
        case kAudioQueueParam_Volume: range = 0...1
        case kAudioQueueParam_Pan: range = -1...1
        case kAudioQueueParam_VolumeRampTime: range = 0...3600
        case kAudioQueueParam_PlayRate: range = 0.5...2
        case kAudioQueueParam_Pitch: range = -2400...2400
        default: throw AudioError(kAudioQueueErr_InvalidParameter, "Audio queue parameter \(id) does not exist.")
        }
        guard range.contains(value) else {
            throw AudioError(kAudioQueueErr_InvalidParameter, "Audio queue parameter \(id) = \(value) is outside \(range).")
        }
        return value
    }

    /// Frees every buffer. Only once the device and callback thread are gone.
    ///
    /// Thread: setup.
    func freeAllBuffers() {
        for pointer in slots { QueueBufferSlot.free(pointer.assumingMemoryBound(to: QueueBufferSlot.self)) }
        slots.removeAll()
    }
}

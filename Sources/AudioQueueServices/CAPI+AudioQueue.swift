import AudioToolbox
import AudioTypes
import Foundation

// Audio Queue Services' C API (AudioQueue.h). Each function checks its handle against the live
// queues, runs the Swift implementation and turns errors into the documented status, leaving the
// sentence for AUHostCopyLastErrorMessage.

/// The queues alive now (an AudioQueueRef is checked against it on every call).
enum AudioQueueHandles {
    static let lock = NSLock()
    nonisolated(unsafe) static var live: Set<OpaquePointer> = []

    /// The queue behind `handle`, or kAudio_ParamError naming the problem.
    ///
    /// Thread: any.
    static func queue(_ handle: OpaquePointer?) throws -> AudioQueueObject {
        guard let handle, lock.withLock({ live.contains(handle) }) else {
            throw AudioError(kAudio_ParamError, "The AudioQueueRef is NULL or was disposed.")
        }
        return Unmanaged<AudioQueueObject>.fromOpaque(UnsafeRawPointer(handle)).takeUnretainedValue()
    }
}

func newQueue(
    _ format: UnsafePointer<AudioStreamBasicDescription>?, output: AudioQueueOutputCallback?, input: AudioQueueInputCallback?,
    _ userData: UnsafeMutableRawPointer?, runLoop: OpaquePointer?, mode: UnsafeRawPointer?, _ flags: UInt32,
    _ out: UnsafeMutablePointer<OpaquePointer?>?
) -> OSStatus {
    guard let out else { return kAudio_ParamError }
    out.pointee = nil
    return LastErrorMessage.status {
        guard let format else { throw AudioError(kAudio_ParamError, "The queue needs a stream format (inFormat is NULL).") }
        guard output != nil || input != nil else { throw AudioError(kAudio_ParamError, "The queue needs a callback.") }
        guard flags == 0 else { throw AudioError(kAudio_ParamError, "inFlags must be 0 (it is \(flags)).") }
        let callbacks = runLoop.map { RunLoopCallbacks(runLoop: $0, mode: mode) }
        let queue: AudioQueueObject
        do {
            queue = try AudioQueueObject(
                direction: output != nil ? .output : .input, format: format.pointee, output: output, input: input, userData: userData,
                runLoop: callbacks)
        } catch {
            callbacks?.cancel()
            throw error
        }
        queue.startCallbackThread()
        let handle = OpaquePointer(Unmanaged.passRetained(queue).toOpaque())
        AudioQueueHandles.lock.withLock { _ = AudioQueueHandles.live.insert(handle) }
        out.pointee = handle
    }
}

/// Runs `body` with the queue behind `handle`. Thread: per function.
func withQueue(_ handle: OpaquePointer?, _ body: (AudioQueueObject) throws -> Void) -> OSStatus {
    LastErrorMessage.status { try body(try AudioQueueHandles.queue(handle)) }
}

/// Thread: setup. A run loop given: callbacks are posted to it (RunLoopCallbacks).
@_cdecl("AudioQueueNewOutput")
public func _AudioQueueNewOutput(
    _ format: UnsafePointer<AudioStreamBasicDescription>?, _ callback: AudioQueueOutputCallback?, _ userData: UnsafeMutableRawPointer?,
    _ runLoop: OpaquePointer?, _ mode: UnsafeRawPointer?, _ flags: UInt32, _ out: UnsafeMutablePointer<OpaquePointer?>?
) -> OSStatus {
    guard callback != nil else { return kAudio_ParamError }
    return newQueue(format, output: callback, input: nil, userData, runLoop: runLoop, mode: mode, flags, out)
}

/// Thread: setup. A run loop given: callbacks are posted to it (RunLoopCallbacks).
@_cdecl("AudioQueueNewInput")
public func _AudioQueueNewInput(
    _ format: UnsafePointer<AudioStreamBasicDescription>?, _ callback: AudioQueueInputCallback?, _ userData: UnsafeMutableRawPointer?,
    _ runLoop: OpaquePointer?, _ mode: UnsafeRawPointer?, _ flags: UInt32, _ out: UnsafeMutablePointer<OpaquePointer?>?
) -> OSStatus {
    guard callback != nil else { return kAudio_ParamError }
    return newQueue(format, output: nil, input: callback, userData, runLoop: runLoop, mode: mode, flags, out)
}

@_cdecl("AudioQueueDispose")
public func _AudioQueueDispose(_ handle: OpaquePointer?, _ immediate: UInt8) -> OSStatus {
    withQueue(handle) { queue in
        guard AudioQueueHandles.lock.withLock({ AudioQueueHandles.live.remove(handle!) }) != nil else {
            throw AudioError(kAudioQueueErr_DisposalPending, "The queue is already being disposed.")
        }
        queue.dispose()
    }
}

/// Thread: setup.
@_cdecl("AudioQueueAllocateBuffer")
public func _AudioQueueAllocateBuffer(
    _ handle: OpaquePointer?, _ bytes: UInt32, _ out: UnsafeMutablePointer<UnsafeMutablePointer<AudioQueueBuffer>?>?
) -> OSStatus {
    _AudioQueueAllocateBufferWithPacketDescriptions(handle, bytes, 0, out)
}

/// Thread: setup.
@_cdecl("AudioQueueAllocateBufferWithPacketDescriptions")
public func _AudioQueueAllocateBufferWithPacketDescriptions(
    _ handle: OpaquePointer?, _ bytes: UInt32, _ descriptions: UInt32, _ out: UnsafeMutablePointer<UnsafeMutablePointer<AudioQueueBuffer>?>?
) -> OSStatus {
    guard let out else { return kAudio_ParamError }
    out.pointee = nil
    return withQueue(handle) { queue in
        // The bounds of AudioQueue.h: a UInt32 size from the caller sized the allocation as given
        // (0xFFFFFFFF descriptions asked for 64 GiB and aborted the process).
        guard bytes <= kAUHostAudioQueueMaximumBufferByteSize else {
            throw AudioError(
                kAudio_MemFullError,
                "AudioQueueAllocateBuffer: \(bytes) bytes is more than one buffer holds (at most \(kAUHostAudioQueueMaximumBufferByteSize), AudioQueue.h)."
            )
        }
        guard descriptions <= kAUHostAudioQueueMaximumPacketDescriptions else {
            throw AudioError(
                kAudio_MemFullError,
                "AudioQueueAllocateBufferWithPacketDescriptions: \(descriptions) packet descriptions is more than one buffer holds (at most \(kAUHostAudioQueueMaximumPacketDescriptions), AudioQueue.h)."
            )
        }
        out.pointee = try queue.allocateBuffer(bytes: bytes, packetDescriptions: descriptions)
    }
}

@_cdecl("AudioQueueFreeBuffer")
public func _AudioQueueFreeBuffer(_ handle: OpaquePointer?, _ buffer: UnsafeMutablePointer<AudioQueueBuffer>?) -> OSStatus {
    withQueue(handle) { try $0.freeBuffer(buffer) }
}

@_cdecl("AudioQueueEnqueueBuffer")
public func _AudioQueueEnqueueBuffer(
    _ handle: OpaquePointer?, _ buffer: UnsafeMutablePointer<AudioQueueBuffer>?, _ descriptionCount: UInt32,
    _ descriptions: UnsafePointer<AudioStreamPacketDescription>?
) -> OSStatus {
    withQueue(handle) { queue in
        guard descriptionCount == 0 || descriptions != nil else {
            throw AudioError(kAudio_ParamError, "inPacketDescs is NULL but inNumPacketDescs is \(descriptionCount).")
        }
        try queue.enqueue(buffer, descriptions: UnsafeBufferPointer(start: descriptions, count: Int(descriptionCount)))
    }
}

@_cdecl("AudioQueueEnqueueBufferWithParameters")
public func _AudioQueueEnqueueBufferWithParameters(
    _ handle: OpaquePointer?, _ buffer: UnsafeMutablePointer<AudioQueueBuffer>?, _ descriptionCount: UInt32,
    _ descriptions: UnsafePointer<AudioStreamPacketDescription>?, _ trimStart: UInt32, _ trimEnd: UInt32, _ eventCount: UInt32,
    _ events: UnsafePointer<AudioQueueParameterEvent>?, _ startTime: UnsafePointer<AudioTimeStamp>?,
    _ actualStartTime: UnsafeMutablePointer<AudioTimeStamp>?
) -> OSStatus {
    withQueue(handle) { queue in
        if let startTime, startTime.pointee.mFlags.rawValue != 0 {
            throw AudioError(
                kAudioQueueErr_InvalidParameter, "Scheduled start times are not offered: pass NULL (or a time stamp with no valid fields).")
        }
        guard eventCount == 0 || events != nil else {
            throw AudioError(kAudio_ParamError, "inParamValues is NULL but inNumParamValues is \(eventCount).")
        }
        guard descriptionCount == 0 || descriptions != nil else {
            throw AudioError(kAudio_ParamError, "inPacketDescs is NULL but inNumPacketDescs is \(descriptionCount).")
        }
        try queue.enqueue(
            buffer, descriptions: UnsafeBufferPointer(start: descriptions, count: Int(descriptionCount)), trimStart: trimStart,
            trimEnd: trimEnd, events: UnsafeBufferPointer(start: events, count: Int(eventCount)))
        if let actualStartTime { actualStartTime.pointee = AudioTimeStamp() }
    }
}

@_cdecl("AudioQueueStart")
public func _AudioQueueStart(_ handle: OpaquePointer?, _ startTime: UnsafePointer<AudioTimeStamp>?) -> OSStatus {
    withQueue(handle) { queue in
        if let startTime, startTime.pointee.mFlags.rawValue != 0 {
            throw AudioError(kAudioQueueErr_InvalidParameter, "Scheduled starts are not offered: pass NULL to start now.")
        }
        try queue.start()
    }
}

@_cdecl("AudioQueuePrime")
public func _AudioQueuePrime(_ handle: OpaquePointer?, _ frames: UInt32, _ prepared: UnsafeMutablePointer<UInt32>?) -> OSStatus {
    withQueue(handle) { queue in
        let ready = queue.prime(frames: frames)
        prepared?.pointee = ready
    }
}

@_cdecl("AudioQueueStop")
public func _AudioQueueStop(_ handle: OpaquePointer?, _ immediate: UInt8) -> OSStatus {
    withQueue(handle) { try $0.stop(immediately: immediate != 0) }
}

@_cdecl("AudioQueuePause")
public func _AudioQueuePause(_ handle: OpaquePointer?) -> OSStatus {
    withQueue(handle) { try $0.pause() }
}

@_cdecl("AudioQueueFlush")
public func _AudioQueueFlush(_ handle: OpaquePointer?) -> OSStatus {
    withQueue(handle) { _ in }  // PCM holds nothing back: everything enqueued will play
}

@_cdecl("AudioQueueReset")
public func _AudioQueueReset(_ handle: OpaquePointer?) -> OSStatus {
    withQueue(handle) { try $0.reset() }
}

@_cdecl("AudioQueueGetParameter")
public func _AudioQueueGetParameter(_ handle: OpaquePointer?, _ id: UInt32, _ out: UnsafeMutablePointer<Float32>?) -> OSStatus {
    withQueue(handle) { queue in
        guard let out else { throw AudioError(kAudio_ParamError, "outValue is NULL.") }
        out.pointee = try queue.parameter(id)
    }
}

@_cdecl("AudioQueueSetParameter")
public func _AudioQueueSetParameter(_ handle: OpaquePointer?, _ id: UInt32, _ value: Float32) -> OSStatus {
    withQueue(handle) { try $0.setParameter(id, value) }
}

@_cdecl("AudioQueueGetProperty")
public func _AudioQueueGetProperty(
    _ handle: OpaquePointer?, _ id: UInt32, _ out: UnsafeMutableRawPointer?, _ ioSize: UnsafeMutablePointer<UInt32>?
) -> OSStatus {
    withQueue(handle) { queue in
        guard let out, let ioSize else { throw AudioError(kAudio_ParamError, "outData and ioDataSize must not be NULL.") }
        ioSize.pointee = UInt32(try queue.getProperty(id, into: out, size: Int(ioSize.pointee)))
    }
}

@_cdecl("AudioQueueSetProperty")
public func _AudioQueueSetProperty(_ handle: OpaquePointer?, _ id: UInt32, _ data: UnsafeRawPointer?, _ size: UInt32) -> OSStatus {
    withQueue(handle) { queue in
        guard let data else { throw AudioError(kAudio_ParamError, "inData is NULL.") }
        try queue.setProperty(id, data, size: Int(size))
    }
}

@_cdecl("AudioQueueGetPropertySize")
public func _AudioQueueGetPropertySize(_ handle: OpaquePointer?, _ id: UInt32, _ out: UnsafeMutablePointer<UInt32>?) -> OSStatus {
    withQueue(handle) { queue in
        guard let out else { throw AudioError(kAudio_ParamError, "outDataSize is NULL.") }
        out.pointee = UInt32(try queue.propertySize(id))
    }
}

@_cdecl("AudioQueueAddPropertyListener")
public func _AudioQueueAddPropertyListener(
    _ handle: OpaquePointer?, _ id: UInt32, _ proc: AudioQueuePropertyListenerProc?, _ userData: UnsafeMutableRawPointer?
) -> OSStatus {
    withQueue(handle) { queue in
        guard let proc else { throw AudioError(kAudio_ParamError, "inProc is NULL.") }
        _ = try queue.propertySize(id == kAudioQueueProperty_ChannelLayout ? kAudioQueueProperty_IsRunning : id)
        queue.lock.withLock { queue.listeners.append((id, proc, userData)) }
    }
}

@_cdecl("AudioQueueRemovePropertyListener")
public func _AudioQueueRemovePropertyListener(
    _ handle: OpaquePointer?, _ id: UInt32, _ proc: AudioQueuePropertyListenerProc?, _ userData: UnsafeMutableRawPointer?
) -> OSStatus {
    withQueue(handle) { queue in
        guard let proc else { throw AudioError(kAudio_ParamError, "inProc is NULL.") }
        let key = unsafeBitCast(proc, to: UnsafeRawPointer.self)
        let removed: Bool = queue.lock.withLock {
            guard
                let index = queue.listeners.firstIndex(where: {
                    $0.id == id && unsafeBitCast($0.proc, to: UnsafeRawPointer.self) == key && $0.userData == userData
                })
            else { return false }
            queue.listeners.remove(at: index)
            return true
        }
        guard removed else { throw AudioError(kAudio_ParamError, "No such listener is registered for '\(FourCC.string(id))'.") }
    }
}

@_cdecl("AudioQueueCreateTimeline")
public func _AudioQueueCreateTimeline(_ handle: OpaquePointer?, _ out: UnsafeMutablePointer<OpaquePointer?>?) -> OSStatus {
    guard let out else { return kAudio_ParamError }
    out.pointee = nil
    return withQueue(handle) { queue in
        let timeline = UnsafeMutableRawPointer.allocate(byteCount: 1, alignment: 1)
        queue.lock.withLock { queue.timelines[timeline] = false }
        out.pointee = OpaquePointer(timeline)
    }
}

@_cdecl("AudioQueueDisposeTimeline")
public func _AudioQueueDisposeTimeline(_ handle: OpaquePointer?, _ timeline: OpaquePointer?) -> OSStatus {
    withQueue(handle) { queue in
        guard let timeline, queue.lock.withLock({ queue.timelines.removeValue(forKey: UnsafeMutableRawPointer(timeline)) }) != nil else {
            throw AudioError(kAudio_ParamError, "The timeline is NULL or not this queue's.")
        }
        UnsafeMutableRawPointer(timeline).deallocate()
    }
}

@_cdecl("AudioQueueGetCurrentTime")
public func _AudioQueueGetCurrentTime(
    _ handle: OpaquePointer?, _ timeline: OpaquePointer?, _ out: UnsafeMutablePointer<AudioTimeStamp>?,
    _ discontinuity: UnsafeMutablePointer<UInt8>?
) -> OSStatus {
    withQueue(handle) { queue in
        let broken: Bool = try queue.lock.withLock {
            guard queue.hasStarted else {
                throw AudioError(kAudioQueueErr_InvalidRunState, "The queue has no time before its first Start.")
            }
            guard let timeline else { return false }
            let key = UnsafeMutableRawPointer(timeline)
            guard let flag = queue.timelines[key] else { throw AudioError(kAudio_ParamError, "The timeline is not this queue's.") }
            queue.timelines[key] = false
            return flag
        }
        discontinuity?.pointee = broken ? 1 : 0
        if let out {
            var time = AudioTimeStamp()
            time.mSampleTime = Double(
                queue.playback?.framesRendered.load(ordering: .acquiring) ?? queue.recording!.framesCaptured.load(ordering: .acquiring))
            time.mFlags = .sampleTimeValid
            out.pointee = time
        }
    }
}

@_cdecl("AudioQueueSetOfflineRenderFormat")
public func _AudioQueueSetOfflineRenderFormat(
    _ handle: OpaquePointer?, _ format: UnsafePointer<AudioStreamBasicDescription>?, _ layout: UnsafePointer<AudioChannelLayout>?
) -> OSStatus {
    withQueue(handle) { try $0.setOfflineRenderFormat(format?.pointee) }
}

@_cdecl("AudioQueueOfflineRender")
public func _AudioQueueOfflineRender(
    _ handle: OpaquePointer?, _ time: UnsafePointer<AudioTimeStamp>?, _ buffer: UnsafeMutablePointer<AudioQueueBuffer>?, _ frames: UInt32
) -> OSStatus {
    withQueue(handle) { queue in
        guard let time else { throw AudioError(kAudio_ParamError, "inTimestamp is NULL.") }
        try queue.offlineRender(time: time.pointee, into: buffer, frames: frames)
    }
}

import AudioToolbox
import AudioTypes
import Foundation

extension AudioQueueObject {
    /// Starts (or resumes) the queue: opens the device on the first start after a stop.
    ///
    /// Thread: setup.
    func start() throws {
        let changed: Bool = try lock.withLock {
            if stoppingAfterQueued && isRunning {
                throw AudioError(kAudioQueueErr_InvalidRunState, "The queue is stopping (Stop(false)); wait for IsRunning to become 0.")
            }
            if !isRunning, !isPaused {
                playback?.framesRendered.store(0, ordering: .relaxed)
                recording?.framesCaptured.store(0, ordering: .relaxed)
            }
            if offline == nil {
                if let unit {
                    let status = startUnit(unit)
                    guard status == noErr else {
                        throw AudioError(
                            kAudioQueueErr_CannotStart, "The device \(deviceName) did not restart (\(status)): \(Self.lastUnitMessage)")
                    }
                } else {
                    try openDevice()
                }
            }
            hasStarted = true
            isPaused = false
            defer { isRunning = true }
            return !isRunning
        }
        if changed { notify(kAudioQueueProperty_IsRunning) }
    }

    /// Stop(true): at once, returning every buffer; Stop(false): after what is enqueued has played.
    ///
    /// Thread: setup (the callback thread too).
    func stop(immediately: Bool) throws {
        if !immediately, direction == .output {
            // Also before Start: the guide's priming may reach the end of a short file and call
            // Stop(false) from the callback; Start then plays what was queued and stops.
            let asynchronous: Bool = lock.withLock {
                guard !isPaused, !stoppingAfterQueued else { return stoppingAfterQueued }
                guard isRunning || framesEnqueued > 0 else { return false }
                stoppingAfterQueued = true
                playback!.stopAfterQueued.store(1, ordering: .releasing)
                return true
            }
            if asynchronous { return }
        }
        resetting.store(true, ordering: .releasing)
        let wasRunning: Bool = lock.withLock {
            closeDevice()
            playback?.returnEverything()
            recording?.returnEverything()
            stoppingAfterQueued = false
            framesEnqueued = 0
            decoder?.reset()  // the next buffer starts a new stream
            markDiscontinuity()
            defer {
                isRunning = false
                isPaused = false
            }
            return isRunning
        }
        waitForCallbacks()
        resetting.store(false, ordering: .releasing)
        if wasRunning { notify(kAudioQueueProperty_IsRunning) }
    }

    /// Stops the device but keeps buffers and position; Start resumes.
    ///
    /// Thread: setup.
    func pause() throws {
        try lock.withLock {
            guard isRunning else { throw AudioError(kAudioQueueErr_InvalidRunState, "Pause needs a started queue.") }
            if let unit { stopUnit(unit) }
            isPaused = true
        }
    }

    /// Returns every buffer to the callback and clears position and ramps; a running queue keeps running.
    ///
    /// Thread: setup.
    func reset() throws {
        resetting.store(true, ordering: .releasing)
        let restart: AudioUnit? = lock.withLock {
            let streaming = unit != nil && !isPaused
            if let unit { stopUnit(unit) }
            playback?.returnEverything()
            recording?.returnEverything()
            stoppingAfterQueued = false
            framesEnqueued = 0
            decoder?.reset()  // the next buffer starts a new stream
            markDiscontinuity()
            return streaming ? unit : nil
        }
        waitForCallbacks()
        lock.withLock { if let restart, unit == restart { _ = startUnit(restart) } }
        resetting.store(false, ordering: .releasing)
    }

    /// Frames waiting to play (PCM is not decoded ahead, so priming only reports them).
    ///
    /// Thread: setup.
    func prime(frames: UInt32) -> UInt32 {
        lock.withLock {
            let waiting = max(0, framesEnqueued - (playback?.framesRendered.load(ordering: .acquiring) ?? 0))
            return UInt32(clamping: frames == 0 ? waiting : min(waiting, Int(frames)))
        }
    }

    /// Stops everything, ends the callback thread and frees the buffers.
    ///
    /// Thread: setup (the callback thread too: the thread then frees the queue as it ends).
    func dispose() {
        resetting.store(true, ordering: .releasing)
        lock.withLock {
            closeDevice()
            offline?.dispose()
            offline = nil
            isRunning = false
        }
        let fromCallback = onCallbackThread
        exiting.store(true, ordering: .releasing)
        sem_post(wake)
        if fromCallback {
            disposeOnExit()
        } else {
            pthread_join(callbackThread, nil)
            runLoopCallbacks?.cancel()  // a callback running on the run loop has returned
            lock.withLock { freeAllBuffers() }
            Unmanaged.passUnretained(self).release()
        }
    }

    /// Frees the queue once the callback thread that called Dispose has returned from its callback.
    ///
    /// Thread: the callback thread.
    private func disposeOnExit() {
        let queue = Unmanaged.passUnretained(self)
        Thread.detachNewThread {
            let object = queue.takeUnretainedValue()
            pthread_join(object.callbackThread, nil)
            object.runLoopCallbacks?.cancel()
            object.lock.withLock { object.freeAllBuffers() }
            queue.release()
        }
    }
}

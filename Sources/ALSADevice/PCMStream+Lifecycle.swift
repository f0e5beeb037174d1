import AudioToolbox
import CALSA
import Glibc
import Synchronization

/// What one `start()` allocated; released by `stop()`.
struct PCMStreamRun {
    let state: UnsafeMutablePointer<EngineState>
    let ioThread: pthread_t
    let supervisor: pthread_t
    let linked: Bool
}

extension PCMStream {
    /// Starts I/O: preallocates buffers, sets each PCM non-blocking with its start threshold
    /// (playback alone: a full buffer; capture/duplex: explicit start) and avail_min = one
    /// period, links the pair if possible, then starts the I/O thread and asks for SCHED_FIFO
    /// (`schedulingWarning` tells when that was refused).
    /// After the stream stopped by itself, call `stop()` (which releases the run) before starting again.
    /// Throws `ALSAError`: `kAudioUnitErr_CannotDoInCurrentContext` if already started,
    /// `kAudioUnitErr_FailedInitialization` when a PCM refuses its parameters or no thread starts.
    /// Thread: setup (non-real-time).
    public func start() throws {
        guard run == nil else {
            throw ALSAError(
                status: OSStatus(kAudioUnitErr_CannotDoInCurrentContext),
                message: "The ALSA stream is already running; call stop() before starting it again.")
        }
        status.failure.withLock { $0 = nil }
        status.schedulingWarning.withLock { $0 = nil }
        var sides: [(PCMDevice, PCMConfiguration)] = []
        if let capture, let config = capture.configuration { sides.append((capture, config)) }
        if let playback, let config = playback.configuration { sides.append((playback, config)) }
        let duplex = sides.count == 2
        for (device, config) in sides {
            let start = device.direction == .playback && !duplex ? config.bufferFrames : device.boundary()
            try device.applySoftwareParameters(PCMSoftwareParameters(startThreshold: start, availMin: config.periodFrames))
            let pcm = try device.openHandle("starting a stream")
            let code = snd_pcm_nonblock(pcm, 1)
            if code < 0 { throw ALSAError.configuring(device.name, "non-blocking mode", code: code) }
        }
        var linked = false
        if duplex, let inp = capture?.handle, let out = playback?.handle {
            linked = snd_pcm_link(inp, out) == 0
        }
        let period = (capture ?? playback)!.configuration!.periodFrames
        let rate = (capture ?? playback)!.configuration!.sampleRate
        let bufferNanoseconds = sides.map { $0.1.bufferFrames }.max()! * 1_000_000_000 / max(rate, 1)
        let state = UnsafeMutablePointer<EngineState>.allocate(capacity: 1)
        state.initialize(
            to: EngineState(
                playback: playback.map(Self.makeSide), capture: capture.map(Self.makeSide),
                periodFrames: period, periodNanoseconds: period * 1_000_000_000 / max(rate, 1), linked: linked,
                render: render, input: input, context: context, counters: counters,
                waitMilliseconds: Int32(clamping: max(10, min(100, 4 * bufferNanoseconds / 1_000_000))),
                stallNanoseconds: max(2_000_000_000, 8 * bufferNanoseconds), xrunLimit: 8))
        counters.pointee.reset()

        var ioThread = pthread_t()
        let created = pthread_create(&ioThread, nil, engineThreadEntry, UnsafeMutableRawPointer(state))
        guard created == 0 else {
            counters.pointee.running.store(false, ordering: .releasing)
            release(state: state, linked: linked)
            throw ALSAError(
                status: OSStatus(kAudioUnitErr_FailedInitialization),
                message: "Cannot start the ALSA I/O thread: \(String(cString: strerror(created))).")
        }
        if let priority = realTimePriority {
            var param = sched_param()
            param.sched_priority = priority
            let refused = pthread_setschedparam(ioThread, Int32(SCHED_FIFO), &param)
            if refused != 0 {
                let why = String(cString: strerror(refused))
                status.schedulingWarning.withLock {
                    $0 =
                        "SCHED_FIFO priority \(priority) refused (\(why)); the ALSA I/O thread runs at normal priority, so xruns are likelier under load (grant RLIMIT_RTPRIO or CAP_SYS_NICE)."
                }
            }
        }
        let job = PCMStreamSupervisorJob(
            ioThread: ioThread, counters: counters, status: status,
            playbackName: playback?.name, captureName: capture?.name,
            onStopped: onStopped)
        var supervisor = pthread_t()
        let retained = Unmanaged.passRetained(job).toOpaque()
        let supervised = pthread_create(&supervisor, nil, supervisorThreadEntry, retained)
        if supervised != 0 {
            // No supervisor: stop and join the I/O thread here instead.
            Unmanaged<PCMStreamSupervisorJob>.fromOpaque(retained).release()
            counters.pointee.stopRequested.store(true, ordering: .relaxed)
            pthread_join(ioThread, nil)
            release(state: state, linked: linked)
            throw ALSAError(
                status: OSStatus(kAudioUnitErr_FailedInitialization),
                message: "Cannot start the ALSA supervisor thread: \(String(cString: strerror(supervised))).")
        }
        run = PCMStreamRun(state: state, ioThread: ioThread, supervisor: supervisor, linked: linked)
    }

    /// Stops I/O and returns once the I/O thread (and the thread delivering `onStopped`) has
    /// exited; drops both PCMs (they stay configured, so `start()` may be called again).
    /// Idempotent. Counters and `failure` keep their values until the next start.
    /// Thread: setup (non-real-time), or inside `onStopped`.
    public func stop() {
        guard let current = run else { return }
        run = nil
        counters.pointee.stopRequested.store(true, ordering: .relaxed)
        if pthread_equal(pthread_self(), current.supervisor) != 0 {
            // Called from onStopped: the I/O thread is already joined; let this thread free itself.
            pthread_detach(current.supervisor)
        } else {
            pthread_join(current.supervisor, nil)
        }
        counters.pointee.running.store(false, ordering: .releasing)
        release(state: current.state, linked: current.linked)
    }

    private func release(state: UnsafeMutablePointer<EngineState>, linked: Bool) {
        for device in [capture, playback].compactMap({ $0 }) {
            guard let pcm = device.handle else { continue }
            _ = snd_pcm_drop(pcm)
            _ = snd_pcm_nonblock(pcm, 0)
        }
        if linked, let inp = capture?.handle { _ = snd_pcm_unlink(inp) }
        for side in [state.pointee.playback, state.pointee.capture].compactMap({ $0 }) {
            side.device.deallocate()
            side.floats.deallocate()
        }
        state.deinitialize(count: 1)
        state.deallocate()
    }

    private static func makeSide(_ device: PCMDevice) -> EngineSide {
        let config = device.configuration!
        return EngineSide(
            pcm: device.handle!,
            device: .allocate(
                format: config.format, access: config.access,
                channels: config.channels, frames: config.periodFrames),
            floats: .allocate(channels: config.channels, frames: config.periodFrames),
            bufferFrames: config.bufferFrames)
    }
}

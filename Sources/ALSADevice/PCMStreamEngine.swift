import AudioToolbox
import CALSA
import Glibc
import Synchronization

// Everything the I/O thread runs lives in this file, so the compiler's real-time checks
// (`@_noAllocation @_noLocks`) see every call. alsa-lib calls and the indirect callback calls are
// wrapped in `_unsafePerformance`: the checker cannot see into them; alsa-lib's read/write/wait/
// prepare/start on an already configured PCM do not allocate (the hw/sw params were installed and
// all plugin buffers allocated at setup), and the callbacks are render-thread functions by contract.

/// One direction of a running stream: the PCM, its device-format period buffer and the canonical
/// float buffers the callbacks see.
struct EngineSide {
    let pcm: OpaquePointer
    let device: PCMDeviceBuffer
    let floats: FloatBufferList
    let bufferFrames: Int
}

/// The I/O thread's whole state, allocated at `start()` and freed after the thread has exited.
struct EngineState {
    var playback: EngineSide?
    var capture: EngineSide?
    let periodFrames: Int
    let periodNanoseconds: Int
    let linked: Bool
    let render: PCMRenderFunction?
    let input: PCMRenderFunction?
    let context: UnsafeMutableRawPointer?
    let counters: UnsafeMutablePointer<PCMStreamCounters>
    let waitMilliseconds: Int32
    let stallNanoseconds: Int
    let xrunLimit: Int
}

/// Outcome of moving one period: 0 done, `stopRequestedOutcome`, `stalledOutcome`, or a negative errno.
let stopRequestedOutcome: Int32 = 1
let stalledOutcome: Int32 = Int32.min

/// Why an I/O thread stopped by itself (stored as its raw value, so the render thread never
/// touches enum metadata).
enum EngineFailure: Int {
    case none = 0
    case playbackError = 1
    case captureError = 2
    case playbackStalled = 3
    case captureStalled = 4
    case playbackXruns = 5
    case captureXruns = 6
    case startFailed = 7
}

/// The thread entry `pthread_create` runs; its argument is the `EngineState` pointer.
let engineThreadEntry: @convention(c) (UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? = { raw in
    if let raw { runEngine(raw.assumingMemoryBound(to: EngineState.self)) }
    return nil
}

/// Monotonic clock in nanoseconds.
@_noAllocation @_noLocks
func monotonicNanoseconds() -> Int {
    var now = timespec()
    // clock_gettime(CLOCK_MONOTONIC) is a vDSO read: no allocation, no lock.
    _unsafePerformance { _ = clock_gettime(CLOCK_MONOTONIC, &now) }
    return now.tv_sec * 1_000_000_000 + now.tv_nsec
}

/// The I/O loop: start the devices, then per period read capture → input callback → render
/// callback → write playback, recovering xruns, until stop is requested or the device fails.
@_noAllocation @_noLocks
func runEngine(_ state: UnsafeMutablePointer<EngineState>) {
    let counters = state.pointee.counters
    var code = restartDevices(state, dropFirst: false)
    if code < 0 {
        recordFailure(counters, .startFailed, code)
        return
    }
    var consecutiveXruns = 0
    var sampleTime: Int64 = 0
    while !counters.pointee.stopRequested.load(ordering: .relaxed) {
        if let capture = state.pointee.capture {
            code = transfer(state, capture, playback: false)
            if code == stopRequestedOutcome { break }
            if code != 0 {
                if !handle(state, code, capture.pcm, &consecutiveXruns, playback: false) { return }
                continue
            }
            capture.floats.reset(frames: state.pointee.periodFrames)
            SampleConversion.decode(from: capture.device, frames: state.pointee.periodFrames, into: capture.floats.list)
        }
        process(state, sampleTime: sampleTime)
        if let playback = state.pointee.playback {
            code = transfer(state, playback, playback: true)
            if code == stopRequestedOutcome { break }
            if code != 0 {
                if !handle(state, code, playback.pcm, &consecutiveXruns, playback: true) { return }
                continue
            }
        }
        consecutiveXruns = 0
        sampleTime += Int64(state.pointee.periodFrames)
        counters.pointee.framesProcessed.add(state.pointee.periodFrames, ordering: .relaxed)
    }
    counters.pointee.running.store(false, ordering: .releasing)
}

/// Calls the input then the render function for one period, timing both, and converts the
/// rendered floats into the playback device buffer.
@_noAllocation @_noLocks
func process(_ state: UnsafeMutablePointer<EngineState>, sampleTime: Int64) {
    let frames = state.pointee.periodFrames
    let counters = state.pointee.counters
    let context = state.pointee.context
    let started = monotonicNanoseconds()
    var failed = false
    if let input = state.pointee.input, let capture = state.pointee.capture {
        var status: OSStatus = 0
        // Indirect call to the client's input function, real-time by its contract.
        _unsafePerformance { status = input(context, sampleTime, UInt32(frames), capture.floats.list) }
        failed = status != 0
    }
    if let playback = state.pointee.playback {
        playback.floats.reset(frames: frames)
        var status: OSStatus = 0
        if let render = state.pointee.render {
            // Indirect call to the client's render function, real-time by its contract.
            _unsafePerformance { status = render(context, sampleTime, UInt32(frames), playback.floats.list) }
        } else {
            for channel in 0..<playback.floats.channels {
                let samples = playback.floats.channelMemory[channel]
                for i in 0..<frames { samples[i] = 0 }
            }
        }
        if status != 0 {
            failed = true
            playback.device.silence()
        } else {
            SampleConversion.encode(from: playback.floats.list, frames: frames, into: playback.device)
        }
    }
    let elapsed = monotonicNanoseconds() - started
    if failed { counters.pointee.renderErrors.add(1, ordering: .relaxed) }
    // Single writer: a plain load/compare/store is enough.
    if elapsed > counters.pointee.worstRenderNanoseconds.load(ordering: .relaxed) {
        counters.pointee.worstRenderNanoseconds.store(elapsed, ordering: .relaxed)
    }
}

/// Moves one period between the side's device buffer and its PCM (non-blocking I/O plus
/// `snd_pcm_wait`, so a stop request is seen within one wait). A period already rendered is
/// not dropped for a stop that comes after its render: playback gives the device one wait to
/// take it (the client saw that audio rendered and may stop at once, as a player stopping at
/// its last frame does); a capture period stops at once (nothing was rendered from it yet).
@_noAllocation @_noLocks
func transfer(_ state: UnsafeMutablePointer<EngineState>, _ side: EngineSide, playback: Bool) -> Int32 {
    let frames = state.pointee.periodFrames
    let counters = state.pointee.counters
    var done = 0
    var idleSince = 0
    var waited = false
    while done < frames {
        if !playback && counters.pointee.stopRequested.load(ordering: .relaxed) { return stopRequestedOutcome }
        let address = side.device.transferAddress(atFrame: done)
        let remaining = snd_pcm_uframes_t(frames - done)
        var moved = 0
        // alsa-lib transfer on a configured, non-blocking PCM.
        _unsafePerformance {
            switch (playback, side.device.access) {
            case (true, .interleaved): moved = snd_pcm_writei(side.pcm, address, remaining)
            case (true, .nonInterleaved):
                moved = snd_pcm_writen(side.pcm, address?.assumingMemoryBound(to: UnsafeMutableRawPointer?.self), remaining)
            case (false, .interleaved): moved = snd_pcm_readi(side.pcm, address, remaining)
            case (false, .nonInterleaved):
                moved = snd_pcm_readn(side.pcm, address?.assumingMemoryBound(to: UnsafeMutableRawPointer?.self), remaining)
            }
        }
        if moved > 0 {
            done += moved
            idleSince = 0
            continue
        }
        if moved == 0 || moved == -Int(EAGAIN) {
            if playback && waited && counters.pointee.stopRequested.load(ordering: .relaxed) { return stopRequestedOutcome }
            let now = monotonicNanoseconds()
            if idleSince == 0 {
                idleSince = now
            } else if now - idleSince > state.pointee.stallNanoseconds {
                return stalledOutcome
            }
            var ready: Int32 = 0
            // snd_pcm_wait polls the PCM's descriptors with a timeout: bounded, no allocation.
            _unsafePerformance { ready = snd_pcm_wait(side.pcm, state.pointee.waitMilliseconds) }
            if ready < 0 { return ready }
            waited = true
            continue
        }
        if moved == -1 {
            // The file plugin returns read()'s -1 rather than -errno; report the real cause.
            var cause: Int32 = 0
            _unsafePerformance { cause = errno }
            if cause > 0 { return -cause }
        }
        return Int32(truncatingIfNeeded: moved)
    }
    return 0
}

/// Deals with a failed transfer: xruns are recovered (up to `xrunLimit` in a row), anything else
/// records the failure. Returns false when the loop must end.
@_noAllocation @_noLocks
func handle(
    _ state: UnsafeMutablePointer<EngineState>, _ code: Int32, _ pcm: OpaquePointer,
    _ consecutiveXruns: inout Int, playback: Bool
) -> Bool {
    let counters = state.pointee.counters
    if code == stalledOutcome {
        recordFailure(counters, playback ? .playbackStalled : .captureStalled, -EIO)
        return false
    }
    guard code == -EPIPE || code == -ESTRPIPE || code == -EINTR else {
        recordFailure(counters, playback ? .playbackError : .captureError, code)
        return false
    }
    counters.pointee.xruns.add(1, ordering: .relaxed)
    consecutiveXruns += 1
    if consecutiveXruns > state.pointee.xrunLimit {
        recordFailure(counters, playback ? .playbackXruns : .captureXruns, code)
        return false
    }
    var recovered: Int32 = 0
    // snd_pcm_recover: prepare (xrun) or resume (suspend) on a configured PCM.
    _unsafePerformance { recovered = snd_pcm_recover(pcm, code, 1) }
    if recovered >= 0 { recovered = restartDevices(state, dropFirst: true) }
    if recovered < 0 {
        recordFailure(counters, playback ? .playbackError : .captureError, recovered)
        return false
    }
    return true
}

/// Puts both directions back in step: (drop,) prepare, prefill playback with a buffer of silence
/// when capturing too, then start (once when linked, playback first otherwise). Playback alone
/// starts by itself when its buffer is full (start threshold = buffer size).
@_noAllocation @_noLocks
func restartDevices(_ state: UnsafeMutablePointer<EngineState>, dropFirst: Bool) -> Int32 {
    var code: Int32 = 0
    let playback = state.pointee.playback
    let capture = state.pointee.capture
    // alsa-lib state changes on configured PCMs; no allocation.
    _unsafePerformance {
        if let playback {
            if dropFirst { _ = snd_pcm_drop(playback.pcm) }
            code = snd_pcm_prepare(playback.pcm)
        }
        if code >= 0, let capture {
            if dropFirst { _ = snd_pcm_drop(capture.pcm) }
            code = snd_pcm_prepare(capture.pcm)
        }
    }
    guard code >= 0, let capture else { return code }
    if let playback {
        playback.device.silence()
        var queued = 0
        while queued < playback.bufferFrames {
            let chunk = snd_pcm_uframes_t(min(playback.device.capacityFrames, playback.bufferFrames - queued))
            let address = playback.device.transferAddress(atFrame: 0)
            var moved = 0
            _unsafePerformance {
                switch playback.device.access {
                case .interleaved: moved = snd_pcm_writei(playback.pcm, address, chunk)
                case .nonInterleaved:
                    moved = snd_pcm_writen(playback.pcm, address?.assumingMemoryBound(to: UnsafeMutableRawPointer?.self), chunk)
                }
            }
            if moved <= 0 { break }
            queued += moved
        }
    }
    _unsafePerformance {
        if let playback, !state.pointee.linked { code = snd_pcm_start(playback.pcm) }
        if code >= 0 { code = snd_pcm_start(capture.pcm) }
    }
    return code
}

/// Records why the loop ends and marks the stream stopped.
@_noAllocation @_noLocks
func recordFailure(_ counters: UnsafeMutablePointer<PCMStreamCounters>, _ kind: EngineFailure, _ code: Int32) {
    counters.pointee.failureCode.store(Int(code), ordering: .relaxed)
    counters.pointee.failureKind.store(kind.rawValue, ordering: .relaxed)
    counters.pointee.running.store(false, ordering: .releasing)
}

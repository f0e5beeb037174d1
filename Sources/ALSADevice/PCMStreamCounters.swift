import Synchronization

/// Everything the I/O thread and setup threads share, as atomics in one block allocated with the
/// stream (so the real-time thread reaches it through a raw pointer, never a class reference).
struct PCMStreamCounters: ~Copyable {
    /// Set by `stop()`; the I/O thread checks it at least once per wait.
    let stopRequested = Atomic<Bool>(false)
    /// True from `start()` until the I/O thread has left its loop.
    let running = Atomic<Bool>(false)
    /// Xruns (EPIPE/ESTRPIPE/EINTR) recovered since start.
    let xruns = Atomic<Int>(0)
    /// Frames delivered to / taken from the callbacks since start.
    let framesProcessed = Atomic<Int>(0)
    /// Render/input calls that returned a non-zero OSStatus (their period went out silent).
    let renderErrors = Atomic<Int>(0)
    /// Longest input+render callback time seen, in nanoseconds.
    let worstRenderNanoseconds = Atomic<Int>(0)
    /// Why the I/O thread stopped by itself (`EngineFailure`), 0 if it did not.
    let failureKind = Atomic<Int>(0)
    /// The negative errno alsa-lib returned with that failure.
    let failureCode = Atomic<Int>(0)

    /// Clears everything for a new run.
    func reset() {
        stopRequested.store(false, ordering: .relaxed)
        xruns.store(0, ordering: .relaxed)
        framesProcessed.store(0, ordering: .relaxed)
        renderErrors.store(0, ordering: .relaxed)
        worstRenderNanoseconds.store(0, ordering: .relaxed)
        failureKind.store(0, ordering: .relaxed)
        failureCode.store(0, ordering: .relaxed)
        running.store(true, ordering: .releasing)
    }
}

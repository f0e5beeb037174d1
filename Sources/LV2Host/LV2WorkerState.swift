import CLilv
#if canImport(Glibc)
import Glibc
#endif

/// Everything the worker hand-off touches on the render thread, in one block of plain memory so
/// the C callbacks and the render kernel reach it without reference counting.
struct LV2WorkerState {
    /// run → worker: `schedule_work` requests.
    var requests: LV2RingBuffer
    /// worker → run: `respond` messages, delivered by `work_response` before the next run.
    var responses: LV2RingBuffer
    /// Where the render thread (or the offline caller) copies one message at a time.
    var scratch: UnsafeMutableRawPointer
    var scratchSize: Int
    /// Wakes the live worker thread; posting a semaphore does not block.
    var semaphore: UnsafeMutablePointer<sem_t>
    /// Live: a worker thread performs requests. Offline: they run right after `run`.
    var live: Bool
    var pluginHandle: LV2_Handle?
    var interface: UnsafePointer<LV2_Worker_Interface>?
}

/// `LV2_Worker_Schedule.schedule_work`: queue a request. Thread: render (real-time), or any
/// thread when the plug-in schedules from state restore (serialised with run by the host).
let lv2ScheduleWork: @convention(c) (LV2_Worker_Schedule_Handle?, UInt32, UnsafeRawPointer?) -> LV2_Worker_Status = {
    handle, size, data in
    guard let state = handle?.assumingMemoryBound(to: LV2WorkerState.self) else { return LV2_WORKER_ERR_UNKNOWN }
    guard state.pointee.requests.write(data, size: Int(size)) else { return LV2_WORKER_ERR_NO_SPACE }
    if state.pointee.live { sem_post(state.pointee.semaphore) }
    return LV2_WORKER_SUCCESS
}

/// `LV2_Worker_Respond_Function`: queue a response from `work`. Thread: the worker (or the
/// offline caller).
let lv2WorkerRespond: @convention(c) (LV2_Worker_Respond_Handle?, UInt32, UnsafeRawPointer?) -> LV2_Worker_Status = {
    handle, size, data in
    guard let state = handle?.assumingMemoryBound(to: LV2WorkerState.self) else { return LV2_WORKER_ERR_UNKNOWN }
    return state.pointee.responses.write(data, size: Int(size)) ? LV2_WORKER_SUCCESS : LV2_WORKER_ERR_NO_SPACE
}

/// Hands every queued response to the plug-in's `work_response`. Thread: render (real-time).
@_noAllocation @_noLocks
func lv2WorkerDeliverResponses(_ state: UnsafeMutablePointer<LV2WorkerState>) {
    guard let interface = state.pointee.interface else { return }
    while true {
        let size = state.pointee.responses.read(into: state.pointee.scratch, capacity: state.pointee.scratchSize)
        if size == -1 { return }
        if size < 0 { continue }  // larger than the scratch: dropped rather than overrun
        _unsafePerformance {
            // A call into the plug-in, which the worker extension says is real-time safe.
            _ = interface.pointee.work_response?(state.pointee.pluginHandle, UInt32(size), state.pointee.scratch)
        }
    }
}

/// Performs every queued request with the plug-in's `work` on the calling thread. Offline mode
/// calls this right after `run`; the live worker thread runs its own copy. Thread: render
/// (offline rendering) or setup (non-real-time).
@_noAllocation @_noLocks
func lv2WorkerPerformRequests(
    _ state: UnsafeMutablePointer<LV2WorkerState>,
    scratch: UnsafeMutableRawPointer, scratchSize: Int
) {
    guard let interface = state.pointee.interface else { return }
    while true {
        let size = state.pointee.requests.read(into: scratch, capacity: scratchSize)
        if size == -1 { return }
        if size < 0 { continue }
        _unsafePerformance {
            // Offline rendering has no deadline, so the plug-in's non-real-time work may run here.
            _ = interface.pointee.work?(
                state.pointee.pluginHandle, lv2WorkerRespond,
                UnsafeMutableRawPointer(state), UInt32(size), scratch)
        }
    }
}

/// Tells the plug-in the run cycle's responses are all delivered. Thread: render (real-time).
@_noAllocation @_noLocks
func lv2WorkerEndRun(_ state: UnsafeMutablePointer<LV2WorkerState>) {
    guard let interface = state.pointee.interface else { return }
    _unsafePerformance {
        // An optional plug-in callback, real-time safe by the worker extension's contract.
        _ = interface.pointee.end_run?(state.pointee.pluginHandle)
    }
}

import CLilv
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The host side of the LV2 worker extension for one instance: the `worker:schedule` feature,
/// the request/response rings, and in live mode a worker thread that also forwards render-thread
/// log messages to the sink.
final class LV2Worker {
    let state: UnsafeMutablePointer<LV2WorkerState>
    let scheduleFeature: UnsafeMutablePointer<LV2_Worker_Schedule>
    private let threadScratch: UnsafeMutableRawPointer
    private var thread: pthread_t?
    private let stopping = Atomic<Bool>(false)
    /// Called on the worker thread after each wake-up (drains the log ring).
    var onWake: (() -> Void)?

    static let messageCapacity = 64 * 1024

    /// Thread: setup (non-real-time).
    init(live: Bool, ringSize: Int) {
        let semaphore = UnsafeMutablePointer<sem_t>.allocate(capacity: 1)
        sem_init(semaphore, 0, 0)
        state = .allocate(capacity: 1)
        state.initialize(
            to: LV2WorkerState(
                requests: .allocate(minimumCapacity: ringSize), responses: .allocate(minimumCapacity: ringSize),
                scratch: .allocate(byteCount: Self.messageCapacity, alignment: 16), scratchSize: Self.messageCapacity,
                semaphore: semaphore, live: live, pluginHandle: nil, interface: nil))
        threadScratch = .allocate(byteCount: Self.messageCapacity, alignment: 16)
        scheduleFeature = .allocate(capacity: 1)
        scheduleFeature.initialize(
            to: LV2_Worker_Schedule(
                handle: UnsafeMutableRawPointer(state),
                schedule_work: lv2ScheduleWork))
    }

    /// Connects the plug-in's worker interface and, in live mode, starts the thread.
    /// Thread: setup (non-real-time).
    func attach(handle: LV2_Handle?, interface: UnsafePointer<LV2_Worker_Interface>?) {
        state.pointee.pluginHandle = handle
        state.pointee.interface = interface
        guard state.pointee.live, thread == nil else { return }
        var tid = pthread_t()
        let context = Unmanaged.passRetained(self).toOpaque()
        let created = pthread_create(
            &tid, nil,
            { context in
                let worker = Unmanaged<LV2Worker>.fromOpaque(context!).takeRetainedValue()
                worker.loop()
                return nil
            }, context)
        if created == 0 { thread = tid } else { Unmanaged<LV2Worker>.fromOpaque(context).release() }
    }

    /// Wakes the worker thread (live mode). Thread: any; real-time safe.
    func wake() { sem_post(state.pointee.semaphore) }

    /// Performs pending requests now and delivers their responses: for offline rendering and for
    /// work a plug-in schedules during state restore. Never while run may execute.
    /// Thread: setup (non-real-time).
    func performPendingNow() {
        lv2WorkerPerformRequests(state, scratch: threadScratch, scratchSize: Self.messageCapacity)
        lv2WorkerDeliverResponses(state)
    }

    /// Stops the live thread and waits for it; pending requests are dropped. Must run before
    /// the plug-in is destroyed, so no work runs after cleanup. Thread: setup (non-real-time).
    func stop() {
        guard let thread else { return }
        stopping.store(true, ordering: .releasing)
        sem_post(state.pointee.semaphore)
        pthread_join(thread, nil)
        self.thread = nil
    }

    private func loop() {
        while true {
            while sem_wait(state.pointee.semaphore) != 0 {}
            if stopping.load(ordering: .acquiring) { return }
            lv2WorkerPerformRequests(state, scratch: threadScratch, scratchSize: Self.messageCapacity)
            onWake?()
        }
    }

    deinit {
        state.pointee.requests.deallocate()
        state.pointee.responses.deallocate()
        state.pointee.scratch.deallocate()
        sem_destroy(state.pointee.semaphore)
        state.pointee.semaphore.deallocate()
        state.deallocate()
        threadScratch.deallocate()
        scheduleFeature.deallocate()
    }
}

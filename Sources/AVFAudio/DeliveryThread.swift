import Foundation

/// Something that has work for the delivery thread (tap buffers, completion handlers).
protocol DeliverySource: AnyObject {
    /// Hands over whatever the render thread left. Thread: the delivery thread.
    func deliver()
}

/// The engine's non-real-time thread: the render thread posts its semaphore (sem_post never
/// blocks), and this thread calls tap blocks and completion handlers, as Apple calls them on a
/// thread of its own, never on the render thread.
final class DeliveryThread: @unchecked Sendable {
    /// Posted by the render thread when something is waiting.
    let wake: UnsafeMutablePointer<sem_t>
    private let lock = NSRecursiveLock()
    private var sources: [ObjectIdentifier: DeliverySource] = [:]
    private var thread: Thread?
    private var stopping = false
    private let exited = DispatchSemaphore(value: 0)

    /// Thread: setup.
    init() {
        wake = .allocate(capacity: 1)
        sem_init(wake, 0, 0)
    }

    deinit {
        stop()
        sem_destroy(wake)
        wake.deallocate()
    }

    /// Adds a source (starting the thread the first time).
    ///
    /// Thread: setup.
    func add(_ source: DeliverySource) {
        lock.lock()
        defer { lock.unlock() }
        sources[ObjectIdentifier(source)] = source
        guard thread == nil else { return }
        stopping = false
        let t = Thread { [unowned self] in self.run() }
        t.name = "AVAudioEngine delivery"
        thread = t
        t.start()
    }

    /// Removes a source; when this returns its deliver() is not running (unless the caller is it).
    ///
    /// Thread: setup (or a block the delivery thread is calling).
    func remove(_ source: DeliverySource) {
        lock.lock()
        sources[ObjectIdentifier(source)] = nil
        lock.unlock()
    }

    /// Delivers what is waiting now, on the calling thread (the delivery thread may do it too).
    ///
    /// Thread: setup.
    func drain() {
        lock.lock()
        let current = Array(sources.values)
        for s in current { s.deliver() }
        lock.unlock()
    }

    /// Thread: setup.
    func stop() {
        lock.lock()
        guard thread != nil else {
            lock.unlock()
            return
        }
        stopping = true
        thread = nil
        lock.unlock()
        sem_post(wake)
        exited.wait()
    }

    private func run() {
        while true {
            while sem_wait(wake) != 0 {}
            lock.lock()
            if stopping {
                lock.unlock()
                exited.signal()
                return
            }
            for s in Array(sources.values) { s.deliver() }
            lock.unlock()
        }
    }
}

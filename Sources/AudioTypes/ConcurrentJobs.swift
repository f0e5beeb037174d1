import Foundation

/// Runs jobs at once, one thread each (the calling thread takes the first), and returns when all
/// have; a job whose thread cannot start runs on the calling thread. Plain threads: the first
/// libdispatch worker of a process took 1–4 ms to start on this machine, longer than the LADSPA
/// catalog it was to read. Thread: setup.
package enum ConcurrentJobs {
    private final class Job {
        let work: () -> Void
        init(_ work: @escaping () -> Void) { self.work = work }
    }

    /// `work(0)`, `work(1)`, … `work(count - 1)`, each on its own thread (the caller takes the
    /// first), in that order.
    package static func map<T>(_ count: Int, _ work: @escaping (Int) -> T) -> [T] {
        let results = UnsafeMutableBufferPointer<T?>.allocate(capacity: count)
        results.initialize(repeating: nil)
        defer {
            results.deinitialize()
            results.deallocate()
        }
        run((0..<count).map { i in { results[i] = work(i) } })
        return results.map { $0! }
    }

    private static func run(_ work: [() -> Void]) {
        var threads: [pthread_t] = []
        for job in work.dropFirst() {
            var thread = pthread_t()
            let box = Unmanaged.passRetained(Job(job)).toOpaque()
            let created = pthread_create(
                &thread, nil,
                { raw in
                    Unmanaged<Job>.fromOpaque(raw!).takeRetainedValue().work()
                    return nil
                }, box)
            if created == 0 {
                threads.append(thread)
            } else {
                Unmanaged<Job>.fromOpaque(box).release()
                job()
            }
        }
        work.first?()
        for thread in threads { pthread_join(thread, nil) }
    }
}

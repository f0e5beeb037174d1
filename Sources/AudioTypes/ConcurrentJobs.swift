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

    package static func run(_ work: [() -> Void]) {
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

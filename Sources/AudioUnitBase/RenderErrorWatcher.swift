import AudioTypes
import Foundation

/// Calls property listeners for changes that happen off setup threads: LastRenderError (the
/// render thread only writes the status into its state; this watcher notices the change) and
/// changes other background threads post (a device that stopped by itself). Listeners run on the
/// watcher's own non-real-time thread, never on the render thread, and never on a thread a setup
/// call may wait for (an I/O unit's Stop joins its device threads while holding the instance's
/// setup lock; a listener on such a thread that called back into the unit would deadlock).
///
/// Units are held unretained. The watcher calls listeners without holding its lock (a listener
/// may make setup calls, which take locks of their own); a unit leaving the list in its deinit
/// waits until the watcher is not calling that unit's listeners, so a unit is never read after it
/// is freed.
final class RenderErrorWatcher {
    static let shared = RenderErrorWatcher()

    private let condition = NSCondition()
    private var units: [ObjectIdentifier: Unmanaged<AUBase>] = [:]
    private var posted: [(unit: ObjectIdentifier, id: AudioUnitPropertyID)] = []
    /// The unit whose listeners the watcher thread is calling now.
    private var delivering: ObjectIdentifier?
    private var thread: pthread_t?

    /// Starts watching a unit (idempotent); starts the thread on first use.
    ///
    /// Thread: setup.
    func watch(_ unit: AUBase) {
        condition.lock()
        defer { condition.unlock() }
        units[ObjectIdentifier(unit)] = .passUnretained(unit)
        startIfNeeded()
    }

    /// Has the watcher call the listeners of `id` (global scope, element 0) on its thread soon.
    ///
    /// Thread: any non-real-time thread.
    func post(_ unit: AUBase, _ id: AudioUnitPropertyID) {
        condition.lock()
        defer { condition.unlock() }
        units[ObjectIdentifier(unit)] = .passUnretained(unit)
        posted.append((ObjectIdentifier(unit), id))
        startIfNeeded()
    }

    /// Stops watching (called from the unit's deinit): returns once the watcher is not calling
    /// this unit's listeners (unless called from one of them).
    ///
    /// Thread: setup.
    func unwatch(_ unit: AUBase) {
        let key = ObjectIdentifier(unit)
        condition.lock()
        defer { condition.unlock() }
        units[key] = nil
        posted.removeAll { $0.unit == key }
        guard let thread, pthread_equal(thread, pthread_self()) == 0 else { return }
        while delivering == key { condition.wait() }
    }

    private func startIfNeeded() {
        guard thread == nil else { return }
        var t = pthread_t()
        let created = pthread_create(&t, nil, { _ in RenderErrorWatcher.shared.run() }, nil)
        precondition(created == 0, "cannot start the AUHost listener thread: \(String(cString: strerror(created)))")
        pthread_detach(t)
        thread = t
    }

    private func run() -> UnsafeMutableRawPointer? {
        while true {
            usleep(5_000)
            condition.lock()
            var due: [(ObjectIdentifier, AudioUnitPropertyID)] = posted
            posted = []
            for (key, unit) in units {
                // Unretained throughout: a unit whose deinit has begun waits in unwatch, alive.
                let changed = unit._withUnsafeGuaranteedRef { u in
                    let status = u.state.pointee.lastRenderError
                    defer { u.reportedRenderError = status }
                    return status != u.reportedRenderError
                }
                if changed { due.append((key, kAudioUnitProperty_LastRenderError)) }
            }
            for (key, id) in due {
                // A listener may dispose a unit: look each one up again.
                guard let unit = units[key] else { continue }
                delivering = key
                condition.unlock()
                unit._withUnsafeGuaranteedRef { $0.propertyChanged(id, kAudioUnitScope_Global, 0) }
                condition.lock()
                delivering = nil
                condition.broadcast()
            }
            condition.unlock()
        }
    }
}

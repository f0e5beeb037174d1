import AudioTypes
import Foundation

/// Tells LastRenderError listeners about errors the render thread recorded. The render thread
/// only writes the status into its state; this watcher, on its own non-real-time thread, notices
/// the change and calls the listeners there (never on the render thread).
///
/// Units are held unretained and leave the list in their deinit, under the same lock the watcher
/// holds while it looks at them, so a unit is never read after it is freed.
final class RenderErrorWatcher {
    static let shared = RenderErrorWatcher()

    private let lock = NSRecursiveLock()
    private var units: [ObjectIdentifier: Unmanaged<AUBase>] = [:]
    private var started = false

    /// Starts watching a unit (idempotent); starts the thread on first use.
    ///
    /// Thread: setup.
    func watch(_ unit: AUBase) {
        lock.lock()
        defer { lock.unlock() }
        units[ObjectIdentifier(unit)] = .passUnretained(unit)
        if !started {
            started = true
            let thread = Thread { RenderErrorWatcher.shared.run() }
            thread.name = "AUHost render-error listeners"
            thread.start()
        }
    }

    /// Stops watching (called from the unit's deinit).
    ///
    /// Thread: setup.
    func unwatch(_ unit: AUBase) {
        lock.lock()
        units[ObjectIdentifier(unit)] = nil
        lock.unlock()
    }

    private func run() {
        while true {
            usleep(5_000)
            lock.lock()
            for key in Array(units.keys) {
                // A listener may dispose a unit: look each one up again.
                guard let unit = units[key]?.takeUnretainedValue() else { continue }
                let status = unit.state.pointee.lastRenderError
                if status != unit.reportedRenderError {
                    unit.reportedRenderError = status
                    unit.propertyChanged(kAudioUnitProperty_LastRenderError, kAudioUnitScope_Global, 0)
                }
            }
            lock.unlock()
        }
    }
}

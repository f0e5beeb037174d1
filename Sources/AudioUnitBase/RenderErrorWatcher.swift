import AudioTypes
import Foundation

/// Tells LastRenderError listeners about errors the render thread recorded. The render thread
/// only writes the status into its state; this watcher, on its own non-real-time thread, notices
/// the change and calls the listeners there (never on the render thread).
final class RenderErrorWatcher {
    static let shared = RenderErrorWatcher()

    private let lock = NSLock()
    private var units: [Weak] = []
    private var thread: Thread?

    private struct Weak { weak var unit: AUBase? }

    /// Starts watching a unit (idempotent); starts the thread on first use.
    ///
    /// Thread: setup.
    func watch(_ unit: AUBase) {
        lock.lock()
        defer { lock.unlock() }
        units.removeAll { $0.unit == nil }
        if !units.contains(where: { $0.unit === unit }) { units.append(Weak(unit: unit)) }
        if thread == nil {
            let t = Thread { [unowned self] in self.run() }
            t.name = "AUHost render-error listeners"
            thread = t
            t.start()
        }
    }

    private func run() {
        while true {
            Thread.sleep(forTimeInterval: 0.005)
            lock.lock()
            let watched = units.compactMap(\.unit)
            lock.unlock()
            for unit in watched {
                let status = unit.state.pointee.lastRenderError
                if status != unit.reportedRenderError {
                    unit.reportedRenderError = status
                    unit.propertyChanged(kAudioUnitProperty_LastRenderError, kAudioUnitScope_Global, 0)
                }
            }
        }
    }
}

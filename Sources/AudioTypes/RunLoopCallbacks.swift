import AudioToolbox
import Foundation

/// Calls an API's callbacks on a client's CFRunLoop, as Apple's services do when given one (an
/// Audio Queue created with a run loop, a system sound's completion).
///
/// A version-0 run-loop source in the given mode: `post` queues a call from any non-real-time
/// thread and signals the source; the run loop's thread makes the calls the next time it runs
/// in that mode. `cancel` stops further calls; once it returns no call is running on another
/// thread, so the caller may free what the calls use. The source holds this object until
/// cancel (its owner must call it).
public final class RunLoopCallbacks: @unchecked Sendable {
    private let runLoop: CFRunLoop
    private let mode: CFString
    private var source: CFRunLoopSource?
    private let condition = NSCondition()
    private var pending: [() -> Void] = []
    private var cancelled = false
    /// The thread making calls now (0: none), so that cancel can tell a callback calling it.
    private var performingThread: UInt = 0

    /// Adds a source to `runLoop` in `mode` (nil: kCFRunLoopCommonModes, Apple's default).
    ///
    /// Thread: setup.
    public init(runLoop: CFRunLoop, mode: CFString?) {
        self.runLoop = runLoop
        self.mode = mode ?? kCFRunLoopCommonModes
        var context = CFRunLoopSourceContext(
            version: 0, info: Unmanaged.passUnretained(self).toOpaque(),
            retain: { info in
                _ = Unmanaged<RunLoopCallbacks>.fromOpaque(info!).retain()
                return info
            },
            release: { info in Unmanaged<RunLoopCallbacks>.fromOpaque(info!).release() },
            copyDescription: nil, equal: nil, hash: nil, schedule: nil, cancel: nil,
            perform: { info in Unmanaged<RunLoopCallbacks>.fromOpaque(info!).takeUnretainedValue().performPending() })
        let source = CFRunLoopSourceCreate(nil, 0, &context)!
        self.source = source
        CFRunLoopAddSource(runLoop, source, self.mode)
    }

    /// The run loop and mode of a C API call (CFRunLoopRef and CFStringRef as raw pointers).
    ///
    /// Thread: setup.
    public convenience init(runLoop: OpaquePointer, mode: UnsafeRawPointer?) {
        self.init(
            runLoop: Unmanaged<CFRunLoop>.fromOpaque(UnsafeRawPointer(runLoop)).takeUnretainedValue(),
            mode: mode.map { Unmanaged<CFString>.fromOpaque($0).takeUnretainedValue() })
    }

    /// Queues `call` for the run loop's thread (dropped once cancelled).
    ///
    /// Thread: any thread but a render thread (allocates, locks).
    public func post(_ call: @escaping () -> Void) {
        let source: CFRunLoopSource? = condition.withLock {
            guard !cancelled else { return nil }
            pending.append(call)
            return self.source
        }
        guard let source else { return }
        CFRunLoopSourceSignal(source)
        CFRunLoopWakeUp(runLoop)
    }

    /// Makes the queued calls, in order, until none is left or the callbacks are cancelled.
    ///
    /// Thread: the run loop's thread.
    private func performPending() {
        condition.lock()
        performingThread = UInt(pthread_self())
        while !cancelled, !pending.isEmpty {
            let call = pending.removeFirst()
            condition.unlock()
            call()
            condition.lock()
        }
        performingThread = 0
        condition.broadcast()
        condition.unlock()
    }

    /// Stops the calls: queued ones are dropped, the source leaves the run loop, and calls running
    /// on another thread have returned when this does (one running on this thread, which called
    /// cancel from inside a callback, is the last).
    ///
    /// Thread: setup.
    public func cancel() {
        let source: CFRunLoopSource? = condition.withLock {
            cancelled = true
            pending.removeAll()
            while performingThread != 0, performingThread != UInt(pthread_self()) { condition.wait() }
            defer { self.source = nil }
            return self.source
        }
        guard let source else { return }
        CFRunLoopRemoveSource(runLoop, source, mode)
        CFRunLoopSourceInvalidate(source)  // releases the source's hold on this object
    }
}

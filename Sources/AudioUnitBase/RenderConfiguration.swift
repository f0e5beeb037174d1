import AudioTypes
import CAUHostAtomics
import Foundation
#if canImport(Glibc)
import Glibc
#endif

// The configuration swap, both halves in one file (as Apple's AUThreadSafeList keeps its reader
// and its writer in one header): setup threads publish a new RenderConfiguration and free the old
// one once no render call can read it; a render call reads the one in force when it began and
// never waits. The reader half runs under the real-time checks.

/// Where an input bus gets its audio (a unit's input, or a graph's managed input).
public enum InputSourceKind: UInt8 {
    case none, connection, callback
}

/// An input bus's source: a connection or a render callback (part of a RenderConfiguration).
public struct InputSource {
    public var kind: InputSourceKind = .none
    public var sourceUnit: AudioUnit?
    public var sourceBus: UInt32 = 0
    public var callback: AURenderCallbackCall?
    public var callbackRefCon: UnsafeMutableRawPointer?
}

/// A render notification (AudioUnitAddRenderNotify).
public struct RenderNotify {
    public var proc: AURenderCallbackCall?
    public var refCon: UnsafeMutableRawPointer?
}

/// Everything setup threads may change while the unit renders: render notifications, input
/// sources, bypass and in-place processing. An immutable record, published whole (never changed
/// in place); a render call reads the one in force when it began (RenderState.current).
public struct RenderConfiguration {
    public var notifyCount: Int
    public var notifies: UnsafeMutablePointer<RenderNotify>
    public var sourceCount: Int
    public var sources: UnsafeMutablePointer<InputSource>
    public var bypass: Bool
    /// InPlaceProcessing: effects pull their input straight into the output buffers.
    public var inPlace: Bool
    /// kAudioUnitProperty_HostCallbacks (all NULL when the host set none).
    public var hostCallbacks: HostCallbackInfo
    /// kAUHostProperty_TempoChangeCallback (NULL when the host set none).
    public var tempoChanges: AUHostTempoChangeInfo
}

/// How setup threads replace the configuration under a rendering unit without the render thread
/// ever waiting (a two-counter grace period, as in userspace RCU): a render call reads the
/// generation, counts itself in that generation's parity, then loads the configuration; a setup
/// thread publishes a new one with one atomic store, flips the generation, and waits until the
/// old parity's count is zero. After that no call can be reading the old record (a call counted
/// later loads the record after the publication), so it is freed: a removed notification or a
/// replaced callback is neither running nor will run. Every field is accessed atomically.
public struct RenderConfigurationChannel {
    /// RenderConfiguration*.
    public var configuration: UnsafeMutableRawPointer?
    public var generation: UInt64 = 0
    public var readersEven: UInt64 = 0
    public var readersOdd: UInt64 = 0
    /// The thread rendering the unit now (pthread_t bits), 0 when none: a setup call made from
    /// inside the unit's render is refused rather than waiting for itself.
    public var renderingThread: UInt64 = 0
    /// How many render notifications the configuration holds, readable outside a render call:
    /// a host that renders the unit with AudioUnitProcessMultiple, which calls none, renders it
    /// with AudioUnitRender while it has some.
    public var notifyCount: Int32 = 0
    /// The configuration the render call in progress reads (render thread only, not atomic).
    public var current: UnsafeMutablePointer<RenderConfiguration>?
    /// kAudioUnitProperty_LastRenderError: written by the render thread, read by any (atomic).
    public var lastRenderError: OSStatus = noErr
}

/// What a render call restores when it leaves (render calls of one unit may nest: an I/O unit's
/// input is rendered from inside its output's callback).
public struct RenderSection {
    var odd: Bool
    var previous: UnsafeMutablePointer<RenderConfiguration>?
    var previousThread: UInt64
}

// MARK: The reader: a render call

extension RenderState {
    /// The configuration the render call in progress reads.
    ///
    /// Thread: render.
    public var current: UnsafeMutablePointer<RenderConfiguration>? {
        @_noAllocation @_noLocks get { channel.pointee.current }
    }

    /// Starts reading the published configuration for one render call: lock-free and wait-free.
    /// Pair with ``leaveRender(_:)``. (AUHostAtomics' functions are single atomic instructions the
    /// checker cannot see into.) Inlined, with ``leaveRender(_:)``: as calls the pair cost about
    /// 30 ns a unit in GraphOverhead's chain.
    ///
    /// Thread: render.
    @inline(__always) @_noAllocation @_noLocks
    public func enterRender() -> RenderSection {
        let channel = self.channel
        let (odd, raw, previousThread) = _unsafePerformance { () -> (Bool, UnsafeMutableRawPointer?, UInt64) in
            let odd = auhost_atomic_load_u64(&channel.pointee.generation) & 1 != 0
            _ = odd ? auhost_atomic_add_u64(&channel.pointee.readersOdd, 1) : auhost_atomic_add_u64(&channel.pointee.readersEven, 1)
            // Relaxed: only a thread asking about itself compares it (no fence on the render path).
            let previousThread = auhost_atomic_load_u64_relaxed(&channel.pointee.renderingThread)
            auhost_atomic_store_u64_relaxed(&channel.pointee.renderingThread, UInt64(pthread_self()))
            return (odd, auhost_atomic_load_pointer(&channel.pointee.configuration), previousThread)
        }
        let section = RenderSection(odd: odd, previous: channel.pointee.current, previousThread: previousThread)
        channel.pointee.current = raw?.assumingMemoryBound(to: RenderConfiguration.self)
        return section
    }

    /// Ends what ``enterRender()`` started.
    ///
    /// Thread: render.
    @inline(__always) @_noAllocation @_noLocks
    public func leaveRender(_ section: RenderSection) {
        let channel = self.channel
        channel.pointee.current = section.previous
        _unsafePerformance {
            auhost_atomic_store_u64_relaxed(&channel.pointee.renderingThread, section.previousThread)
            _ =
                section.odd
                ? auhost_atomic_add_u64(&channel.pointee.readersOdd, UInt64.max)
                : auhost_atomic_add_u64(&channel.pointee.readersEven, UInt64.max)
        }
    }

    /// Whether the unit has render notifications, as last published (a change published
    /// meanwhile holds from the next call).
    ///
    /// Thread: any.
    public var hasRenderNotifications: Bool {
        @_noAllocation @_noLocks get { _unsafePerformance { auhost_atomic_load_i32(&channel.pointee.notifyCount) } != 0 }
    }

    /// BypassEffect as the render call in progress sees it.
    ///
    /// Thread: render.
    public var bypass: Bool {
        @_noAllocation @_noLocks get { current?.pointee.bypass ?? false }
    }
    /// InPlaceProcessing as the render call in progress sees it.
    ///
    /// Thread: render.
    public var inPlace: Bool {
        @_noAllocation @_noLocks get { current?.pointee.inPlace ?? true }
    }

    /// Whether input bus `bus` has a connection or a callback in the render call in progress.
    ///
    /// Thread: render.
    @_noAllocation @_noLocks
    public func inputHasSource(_ bus: Int) -> Bool {
        guard let c = current, bus < c.pointee.sourceCount else { return false }
        return c.pointee.sources[bus].kind != .none
    }
}

// MARK: The writer: setup threads

extension AUBase {
    /// Whether the calling thread is inside this unit's render now.
    ///
    /// Thread: any.
    public var isInsideRender: Bool {
        auhost_atomic_load_u64_relaxed(&state.pointee.channel.pointee.renderingThread) == UInt64(pthread_self())
    }

    /// Publishes the setup side's notifications, input sources, bypass and in-place flags as a new
    /// configuration and frees the old one once no render call can read it. Returns false (and
    /// publishes nothing) when called from inside this unit's render, which would wait for itself.
    ///
    /// Thread: setup.
    @discardableResult
    func publishConfiguration() -> Bool {
        guard !isInsideRender else { return false }
        configurationLock.lock()
        defer { configurationLock.unlock() }
        publishLocked()
        return true
    }

    /// Publishes a new configuration, waits until no render call can read the old one (see
    /// RenderConfigurationChannel) and frees it. Called with configurationLock held.
    ///
    /// Thread: setup.
    func publishLocked() {
        let notifies = UnsafeMutablePointer<RenderNotify>.allocate(capacity: max(renderNotifies.count, 1))
        notifies.initialize(from: renderNotifies, count: renderNotifies.count)
        let count = inputElements.count
        let sources = UnsafeMutablePointer<InputSource>.allocate(capacity: max(count, 1))
        for i in 0..<count { (sources + i).initialize(to: inputElements[i].source) }
        let fresh = UnsafeMutablePointer<RenderConfiguration>.allocate(capacity: 1)
        fresh.initialize(
            to: RenderConfiguration(
                notifyCount: renderNotifies.count, notifies: notifies, sourceCount: count, sources: sources,
                bypass: bypassed, inPlace: processesInPlace, hostCallbacks: hostCallbacks ?? HostCallbackInfo(),
                tempoChanges: tempoChanges ?? AUHostTempoChangeInfo()))
        let channel = state.pointee.channel
        let old = auhost_atomic_exchange_pointer(&channel.pointee.configuration, UnsafeMutableRawPointer(fresh))
        auhost_atomic_store_i32(&channel.pointee.notifyCount, Int32(renderNotifies.count))
        AUBase.waitForRenderReaders(channel)
        if let old { AUBase.freeConfiguration(old) }
    }

    /// Two grace periods: flip the generation, wait for the old parity's readers to leave; twice,
    /// so that a call that read the generation just before a flip is waited for too.
    ///
    /// Thread: setup.
    static func waitForRenderReaders(_ channel: UnsafeMutablePointer<RenderConfigurationChannel>) {
        for _ in 0..<2 {
            let previous = auhost_atomic_add_u64(&channel.pointee.generation, 1) &- 1
            var spins = 0
            while (previous & 1 != 0
                ? auhost_atomic_load_u64(&channel.pointee.readersOdd)
                : auhost_atomic_load_u64(&channel.pointee.readersEven)) != 0
            {
                spins += 1
                if spins < 100 { sched_yield() } else { usleep(50) }
            }
        }
    }

    /// Frees a configuration no render call can read any more.
    ///
    /// Thread: setup.
    static func freeConfiguration(_ raw: UnsafeMutableRawPointer) {
        let c = raw.assumingMemoryBound(to: RenderConfiguration.self)
        c.pointee.notifies.deallocate()
        c.pointee.sources.deallocate()
        c.deinitialize(count: 1)
        c.deallocate()
    }
}

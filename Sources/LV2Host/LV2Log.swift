import CLilv
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The severity of a plug-in's log message (log:Error, log:Warning, log:Note, log:Trace).
public enum LV2LogLevel: String, Sendable { case error, warning, note, trace }

/// Receives plug-in log messages: the plug-in's URI, the level and the text. Called on setup
/// threads and the worker thread, never on the render thread of a live instance.
public typealias LV2LogSink = @Sendable (_ pluginURI: String, _ level: LV2LogLevel, _ message: String) -> Void

/// What the log callbacks reach through the feature's `context`, in plain memory.
struct LV2LogState {
    var ring: LV2RingBuffer
    /// The render thread's id while it is inside run (live mode), else 0.
    var renderThread: UnsafeMutablePointer<Atomic<UInt>>
    var scratch: UnsafeMutablePointer<CChar>
    var live: Bool
    var owner: UnsafeMutableRawPointer
}

/// The host's `log:log` feature for one instance. In live mode, messages logged on the render
/// thread during run are formatted into preallocated memory and queued; the worker thread (or
/// `drain()`) passes them to the sink. Everything else goes to the sink at once.
final class LV2Log {
    static let scratchSize = 1024
    let feature: UnsafeMutablePointer<AUHostLV2LogFeature>
    let state: UnsafeMutablePointer<LV2LogState>
    let sink: LV2LogSink
    let pluginURI: String
    private let levels: [UInt32: LV2LogLevel]
    private let drainScratch = UnsafeMutableRawPointer.allocate(byteCount: LV2Log.scratchSize + 8, alignment: 8)

    /// Thread: setup (non-real-time).
    init(pluginURI: String, live: Bool, map: LV2URIDMap, sink: @escaping LV2LogSink) {
        self.pluginURI = pluginURI
        self.sink = sink
        levels = [
            map.map(LV2URI.logError): .error, map.map(LV2URI.logWarning): .warning,
            map.map(LV2URI.logNote): .note, map.map(LV2URI.logTrace): .trace,
        ]
        let renderThread = UnsafeMutablePointer<Atomic<UInt>>.allocate(capacity: 1)
        renderThread.initialize(to: Atomic(0))
        state = .allocate(capacity: 1)
        feature = .allocate(capacity: 1)
        state.initialize(
            to: LV2LogState(
                ring: .allocate(minimumCapacity: 16 * 1024), renderThread: renderThread,
                scratch: .allocate(capacity: Self.scratchSize), live: live,
                owner: Unmanaged.passUnretained(self).toOpaque()))
        auhost_lv2_log_feature_init(feature, lv2LogDeliver, UnsafeMutableRawPointer(state))
    }

    /// Passes queued render-thread messages to the sink. Thread: setup or worker (non-real-time).
    func drain() {
        while true {
            let size = state.pointee.ring.read(into: drainScratch, capacity: Self.scratchSize + 8)
            if size == -1 { return }
            guard size >= 4 else { continue }
            let type = drainScratch.load(as: UInt32.self)
            let text = String(decoding: UnsafeRawBufferPointer(start: drainScratch + 4, count: size - 4), as: UTF8.self)
            deliver(type: type, text)
        }
    }

    func deliver(type: UInt32, _ text: String) {
        var message = text
        while message.last == "\n" { message.removeLast() }
        sink(pluginURI, levels[type] ?? .note, message)
    }

    deinit {
        state.pointee.ring.deallocate()
        state.pointee.renderThread.deinitialize(count: 1)
        state.pointee.renderThread.deallocate()
        state.pointee.scratch.deallocate()
        state.deallocate()
        feature.deallocate()
        drainScratch.deallocate()
    }
}

/// Receives every formatted message from the C trampolines. Thread: any. On a live instance's
/// render thread it only copies the text into the preallocated ring (no allocation, no lock);
/// elsewhere it hands the text to the sink directly.
let lv2LogDeliver: @convention(c) (UnsafeMutablePointer<AUHostLV2LogFeature>?, LV2_URID, UnsafePointer<CChar>?) -> Void = {
    feature, type, text in
    guard let feature, let text else { return }
    let state = feature.pointee.context.assumingMemoryBound(to: LV2LogState.self)
    let onRenderThread =
        state.pointee.live
        && state.pointee.renderThread.pointee.load(ordering: .relaxed) == UInt(pthread_self())
    if onRenderThread {
        let scratch = state.pointee.scratch
        var length = 0
        while length < LV2Log.scratchSize - 4, text[length] != 0 { length += 1 }
        UnsafeMutableRawPointer(scratch).storeBytes(of: type, as: UInt32.self)
        (UnsafeMutableRawPointer(scratch) + 4).copyMemory(from: text, byteCount: length)
        _ = state.pointee.ring.write(scratch, size: 4 + length)
        return
    }
    let log = Unmanaged<LV2Log>.fromOpaque(state.pointee.owner).takeUnretainedValue()
    log.deliver(type: type, String(cString: text))
}

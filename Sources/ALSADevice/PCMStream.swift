import AudioToolbox
import CALSA
import Glibc
import Synchronization

/// The function a stream calls on its I/O thread once per period.
///
/// - For rendering (playback): fill `buffers` (canonical Float32, one buffer per playback channel,
///   each `frames` long; you may point `mData` at your own memory instead). A non-zero return
///   sends silence for that period and is counted in `renderErrorCount`.
/// - For input (capture): `buffers` holds the period just captured (read it; do not keep pointers).
///
/// `sampleTime` counts frames processed since `start()` (it does not jump over xruns).
/// Thread: render (real-time) — must not allocate, lock, log or wait.
public typealias PCMRenderFunction =
    @convention(c) (
        _ context: UnsafeMutableRawPointer?, _ sampleTime: Int64, _ frames: UInt32,
        _ buffers: UnsafeMutablePointer<AudioBufferList>
    ) -> OSStatus

/// A real-time I/O stream over a playback PCM, a capture PCM, or both in full duplex.
///
/// `start()` preallocates every buffer, installs software parameters, links the two PCMs when
/// alsa-lib allows (`snd_pcm_link`), and runs a dedicated thread that asks for SCHED_FIFO. Per
/// period the thread reads capture → calls `input` → calls `render` → writes playback. Xruns are
/// recovered and counted; a device that fails (an error other than an xrun, more than 8 xruns in
/// a row, or no audio moving for max(2 s, 8 buffers)) stops the stream, `failure` records the ALSA
/// reason, and `onStopped` runs on a separate non-real-time thread.
///
/// Full duplex: playback is prefilled with one buffer of silence before both start, so the
/// output lags the input by exactly `duplexLatencyFrames` frames (restarted identically after
/// an xrun, so the two stay in step).
///
/// ```swift
/// let out = try PCMDevice(name: "default", direction: .playback)
/// try out.configure(PCMRequest(channels: 2, format: .s16LE, periodFrames: 256, periodCount: 2))
/// let stream = try PCMStream(playback: out, render: mySine, context: sineState)
/// try stream.start(); sleep(2); stream.stop()
/// print(stream.xrunCount, stream.worstRenderFraction)
/// ```
public final class PCMStream {
    /// The playback PCM, if any.
    public let playback: PCMDevice?
    /// The capture PCM, if any.
    public let capture: PCMDevice?
    /// The SCHED_FIFO priority requested for the I/O thread; nil runs it at normal priority.
    public let realTimePriority: Int32?
    /// Called once, on a non-real-time thread, when the stream stops by itself (not after `stop()`).
    /// It may read the stream's properties and may call `stop()` (which then does not wait for
    /// the notifying thread itself).
    public let onStopped: (@Sendable (ALSAError) -> Void)?

    let render: PCMRenderFunction?
    let input: PCMRenderFunction?
    let context: UnsafeMutableRawPointer?
    let counters: UnsafeMutablePointer<PCMStreamCounters>
    let status = PCMStreamStatus()
    var run: PCMStreamRun?

    /// Makes a stream over configured devices (either may be nil, not both). In full duplex both
    /// must have the same granted sample rate and period size.
    /// Throws `ALSAError`: `kAudio_ParamError` (no device, wrong direction),
    /// `kAudioUnitErr_Uninitialized` (unconfigured device), `kAudioUnitErr_FormatNotSupported`
    /// (duplex mismatch).
    /// Thread: setup (non-real-time).
    public init(
        playback: PCMDevice? = nil, capture: PCMDevice? = nil,
        render: PCMRenderFunction? = nil, input: PCMRenderFunction? = nil,
        context: UnsafeMutableRawPointer? = nil, realTimePriority: Int32? = 70,
        onStopped: (@Sendable (ALSAError) -> Void)? = nil
    ) throws {
        guard playback != nil || capture != nil else {
            throw ALSAError(
                status: OSStatus(kAudio_ParamError),
                message: "A PCMStream needs a playback device, a capture device or both; it was given neither.")
        }
        for (device, direction) in [(playback, PCMDirection.playback), (capture, .capture)] {
            guard let device else { continue }
            guard device.direction == direction else {
                throw ALSAError(
                    status: OSStatus(kAudio_ParamError),
                    message:
                        "ALSA device \"\(device.name)\" was opened for \(device.direction) but passed as the stream's \(direction) device.")
            }
            guard device.configuration != nil, device.handle != nil else {
                throw ALSAError(
                    status: OSStatus(kAudioUnitErr_Uninitialized),
                    message: "ALSA device \"\(device.name)\" is not configured; call configure(_:) before making a stream.")
            }
        }
        if let out = playback?.configuration, let inp = capture?.configuration,
            out.sampleRate != inp.sampleRate || out.periodFrames != inp.periodFrames
        {
            throw ALSAError(
                status: OSStatus(kAudioUnitErr_FormatNotSupported),
                message:
                    "Full duplex needs one rate and period: \"\(capture!.name)\" runs \(inp.sampleRate) Hz × \(inp.periodFrames) frames, \"\(playback!.name)\" \(out.sampleRate) Hz × \(out.periodFrames) frames; request the same values for both."
            )
        }
        self.playback = playback
        self.capture = capture
        self.render = render
        self.input = input
        self.context = context
        self.realTimePriority = realTimePriority
        self.onStopped = onStopped
        counters = .allocate(capacity: 1)
        counters.initialize(to: PCMStreamCounters())
        counters.pointee.running.store(false, ordering: .relaxed)
    }

    deinit {
        stop()
        counters.deinitialize(count: 1)
        counters.deallocate()
    }

    /// Frames per period (the `frames` every callback receives).
    /// Thread: any.
    public var periodFrames: Int { (capture ?? playback)!.configuration?.periodFrames ?? 0 }

    /// Sample rate of the stream.
    /// Thread: any.
    public var sampleRate: Int { (capture ?? playback)!.configuration?.sampleRate ?? 0 }

    /// In full duplex, how many frames of silence precede the first captured frame in the
    /// playback output (one playback buffer); 0 otherwise, and 0 once the playback device is closed.
    /// Thread: any.
    public var duplexLatencyFrames: Int {
        guard capture != nil, let out = playback?.configuration else { return 0 }
        return out.bufferFrames
    }

    /// True while the I/O thread is in its loop.
    /// Thread: any.
    public var isRunning: Bool { counters.pointee.running.load(ordering: .acquiring) }

    /// Xruns recovered since the last start.
    /// Thread: any.
    public var xrunCount: Int { counters.pointee.xruns.load(ordering: .relaxed) }

    /// Frames processed (periods completed × period size) since the last start.
    /// Thread: any.
    public var framesProcessed: Int { counters.pointee.framesProcessed.load(ordering: .relaxed) }

    /// Periods whose input or render function returned a non-zero status.
    /// Thread: any.
    public var renderErrorCount: Int { counters.pointee.renderErrors.load(ordering: .relaxed) }

    /// Longest input+render callback time since the last start, in nanoseconds.
    /// Thread: any.
    public var worstRenderNanoseconds: Int { counters.pointee.worstRenderNanoseconds.load(ordering: .relaxed) }

    /// `worstRenderNanoseconds` as a fraction of one period's duration (1.0 = a whole period).
    /// Thread: any.
    public var worstRenderFraction: Double {
        let period = Double(periodFrames) / Double(max(sampleRate, 1)) * 1e9
        return period > 0 ? Double(worstRenderNanoseconds) / period : 0
    }

    /// Why the stream stopped by itself, nil if it did not (cleared by `start()`).
    /// Thread: any.
    public var failure: ALSAError? { status.failure.withLock { $0 } }

    /// One line when SCHED_FIFO was refused at the last start (the thread then runs at normal
    /// priority), nil otherwise.
    /// Thread: any.
    public var schedulingWarning: String? { status.schedulingWarning.withLock { $0 } }

    /// True when the last start linked capture and playback with `snd_pcm_link`.
    /// Thread: any.
    public var isLinked: Bool { run?.linked ?? false }
}

/// Results the supervisor thread writes and setup threads read.
final class PCMStreamStatus: Sendable {
    let failure = Mutex<ALSAError?>(nil)
    let schedulingWarning = Mutex<String?>(nil)
}

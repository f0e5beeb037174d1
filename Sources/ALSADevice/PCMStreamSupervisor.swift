import AudioToolbox
import CALSA
import Glibc

/// The non-real-time thread that waits for the I/O thread to exit and, if it stopped by itself,
/// turns the recorded failure into an `ALSAError` and calls `onStopped` — so the notification
/// never runs on (or waits in) the real-time thread.
final class PCMStreamSupervisorJob {
    let ioThread: pthread_t
    let counters: UnsafeMutablePointer<PCMStreamCounters>
    let status: PCMStreamStatus
    let playbackName: String?
    let captureName: String?
    let onStopped: (@Sendable (ALSAError) -> Void)?

    init(
        ioThread: pthread_t, counters: UnsafeMutablePointer<PCMStreamCounters>, status: PCMStreamStatus,
        playbackName: String?, captureName: String?, onStopped: (@Sendable (ALSAError) -> Void)?
    ) {
        self.ioThread = ioThread
        self.counters = counters
        self.status = status
        self.playbackName = playbackName
        self.captureName = captureName
        self.onStopped = onStopped
    }

    func run() {
        pthread_join(ioThread, nil)
        let kind = EngineFailure(rawValue: counters.pointee.failureKind.load(ordering: .acquiring)) ?? .none
        guard kind != .none else { return }
        let code = Int32(truncatingIfNeeded: counters.pointee.failureCode.load(ordering: .relaxed))
        let error = describe(kind, code)
        status.failure.withLock { $0 = error }
        onStopped?(error)
    }

    func describe(_ kind: EngineFailure, _ code: Int32) -> ALSAError {
        let reason = ALSAError.reason(code)
        let out = "ALSA playback device \"\(playbackName ?? "")\""
        let inp = "ALSA capture device \"\(captureName ?? "")\""
        let text: String
        switch kind {
        case .playbackError: text = "\(out) failed while streaming: \(reason); the stream stopped — check the device and start again."
        case .captureError: text = "\(inp) failed while streaming: \(reason); the stream stopped — check the device and start again."
        case .playbackStalled:
            text = "\(out) accepted no audio for too long (\(reason)); the stream stopped — the device may have gone away."
        case .captureStalled:
            text = "\(inp) delivered no audio for too long (\(reason)); the stream stopped — the device or its source may have gone away."
        case .playbackXruns:
            text = "\(out) kept underrunning (\(reason)) after repeated recovery; the stream stopped — use larger periods or more periods."
        case .captureXruns:
            text = "\(inp) kept overrunning (\(reason)) after repeated recovery; the stream stopped — use larger periods or more periods."
        case .startFailed:
            text =
                "The ALSA stream (\([playbackName, captureName].compactMap { $0 }.map { "\"\($0)\"" }.joined(separator: " and "))) could not start: \(reason)."
        case .none: text = "The ALSA stream stopped."
        }
        return ALSAError(status: OSStatus(kAudioUnitErr_NoConnection), message: text, alsaCode: code)
    }
}

/// `pthread_create` entry for the supervisor; takes a retained `PCMStreamSupervisorJob`.
let supervisorThreadEntry: @convention(c) (UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? = { raw in
    guard let raw else { return nil }
    Unmanaged<PCMStreamSupervisorJob>.fromOpaque(raw).takeRetainedValue().run()
    return nil
}

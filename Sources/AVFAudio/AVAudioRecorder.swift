import AudioToolbox
import Foundation

/// What an AVAudioRecorder tells its delegate (Apple's AVAudioRecorderDelegate); both methods are
/// optional. They are called on a background thread (Apple: the main thread).
public protocol AVAudioRecorderDelegate: AnyObject {
    /// The recording ended: stop(), the duration given to record(forDuration:) reached (`flag`
    /// true), or the device or the file failed (`flag` false).
    func audioRecorderDidFinishRecording(_ recorder: AVAudioRecorder, successfully flag: Bool)
    /// Writing the file failed.
    func audioRecorderEncodeErrorDidOccur(_ recorder: AVAudioRecorder, error: Error?)
}

extension AVAudioRecorderDelegate {
    /// Thread: a background thread.
    public func audioRecorderDidFinishRecording(_ recorder: AVAudioRecorder, successfully flag: Bool) {}
    /// Thread: a background thread.
    public func audioRecorderEncodeErrorDidOccur(_ recorder: AVAudioRecorder, error: Error?) {}
}

/// Records from the input device into a file (Apple's AVAudioRecorder): an input Audio Queue on
/// the ALSA capture PCM, each filled buffer written through AVAudioFile (.wav, .aif, .caf; linear
/// PCM as the settings say) on the queue's callback thread.
///
/// Thread: setup for every member (one thread at a time), unless said otherwise.
public final class AVAudioRecorder {
    public let url: URL
    public let settings: [String: Any]
    /// The file's format.
    public let format: AVAudioFormat
    public weak var delegate: AVAudioRecorderDelegate?
    /// The ALSA PCM to record from ("default" when nil); a Linux addition (Apple records from the
    /// session's input). Read at prepareToRecord. Thread: setup.
    public var currentDevice: String?
    /// Whether record() measures levels for updateMeters(). Thread: setup.
    public var isMeteringEnabled: Bool {
        get { state.withLock { $0.metering } }
        set { state.withLock { $0.metering = newValue } }
    }

    private let state: RecorderState
    /// The open input queue (between prepareToRecord and the end); `finishing` serialises the end.
    private var queue: AudioQueueRef?
    private let finishing = NSLock()
    private var meters: [(peak: Float, average: Float)] = []

    /// Checks the settings (linear PCM: AVSampleRateKey and AVNumberOfChannelsKey at least) and the
    /// file type (.wav, .aif, .caf); the file is created by prepareToRecord or record.
    ///
    /// Thread: setup.
    public init(url: URL, settings: [String: Any]) throws {
        guard let format = AVAudioFormat(settings: settings), format.streamDescription.pointee.mFormatID == kAudioFormatLinearPCM,
            format.channelCount > 0, format.channelCount <= 64,
            (1...1_536_000).contains(format.sampleRate)
        else {
            throw osStatusError(
                kAudioFormatUnsupportedDataFormatError,
                "AVAudioRecorder records linear PCM of 1 to 64 channels at 1 to 1536000 Hz; the settings give none: \(settings)")
        }
        guard ["wav", "wave", "aif", "aiff", "aifc", "caf"].contains(url.pathExtension.lowercased()) else {
            throw osStatusError(
                kAudioFileUnsupportedFileTypeError,
                "AVAudioRecorder writes .wav, .aif and .caf files; \(url.lastPathComponent) is none of them")
        }
        self.url = url
        self.settings = settings
        self.format = format
        state = RecorderState(channels: Int(format.channelCount))
    }

    /// A recorder for `format` (its settings).
    ///
    /// Thread: setup.
    public convenience init(url: URL, format: AVAudioFormat) throws {
        try self.init(url: url, settings: format.settings)
    }

    deinit {
        if let queue { AudioQueueDispose(queue, true) }
    }

    /// Creates the file (replacing one at `url`) and opens the input device; false when either
    /// fails. record() calls it when needed.
    ///
    /// Thread: setup.
    @discardableResult
    public func prepareToRecord() -> Bool {
        if queue != nil { return true }
        do {
            let file = try AVAudioFile(forWriting: url, settings: settings, commonFormat: .pcmFormatFloat32, interleaved: false)
            guard let buffer = AVAudioPCMBuffer(pcmFormat: file.processingFormat, frameCapacity: bufferFrames) else { return false }
            queue = try makeQueue()
            state.withLock {
                $0.file = file
                $0.buffer = buffer
                $0.frames = 0
                $0.limit = nil
                $0.ended = false
            }
            return true
        } catch {
            return false
        }
    }

    /// Starts or resumes recording; false when the file or the device cannot be opened.
    ///
    /// Thread: setup.
    @discardableResult
    public func record() -> Bool {
        guard prepareToRecord(), let queue else { return false }
        // Recording before the start: the first buffers may come back before Start returns.
        state.withLock { $0.recording = true }
        if AudioQueueStart(queue, nil) != noErr {
            state.withLock { $0.recording = false }
            return false
        }
        return true
    }

    /// Records `duration` seconds (frames counted at the file's rate), then stops and tells the
    /// delegate; false when it cannot start or the duration is not positive and finite.
    ///
    /// Thread: setup.
    @discardableResult
    public func record(forDuration duration: TimeInterval) -> Bool {
        guard duration.isFinite, duration > 0, prepareToRecord() else { return false }
        let frames = Int64(min(duration * format.sampleRate, 9e15).rounded())
        state.withLock { $0.limit = $0.frames + max(frames, 1) }
        return record()
    }

    /// Pauses; record() resumes into the same file.
    ///
    /// Thread: setup.
    public func pause() {
        guard let queue else { return }
        AudioQueuePause(queue)
        state.withLock { $0.recording = false }
    }

    /// Stops, finishes the file and tells the delegate (successfully).
    ///
    /// Thread: setup.
    public func stop() {
        finish(successfully: true)
    }

    /// Whether it is recording (not paused or stopped). Thread: any.
    public var isRecording: Bool { state.withLock { $0.recording } }

    /// Seconds recorded into the file; 0 once stopped. Thread: any.
    public var currentTime: TimeInterval { state.withLock { $0.file == nil ? 0 : Double($0.frames) / format.sampleRate } }

    /// Seconds on the device's clock (CLOCK_MONOTONIC). Thread: any.
    public var deviceCurrentTime: TimeInterval { AVAudioTime.seconds(forHostTime: hostNanoseconds()) }

    /// Deletes the file; false while recording or when it cannot be removed.
    ///
    /// Thread: setup.
    public func deleteRecording() -> Bool {
        guard queue == nil else { return false }
        return (try? FileManager.default.removeItem(at: url)) != nil
    }

    /// Takes the levels measured since the last call (metering enabled).
    ///
    /// Thread: setup.
    public func updateMeters() {
        meters = state.withLock { s in
            defer {
                for c in s.peaks.indices {
                    s.peaks[c] = 0
                    s.squares[c] = 0
                }
                s.measured = 0
            }
            return s.peaks.indices.map { c in
                (decibels(s.peaks[c]), decibels(s.measured > 0 ? Float((s.squares[c] / Double(s.measured)).squareRoot()) : 0))
            }
        }
    }

    /// The highest level of `channel` at the last updateMeters(), dBFS (−160 for silence).
    public func peakPower(forChannel channel: Int) -> Float { meters.indices.contains(channel) ? meters[channel].peak : -160 }

    /// The RMS level of `channel` at the last updateMeters(), dBFS (−160 for silence).
    public func averagePower(forChannel channel: Int) -> Float { meters.indices.contains(channel) ? meters[channel].average : -160 }

    // MARK: The queue

    /// Three buffers of 0.1 s: levels and currentTime move every tenth of a second, and 0.3 s of
    /// audio can wait for a file write.
    private var bufferFrames: AVAudioFrameCount { AVAudioFrameCount(max(format.sampleRate / 10, 64)) }

    /// An input queue delivering interleaved Float32 at the file's rate and channel count.
    private func makeQueue() throws -> AudioQueueRef {
        let channels = format.channelCount
        var asbd = AudioStreamBasicDescription(
            mSampleRate: format.sampleRate, mFormatID: kAudioFormatLinearPCM,
            mFormatFlags: kAudioFormatFlagIsFloat | kAudioFormatFlagIsPacked | kAudioFormatFlagsNativeEndian,
            mBytesPerPacket: 4 * channels, mFramesPerPacket: 1, mBytesPerFrame: 4 * channels, mChannelsPerFrame: channels,
            mBitsPerChannel: 32, mReserved: 0)
        var made: AudioQueueRef?
        try checkStatus(
            AudioQueueNewInput(&asbd, recorderCallback, Unmanaged.passUnretained(state).toOpaque(), nil, nil, 0, &made),
            "Could not open the input")
        guard let queue = made else { throw osStatusError(kAudioQueueErr_InvalidDevice, "Could not open the input") }
        state.withLock { $0.onEnd = { [weak self] flag in self?.finishFromCallback(successfully: flag) } }
        if let currentDevice {
            let name = CFStringCreateWithCString(nil, currentDevice, CFStringBuiltInEncodings.UTF8.rawValue)!
            var reference: Unmanaged<CFString>? = Unmanaged.passUnretained(name)
            let status = AudioQueueSetProperty(
                queue, kAudioQueueProperty_CurrentDevice, &reference, UInt32(MemoryLayout<Unmanaged<CFString>?>.size))
            if status != noErr {
                AudioQueueDispose(queue, true)
                throw osStatusError(status, "Could not record from \(currentDevice)")
            }
        }
        for _ in 0..<3 {
            var buffer: AudioQueueBufferRef?
            try checkStatus(AudioQueueAllocateBuffer(queue, bufferFrames * 4 * channels, &buffer), "Could not allocate a buffer")
            try checkStatus(AudioQueueEnqueueBuffer(queue, buffer!, 0, nil), "Could not enqueue a buffer")
        }
        return queue
    }

    /// The end of a duration, or a write that failed: the queue's thread cannot stop its own
    /// queue synchronously, so another thread does.
    private func finishFromCallback(successfully flag: Bool) {
        DispatchQueue.global().async { self.finish(successfully: flag) }
    }

    private func finish(successfully flag: Bool) {
        finishing.lock()
        guard let queue else {
            finishing.unlock()
            return
        }
        state.withLock { $0.ended = true }
        AudioQueueStop(queue, true)
        AudioQueueDispose(queue, true)
        self.queue = nil
        finishing.unlock()
        let error = state.withLock { s -> Error? in
            s.recording = false
            s.file?.close()
            s.file = nil
            s.buffer = nil
            return s.error
        }
        if let error { delegate?.audioRecorderEncodeErrorDidOccur(self, error: error) }
        delegate?.audioRecorderDidFinishRecording(self, successfully: flag && error == nil)
    }
}

/// What the queue's callback shares with the recorder, under one lock (the callback is not on a
/// real-time thread: Audio Queue callbacks run on the queue's own thread).
private final class RecorderState: @unchecked Sendable {
    struct Fields {
        var file: AVAudioFile?
        var buffer: AVAudioPCMBuffer?
        var recording = false
        /// The queue is being stopped: buffers are no longer given back to it.
        var ended = false
        var frames: Int64 = 0
        var limit: Int64?
        var error: Error?
        var onEnd: ((Bool) -> Void)?
        var metering = false
        var peaks: [Float]
        var squares: [Double]
        var measured = 0
    }
    private let lock = NSLock()
    private var fields: Fields

    init(channels: Int) { fields = Fields(peaks: Array(repeating: 0, count: channels), squares: Array(repeating: 0, count: channels)) }

    func withLock<T>(_ body: (inout Fields) throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body(&fields)
    }

    /// Writes `frames` interleaved frames into the file (up to the duration's limit) and measures
    /// them; answers the end to report, if this buffer ended the recording.
    func take(_ samples: UnsafePointer<Float>, frames: Int) -> ((Bool) -> Void, Bool)? {
        withLock { s in
            guard s.recording, let file = s.file, let buffer = s.buffer else { return nil }
            let channels = Int(buffer.format.channelCount)
            let wanted = s.limit.map { Int(min(Int64(frames), max($0 - s.frames, 0))) } ?? frames
            var done = 0
            while done < wanted {
                let n = min(wanted - done, Int(buffer.frameCapacity))
                for c in 0..<channels {
                    let out = buffer.floatChannelData![c]
                    for i in 0..<n { out[i] = samples[(done + i) * channels + c] }
                    if s.metering {
                        for i in 0..<n {
                            s.peaks[c] = max(s.peaks[c], abs(out[i]))
                            s.squares[c] += Double(out[i]) * Double(out[i])
                        }
                    }
                }
                if s.metering { s.measured += n }
                buffer.frameLength = AVAudioFrameCount(n)
                do {
                    try file.write(from: buffer)
                } catch {
                    s.error = error
                    s.recording = false
                    return s.onEnd.map { ($0, false) }
                }
                done += n
            }
            s.frames += Int64(wanted)
            if let limit = s.limit, s.frames >= limit {
                s.recording = false
                return s.onEnd.map { ($0, true) }
            }
            return nil
        }
    }
}

private let recorderCallback: AudioQueueInputCallback = { userData, queue, buffer, _, packets, _ in
    let state = Unmanaged<RecorderState>.fromOpaque(userData!).takeUnretainedValue()
    let data = UnsafePointer(buffer.pointee.mAudioData.assumingMemoryBound(to: Float.self))
    if packets > 0, let (end, flag) = state.take(data, frames: Int(packets)) {
        end(flag)
        return
    }
    // Paused buffers go back too, so that record() finds the queue supplied.
    if !state.withLock({ $0.ended }) { AudioQueueEnqueueBuffer(queue, buffer, 0, nil) }
}

/// Level in dBFS, −160 for silence.
private func decibels(_ level: Float) -> Float { level > 0 ? max(20 * log10(level), -160) : -160 }

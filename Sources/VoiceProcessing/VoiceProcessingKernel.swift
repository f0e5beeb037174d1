import AUHostCore
import CWebRTCProcessing

// Everything the render thread runs for voice processing, in one file so that the compiler's
// real-time checks see every body. webrtc works on 10 ms chunks; hosts render blocks of any size.
// The reference (far end) waits in a FIFO; each full microphone chunk is processed right after
// the oldest reference chunk, so webrtc sees reference, capture, reference, capture… per 10 ms
// whatever the block sizes (feeding a whole block's reference first put it several chunks ahead
// of its microphone). The processed chunk comes out while the next one gathers: exactly one chunk
// of delay, plus webrtc's own (`latencyFrames` counts both).

/// webrtc-audio-processing on blocks of any size: the reference and microphone are fed as they
/// come, the processed microphone is returned `latencyFrames` later (one 10 ms chunk of
/// gathering plus webrtc's own delay). Fed the reference of a block, then its microphone, the
/// output is the same, sample for sample, for any sequence of block sizes.
///
/// Create and release it on a setup thread; `addReference`, `process` and `restart` run on the
/// render thread (one at a time) and neither allocate nor lock (webrtc's calls take the library's
/// own mutex, which only the render thread ever takes). `metrics` and `requestGainControl` /
/// `requestDelay` may be called from any thread.
///
/// ```swift
/// var k = try VoiceProcessingKernel(sampleRate: 48_000, captureChannels: 1, referenceChannels: 1, maximumFrames: 512)
/// k.addReference(farEndList, frames: 256)      // what the speaker plays
/// k.process(micList, into: outList, frames: 256) // the microphone, echo removed, latencyFrames late
/// k.release()
/// ```
public struct VoiceProcessingKernel {
    let processor: OpaquePointer
    /// Frames per 10 ms chunk (sample rate / 100).
    public let chunkFrames: Int
    /// Microphone channels processed (1 or 2).
    public let captureChannels: Int
    /// Far-end channels (1 or 2).
    public let referenceChannels: Int
    /// The longest reference block expected between two microphone blocks (the FIFO holds this
    /// plus two chunks; older frames are dropped beyond).
    public let maximumFrames: Int
    /// The reference FIFO: `referenceChannels` rings of `fifoCapacity` floats.
    let fifo: UnsafeMutablePointer<Float>
    let fifoCapacity: Int
    var fifoRead = 0
    var fifoCount = 0
    /// The reference chunk handed to webrtc.
    let reference: UnsafeMutablePointer<Float>
    let referencePointers: UnsafeMutablePointer<UnsafePointer<Float>?>
    /// The microphone chunk being gathered, and the last processed chunk, which is read out while
    /// the next gathers.
    let microphone: UnsafeMutablePointer<Float>
    let microphonePointers: UnsafeMutablePointer<UnsafePointer<Float>?>
    let processed: UnsafeMutablePointer<Float>
    let processedPointers: UnsafeMutablePointer<UnsafeMutablePointer<Float>?>
    var microphoneFill = 0
    /// How far the microphone chunks run ahead of the reference stream they are paired with, in
    /// frames: a chunk without reference adds a chunk, dropped reference frames subtract. The
    /// delay webrtc is told shrinks by as much.
    var lagFrames = 0
    /// webrtc's status for the last chunk that failed (0 if none since the last `restart`).
    public private(set) var lastError: Int32 = 0

    /// Creates the processor for `sampleRate` (a multiple of 100 Hz) and sizes the reference FIFO
    /// for blocks of up to `maximumFrames`. Throws kAudioUnitErr_FormatNotSupported for a rate or
    /// channel count webrtc cannot take, with the reason.
    ///
    /// Thread: setup.
    public init(
        sampleRate: Double, captureChannels: Int, referenceChannels: Int, maximumFrames: Int,
        settings: VoiceProcessingSettings = VoiceProcessingSettings()
    ) throws {
        let rate = Int(sampleRate)
        guard Double(rate) == sampleRate, rate >= 8_000, rate <= 192_000, rate % 100 == 0 else {
            throw AudioError(
                kAudioUnitErr_FormatNotSupported,
                "Voice processing works on 10 ms chunks and needs a whole sample rate of 8000…192000 Hz divisible by 100; \(sampleRate) Hz is not."
            )
        }
        guard (1...2).contains(captureChannels), (1...2).contains(referenceChannels) else {
            throw AudioError(
                kAudioUnitErr_FormatNotSupported,
                "Voice processing takes 1 or 2 microphone channels and 1 or 2 far-end channels; \(captureChannels) and \(referenceChannels) were asked."
            )
        }
        guard maximumFrames >= 1, maximumFrames <= 1 << 20 else {
            throw AudioError(
                kAudio_ParamError, "Voice processing needs a maximum block size of 1…1048576 frames; \(maximumFrames) was asked.")
        }
        var config = settings.c
        var error: Int32 = 0
        guard let p = auhost_webrtc_create(Int32(rate), Int32(captureChannels), Int32(referenceChannels), &config, &error) else {
            throw AudioError(
                kAudioUnitErr_FormatNotSupported,
                "webrtc-audio-processing refused \(rate) Hz with \(captureChannels) microphone and \(referenceChannels) far-end channels (error \(error))."
            )
        }
        processor = p
        chunkFrames = rate / 100
        self.captureChannels = captureChannels
        self.referenceChannels = referenceChannels
        self.maximumFrames = maximumFrames
        // A block's reference plus what waits between blocks (under a chunk offline; up to a
        // chunk more on a device whose periods do not divide chunks).
        fifoCapacity = maximumFrames + 2 * chunkFrames
        processingDelayFrames = Self.processingDelay(rate: rate, settings: settings)
        fifo = .allocate(capacity: referenceChannels * fifoCapacity)
        fifo.initialize(repeating: 0, count: referenceChannels * fifoCapacity)
        reference = .allocate(capacity: referenceChannels * chunkFrames)
        reference.initialize(repeating: 0, count: referenceChannels * chunkFrames)
        referencePointers = .allocate(capacity: referenceChannels)
        microphone = .allocate(capacity: captureChannels * chunkFrames)
        microphone.initialize(repeating: 0, count: captureChannels * chunkFrames)
        processed = .allocate(capacity: captureChannels * chunkFrames)
        processed.initialize(repeating: 0, count: captureChannels * chunkFrames)
        microphonePointers = .allocate(capacity: captureChannels)
        processedPointers = .allocate(capacity: captureChannels)
        for c in 0..<referenceChannels { referencePointers[c] = UnsafePointer(reference + c * chunkFrames) }
        for c in 0..<captureChannels {
            microphonePointers[c] = UnsafePointer(microphone + c * chunkFrames)
            processedPointers[c] = processed + c * chunkFrames
        }
        restart()
    }

    /// Frees the processor and the buffers.
    ///
    /// Thread: setup (nothing renders).
    public func release() {
        auhost_webrtc_destroy(processor)
        fifo.deallocate()
        reference.deallocate()
        referencePointers.deallocate()
        microphone.deallocate()
        microphonePointers.deallocate()
        processed.deallocate()
        processedPointers.deallocate()
    }

    /// webrtc's own delay in frames for these settings (measured on 0.3: the canceller delays by
    /// 112 samples of its 8 or 16 kHz band, noise suppression by 6 ms, and the band-splitting
    /// filters at 32 and 48 kHz by 4 and 46 frames; gain control and the high-pass filter add
    /// none). Exact at the native rates 8, 16, 32 and 48 kHz; at other rates webrtc resamples
    /// internally and the true delay is up to about 1.5 ms longer.
    public let processingDelayFrames: Int

    /// The delay between the microphone and the processed output, in frames: one chunk of
    /// gathering plus webrtc's own `processingDelayFrames`.
    ///
    /// Thread: any.
    public var latencyFrames: Int { chunkFrames + processingDelayFrames }

    static func processingDelay(rate: Int, settings: VoiceProcessingSettings) -> Int {
        var seconds = 0.0
        if settings.echoCancellation { seconds += rate <= 8_000 ? 0.014 : 0.007 }
        if settings.noiseSuppression { seconds += 0.006 }
        guard seconds > 0 else { return 0 }
        let bands = rate == 32_000 ? 4 : rate == 48_000 ? 46 : 0
        return Int((seconds * Double(rate)).rounded()) + bands
    }

    /// The canceller's latest figures.
    ///
    /// Thread: any.
    public var metrics: VoiceProcessingMetrics {
        var m = auhost_webrtc_metrics()
        auhost_webrtc_get_metrics(processor, &m)
        return VoiceProcessingMetrics(m)
    }

    /// Turns gain control on or off from the next chunk on.
    ///
    /// Thread: any.
    public func requestGainControl(_ enabled: Bool) { auhost_webrtc_request_gain_control(processor, enabled ? 1 : 0) }

    /// The delay reported to the canceller from the next chunk on: how long after a reference
    /// frame was passed to `addReference` its echo reaches `process`, counted in stream frames
    /// (0…500 ms; the kernel subtracts how far it holds the reference back, and the canceller's
    /// own estimate refines it when `delayAgnostic` is on).
    ///
    /// Thread: any.
    public func requestDelay(milliseconds: Int) { auhost_webrtc_request_delay_ms(processor, Int32(clamping: milliseconds)) }

    /// Forgets the waiting reference and the partial chunk and outputs silence for the next
    /// chunk, as after creation (the canceller keeps what it learnt). Call it when the streams
    /// restart or were interrupted.
    ///
    /// Thread: render (or setup while nothing renders).
    @_noAllocation @_noLocks
    public mutating func restart() {
        fifoRead = 0
        fifoCount = 0
        microphoneFill = 0
        lagFrames = 0
        processed.update(repeating: 0, count: captureChannels * chunkFrames)
        lastError = 0
    }

    /// Feeds the far-end signal: `frames` (any number) of the non-interleaved float buffers in
    /// `list`; channels beyond `referenceChannels` are ignored, missing ones are silent. The
    /// frames wait until the microphone chunk they pair with is processed; beyond
    /// `maximumFrames` + 2 chunks waiting, the oldest are dropped.
    ///
    /// Thread: render.
    @_noAllocation @_noLocks
    public mutating func addReference(_ list: UnsafePointer<AudioBufferList>, frames: Int) {
        let keep = min(frames, fifoCapacity)
        let skipped = frames - keep
        let overflow = max(0, fifoCount + keep - fifoCapacity)
        fifoRead = (fifoRead + overflow) % fifoCapacity
        fifoCount -= overflow
        lagFrames = max(lagFrames - skipped - overflow, -Self.lagLimit)
        let buffers = bufferArray(list)
        let available = Int(list.pointee.mNumberBuffers)
        let write = (fifoRead + fifoCount) % fifoCapacity
        let first = min(keep, fifoCapacity - write)
        for c in 0..<referenceChannels {
            let ringChannel = fifo + c * fifoCapacity
            if c < available, let data = buffers[c].mData {
                let source = data.assumingMemoryBound(to: Float.self) + skipped
                copyFloats(source, to: ringChannel + write, first)
                copyFloats(source + first, to: ringChannel, keep - first)
            } else {
                (ringChannel + write).update(repeating: 0, count: first)
                ringChannel.update(repeating: 0, count: keep - first)
            }
        }
        fifoCount += keep
    }

    /// Bounds `lagFrames` (about 10 s at 48 kHz; the delay webrtc takes is clamped to 500 ms).
    static var lagLimit: Int { 1 << 19 }

    /// Processes the microphone: `frames` (any number) of `input`'s non-interleaved float
    /// buffers in, the same number of processed frames (one chunk late) into `output`, which may
    /// be the same list. Channels beyond `captureChannels` are left as they are in `output`.
    ///
    /// Thread: render.
    @_noAllocation @_noLocks
    public mutating func process(_ input: UnsafePointer<AudioBufferList>, into output: UnsafeMutablePointer<AudioBufferList>, frames: Int) {
        let inBuffers = bufferArray(input)
        let inCount = Int(input.pointee.mNumberBuffers)
        let outBuffers = bufferArray(UnsafePointer(output))
        let outCount = Int(output.pointee.mNumberBuffers)
        var done = 0
        while done < frames {
            let n = min(frames - done, chunkFrames - microphoneFill)
            // In before out: `output` may be `input`.
            for c in 0..<captureChannels {
                let target = microphone + c * chunkFrames + microphoneFill
                if c < inCount, let data = inBuffers[c].mData {
                    copyFloats(data.assumingMemoryBound(to: Float.self) + done, to: target, n)
                } else {
                    target.update(repeating: 0, count: n)
                }
            }
            for c in 0..<min(captureChannels, outCount) {
                guard let data = outBuffers[c].mData?.assumingMemoryBound(to: Float.self) else { continue }
                copyFloats(processed + c * chunkFrames + microphoneFill, to: data + done, n)
            }
            microphoneFill += n
            done += n
            if microphoneFill == chunkFrames {
                processChunk()
                microphoneFill = 0
            }
        }
    }

    /// The oldest reference chunk (if a whole one waits), then the gathered microphone chunk.
    @_noAllocation @_noLocks
    private mutating func processChunk() {
        let p = processor
        var status: Int32 = 0
        if fifoCount >= chunkFrames {
            let first = min(chunkFrames, fifoCapacity - fifoRead)
            for c in 0..<referenceChannels {
                let ringChannel = fifo + c * fifoCapacity
                let target = reference + c * chunkFrames
                copyFloats(ringChannel + fifoRead, to: target, first)
                copyFloats(ringChannel, to: target + first, chunkFrames - first)
            }
            fifoRead = (fifoRead + chunkFrames) % fifoCapacity
            fifoCount -= chunkFrames
            let pointers = UnsafePointer(referencePointers)
            // webrtc takes its own mutex, only ever from this thread; no allocation after set-up.
            _unsafePerformance { status = auhost_webrtc_process_reverse(p, pointers) }
            if status != 0 { lastError = status }
        } else {
            lagFrames = min(lagFrames + chunkFrames, Self.lagLimit)
        }
        let input = UnsafePointer(microphonePointers), output = processedPointers, lag = Int32(lagFrames)
        _unsafePerformance { status = auhost_webrtc_process(p, input, output, lag) }
        if status != 0 { lastError = status }
    }
}

@_noAllocation @_noLocks
@inline(__always)
func bufferArray(_ list: UnsafePointer<AudioBufferList>) -> UnsafeMutablePointer<AudioBuffer> {
    UnsafeMutableRawPointer(mutating: list)
        .advanced(by: (MemoryLayout<UInt32>.size + MemoryLayout<AudioBuffer>.alignment - 1) & ~(MemoryLayout<AudioBuffer>.alignment - 1))
        .assumingMemoryBound(to: AudioBuffer.self)
}

/// Copies `count` floats (a plain loop: the standard library's bulk copy is not visible to the
/// real-time checks).
@_noAllocation @_noLocks
@inline(__always)
func copyFloats(_ source: UnsafePointer<Float>, to target: UnsafeMutablePointer<Float>, _ count: Int) {
    var i = 0
    while i < count {
        target[i] = source[i]
        i += 1
    }
}

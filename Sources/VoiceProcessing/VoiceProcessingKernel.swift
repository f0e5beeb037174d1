import AUHostCore
import CWebRTCProcessing

// Everything the render thread runs for voice processing, in one file so that the compiler's
// real-time checks see every body. webrtc works on 10 ms chunks; hosts render blocks of any size.
// The kernel gathers the reference (far end) and the microphone into chunks, processes each full
// microphone chunk after the reference chunks fed so far, and hands processed frames back through
// a FIFO primed with one chunk of silence: the gathering delays by exactly one chunk whatever the
// block sizes, and webrtc adds its own fixed delay (`latencyFrames` counts both).

/// webrtc-audio-processing on blocks of any size: the reference and microphone are fed as they
/// come, the processed microphone is returned `latencyFrames` later (one 10 ms chunk of
/// gathering plus webrtc's own delay).
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
    /// The block size the output FIFO is sized for (longer calls are processed in pieces).
    public let maximumFrames: Int
    /// The reference being gathered: `referenceChannels` × chunk floats, `referenceFill` valid.
    let reference: UnsafeMutablePointer<Float>
    let referencePointers: UnsafeMutablePointer<UnsafePointer<Float>?>
    var referenceFill = 0
    /// The microphone being gathered, and the chunk processing writes.
    let microphone: UnsafeMutablePointer<Float>
    let microphonePointers: UnsafeMutablePointer<UnsafePointer<Float>?>
    let processed: UnsafeMutablePointer<Float>
    let processedPointers: UnsafeMutablePointer<UnsafeMutablePointer<Float>?>
    var microphoneFill = 0
    /// The output FIFO: `captureChannels` rings of `ringCapacity` floats.
    let ring: UnsafeMutablePointer<Float>
    let ringCapacity: Int
    var ringRead = 0
    var ringCount = 0
    /// webrtc's status for the last chunk that failed (0 if none since the last `restart`).
    public private(set) var lastError: Int32 = 0

    /// Creates the processor for `sampleRate` (a multiple of 100 Hz) and sizes every buffer for
    /// blocks of up to `maximumFrames`. Throws kAudioUnitErr_FormatNotSupported for a rate or
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
        guard maximumFrames >= 1 else {
            throw AudioError(kAudio_ParamError, "Voice processing needs a maximum block size of at least one frame.")
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
        ringCapacity = chunkFrames + maximumFrames
        processingDelayFrames = Self.processingDelay(rate: rate, settings: settings)
        reference = .allocate(capacity: referenceChannels * chunkFrames)
        reference.initialize(repeating: 0, count: referenceChannels * chunkFrames)
        referencePointers = .allocate(capacity: referenceChannels)
        microphone = .allocate(capacity: captureChannels * chunkFrames)
        microphone.initialize(repeating: 0, count: captureChannels * chunkFrames)
        processed = .allocate(capacity: captureChannels * chunkFrames)
        processed.initialize(repeating: 0, count: captureChannels * chunkFrames)
        microphonePointers = .allocate(capacity: captureChannels)
        processedPointers = .allocate(capacity: captureChannels)
        ring = .allocate(capacity: captureChannels * ringCapacity)
        ring.initialize(repeating: 0, count: captureChannels * ringCapacity)
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
        reference.deallocate()
        referencePointers.deallocate()
        microphone.deallocate()
        microphonePointers.deallocate()
        processed.deallocate()
        processedPointers.deallocate()
        ring.deallocate()
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
    /// frame was passed to `addReference` its echo reaches `process` (0…500 ms; the canceller's
    /// own estimate refines it when `delayAgnostic` is on).
    ///
    /// Thread: any.
    public func requestDelay(milliseconds: Int) { auhost_webrtc_request_delay_ms(processor, Int32(clamping: milliseconds)) }

    /// Forgets partial chunks and primes the output with one chunk of silence, as after creation
    /// (the canceller keeps what it learnt). Call it when the streams restart or were interrupted.
    ///
    /// Thread: render (or setup while nothing renders).
    @_noAllocation @_noLocks
    public mutating func restart() {
        referenceFill = 0
        microphoneFill = 0
        ringRead = 0
        ringCount = chunkFrames
        ring.update(repeating: 0, count: captureChannels * ringCapacity)
        lastError = 0
    }

    /// Feeds the far-end signal: `frames` (any number) of the non-interleaved float buffers in
    /// `list`; channels beyond `referenceChannels` are ignored, missing ones are silent. Full
    /// chunks go to the canceller at once.
    ///
    /// Thread: render.
    @_noAllocation @_noLocks
    public mutating func addReference(_ list: UnsafePointer<AudioBufferList>, frames: Int) {
        let buffers = bufferArray(list)
        let available = Int(list.pointee.mNumberBuffers)
        var done = 0
        while done < frames {
            let n = min(frames - done, chunkFrames - referenceFill)
            for c in 0..<referenceChannels {
                let target = reference + c * chunkFrames + referenceFill
                if c < available, let data = buffers[c].mData {
                    copyFloats(data.assumingMemoryBound(to: Float.self) + done, to: target, n)
                } else {
                    target.update(repeating: 0, count: n)
                }
            }
            referenceFill += n
            done += n
            if referenceFill == chunkFrames {
                let p = processor, pointers = UnsafePointer(referencePointers)
                var status: Int32 = 0
                // webrtc takes its own mutex, only ever from this thread; no allocation after set-up.
                _unsafePerformance { status = auhost_webrtc_process_reverse(p, pointers) }
                if status != 0 { lastError = status }
                referenceFill = 0
            }
        }
    }

    /// Processes the microphone: `frames` (any number) of `input`'s non-interleaved float
    /// buffers in, the same number of processed frames (one chunk late) into `output`, which may
    /// be the same list. Channels beyond `captureChannels` are left as they are in `output`.
    ///
    /// Thread: render.
    @_noAllocation @_noLocks
    public mutating func process(_ input: UnsafePointer<AudioBufferList>, into output: UnsafeMutablePointer<AudioBufferList>, frames: Int) {
        // Blocks longer than maximumFrames (which the FIFO is sized for) go through in pieces.
        var offset = 0
        while offset < frames {
            let n = min(frames - offset, maximumFrames)
            processBlock(input, output, offset: offset, frames: n)
            offset += n
        }
    }

    /// Frames offset..<offset+frames of `input` in, as many processed frames into the same range of
    /// `output` (frames ≤ maximumFrames).
    @_noAllocation @_noLocks
    private mutating func processBlock(
        _ input: UnsafePointer<AudioBufferList>, _ output: UnsafeMutablePointer<AudioBufferList>, offset: Int, frames: Int
    ) {
        let inBuffers = bufferArray(input)
        let inCount = Int(input.pointee.mNumberBuffers)
        var done = 0
        while done < frames {
            let n = min(frames - done, chunkFrames - microphoneFill)
            for c in 0..<captureChannels {
                let target = microphone + c * chunkFrames + microphoneFill
                if c < inCount, let data = inBuffers[c].mData {
                    copyFloats(data.assumingMemoryBound(to: Float.self) + offset + done, to: target, n)
                } else {
                    target.update(repeating: 0, count: n)
                }
            }
            microphoneFill += n
            done += n
            if microphoneFill == chunkFrames {
                processChunk()
                microphoneFill = 0
            }
        }
        // The FIFO holds at least `frames` now: it started this block with chunk − fill frames.
        let outBuffers = bufferArray(UnsafePointer(output))
        let outCount = Int(output.pointee.mNumberBuffers)
        let first = min(frames, ringCapacity - ringRead)
        for c in 0..<min(captureChannels, outCount) {
            guard let data = outBuffers[c].mData?.assumingMemoryBound(to: Float.self).advanced(by: offset) else { continue }
            let ringChannel = ring + c * ringCapacity
            copyFloats(ringChannel + ringRead, to: data, first)
            if first < frames { copyFloats(ringChannel, to: data + first, frames - first) }
        }
        ringRead = (ringRead + frames) % ringCapacity
        ringCount -= frames
    }

    @_noAllocation @_noLocks
    private mutating func processChunk() {
        let p = processor, input = UnsafePointer(microphonePointers), output = processedPointers
        var status: Int32 = 0
        // webrtc takes its own mutex, only ever from this thread; no allocation after set-up.
        _unsafePerformance { status = auhost_webrtc_process(p, input, output) }
        if status != 0 { lastError = status }
        let write = (ringRead + ringCount) % ringCapacity
        let first = min(chunkFrames, ringCapacity - write)
        for c in 0..<captureChannels {
            let ringChannel = ring + c * ringCapacity
            let source = processed + c * chunkFrames
            copyFloats(source, to: ringChannel + write, first)
            if first < chunkFrames { copyFloats(source + first, to: ringChannel, chunkFrames - first) }
        }
        ringCount += chunkFrames
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

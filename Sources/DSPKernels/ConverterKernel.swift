import AudioToolbox

/// The render-side pipeline of a converting unit (format converter, output units), built at setup
/// for fixed formats:
///
///     input list ─decode→ Float32 channels ─channel map→ (resample) → output FIFO ─encode→ output list
///
/// The converter is pulled for output frames but consumes input at another rate, so converted
/// frames wait in a FIFO (per output channel, `fifoCapacity` frames). `inputFramesNeeded` says
/// how much input to pull next; `consume` converts one pulled block into the FIFO; `emit`
/// encodes the oldest frames into the caller's list. With a resampler the FIFO starts with the
/// resampler's trimmed filter delay in silence, so the unit has a constant delay (its Latency);
/// it then pulls whole slices (MaximumFramesPerSlice input frames) whenever the FIFO runs
/// short, because libsoxr emits its output in blocks.
public struct ConverterKernel: ~Copyable {
    let decoder: SampleFormatConverter
    let encoder: SampleFormatConverter
    let map: ChannelMap
    /// nil when the rates agree.
    public let resampler: UnsafeMutablePointer<SampleRateConverter>?
    let inputChannels: Int
    let outputChannels: Int
    public let maximumInputFrames: Int
    let rateRatio: Double
    /// Decoded input, `inputChannels` × `maximumInputFrames`.
    let decoded: UnsafeMutablePointer<Float>
    let decodedPointers: UnsafeMutablePointer<UnsafeMutablePointer<Float>>
    /// Mapped input before resampling (`outputChannels` × `mappedCapacity`); its first
    /// `pendingFrames` frames are input the resampler has not taken yet.
    let mapped: UnsafeMutablePointer<Float>
    let mappedCapacity: Int
    public internal(set) var pendingFrames = 0
    let mappedPointers: UnsafeMutablePointer<UnsafeMutablePointer<Float>>
    let mappedReadPointers: UnsafeMutablePointer<UnsafePointer<Float>>
    let fifo: UnsafeMutablePointer<Float>
    let fifoCapacity: Int
    public internal(set) var fifoCount = 0
    let fifoReadPointers: UnsafeMutablePointer<UnsafePointer<Float>>
    let fifoWritePointers: UnsafeMutablePointer<UnsafeMutablePointer<Float>>
    /// Frames of silence the FIFO starts with (the resampler's delay; 0 without one).
    public let prerollFrames: Int

    /// The largest factor between the two rates (either way) the kernel converts.
    public static let maximumRateRatio = 64.0

    /// Builds the pipeline. Throws DSPKernelError: -10868 for a format SampleFormat cannot read
    /// or rates more than `maximumRateRatio` apart, -50 for a bad map or size.
    ///
    /// Thread: setup.
    public init(
        input: AudioStreamBasicDescription, output: AudioStreamBasicDescription, map entries: [Int],
        maximumFrames: Int, quality: SampleRateConverter.Quality
    ) throws {
        // Everything that can throw comes first: a non-copyable value cannot be half built.
        // The FIFO and the resampler's buffers grow with the rate ratio: bound it (libsoxr itself
        // accepts any ratio, and 1 Hz → 768 kHz would ask for gigabytes).
        let ratio = output.mSampleRate / input.mSampleRate
        guard ratio <= Self.maximumRateRatio, ratio >= 1 / Self.maximumRateRatio else {
            throw DSPKernelError.format(
                "Rates \(input.mSampleRate) Hz → \(output.mSampleRate) Hz differ by more than a factor of \(Int(Self.maximumRateRatio)), the most this converter resamples in one step; convert in two stages or bring the rates closer."
            )
        }
        let decoder = try SampleFormatConverter(streamDescription: input)
        let encoder = try SampleFormatConverter(streamDescription: output)
        let outputChannels = Int(output.mChannelsPerFrame)
        let map = try ChannelMap(entries, inputChannelCount: Int(input.mChannelsPerFrame))
        var preroll = 0
        // One pull fits the input bus's buffers (MaximumFramesPerSlice); more input takes more pulls.
        var resampledFrames = maximumFrames
        var resampler: UnsafeMutablePointer<SampleRateConverter>?
        if input.mSampleRate != output.mSampleRate {
            let converter = try SampleRateConverter(
                inputRate: input.mSampleRate, outputRate: output.mSampleRate,
                channelCount: outputChannels, quality: quality,
                maximumInputFrames: maximumFrames)
            preroll = converter.trimmedDelayFrames
            resampledFrames = converter.maximumOutputFrames(forInputFrames: maximumFrames)
            let r = UnsafeMutablePointer<SampleRateConverter>.allocate(capacity: 1)
            r.initialize(to: converter)
            resampler = r
        }
        self.decoder = decoder
        self.encoder = encoder
        self.map = map
        self.resampler = resampler
        inputChannels = Int(input.mChannelsPerFrame)
        self.outputChannels = outputChannels
        rateRatio = input.mSampleRate / output.mSampleRate
        maximumInputFrames = maximumFrames
        prerollFrames = preroll
        // libsoxr hands out its output in blocks of up to a few thousand frames, so the FIFO holds
        // several blocks beside the preroll (with less room it stops consuming input mid-call).
        fifoCapacity = maximumFrames + preroll + (resampler == nil ? maximumFrames : 4 * resampledFrames + 16_384)
        decoded = .allocate(capacity: inputChannels * maximumInputFrames)
        decoded.initialize(repeating: 0, count: inputChannels * maximumInputFrames)
        decodedPointers = .allocate(capacity: inputChannels)
        for c in 0..<inputChannels { decodedPointers[c] = decoded + c * maximumInputFrames }
        mappedCapacity = 2 * maximumFrames
        mapped = .allocate(capacity: outputChannels * mappedCapacity)
        mapped.initialize(repeating: 0, count: outputChannels * mappedCapacity)
        mappedPointers = .allocate(capacity: outputChannels)
        mappedReadPointers = .allocate(capacity: outputChannels)
        fifo = .allocate(capacity: outputChannels * fifoCapacity)
        fifo.initialize(repeating: 0, count: outputChannels * fifoCapacity)
        fifoReadPointers = .allocate(capacity: outputChannels)
        fifoWritePointers = .allocate(capacity: outputChannels)
        for c in 0..<outputChannels {
            mappedPointers[c] = mapped + c * mappedCapacity
            fifoReadPointers[c] = UnsafePointer(fifo + c * fifoCapacity)
        }
        fifoCount = preroll
    }

    deinit {
        resampler?.deinitialize(count: 1)
        resampler?.deallocate()
        decoded.deallocate(); decodedPointers.deallocate()
        mapped.deallocate(); mappedPointers.deallocate(); mappedReadPointers.deallocate()
        fifo.deallocate(); fifoReadPointers.deallocate(); fifoWritePointers.deallocate()
    }

    /// Input frames to pull before `outputFrames` can be emitted (0: the FIFO holds enough, or
    /// input the resampler has not taken yet fills the pending buffer).
    ///
    /// Thread: render.
    @_noAllocation @_noLocks
    public func inputFramesNeeded(outputFrames: Int) -> Int {
        let missing = outputFrames - fifoCount
        guard missing > 0 else { return 0 }
        if resampler == nil { return min(missing, maximumInputFrames) }
        // libsoxr emits output in blocks, so a pull of just the ratio's worth may produce nothing;
        // whole slices keep the number of pulls per call small (the FIFO keeps the surplus).
        let estimate = maximumInputFrames
        let room = 2 * maximumInputFrames - pendingFrames
        return min(max(estimate - pendingFrames, 1), room)
    }

    /// Decodes and maps `frames` pulled frames, then converts them into the FIFO (resampling
    /// when the rates differ; input the resampler does not take yet waits in the pending buffer).
    ///
    /// Thread: render.
    @_noAllocation @_noLocks
    public mutating func consume(_ list: UnsafePointer<AudioBufferList>, frames: Int) {
        let n = min(frames, maximumInputFrames)
        decoder.decode(from: list, to: decodedPointers, frameCount: n)
        guard resampler != nil else {
            for c in 0..<outputChannels { fifoWritePointers[c] = fifo + c * fifoCapacity + fifoCount }
            map.process(inputs: UnsafePointer(OpaquePointer(decodedPointers)), outputs: fifoWritePointers, frameCount: n)
            fifoCount += n
            return
        }
        for c in 0..<outputChannels { mappedPointers[c] = mapped + c * mappedCapacity + pendingFrames }
        map.process(inputs: UnsafePointer(OpaquePointer(decodedPointers)), outputs: mappedPointers, frameCount: n)
        pendingFrames += n
        _ = drainPending()
    }

    /// Hands pending input to the resampler; returns whether it took or gave anything.
    ///
    /// Thread: render.
    @_noAllocation @_noLocks
    public mutating func drainPending() -> Bool {
        guard let resampler, pendingFrames > 0 else { return false }
        var done = 0
        var progressed = false
        while done < pendingFrames {
            for c in 0..<outputChannels {
                mappedReadPointers[c] = UnsafePointer(mapped + c * mappedCapacity + done)
                fifoWritePointers[c] = fifo + c * fifoCapacity + fifoCount
            }
            let result = resampler.pointee.process(
                inputs: mappedReadPointers, inputFrames: min(pendingFrames - done, maximumInputFrames),
                outputs: fifoWritePointers, outputCapacity: fifoCapacity - fifoCount)
            fifoCount += result.produced
            done += result.consumed
            if result.consumed == 0 && result.produced == 0 { break }
            progressed = true
        }
        let rest = pendingFrames - done
        if rest > 0 && done > 0 {
            for c in 0..<outputChannels {
                let lane = mapped + c * mappedCapacity
                for i in 0..<rest { lane[i] = lane[i + done] }
            }
        }
        pendingFrames = rest
        return progressed
    }

    /// At the end of the input: hands the resampler what is pending, then drains its tail into
    /// the FIFO (as far as the FIFO has room). Returns whether anything was added; call it until
    /// it returns false. Without a resampler there is no tail: false.
    ///
    /// Thread: render.
    @_noAllocation @_noLocks
    public mutating func flushResampler() -> Bool {
        guard let resampler else { return false }
        if pendingFrames > 0 && drainPending() { return true }
        for c in 0..<outputChannels { fifoWritePointers[c] = fifo + c * fifoCapacity + fifoCount }
        let produced = resampler.pointee.flush(outputs: fifoWritePointers, outputCapacity: fifoCapacity - fifoCount)
        fifoCount += produced
        return produced > 0
    }

    /// Drops the oldest `frames` FIFO frames (all of them when fewer are held): converted output
    /// nobody took, for a converter fed by a device rather than pulled.
    ///
    /// Thread: render.
    @_noAllocation @_noLocks
    public mutating func discard(_ frames: Int) {
        let n = min(max(frames, 0), fifoCount)
        guard n > 0 else { return }
        let rest = fifoCount - n
        if rest > 0 {
            for c in 0..<outputChannels {
                let lane = fifo + c * fifoCapacity
                for i in 0..<rest { lane[i] = lane[i + n] }
            }
        }
        fifoCount = rest
    }

    /// Encodes the oldest `frames` FIFO frames into `output` (missing frames are silence) and
    /// moves the rest to the front.
    ///
    /// Thread: render.
    @_noAllocation @_noLocks
    public mutating func emit(into output: UnsafeMutablePointer<AudioBufferList>, frames: Int) {
        if fifoCount < frames {
            for c in 0..<outputChannels {
                let lane = fifo + c * fifoCapacity
                for i in fifoCount..<frames { lane[i] = 0 }
            }
            fifoCount = frames
        }
        encoder.encode(from: fifoReadPointers, to: output, frameCount: frames)
        let rest = fifoCount - frames
        if rest > 0 {
            for c in 0..<outputChannels {
                let lane = fifo + c * fifoCapacity
                for i in 0..<rest { lane[i] = lane[i + frames] }
            }
        }
        fifoCount = rest
    }
}

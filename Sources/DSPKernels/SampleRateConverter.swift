import CLazyLibraries
import CSoxr

/// A streaming sample-rate converter over libsoxr, for Float32 non-interleaved channels.
///
/// Created at setup for fixed rates, channel count, quality and a maximum input block; `process`
/// then runs on the render thread. Real-time safety of `soxr_process`, verified against the
/// libsoxr 0.1.3 sources and by `SampleRateConverterTests`: after creation its only heap use is
/// FIFO growth (`fifo_reserve` → realloc) until the FIFOs reach the size the largest block needs,
/// and it takes no locks when created with one thread (`soxr_runtime_spec(1)`, no OpenMP). So
/// the initialiser pre-grows the FIFOs by pushing several maximum-size blocks of silence through
/// and draining them; blocks no larger than `maximumInputFrames` never allocate afterwards.
/// That warm-up leaves the converter exactly as a fresh one (its history is silence).
///
/// Alignment and latency: like a fresh libsoxr stream, output frame k corresponds to input time
/// k / outputRate (the filter's own delay is trimmed: the warm-up's leftover silence is dropped
/// too), so the first calls may consume input yet produce nothing. `latencyFrames` says how many
/// output frames are held back at the moment; at end of stream call `flush` until it returns 0
/// to get them, so the total output is input × outputRate / inputRate.
public struct SampleRateConverter: ~Copyable {
    /// The widest conversion, either way (64: 8 kHz ↔ 512 kHz): it bounds the output block at
    /// 64 × maximumInputFrames frames per channel.
    public static let maximumRatio = 64.0

    /// Conversion quality, libsoxr's recipes.
    public enum Quality: Sendable {
        /// 16-bit precision, larger roll-off (SOXR_LQ).
        case low
        /// 16-bit precision, medium roll-off (SOXR_MQ).
        case medium
        /// 20-bit precision (SOXR_HQ), the default.
        case high
        /// 28-bit precision (SOXR_VHQ).
        case veryHigh

        var recipe: UInt {
            switch self {
            case .low: UInt(SOXR_LQ)
            case .medium: UInt(SOXR_MQ)
            case .high: UInt(SOXR_20_BITQ)
            case .veryHigh: UInt(SOXR_28_BITQ)
            }
        }
    }

    /// Input and output rates (Hz).
    public let inputRate: Double, outputRate: Double
    /// Channels converted per call.
    public let channelCount: Int
    /// The largest input block `process` accepts without risking allocation.
    public let maximumInputFrames: Int
    let soxr: soxr_t
    let scratch: UnsafeMutablePointer<Float>
    let scratchPointers: UnsafeMutablePointer<UnsafeMutableRawPointer?>
    let scratchFrames: Int
    /// Output frames still to drop: the warm-up's silence that a fresh converter would not emit.
    var pendingDiscard = 0
    /// The filter delay (output frames) trimmed from the front of the stream: how far the input
    /// must run ahead of the output. A host that wants a constant delay instead of a larger first
    /// pull can pre-roll this many frames of silence. Thread: any.
    public private(set) var trimmedDelayFrames = 0

    /// Creates the resampler and pre-grows its buffers. Throws `kAudio_ParamError` for
    /// non-positive rates, channel counts outside 1…64 or a block outside 1…65536, and
    /// `kAudioUnitErr_FormatNotSupported` when libsoxr refuses (with its message) or the rates
    /// are further apart than ``maximumRatio``.
    /// Thread: setup (non-real-time).
    public init(
        inputRate: Double, outputRate: Double, channelCount: Int, quality: Quality = .high,
        maximumInputFrames: Int = 4096
    ) throws {
        guard inputRate > 0, outputRate > 0, inputRate.isFinite, outputRate.isFinite,
            (1...64).contains(channelCount), (1...65536).contains(maximumInputFrames)
        else {
            throw DSPKernelError.parameter(
                "A rate converter needs positive rates, 1…64 channels and a block of 1…65536 frames, not \(inputRate) → \(outputRate) Hz, \(channelCount) channels, \(maximumInputFrames) frames."
            )
        }
        // libsoxr takes minutes (or never returns) building filters for extreme ratios, and the
        // output block grows with the ratio: refuse beyond a documented bound.
        let ratio = outputRate / inputRate
        guard ratio <= Self.maximumRatio, ratio >= 1 / Self.maximumRatio else {
            throw DSPKernelError.format(
                "Converting \(inputRate) Hz to \(outputRate) Hz is a ratio beyond 1:\(Int(Self.maximumRatio)); convert in steps or choose closer rates."
            )
        }
        if let reason = auhost_soxr_unavailable() {
            throw DSPKernelError.format("Sample-rate conversion needs libsoxr, which cannot be loaded: \(String(cString: reason)).")
        }
        var io = soxr_io_spec(SOXR_FLOAT32_S, SOXR_FLOAT32_S)
        io.flags = UInt(SOXR_NO_DITHER)
        var q = soxr_quality_spec(quality.recipe, 0)
        var runtime = soxr_runtime_spec(1)
        var error: soxr_error_t?
        guard let created = soxr_create(inputRate, outputRate, UInt32(channelCount), &error, &io, &q, &runtime),
            error == nil
        else {
            let reason = error.map { String(cString: $0) } ?? "unknown error"
            throw DSPKernelError.format("libsoxr cannot convert \(inputRate) Hz to \(outputRate) Hz: \(reason).")
        }
        self.inputRate = inputRate
        self.outputRate = outputRate
        self.channelCount = channelCount
        self.maximumInputFrames = maximumInputFrames
        soxr = created
        scratchFrames = Int((Double(maximumInputFrames) * outputRate / inputRate).rounded(.up)) + 64
        scratch = .allocate(capacity: scratchFrames * channelCount)
        scratch.initialize(repeating: 0, count: scratchFrames * channelCount)
        scratchPointers = .allocate(capacity: channelCount)
        for c in 0..<channelCount { scratchPointers[c] = UnsafeMutableRawPointer(scratch + c * scratchFrames) }
        warmUp()
    }

    deinit {
        soxr_delete(soxr)
        scratch.deallocate()
        scratchPointers.deallocate()
    }

    /// Pushes silence through until the FIFOs have grown for the largest block, draining output.
    private mutating func warmUp() {
        let silence = UnsafeMutablePointer<Float>.allocate(capacity: maximumInputFrames)
        silence.initialize(repeating: 0, count: maximumInputFrames)
        defer { silence.deallocate() }
        let inputs = UnsafeMutablePointer<UnsafeRawPointer?>.allocate(capacity: channelCount)
        defer { inputs.deallocate() }
        for c in 0..<channelCount { inputs[c] = UnsafeRawPointer(silence) }
        // Eight maximum blocks grow the FIFOs; the total is rounded up to a whole period of the
        // rate pair (160 input frames for 48 → 44.1 kHz) so that the warm-up spans a whole number
        // of output frames too: real input then starts on the output grid, and the delay trimmed
        // below is a whole number of frames (the unit's Latency is exact, not within a frame).
        var remaining = 8 * maximumInputFrames
        if let period = Self.inputPeriod(inputRate: inputRate, outputRate: outputRate), period <= 8 * maximumInputFrames {
            remaining = (remaining + period - 1) / period * period
        }
        var stalled = 0
        while remaining > 0 && stalled < 16 {
            var idone = 0, odone = 0
            _ = soxr_process(
                soxr, UnsafeRawPointer(inputs), min(remaining, maximumInputFrames), &idone,
                UnsafeMutableRawPointer(scratchPointers), scratchFrames, &odone)
            remaining -= idone
            stalled = idone == 0 ? stalled + 1 : 0
        }
        // Drain whatever the warm-up left buffered (a non-NULL input of 0 frames: NULL would mean
        // end of stream), so real input starts on silence history.
        var odone = 0
        repeat {
            _ = soxr_process(
                soxr, UnsafeRawPointer(inputs), 0, nil,
                UnsafeMutableRawPointer(scratchPointers), scratchFrames, &odone)
        } while odone > 0
        // What remains inside the filter would come out as leading silence; a fresh libsoxr
        // stream trims its own delay, so drop it too and keep output aligned with input.
        pendingDiscard = Int(soxr_delay(soxr).rounded())
        trimmedDelayFrames = pendingDiscard
    }

    /// The smallest input length that spans a whole number of output frames, when both rates are
    /// whole numbers of hertz (nil otherwise).
    static func inputPeriod(inputRate: Double, outputRate: Double) -> Int? {
        guard inputRate == inputRate.rounded(), outputRate == outputRate.rounded(),
            inputRate < 1e9, outputRate < 1e9
        else { return nil }
        var a = Int(inputRate), b = Int(outputRate)
        let input = a
        while b != 0 { (a, b) = (b, a % b) }
        return input / a
    }

    /// Output frames the resampler currently holds back (its latency), per libsoxr's
    /// `soxr_delay`. Thread: any that does not race `process`.
    public var latencyFrames: Double { soxr_delay(soxr) - Double(pendingDiscard) }

    /// The output capacity that always suffices for one call with `inputFrames` frames.
    /// Thread: any.
    public func maximumOutputFrames(forInputFrames inputFrames: Int) -> Int {
        Int((Double(inputFrames) * outputRate / inputRate).rounded(.up)) + 64
    }

    /// Converts up to `inputFrames` (≤ `maximumInputFrames`) frames from `inputs` (one pointer per
    /// channel) into `outputs` (capacity `outputCapacity` frames each). Returns the input frames
    /// consumed — present the rest again next call — and the output frames written.
    /// Thread: render (real-time).
    @_noAllocation @_noLocks
    public mutating func process(
        inputs: UnsafePointer<UnsafePointer<Float>>, inputFrames: Int,
        outputs: UnsafePointer<UnsafeMutablePointer<Float>>,
        outputCapacity: Int
    ) -> (consumed: Int, produced: Int) {
        var idone = 0, odone = 0
        let frames = min(max(inputFrames, 0), maximumInputFrames)
        let handle = soxr, capacity = max(outputCapacity, 0)
        // Safe: with one thread and FIFOs pre-grown for this block size, soxr_process neither
        // allocates nor locks (see the type's documentation); it is an opaque C call.
        _unsafePerformance {
            _ = soxr_process(
                handle, UnsafeRawPointer(inputs), frames, &idone,
                UnsafeMutableRawPointer(mutating: outputs), capacity, &odone)
        }
        return (idone, discardLeadingFrames(outputs: outputs, produced: odone))
    }

    /// Signals end of input and drains the tail into `outputs`; returns the frames written
    /// (0 once everything is out). Call repeatedly until it returns 0. Thread: render (real-time).
    @_noAllocation @_noLocks
    public mutating func flush(outputs: UnsafePointer<UnsafeMutablePointer<Float>>, outputCapacity: Int) -> Int {
        var odone = 0
        let handle = soxr, capacity = max(outputCapacity, 0)
        // Safe for the same reason as in `process`: a NULL input only marks the end of stream.
        _unsafePerformance {
            _ = soxr_process(
                handle, nil, 0, nil, UnsafeMutableRawPointer(mutating: outputs),
                capacity, &odone)
        }
        return discardLeadingFrames(outputs: outputs, produced: odone)
    }

    /// Drops up to `pendingDiscard` frames from the front of each output; returns what is left.
    @_noAllocation @_noLocks
    mutating func discardLeadingFrames(outputs: UnsafePointer<UnsafeMutablePointer<Float>>, produced: Int) -> Int {
        guard pendingDiscard > 0, produced > 0 else { return produced }
        let drop = min(pendingDiscard, produced)
        pendingDiscard -= drop
        for c in 0..<channelCount {
            let out = outputs[c]
            for i in 0..<(produced - drop) { out[i] = out[i + drop] }
        }
        return produced - drop
    }
}

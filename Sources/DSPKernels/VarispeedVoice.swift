/// One channel read at a variable speed (a 3D-mixer input, a varispeed or time-pitch channel): pulled mono samples wait in a FIFO and are read
/// at a fractional position that advances by `step` input samples per output sample (input
/// rate / output rate × playback rate), with 4-point cubic Hermite (Catmull-Rom) interpolation.
/// At a step of exactly 1 the samples pass through unchanged. The FIFO keeps one sample of
/// history before the read position (the first is silence), so the output is aligned with the
/// input: output frame n reads input position n × step.
///
/// Storage is allocated at setup; every method after `init` is real-time.
public struct VarispeedVoice {
    let samples: UnsafeMutablePointer<Float>
    let capacity: Int
    var count = 1
    /// Read position in `samples` (≥ 1 between calls).
    var position = 1.0

    /// A voice whose FIFO holds one render call at `maximumStep` of `maximumFrames` output frames.
    ///
    /// Thread: setup.
    public init(maximumFrames: Int, maximumStep: Double) {
        capacity = Int(Double(maximumFrames) * maximumStep) + maximumFrames + 16
        samples = .allocate(capacity: capacity)
        samples.initialize(repeating: 0, count: capacity)
    }

    /// Thread: setup.
    public func free() { samples.deallocate() }

    /// Back to silence history and position 1.
    ///
    /// Thread: setup (or render).
    @_noAllocation @_noLocks
    public mutating func reset() {
        samples[0] = 0
        count = 1
        position = 1
    }

    /// Input samples to append before `frames` output frames can be read at `step`. When the
    /// position and the step are whole numbers every read lands on a sample and needs no
    /// look-ahead, so at a step of 1 the voice pulls exactly `frames` samples per call (as the
    /// unit's caller asked, however it slices); otherwise two samples past the last read.
    ///
    /// Thread: render.
    @_noAllocation @_noLocks
    public func samplesNeeded(frames: Int, step: Double) -> Int {
        let whole = Double(Int(step)) == step && Double(Int(position)) == position
        let last = Int(position + Double(frames - 1) * step) + (whole ? 0 : 2)
        return min(max(last + 1 - count, 0), capacity - count)
    }

    /// Output frames that can be read at `step` from what is in the FIFO: those whose whole
    /// interpolation window is there, or with `tail`, every frame that reads at or before the last
    /// sample (the end of a stream, where silence follows).
    ///
    /// Thread: render.
    @_noAllocation @_noLocks
    public func readableFrames(step: Double, tail: Bool) -> Int {
        let end = Double(count - (tail ? 0 : 2))
        guard end > position else { return 0 }
        let frames = (end - position) / step
        return frames < Double(Int.max >> 1) ? Int(frames) + (Double(Int(frames)) < frames ? 1 : 0) : Int.max >> 1
    }

    /// Appends pulled samples.
    ///
    /// Thread: render.
    @_noAllocation @_noLocks
    public mutating func append(_ input: UnsafePointer<Float>, _ frames: Int) {
        let n = min(frames, capacity - count)
        for i in 0..<n { samples[count + i] = input[i] }
        count += n
    }

    /// Appends silence (an input with nothing connected).
    ///
    /// Thread: render.
    @_noAllocation @_noLocks
    public mutating func appendSilence(_ frames: Int) {
        let n = min(frames, capacity - count)
        for i in 0..<n { samples[count + i] = 0 }
        count += n
    }

    /// Reads `frames` output samples at `step` into `output`, then drops consumed input (keeping
    /// one sample of history). Reads past the FIFO's end see silence.
    ///
    /// Thread: render.
    @_noAllocation @_noLocks
    public mutating func read(into output: UnsafeMutablePointer<Float>, frames: Int, step: Double) {
        let s = samples, n = count
        var p = position
        for j in 0..<frames {
            let i = Int(p)
            let t = Float(p - Double(i))
            let xm1 = s[i - 1]
            let x0 = i < n ? s[i] : 0
            let x1 = i + 1 < n ? s[i + 1] : 0
            let x2 = i + 2 < n ? s[i + 2] : 0
            if t == 0 {
                output[j] = x0
            } else {
                // Catmull-Rom: exact at the samples, continuous slope between them.
                let a = -0.5 * xm1 + 1.5 * x0 - 1.5 * x1 + 0.5 * x2
                let b = xm1 - 2.5 * x0 + 2 * x1 - 0.5 * x2
                let c = -0.5 * xm1 + 0.5 * x1
                output[j] = ((a * t + b) * t + c) * t + x0
            }
            p += step
        }
        let drop = min(Int(p) - 1, n - 1)
        if drop > 0 {
            for i in 0..<(n - drop) { s[i] = s[i + drop] }
            count = n - drop
            p -= Double(drop)
        }
        position = p
    }
}

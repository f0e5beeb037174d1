/// One biquad section on one channel, transposed direct form II, with Double state so that
/// low-frequency designs keep their response in Float32 streams.
///
/// The cascade lives in this file too: debug builds check `@_noAllocation` file by file, so the
/// render-thread code a kernel calls must sit beside it.
public struct BiquadFilter: Sendable {
    /// The design in use; change it with `coefficients = ...` between blocks.
    public var coefficients: BiquadCoefficients
    @usableFromInline var z1 = 0.0
    @usableFromInline var z2 = 0.0

    /// A filter with `coefficients` and silent state. Thread: any.
    public init(coefficients: BiquadCoefficients = .identity) {
        self.coefficients = coefficients
    }

    /// Clears the state (the filter's memory of past samples). Thread: render (real-time).
    @_noAllocation @_noLocks
    public mutating func reset() {
        z1 = 0; z2 = 0
    }

    /// Filters `frameCount` samples from `input` into `output` (they may be the same buffer).
    /// Thread: render (real-time).
    @_noAllocation @_noLocks
    public mutating func process(
        _ input: UnsafePointer<Float>, _ output: UnsafeMutablePointer<Float>,
        frameCount: Int
    ) {
        let c = coefficients
        var s1 = z1, s2 = z2
        for i in 0..<frameCount {
            let x = Double(input[i])
            let y = c.b0 * x + s1
            s1 = c.b1 * x - c.a1 * y + s2
            s2 = c.b2 * x - c.a2 * y
            output[i] = Float(y)
        }
        // Denormal state would slow every later block; a decayed tail is silence anyway.
        z1 = abs(s1) < 1e-30 ? 0 : s1
        z2 = abs(s2) < 1e-30 ? 0 : s2
    }
}

/// A chain of biquad sections (an N-band EQ, the iPod EQ) over several channels: the
/// coefficients are shared by every channel, each channel keeps its own state. Storage for
/// `maximumStageCount` sections is allocated at creation and freed on deinit; nothing allocates
/// afterwards.
public struct BiquadCascade: ~Copyable {
    /// How many sections exist (fixed at creation).
    public let stageCount: Int
    /// How many channels the cascade filters (fixed at creation).
    public let channelCount: Int
    @usableFromInline let stages: UnsafeMutablePointer<BiquadCoefficients>
    @usableFromInline let bypassed: UnsafeMutablePointer<Bool>
    /// Two Double state words per (channel, stage): index (channel · stageCount + stage) · 2.
    @usableFromInline let state: UnsafeMutablePointer<Double>

    /// `stageCount` identity sections over `channelCount` channels (both ≥ 1, ≤ 64 / 256).
    /// Throws `kAudio_ParamError` otherwise. Thread: setup (non-real-time).
    public init(stageCount: Int, channelCount: Int) throws {
        guard (1...64).contains(stageCount), (1...256).contains(channelCount) else {
            throw DSPKernelError.parameter(
                "A biquad cascade needs 1…64 stages and 1…256 channels, not \(stageCount) stages and \(channelCount) channels.")
        }
        self.stageCount = stageCount
        self.channelCount = channelCount
        stages = .allocate(capacity: stageCount)
        stages.initialize(repeating: .identity, count: stageCount)
        bypassed = .allocate(capacity: stageCount)
        bypassed.initialize(repeating: false, count: stageCount)
        state = .allocate(capacity: stageCount * channelCount * 2)
        state.initialize(repeating: 0, count: stageCount * channelCount * 2)
    }

    deinit {
        stages.deallocate()
        bypassed.deallocate()
        state.deallocate()
    }

    /// Installs `coefficients` in section `stage` (0-based; out-of-range indices are ignored).
    /// Compute the coefficients off the render thread; installing them is a plain store.
    /// Thread: render (real-time), or setup while no render is running.
    @_noAllocation @_noLocks
    public mutating func setCoefficients(_ coefficients: BiquadCoefficients, stage: Int) {
        guard stage >= 0, stage < stageCount else { return }
        stages[stage] = coefficients
    }

    /// The coefficients of section `stage` (identity when out of range). Thread: any.
    public func coefficients(stage: Int) -> BiquadCoefficients {
        guard stage >= 0, stage < stageCount else { return .identity }
        return stages[stage]
    }

    /// Whether section `stage` is bypassed. Thread: any.
    public func isBypassed(stage: Int) -> Bool { stage >= 0 && stage < stageCount && bypassed[stage] }

    /// Bypasses (skips) or re-enables section `stage`; a bypassed section's state is cleared.
    /// Thread: render (real-time), or setup while no render is running.
    @_noAllocation @_noLocks
    public mutating func setBypassed(_ isBypassed: Bool, stage: Int) {
        guard stage >= 0, stage < stageCount else { return }
        bypassed[stage] = isBypassed
        for channel in 0..<channelCount {
            let s = state + (channel * stageCount + stage) * 2
            s[0] = 0; s[1] = 0
        }
    }

    /// Clears every channel's state. Thread: render (real-time).
    @_noAllocation @_noLocks
    public mutating func reset() {
        for i in 0..<stageCount * channelCount * 2 { state[i] = 0 }
    }

    /// The product of every active section's magnitude at `frequency` Hz. Thread: any.
    public func magnitude(atFrequency frequency: Double, sampleRate: Double) -> Double {
        var product = 1.0
        for stage in 0..<stageCount where !bypassed[stage] {
            product *= stages[stage].magnitude(atFrequency: frequency, sampleRate: sampleRate)
        }
        return product
    }

    /// Filters `channelCount` channels of `frameCount` samples: `inputs[c]` into `outputs[c]`
    /// (in place allowed). Thread: render (real-time).
    @_noAllocation @_noLocks
    public mutating func process(
        inputs: UnsafePointer<UnsafePointer<Float>>,
        outputs: UnsafePointer<UnsafeMutablePointer<Float>>, frameCount: Int
    ) {
        for channel in 0..<channelCount {
            let input = inputs[channel], output = outputs[channel]
            var source = input
            var wrote = false
            for stage in 0..<stageCount where !bypassed[stage] {
                let c = stages[stage]
                let s = state + (channel * stageCount + stage) * 2
                var s1 = s[0], s2 = s[1]
                for i in 0..<frameCount {
                    let x = Double(source[i])
                    let y = c.b0 * x + s1
                    s1 = c.b1 * x - c.a1 * y + s2
                    s2 = c.b2 * x - c.a2 * y
                    output[i] = Float(y)
                }
                s[0] = abs(s1) < 1e-30 ? 0 : s1
                s[1] = abs(s2) < 1e-30 ? 0 : s2
                source = UnsafePointer(output)
                wrote = true
            }
            if !wrote && UnsafePointer(output) != input {
                for i in 0..<frameCount { output[i] = input[i] }
            }
        }
    }
}

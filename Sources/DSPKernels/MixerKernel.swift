import Foundation

/// Level readings of one signal over the last processed block.
public struct MeterReading: Equatable, Sendable {
    /// Largest absolute sample, in dB re full scale (−120 dB floor for silence).
    public var peakDecibels: Double
    /// Mean square over every channel and frame, 10·log10, in dB (−120 dB floor).
    public var averagePowerDecibels: Double
}

/// Sums N buses (each 1…8 channels) into an output of 1…8 channels — the multichannel-mixer
/// model: per-bus volume (linear gain), enable (mute), pan; output volume; meters.
///
/// Pan law (stereo output only), equal power: θ = (pan + 1)·π/4, left = cos θ, right = sin θ, so
/// pan −1 gives (1, 0), pan 0 gives (√½, √½) (−3 dB each, constant power), pan +1 gives (0, 1).
/// A mono bus is spread with those gains. A stereo bus is balanced instead: each side is scaled
/// by min(1, √2·gain), so pan 0 passes both sides at unity and ±1 silences the far side. Buses
/// wider than the stereo output contribute their first two channels. With any other output
/// width there is no pan: a mono bus feeds every output channel, wider buses map channel c to
/// output channel c. Meters per bus: pre (input as received) and post (after volume and enable,
/// before pan); on the output: after output volume.
public struct MixerKernel: ~Copyable {
    /// Number of input buses (fixed at creation).
    public let busCount: Int
    /// Number of output channels (fixed at creation).
    public let outputChannelCount: Int
    let channelCounts: UnsafeMutablePointer<Int>
    let firstChannel: UnsafeMutablePointer<Int>
    let volumes: UnsafeMutablePointer<Float>
    let enabled: UnsafeMutablePointer<Bool>
    let pans: UnsafeMutablePointer<Float>
    /// Two gains per bus: (left, right) for the stereo output.
    let panGains: UnsafeMutablePointer<Float>
    /// Two balance gains per bus for stereo buses: min(1, √2·pan gain), computed in Double.
    let balanceGains: UnsafeMutablePointer<Float>
    /// Per bus: pre peak, pre mean square, post peak, post mean square.
    let busLevels: UnsafeMutablePointer<Float>
    /// Output peak and mean square.
    let outputLevels: UnsafeMutablePointer<Float>
    /// The output gain (linear) applied after summing.
    public var outputVolume: Float = 1
    /// Whether `process` measures levels (measuring costs a pass over each signal).
    public var isMeteringEnabled = true

    /// A mixer with one bus per entry of `busChannelCounts` (each 1…8) and an output of
    /// `outputChannelCount` (1…8) channels; every bus starts enabled at volume 1, pan 0.
    /// Throws `kAudio_ParamError` for counts outside those ranges or more than 1024 buses.
    /// Thread: setup (non-real-time).
    public init(busChannelCounts: [Int], outputChannelCount: Int) throws {
        guard (1...1024).contains(busChannelCounts.count),
            busChannelCounts.allSatisfy({ (1...8).contains($0) }),
            (1...8).contains(outputChannelCount)
        else {
            throw DSPKernelError.parameter(
                "A mixer takes 1…1024 buses of 1…8 channels into 1…8 output channels, not buses \(busChannelCounts) into \(outputChannelCount)."
            )
        }
        busCount = busChannelCounts.count
        self.outputChannelCount = outputChannelCount
        channelCounts = .allocate(capacity: busCount)
        firstChannel = .allocate(capacity: busCount)
        var first = 0
        for (bus, count) in busChannelCounts.enumerated() {
            channelCounts[bus] = count
            firstChannel[bus] = first
            first += count
        }
        volumes = .allocate(capacity: busCount)
        volumes.initialize(repeating: 1, count: busCount)
        enabled = .allocate(capacity: busCount)
        enabled.initialize(repeating: true, count: busCount)
        pans = .allocate(capacity: busCount)
        pans.initialize(repeating: 0, count: busCount)
        panGains = .allocate(capacity: busCount * 2)
        balanceGains = .allocate(capacity: busCount * 2)
        busLevels = .allocate(capacity: busCount * 4)
        busLevels.initialize(repeating: 0, count: busCount * 4)
        outputLevels = .allocate(capacity: 2)
        outputLevels.initialize(repeating: 0, count: 2)
        for bus in 0..<busCount { setPan(0, bus: bus) }
    }

    deinit {
        channelCounts.deallocate(); firstChannel.deallocate(); volumes.deallocate()
        enabled.deallocate(); pans.deallocate(); panGains.deallocate(); balanceGains.deallocate()
        busLevels.deallocate(); outputLevels.deallocate()
    }

    /// The equal-power gains for `pan` (clamped to −1…1): left = cos θ, right = sin θ,
    /// θ = (pan + 1)·π/4; computed as sin(π/2 − θ) and sin θ so that the ends are exactly 0 and 1.
    /// Thread: any (pure; calls libm).
    public static func equalPowerPanGains(pan: Float) -> (left: Float, right: Float) {
        let theta = (Double(min(max(pan, -1), 1)) + 1) * Double.pi / 4
        return (Float(sin(Double.pi / 2 - theta)), Float(sin(theta)))
    }

    /// Total input channels: the length of the `inputs` array `process` expects. Thread: any.
    public var totalInputChannelCount: Int { firstChannel[busCount - 1] + channelCounts[busCount - 1] }

    /// Channel count of `bus`. Thread: any.
    public func channelCount(ofBus bus: Int) -> Int { channelCounts[bus] }

    /// Sets the linear volume of `bus` (negative values clamp to 0; bad bus ignored).
    /// Thread: render (real-time), or any thread while no render is running.
    @_noAllocation @_noLocks
    public mutating func setVolume(_ volume: Float, bus: Int) {
        guard bus >= 0, bus < busCount else { return }
        volumes[bus] = max(volume, 0)
    }

    /// Enables (true) or mutes (false) `bus`. Thread: render (real-time), or any thread while no
    /// render is running.
    @_noAllocation @_noLocks
    public mutating func setEnabled(_ isEnabled: Bool, bus: Int) {
        guard bus >= 0, bus < busCount else { return }
        enabled[bus] = isEnabled
    }

    /// Sets the pan of `bus` (−1 left … +1 right) and precomputes its gains.
    /// Thread: any that does not race `process` (it calls libm).
    public mutating func setPan(_ pan: Float, bus: Int) {
        guard bus >= 0, bus < busCount else { return }
        pans[bus] = min(max(pan, -1), 1)
        let gains = Self.equalPowerPanGains(pan: pans[bus])
        panGains[2 * bus] = gains.left
        panGains[2 * bus + 1] = gains.right
        let theta = (Double(pans[bus]) + 1) * Double.pi / 4
        balanceGains[2 * bus] = Float(min(1, 2.0.squareRoot() * sin(Double.pi / 2 - theta)))
        balanceGains[2 * bus + 1] = Float(min(1, 2.0.squareRoot() * sin(theta)))
    }

    /// Volume, enable and pan of `bus`. Thread: any.
    public func settings(ofBus bus: Int) -> (volume: Float, isEnabled: Bool, pan: Float) {
        (volumes[bus], enabled[bus], pans[bus])
    }

    /// The effective (left, right) gains of a mono `bus` into a stereo output. Thread: any.
    public func panGains(ofBus bus: Int) -> (left: Float, right: Float) {
        (panGains[2 * bus], panGains[2 * bus + 1])
    }

    /// The bus meter before volume/enable (`postFader` false) or after it (true), from the last
    /// block. Thread: any (reads race benignly with the render thread: each value is one word).
    public func meter(ofBus bus: Int, postFader: Bool) -> MeterReading {
        let base = busLevels + 4 * bus + (postFader ? 2 : 0)
        return Self.reading(peak: base[0], meanSquare: base[1])
    }

    /// The output meter (after output volume) of the last block. Thread: any.
    public func outputMeter() -> MeterReading {
        Self.reading(peak: outputLevels[0], meanSquare: outputLevels[1])
    }

    static func reading(peak: Float, meanSquare: Float) -> MeterReading {
        MeterReading(
            peakDecibels: peak > 1e-6 ? 20 * log10(Double(peak)) : -120,
            averagePowerDecibels: meanSquare > 1e-12 ? 10 * log10(Double(meanSquare)) : -120)
    }

    /// Mixes `frameCount` frames. `inputs` holds `totalInputChannelCount` channel pointers, bus
    /// after bus (nil = that channel is silent); `outputs` holds `outputChannelCount` buffers,
    /// which are overwritten. Thread: render (real-time).
    @_noAllocation @_noLocks
    public mutating func process(
        inputs: UnsafePointer<UnsafePointer<Float>?>,
        outputs: UnsafePointer<UnsafeMutablePointer<Float>>, frameCount: Int
    ) {
        let outCount = outputChannelCount
        for c in 0..<outCount {
            let out = outputs[c]
            for i in 0..<frameCount { out[i] = 0 }
        }
        let frames = Float(max(frameCount, 1))
        for bus in 0..<busCount {
            let count = channelCounts[bus], first = firstChannel[bus]
            let gain = enabled[bus] ? volumes[bus] : 0
            var peak: Float = 0, sumSquares: Float = 0
            for c in 0..<count {
                guard let input = inputs[first + c] else { continue }
                if isMeteringEnabled {
                    for i in 0..<frameCount {
                        let x = input[i]
                        peak = max(peak, abs(x))
                        sumSquares += x * x
                    }
                }
                guard gain != 0 else { continue }
                if outCount == 2 {
                    if count == 1 {
                        let gl = gain * panGains[2 * bus], gr = gain * panGains[2 * bus + 1]
                        let left = outputs[0], right = outputs[1]
                        for i in 0..<frameCount {
                            left[i] += gl * input[i]
                            right[i] += gr * input[i]
                        }
                    } else if c < 2 {
                        let g = gain * balanceGains[2 * bus + c], out = outputs[c]
                        for i in 0..<frameCount { out[i] += g * input[i] }
                    }
                } else if count == 1 {
                    for o in 0..<outCount {
                        let out = outputs[o]
                        for i in 0..<frameCount { out[i] += gain * input[i] }
                    }
                } else if c < outCount {
                    let out = outputs[c]
                    for i in 0..<frameCount { out[i] += gain * input[i] }
                }
            }
            if isMeteringEnabled {
                let levels = busLevels + 4 * bus
                let meanSquare = sumSquares / (frames * Float(count))
                levels[0] = peak
                levels[1] = meanSquare
                levels[2] = peak * gain
                levels[3] = meanSquare * gain * gain
            }
        }
        var peak: Float = 0, sumSquares: Float = 0
        let volume = outputVolume
        for c in 0..<outCount {
            let out = outputs[c]
            for i in 0..<frameCount {
                let y = out[i] * volume
                out[i] = y
                peak = max(peak, abs(y))
                sumSquares += y * y
            }
        }
        if isMeteringEnabled {
            outputLevels[0] = peak
            outputLevels[1] = sumSquares / (frames * Float(outCount))
        }
    }
}

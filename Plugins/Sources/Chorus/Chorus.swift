import AUHostSDK
import Foundation

/// A stereo chorus: each channel is mixed with a copy of itself read from a delay line whose
/// length sweeps around `Delay` by ± `Depth` with a sine LFO; the right channel's LFO runs a
/// quarter cycle after the left one's, which spreads the sound. Mono in, mono out also works.
///
/// Mix 0 is exactly the dry signal; Depth 0 with Mix 100 is exactly the input delayed by Delay
/// (when Delay is a whole number of frames).
public struct Chorus: EffectKernel {
    public enum Param: AudioUnitParameterID { case rate, depth, delay, mix }

    public static let componentDescription = AudioComponentDescription(
        type: kAudioUnitType_Effect,
        subType: FourCC.code("chor")!, manufacturer: FourCC.code("AUSd")!)
    public static let parameters = [
        Parameter(Param.rate, "Rate", 0.05...5, unit: kAudioUnitParameterUnit_Hertz, default: 0.8),
        Parameter(Param.depth, "Depth", 0...10, unit: kAudioUnitParameterUnit_Milliseconds, default: 3),
        Parameter(Param.delay, "Delay", 5...30, unit: kAudioUnitParameterUnit_Milliseconds, default: 12),
        Parameter(Param.mix, "Mix", 0...100, unit: kAudioUnitParameterUnit_Percent, default: 50),
    ]
    public static let factoryPresets = [
        Preset(0, "Subtle", [Param.rate.rawValue: 0.5, Param.depth.rawValue: 2, Param.delay.rawValue: 10, Param.mix.rawValue: 35]),
        Preset(1, "Lush", [Param.rate.rawValue: 1.2, Param.depth.rawValue: 6, Param.delay.rawValue: 18, Param.mix.rawValue: 50]),
    ]
    /// The longest delay the line must hold: Delay + Depth at their maxima, in seconds.
    public static var tailTime: Double { 0.040 }

    private let sampleRate: Double
    private let channels: Int
    /// One delay line per channel, `length` samples each, written at `write`.
    private let lines: UnsafeMutablePointer<Float>
    private let length: Int
    private var write = 0
    private var phase: Double = 0

    /// Thread: setup.
    public init(sampleRate: Double, channels: Int, maxFrames: Int) {
        self.sampleRate = sampleRate
        self.channels = channels
        length = Int((Chorus.tailTime * sampleRate).rounded(.up)) + 4
        lines = .allocate(capacity: max(channels, 1) * length)
        lines.initialize(repeating: 0, count: max(channels, 1) * length)
    }

    /// Thread: setup.
    public mutating func reset() {
        lines.update(repeating: 0, count: max(channels, 1) * length)
        write = 0
        phase = 0
    }

    /// Thread: render.
    @_noAllocation @_noLocks
    public mutating func process(_ buffers: KernelBuffers, _ parameters: ParameterValues) {
        let increment = Double(min(max(parameters[Param.rate.rawValue], 0.05), 5)) / sampleRate
        let depth = Double(min(max(parameters[Param.depth.rawValue], 0), 10)) * sampleRate / 1000
        let centre = Double(min(max(parameters[Param.delay.rawValue], 5), 30)) * sampleRate / 1000
        let wetShare = min(max(parameters[Param.mix.rawValue], 0), 100) / 100
        let channelCount = min(buffers.channels, channels)
        for i in 0..<buffers.frames {
            for c in 0..<channelCount {
                let line = lines + c * length
                let x = buffers.input(c)[i]
                line[write] = x
                // Quarter-cycle offset per channel; sin by the C library is not needed: the
                // sweep uses a parabolic sine, accurate to 0.1 %, smooth enough for modulation.
                let lfo = parabolicSine(phase + 0.25 * Double(c))
                let delay = centre + depth * lfo
                var read = Double(write) - delay
                if read < 0 { read += Double(length) }
                let index = Int(read)
                let frac = Float(read - Double(index))
                let next = index + 1 == length ? 0 : index + 1
                let wet = line[index] + frac * (line[next] - line[index])
                buffers.output(c)[i] = (1 - wetShare) * x + wetShare * wet
            }
            write += 1
            if write == length { write = 0 }
            phase += increment
            if phase >= 1 { phase -= 1 }
        }
    }
}

extension Chorus: ReleasableKernel {
    /// Thread: setup.
    public func release() { lines.deallocate() }
}

/// sin(2π p) for any p, by a parabola corrected once (max error about 0.001).
@_noAllocation @_noLocks
func parabolicSine(_ p: Double) -> Double {
    let truncated = Double(Int(p))
    var x = p - (truncated > p ? truncated - 1 : truncated)  // 0 ..< 1
    x = x < 0.5 ? x : x - 1  // −0.5 ..< 0.5
    let y = 8 * x - 16 * x * abs(x)  // parabola through the sine's zeros and peaks
    return 0.225 * (y * abs(y) - y) + y
}

/// Thread: setup (the host calls the factory when it makes an instance).
@_cdecl("ChorusFactory") public func chorusFactory(_ d: UnsafePointer<AudioComponentDescription>?) -> UnsafeMutableRawPointer? {
    exportUnit(Chorus.self, d)
}

/// The same unit as an LV2 plug-in (SDK/README.md, "LV2"): build.sh makes the bundle.
///
/// Thread: setup (LV2 discovery).
@_cdecl("lv2_descriptor") public func lv2Descriptor(_ index: UInt32) -> UnsafeRawPointer? { exportLV2(Chorus.self, index) }

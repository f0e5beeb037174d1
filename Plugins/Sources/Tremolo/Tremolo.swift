import AUHostSDK
import Foundation

/// A tremolo: the level rises and falls with a low-frequency oscillator.
/// Gain = 1 − depth × lfo, where lfo runs 0 → 1 → 0 once per period (sine, triangle or a square
/// with 2 ms edges), starting at 0 so that the first frame passes unchanged. Depth 0 is exactly
/// the identity.
public struct Tremolo: ChannelKernel {
    public enum Param: AudioUnitParameterID { case rate, depth, shape }
    public enum Shape: Int { case sine, triangle, square }

    public static let componentDescription = AudioComponentDescription(
        type: kAudioUnitType_Effect,
        subType: FourCC.code("trem")!, manufacturer: FourCC.code("AUSd")!)
    public static let parameters = [
        Parameter(Param.rate, "Rate", 0.1...20, unit: kAudioUnitParameterUnit_Hertz, default: 5),
        Parameter(Param.depth, "Depth", 0...100, unit: kAudioUnitParameterUnit_Percent, default: 50),
        Parameter(
            Param.shape, "Shape", 0...2, unit: kAudioUnitParameterUnit_Indexed, default: 0,
            flags: [], valueStrings: ["Sine", "Triangle", "Square"]),
    ]
    public static let factoryPresets = [
        Preset(0, "Gentle", [Param.rate.rawValue: 3, Param.depth.rawValue: 30, Param.shape.rawValue: 0]),
        Preset(1, "Helicopter", [Param.rate.rawValue: 12, Param.depth.rawValue: 100, Param.shape.rawValue: 2]),
    ]

    private let sampleRate: Double
    /// LFO phase in cycles, 0 ..< 1.
    private var phase: Double = 0
    /// Smoothing of the square's edges (one pole, 2 ms).
    private var squareLevel: Float = 0
    private let squareCoefficient: Float

    /// Thread: setup.
    public init(sampleRate: Double, maxFrames: Int) {
        self.sampleRate = sampleRate
        squareCoefficient = Float(1 - exp(-1 / (0.002 * sampleRate)))
    }

    /// Thread: setup.
    public mutating func reset() {
        phase = 0
        squareLevel = 0
    }

    /// Thread: render.
    @_noAllocation @_noLocks
    public mutating func process(
        input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>, frames: Int,
        parameters: ParameterValues
    ) {
        let depth = min(max(parameters[Param.depth.rawValue], 0), 100) / 100
        let increment = Double(min(max(parameters[Param.rate.rawValue], 0.1), 20)) / sampleRate
        let shape = Shape(rawValue: Int(max(parameters[Param.shape.rawValue], 0) + 0.5)) ?? .sine
        for i in 0..<frames {
            let lfo: Float
            switch shape {
            case .sine:
                // glibc's cos is pure arithmetic: it neither allocates nor locks.
                let p = phase
                lfo = Float(0.5 - 0.5 * _unsafePerformance { cos(2 * Double.pi * p) })
            case .triangle: lfo = Float(phase < 0.5 ? 2 * phase : 2 - 2 * phase)
            case .square:
                squareLevel += squareCoefficient * ((phase < 0.5 ? 0 : 1) - squareLevel)
                lfo = squareLevel
            }
            output[i] = input[i] * (1 - depth * lfo)
            phase += increment
            if phase >= 1 { phase -= 1 }
        }
    }
}

/// Thread: setup (the host calls the factory when it makes an instance).
@_cdecl("TremoloFactory") public func tremoloFactory(_ d: UnsafePointer<AudioComponentDescription>?) -> UnsafeMutableRawPointer? {
    exportUnit(Tremolo.self, d)
}

/// The same unit as an LV2 plug-in (SDK/README.md, "LV2"): build.sh makes the bundle.
///
/// Thread: setup (LV2 discovery).
@_cdecl("lv2_descriptor") public func lv2Descriptor(_ index: UInt32) -> UnsafeRawPointer? { exportLV2(Tremolo.self, index) }

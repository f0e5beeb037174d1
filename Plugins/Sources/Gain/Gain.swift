import AUHostSDK

/// A gain: output = input × Gain. The smallest SDK unit; the benchmark compares its call cost
/// as a plug-in with the same kernel built into the host.
public struct Gain: ChannelKernel {
    public enum Param: AudioUnitParameterID { case gain }

    public static let componentDescription = AudioComponentDescription(
        type: kAudioUnitType_Effect,
        subType: FourCC.code("gain")!, manufacturer: FourCC.code("AUSd")!)
    public static let parameters = [
        Parameter(Param.gain, "Gain", 0...4, unit: kAudioUnitParameterUnit_LinearGain, default: 1)
    ]

    /// Thread: setup.
    public init(sampleRate: Double, maxFrames: Int) {}

    /// Thread: render.
    @_noAllocation @_noLocks
    public mutating func process(
        input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>, frames: Int,
        parameters: ParameterValues
    ) {
        let gain = parameters[Param.gain.rawValue]
        for i in 0..<frames { output[i] = input[i] * gain }
    }
}

/// Thread: setup (the host calls the factory when it makes an instance).
@_cdecl("GainFactory") public func gainFactory(_ d: UnsafePointer<AudioComponentDescription>?) -> UnsafeMutableRawPointer? {
    exportUnit(Gain.self, d)
}

/// The same unit as an LV2 plug-in (SDK/README.md, "LV2"): build.sh makes the bundle.
///
/// Thread: setup (LV2 discovery).
@_cdecl("lv2_descriptor") public func lv2Descriptor(_ index: UInt32) -> UnsafeRawPointer? { exportLV2(Gain.self, index) }

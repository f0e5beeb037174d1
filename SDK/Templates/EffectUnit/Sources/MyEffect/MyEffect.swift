import AUHostSDK

/// MyEffect: a level control with an optional polarity flip, one channel at a time.
/// Replace the parameters and `process` with your own DSP.
public struct MyEffect: ChannelKernel {
    /// Parameter identifiers: the enum's raw values are what hosts see.
    public enum Param: AudioUnitParameterID { case level, invert }

    /// Type, subtype, manufacturer: keep them equal to the manifest's (the factory checks).
    public static let componentDescription = AudioComponentDescription(
        type: kAudioUnitType_Effect,
        subType: FourCC.code("myfx")!, manufacturer: FourCC.code("Demo")!)

    /// Declared once: the host lists them, saves them in presets and ramps them sample-accurately.
    public static let parameters = [
        Parameter(Param.level, "Level", -60...12, unit: kAudioUnitParameterUnit_Decibels, default: 0),
        Parameter(Param.invert, "Invert", 0...1, unit: kAudioUnitParameterUnit_Boolean, default: 0, flags: []),
    ]

    /// Allocate here (delay lines, tables), never in `process`.
    ///
    /// Thread: setup.
    public init(sampleRate: Double, maxFrames: Int) {}

    /// The compiler checks that nothing here allocates or locks.
    ///
    /// Thread: render.
    @_noAllocation @_noLocks
    public mutating func process(
        input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>, frames: Int,
        parameters: ParameterValues
    ) {
        var gain = decibelsToLinear(parameters[Param.level.rawValue])
        if parameters[Param.invert.rawValue] >= 0.5 { gain = -gain }
        for i in 0..<frames { output[i] = input[i] * gain }
    }
}

/// The export the manifest's "factoryFunction" names: one line.
///
/// Thread: setup (the host calls the factory when it makes an instance).
@_cdecl("MyEffectFactory") public func myEffectFactory(_ d: UnsafePointer<AudioComponentDescription>?) -> UnsafeMutableRawPointer? {
    exportUnit(MyEffect.self, d)
}

/// The same unit as an LV2 plug-in for every Linux host (`make lv2` builds the bundle).
///
/// Thread: setup (LV2 discovery).
@_cdecl("lv2_descriptor") public func lv2Descriptor(_ index: UInt32) -> UnsafeRawPointer? { exportLV2(MyEffect.self, index) }

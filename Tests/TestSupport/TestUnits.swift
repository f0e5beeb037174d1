@_exported import AUHost

/// A gain effect for tests: output = input × Gain (parameter 0, 0…4, default 1), per channel.
/// Identity 'aufx' 'tgan' 'AUHt'.
public final class TestGainUnit: AUEffectBase {
    public static let description = AudioComponentDescription(type: kAudioUnitType_Effect, subType: FourCC.code("tgan")!,
                                                              manufacturer: FourCC.code("AUHt")!)

    public init(_ description: AudioComponentDescription = TestGainUnit.description) {
        super.init(description: description, parameters: [
            ParameterDefinition(id: 0, name: "Gain", unit: kAudioUnitParameterUnit_LinearGain, min: 0, max: 4, default: 1),
        ])
    }

    public override var factoryPresets: [(number: Int32, name: String)] { [(0, "Unity"), (1, "Half")] }

    public override func applyFactoryPreset(_ number: Int32) throws {
        parameters.values[0] = number == 0 ? 1 : 0.5
    }

    public override func processChannel(_ channel: Int, input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>, frames: Int) {
        applyGain(input, output, frames, parameters.values[0])
    }
}

@_noAllocation @_noLocks
func applyGain(_ input: UnsafePointer<Float>, _ output: UnsafeMutablePointer<Float>, _ frames: Int, _ gain: Float) {
    for i in 0..<frames { output[i] = input[i] * gain }
}

/// The factory AudioComponentRegister takes, for the test gain unit.
public let testGainFactory: AudioComponentFactoryFunction = { description in
    AUBase.makePlugIn(TestGainUnit(description?.pointee ?? TestGainUnit.description))
}

/// Registers the test units in this process (idempotent).
///
/// Thread: setup.
@discardableResult
public func registerTestUnits() -> AudioComponent? {
    var d = TestGainUnit.description
    return AudioComponentRegister(&d, AUHostConstantString("AUHost Tests: Gain")!.takeUnretainedValue(), 0x0001_0000, testGainFactory)
}

/// A render callback that writes frame numbers (continuing across calls) into every channel, so
/// the expected output of any render is known exactly: sample n of channel c is `n + 1000 c`.
public let rampCallback: AURenderCallback = { refCon, _, _, _, frames, ioData in
    let counter = refCon!.assumingMemoryBound(to: Int.self)
    let buffers = UnsafeMutableAudioBufferListPointer(ioData!)
    for c in 0..<buffers.count {
        let samples = buffers[c].mData!.assumingMemoryBound(to: Float.self)
        for i in 0..<Int(frames) { samples[i] = Float(counter.pointee + i + 1000 * c) }
    }
    counter.pointee += Int(frames)
    return noErr
}

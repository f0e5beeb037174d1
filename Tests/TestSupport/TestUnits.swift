@_exported import AUHost

/// A gain effect for tests: output = input × Gain (parameter 0, 0…4, default 1), per channel.
/// Identity 'aufx' 'tgan' 'AUHt'.
public final class TestGainUnit: AUEffectBase {
    public static let description = AudioComponentDescription(
        type: kAudioUnitType_Effect, subType: FourCC.code("tgan")!,
        manufacturer: FourCC.code("AUHt")!)

    public init(_ description: AudioComponentDescription = TestGainUnit.description) {
        super.init(
            description: description,
            parameters: [
                ParameterDefinition(id: 0, name: "Gain", unit: kAudioUnitParameterUnit_LinearGain, min: 0, max: 8, default: 1)
            ])
    }

    public override var factoryPresets: [(number: Int32, name: String)] { [(0, "Unity"), (1, "Half")] }

    public override func applyFactoryPreset(_ number: Int32) throws {
        parameters.values[0] = number == 0 ? 1 : 0.5
    }

    public override func processChannel(_ channel: Int, input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>, frames: Int) {
        applyGain(input, output, frames, parameterValues[0])
    }
}

@_noAllocation @_noLocks
func applyGain(_ input: UnsafePointer<Float>, _ output: UnsafeMutablePointer<Float>, _ frames: Int, _ gain: Float) {
    for i in 0..<frames { output[i] = input[i] * gain }
}

/// The factory AudioComponentRegister takes, for the test gain unit.
public let testGainFactory: AudioComponentFactoryFunction = { description in
    AUBase.makePlugIn(TestGainUnit(description.pointee))
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
    let counter = refCon.assumingMemoryBound(to: Int.self)
    let buffers = UnsafeMutableAudioBufferListPointer(ioData!)
    for c in 0..<buffers.count {
        let samples = buffers[c].mData!.assumingMemoryBound(to: Float.self)
        for i in 0..<Int(frames) { samples[i] = Float(counter.pointee + i + 1000 * c) }
    }
    counter.pointee += Int(frames)
    return noErr
}

/// Sums N inputs into one output (a stand-in mixer for graph tests). An input with no source
/// counts as silence. Identity 'aumx' 'tsum' 'AUHt'.
public final class TestSumUnit: AUBase {
    public static let description = AudioComponentDescription(
        type: kAudioUnitType_Mixer, subType: FourCC.code("tsum")!,
        manufacturer: FourCC.code("AUHt")!)
    public init(_ description: AudioComponentDescription = TestSumUnit.description) {
        super.init(description: description, inputs: 2, outputs: 1)
    }

    public override var canChangeElementCount: (input: Bool, output: Bool) { (true, false) }

    public override func renderBus(
        _ bus: UInt32, flags: UnsafeMutablePointer<AudioUnitRenderActionFlags>,
        timeStamp: UnsafePointer<AudioTimeStamp>, frames: UInt32,
        output: UnsafeMutablePointer<AudioBufferList>
    ) -> OSStatus {
        let out = UnsafeMutableAudioBufferListPointer(output)
        for c in 0..<out.count { out.floatChannel(c)!.initialize(repeating: 0, count: Int(frames)) }
        // The render state's element count: the setup side's elements are not render-thread reading.
        for input in 0..<renderState().pointee.inputCount {
            let status = pullInput(input, flags, timeStamp, frames)
            if status == kAudioUnitErr_NoConnection { continue }
            guard status == noErr, let list = inputList(input) else { return status }
            let ins = UnsafeMutableAudioBufferListPointer(list)
            for c in 0..<min(ins.count, out.count) {
                guard let i = ins.floatChannel(c), let o = out.floatChannel(c) else { continue }
                for f in 0..<Int(frames) { o[f] += i[f] }
            }
        }
        return noErr
    }
}

/// Delays its input by a fixed number of frames and reports that as its Latency, like a
/// look-ahead limiter. Identity 'aufx' 'tlat' 'AUHt'; 240 frames by default.
public final class TestLatencyUnit: AUEffectBase {
    public static let description = AudioComponentDescription(
        type: kAudioUnitType_Effect, subType: FourCC.code("tlat")!,
        manufacturer: FourCC.code("AUHt")!)
    public static var frames = 240
    private var ring: UnsafeMutablePointer<Float>?
    private var position = 0
    private let delay = TestLatencyUnit.frames

    public init(_ description: AudioComponentDescription = TestLatencyUnit.description) {
        super.init(description: description)
    }

    /// What instances made from now on report instead of their delay (a broken unit's word).
    public static var reportedLatency: Double?
    private let reported = TestLatencyUnit.reportedLatency

    public override var latency: Double { reported ?? Double(delay) / sampleRate }

    public override func allocateRenderResources() throws {
        ring = .allocate(capacity: delay * 8)
        ring!.initialize(repeating: 0, count: delay * 8)
    }

    public override func deallocateRenderResources() { ring?.deallocate(); ring = nil }

    public override func process(
        input: UnsafeMutablePointer<AudioBufferList>, output: UnsafeMutablePointer<AudioBufferList>,
        offset: Int, frames: Int
    ) {
        let ins = UnsafeMutableAudioBufferListPointer(input), outs = UnsafeMutableAudioBufferListPointer(output)
        guard let ring else { return }
        for f in 0..<frames {
            let slot = (position + f) % delay
            for c in 0..<min(ins.count, 8) {
                let cell = ring + c * delay + slot
                let delayed = cell.pointee
                cell.pointee = ins.floatChannel(c)![offset + f]
                outs.floatChannel(c)![offset + f] = delayed
            }
        }
        position = (position + frames) % delay
    }
}

/// Registers the graph test units (idempotent).
///
/// Thread: setup.
public func registerGraphTestUnits() {
    registerTestUnits()
    ComponentRegistry.shared.register(
        Component(description: TestSumUnit.description, name: "AUHost Tests: Sum", version: 1) { TestSumUnit($0) })
    ComponentRegistry.shared.register(
        Component(description: TestLatencyUnit.description, name: "AUHost Tests: Latency", version: 1) { TestLatencyUnit($0) })
}

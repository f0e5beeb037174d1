import AudioToolbox

/// A mixer (Apple's AVAudioMixerNode) over the multichannel mixer ('aumx' 'mcmx'): any number of
/// inputs summed into one output, each with the volume and pan of the node that feeds it. Inputs
/// must be at the output's sample rate (docs/PORTING.md).
///
/// Thread: setup.
public final class AVAudioMixerNode: AVAudioNode, AVAudioMixing {
    static let description = AudioComponentDescription(
        componentType: kAudioUnitType_Mixer, componentSubType: kAudioUnitSubType_MultiChannelMixer,
        componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0)

    /// Thread: setup.
    public init() {
        super.init(unit: try! makeUnit(AVAudioMixerNode.description))  // built in: always there
    }

    /// The mixer's output gain (0…1).
    ///
    /// Thread: any.
    public var outputVolume: Float {
        get { parameter(unit, kMultiChannelMixerParam_Volume, kAudioUnitScope_Output, 0) }
        set { setParameter(unit, kMultiChannelMixerParam_Volume, newValue, kAudioUnitScope_Output, 0) }
    }

    /// The lowest input bus nothing is connected to.
    ///
    /// Thread: setup.
    public var nextAvailableInputBus: AVAudioNodeBus {
        let used = Set(engine?.connections.filter { $0.destination === self }.map(\.destinationBus) ?? [])
        return (0...).first { !used.contains($0) }!
    }

    /// Grows the input bus count to hold `bus` while the engine is not prepared (a rendering
    /// mixer keeps its buses: connect more before start).
    func ensureInputBus(_ bus: AVAudioNodeBus) {
        let count = numberOfInputs
        guard bus >= count, bus < 1024, engine?.graph.isInitialized != true else { return }
        setUInt32Property(unit, kAudioUnitProperty_ElementCount, UInt32(max(bus + 1, count * 2)), kAudioUnitScope_Input)
        matchIdleInputRates()
    }

    /// The mixer's output rate changes the rate of every input nothing is connected to (the unit
    /// wants every bus at the output's rate; a connection sets its own bus).
    override func setOutputFormat(_ format: AVAudioFormat, bus: AVAudioNodeBus) throws {
        try super.setOutputFormat(format, bus: bus)
        matchIdleInputRates()
    }

    private func matchIdleInputRates() {
        let rate = outputFormat(forBus: 0).sampleRate
        let used = Set(engine?.connections.filter { $0.destination === self }.map(\.destinationBus) ?? [])
        for bus in 0..<numberOfInputs where !used.contains(bus) {
            let current = inputFormat(forBus: bus)
            guard current.sampleRate != rate, let f = AVAudioFormat(standardFormatWithSampleRate: rate, channels: current.channelCount)
            else {
                continue
            }
            try? setStreamFormat(unit, kAudioUnitScope_Input, bus, f, "The mixer")
        }
    }

    override func connectionsChanged() {
        guard let engine else { return }
        for c in engine.connections where c.destination === self { if c.source is AVAudioMixing { c.source.applyMixingToMixers() } }
    }
}

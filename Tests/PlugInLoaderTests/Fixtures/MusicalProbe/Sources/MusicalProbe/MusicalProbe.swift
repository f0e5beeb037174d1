import AUHostSDK

/// Writes what it reads of the host's musical time, one field per output channel, every frame:
/// 0 the tempo (-1 when the host provides none), 1 the beat at that frame, 2 the sample time at
/// the slice's first frame plus the frame, 3 the bar's first beat, 4 the time signature's
/// numerator, 5 1 while playing, 6 1 in a slice that reports a transport change. Channels beyond
/// 6 are zero. Its one parameter does nothing (tests ramp it to slice render calls).
public struct MusicalProbe: EffectKernel {
    public static var wantsMusicalContext: Bool { true }
    public static let componentDescription = AudioComponentDescription(
        type: kAudioUnitType_Effect, subType: FourCC.code("mtim")!, manufacturer: FourCC.code("AUSt")!)
    public static let parameters = [Parameter(0, "Unused", 0...1, default: 0)]

    public init(sampleRate: Double, channels: Int, maxFrames: Int) {}

    @_noAllocation @_noLocks
    public mutating func process(_ buffers: KernelBuffers, _ parameters: ParameterValues) {
        writeMusicalContext(parameters.musicalContext, into: buffers)
    }
}

/// The same channels from an instrument ('aumu'), which renders with no input.
public struct MusicalProbeInstrument: InstrumentKernel {
    public static let componentDescription = AudioComponentDescription(
        type: kAudioUnitType_MusicDevice, subType: FourCC.code("mtin")!, manufacturer: FourCC.code("AUSt")!)
    public static let parameters: [Parameter] = []

    public init(sampleRate: Double, channels: Int, maxFrames: Int) {}

    @_noAllocation @_noLocks
    public mutating func midi(status: UInt8, data1: UInt8, data2: UInt8) {}

    @_noAllocation @_noLocks
    public mutating func render(_ output: KernelBuffers, _ parameters: ParameterValues) {
        writeMusicalContext(parameters.musicalContext, into: output)
    }
}

/// Channel c of every frame: field c of `time` (see MusicalProbe).
@_noAllocation @_noLocks
func writeMusicalContext(_ time: MusicalContext, into buffers: KernelBuffers) {
    for c in 0..<buffers.channels {
        let out = buffers.output(c)
        for i in 0..<buffers.frames {
            let value: Double
            switch c {
            case 0: value = time.providesBeatAndTempo ? time.tempo : -1
            case 1: value = time.beat(atFrame: i)
            case 2: value = time.sampleTime + Double(i)
            case 3: value = time.barStartBeat
            case 4: value = Double(time.timeSignatureNumerator)
            case 5: value = time.isPlaying ? 1 : 0
            case 6: value = time.transportStateChanged ? 1 : 0
            default: value = 0
            }
            out[i] = Float(value)
        }
    }
}

@_cdecl("MusicalProbeFactory") public func musicalProbeFactory(_ d: UnsafePointer<AudioComponentDescription>?) -> UnsafeMutableRawPointer? {
    exportUnit(MusicalProbe.self, d)
}

@_cdecl("MusicalProbeInstrumentFactory")
public func musicalProbeInstrumentFactory(_ d: UnsafePointer<AudioComponentDescription>?) -> UnsafeMutableRawPointer? {
    exportUnit(MusicalProbeInstrument.self, d)
}

/// The effect probe as an LV2 plug-in (one per binary): with wantsMusicalContext it gets a
/// `time_in` port supporting time:Position.
@_cdecl("lv2_descriptor") public func lv2Descriptor(_ index: UInt32) -> UnsafeRawPointer? { exportLV2(MusicalProbe.self, index) }

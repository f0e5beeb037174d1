import AudioUnitBase

/// What every SDK unit declares about itself, once, as static members of its kernel struct.
public protocol UnitDeclaration {
    /// Type, subtype and manufacturer. The exported factory refuses any other description, so a
    /// manifest that names another triple fails to load with a message instead of lying.
    static var componentDescription: AudioComponentDescription { get }
    /// The parameters, in the order the host lists them.
    static var parameters: [Parameter] { get }
    /// Factory presets (default: none).
    static var factoryPresets: [Preset] { get }
    /// Seconds of latency the unit adds at `sampleRate` (default 0).
    static func latency(sampleRate: Double) -> Double
    /// Seconds the unit keeps sounding after its input stops (default 0).
    static var tailTime: Double { get }
    /// Channel configurations (default: any N in → the same N out).
    static var channelCapabilities: [AUChannelInfo] { get }
    /// Whether the kernel reads `parameters.musicalContext` (default false). As an Audio Unit it
    /// always gets it (the host callbacks are a property); as an LV2 plug-in only a unit that says
    /// so gets an event input supporting time:Position (an instrument's `midi_in` supports it too;
    /// an effect gets a `time_in` port), so bundles gain no port they do not need.
    static var wantsMusicalContext: Bool { get }
}

// Defaults (Thread: any; the unit model reads them on setup threads).
extension UnitDeclaration {
    public static var factoryPresets: [Preset] { [] }
    public static func latency(sampleRate: Double) -> Double { 0 }
    public static var tailTime: Double { 0 }
    public static var channelCapabilities: [AUChannelInfo] { [AUChannelInfo(inChannels: -1, outChannels: -1)] }
    public static var wantsMusicalContext: Bool { false }
}

/// An effect kernel that processes all channels of a slice together (stereo effects, linked
/// dynamics). The SDK makes it at AudioUnitInitialize (allocate everything in `init`), calls
/// `process` for every slice between parameter events, and drops it at AudioUnitUninitialize.
///
/// `process` runs on the render thread: allocate nothing, lock nothing; mark it
/// `@_noAllocation @_noLocks` to have the compiler check it.
public protocol EffectKernel: UnitDeclaration {
    /// Thread: setup.
    init(sampleRate: Double, channels: Int, maxFrames: Int)
    /// Thread: render.
    mutating func process(_ buffers: KernelBuffers, _ parameters: ParameterValues)
    /// Clears delay lines, filter memories and oscillator phases (AudioUnitReset). Default: nothing.
    ///
    /// Thread: setup.
    mutating func reset()
}

extension EffectKernel {
    /// Nothing to clear. Thread: setup.
    public mutating func reset() {}
}

/// The per-channel shortcut: a kernel that processes one channel, one instance per channel
/// (channels are independent: tremolo, saturation, filters).
public protocol ChannelKernel: UnitDeclaration {
    /// Thread: setup.
    init(sampleRate: Double, maxFrames: Int)
    /// Processes `frames` samples of one channel. `input` and `output` may be the same memory.
    ///
    /// Thread: render.
    mutating func process(
        input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>, frames: Int,
        parameters: ParameterValues)
    /// Thread: setup.
    mutating func reset()
}

extension ChannelKernel {
    /// Nothing to clear. Thread: setup.
    public mutating func reset() {}
}

/// Runs a ``ChannelKernel`` as an ``EffectKernel``: one kernel per channel, made at setup.
public struct PerChannel<Channel: ChannelKernel>: EffectKernel {
    // The declarations are the channel kernel's (Thread: any).
    public static var componentDescription: AudioComponentDescription { Channel.componentDescription }
    public static var parameters: [Parameter] { Channel.parameters }
    public static var factoryPresets: [Preset] { Channel.factoryPresets }
    public static func latency(sampleRate: Double) -> Double { Channel.latency(sampleRate: sampleRate) }
    public static var tailTime: Double { Channel.tailTime }
    public static var channelCapabilities: [AUChannelInfo] { Channel.channelCapabilities }
    public static var wantsMusicalContext: Bool { Channel.wantsMusicalContext }

    let kernels: UnsafeMutableBufferPointer<Channel>

    /// Thread: setup.
    public init(sampleRate: Double, channels: Int, maxFrames: Int) {
        kernels = .allocate(capacity: channels)
        for c in 0..<channels { (kernels.baseAddress! + c).initialize(to: Channel(sampleRate: sampleRate, maxFrames: maxFrames)) }
    }

    /// Frees the per-channel kernels (the SDK calls it when the unit is uninitialized).
    ///
    /// Thread: setup.
    public func release() {
        for kernel in kernels { (kernel as? ReleasableKernel)?.release() }
        _ = kernels.deinitialize()
        kernels.deallocate()
    }

    /// Thread: render.
    public mutating func process(_ buffers: KernelBuffers, _ parameters: ParameterValues) {
        let base = kernels.baseAddress.unsafelyUnwrapped
        for c in 0..<min(buffers.channels, kernels.count) {
            base[c].process(input: buffers.input(c), output: buffers.output(c), frames: buffers.frames, parameters: parameters)
        }
    }

    /// Thread: setup.
    public mutating func reset() {
        for c in 0..<kernels.count { kernels[c].reset() }
    }
}

/// A kernel that owns memory outside itself frees it here (the SDK calls it before dropping the
/// kernel at AudioUnitUninitialize).
public protocol ReleasableKernel {
    /// Thread: setup.
    func release()
}

extension PerChannel: ReleasableKernel {}

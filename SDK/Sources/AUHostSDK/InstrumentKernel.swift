import AudioUnitBase

/// An instrument or MIDI-driven generator kernel ('aumu'): no audio input; MIDI channel messages
/// (MusicDeviceMIDIEvent) arrive between slices at their frame, and the kernel renders each slice
/// of output. The SDK slices a render call at every MIDI event and parameter event, so both are
/// sample-accurate.
///
/// `midi` and `render` run on the render thread: allocate nothing, lock nothing.
public protocol InstrumentKernel: UnitDeclaration {
    /// Thread: setup.
    init(sampleRate: Double, channels: Int, maxFrames: Int)
    /// A channel message (note on/off, controller, pitch bend…) taking effect at the next frame.
    ///
    /// Thread: render.
    mutating func midi(status: UInt8, data1: UInt8, data2: UInt8)
    /// Renders `output.frames` frames into `output.output(c)` for every channel.
    ///
    /// Thread: render.
    mutating func render(_ output: KernelBuffers, _ parameters: ParameterValues)
    /// All notes off, envelopes and phases cleared (AudioUnitReset).
    ///
    /// Thread: setup.
    mutating func reset()
}

extension InstrumentKernel {
    /// Nothing to clear. Thread: setup.
    public mutating func reset() {}
}

/// Exports an instrument kernel from a plug-in (see ``exportUnit(_:_:)-(EffectKernel.Type,_)``).
///
/// Thread: setup.
public func exportUnit<Kernel: InstrumentKernel>(_ kernel: Kernel.Type, _ description: UnsafePointer<AudioComponentDescription>?)
    -> UnsafeMutableRawPointer?
{
    guard let asked = checkedDescription(Kernel.componentDescription, description) else { return nil }
    return UnsafeMutableRawPointer(AUBase.makePlugIn(KernelInstrumentUnit<Kernel>(description: asked)))
}

import AudioUnitBase

// The instrument's render path, in one file for the compiler's real-time checks. MIDI travels
// through the unit model's RenderEventQueue (any thread pushes; the render thread delivers).

/// The unit the SDK builds around an ``InstrumentKernel``: one output element, no input, MIDI
/// queued without locks and delivered at its frame.
public final class KernelInstrumentUnit<Kernel: InstrumentKernel>: AUBase {
    private let storage = KernelStorage<Kernel>()
    private let queue = RenderEventQueue.allocate(capacity: 512)

    /// Thread: setup.
    public init(description: AudioComponentDescription) {
        super.init(description: description, inputs: 0, outputs: 1, parameters: Kernel.parameters.map(\.definition))
        setDefaultParameters(of: Kernel.self)
    }

    deinit {
        storage.free()
        RenderEventQueue.deallocate(queue)
    }

    public override var channelCapabilities: [AUChannelInfo] { Kernel.channelCapabilities }
    public override var latency: Double { Kernel.latency(sampleRate: sampleRate) }
    public override var tailTime: Double { Kernel.tailTime }
    public override var factoryPresets: [(number: Int32, name: String)] { Kernel.factoryPresets.map { ($0.number, $0.name) } }

    /// Thread: setup.
    public override func applyFactoryPreset(_ number: Int32) throws { try applyFactoryPreset(number, of: Kernel.self) }

    /// Thread: setup.
    public override func allocateRenderResources() throws {
        try storage.start(for: self) { Kernel(sampleRate: $0, channels: $1, maxFrames: $2) }
        queue.pointee.clear()
    }

    /// Thread: setup.
    public override func deallocateRenderResources() { storage.stop() }

    /// Thread: setup.
    public override func resetState() {
        queue.pointee.clear()
        storage.reset { $0.reset() }
    }

    public override var acceptsMIDI: Bool { true }

    /// MusicDeviceMIDIEvent: queued for the next render call at `offset` frames.
    ///
    /// Thread: any (lock-free; the event lands in the next render).
    public override func midiEvent(status: UInt32, data1: UInt32, data2: UInt32, offset: UInt32) -> OSStatus {
        let event = RenderEvent.midi(
            status: UInt8(truncatingIfNeeded: status), data1: UInt8(truncatingIfNeeded: data1),
            data2: UInt8(truncatingIfNeeded: data2), offset: Int(offset))
        return queue.pointee.push(event) ? noErr : kAudioUnitErr_MIDIOutputBufferFull
    }

    /// Thread: render. The generic calls into the kernel are not compiler-checked in debug builds
    /// (see KernelEffectUnit.process); the benchmark counts 0 allocations.
    public override func renderBus(
        _ bus: UInt32, flags: UnsafeMutablePointer<AudioUnitRenderActionFlags>,
        timeStamp: UnsafePointer<AudioTimeStamp>, frames: UInt32,
        output: UnsafeMutablePointer<AudioBufferList>
    ) -> OSStatus {
        let live = storage.live
        guard let k = live.pointee.kernel, let r = live.pointee.parameters else { return kAudioUnitErr_Uninitialized }
        let total = Int(frames)
        let midi = queue
        let au = renderState()
        // Where the music is: asked once per render call; slices also end at the host's tempo changes.
        live.pointee.time.begin(au, frames: total)
        midi.pointee.takeArrivals()
        var position = 0, next = 0  // `next`: the first pending event not yet delivered
        while position < total {
            while next < midi.pointee.pendingCount && midi.pointee.pending[next].offset <= position {
                let event = midi.pointee.pending[next]
                k.pointee.midi(status: event.status, data1: event.data1, data2: event.data2)
                next += 1
            }
            var count = nextParameterSlice(at: position, frames: total)
            if next < midi.pointee.pendingCount { count = min(count, midi.pointee.pending[next].offset - position) }
            count = live.pointee.time.slice(au, at: position, count: count)
            let values = ParameterValues(
                ids: r.ids, slots: r.slots, count: r.count, musicalContext: live.pointee.time.context(at: position))
            k.pointee.render(KernelBuffers(input: output, output: output, offset: position, frames: count), values)
            position += count
        }
        finishParameterSlices(frames: total)
        midi.pointee.carry(from: next, past: total)
        return noErr
    }
}

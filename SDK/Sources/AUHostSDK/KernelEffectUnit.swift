import AudioUnitBase

// The SDK's render path, in one file because debug builds compile file by file and the compiler's
// real-time checks must see every body they call: the unit around a kernel, the buffers and the
// parameter values a kernel reads.

/// The unit the SDK builds around an ``EffectKernel``: the shared unit model (AUEffectBase) does
/// properties, stream formats, bypass, in-place processing, scheduled and ramped parameters,
/// state (ClassInfo) and presets; this class adds the kernel's declarations and its lifecycle.
public final class KernelEffectUnit<Kernel: EffectKernel>: AUEffectBase {
    /// The kernel and the parameter slots it reads while initialized.
    private let storage = KernelStorage<Kernel>()

    /// Thread: setup.
    public init(description: AudioComponentDescription) {
        super.init(description: description, parameters: Kernel.parameters.map(\.definition))
        setDefaultParameters(of: Kernel.self)
    }

    deinit { storage.free() }

    public override var channelCapabilities: [AUChannelInfo] { Kernel.channelCapabilities }
    public override var latency: Double { Kernel.latency(sampleRate: sampleRate) }
    public override var tailTime: Double { Kernel.tailTime }
    public override var factoryPresets: [(number: Int32, name: String)] { Kernel.factoryPresets.map { ($0.number, $0.name) } }

    /// Thread: setup.
    public override func applyFactoryPreset(_ number: Int32) throws { try applyFactoryPreset(number, of: Kernel.self) }

    /// Thread: setup.
    public override func allocateRenderResources() throws {
        try storage.start(for: self) { Kernel(sampleRate: $0, channels: $1, maxFrames: $2) }
    }

    /// Thread: setup.
    public override func deallocateRenderResources() { storage.stop() }

    /// Thread: setup.
    public override func resetState() { storage.reset { $0.reset() } }

    /// Asks the host where the music is, once for the render call about to be sliced (Apple's
    /// units ask once per render), and where its tempo first changes in it.
    ///
    /// Thread: render.
    @_noAllocation @_noLocks
    public override func willProcessSlices(frames: Int) {
        storage.live.pointee.time.begin(renderState(), frames: frames)
    }

    /// Runs the kernel over one slice (AUEffectBase calls it between parameter events), split
    /// again where the host's tempo changes; each piece reads the musical time at its first frame.
    ///
    /// Thread: render. Not marked @_noAllocation: this is the one generic call from the unit into
    /// the kernel, and the compiler cannot prove a generic call free of metadata work in debug
    /// builds (the kernel's metadata is instantiated at setup, so none happens). The benchmark
    /// counts 0 allocations per render for every plug-in; the kernel's own `process` and the
    /// buffer and parameter accessors it uses are checked where the kernel is marked.
    public override func process(
        input: UnsafeMutablePointer<AudioBufferList>, output: UnsafeMutablePointer<AudioBufferList>,
        offset: Int, frames: Int
    ) {
        let live = storage.live
        guard let k = live.pointee.kernel, let r = live.pointee.parameters else { return }
        let au = renderState()
        var position = offset
        let end = offset + frames
        while position < end {
            let count = live.pointee.time.slice(au, at: position, count: end - position)
            let buffers = KernelBuffers(input: input, output: output, offset: position, frames: count)
            let values = ParameterValues(
                ids: r.ids, slots: r.slots, count: r.count, musicalContext: live.pointee.time.context(at: position))
            // The author's kernel: a struct on buffer pointers; its own body is checked where it is
            // marked @_noAllocation @_noLocks.
            k.pointee.process(buffers, values)
            position += count
        }
    }
}

/// The audio of one slice as a kernel sees it: `channels` non-interleaved Float32 channels of
/// `frames` frames. Input and output may be the same memory (in-place processing): read a
/// frame's input before writing its output.
///
/// Thread: render.
public struct KernelBuffers {
    @usableFromInline let inputList: UnsafeMutablePointer<AudioBufferList>
    @usableFromInline let outputList: UnsafeMutablePointer<AudioBufferList>
    @usableFromInline let offset: Int
    /// Channels to process (input and output have this many).
    public let channels: Int
    /// Frames in this slice.
    public let frames: Int

    @inlinable
    init(
        input: UnsafeMutablePointer<AudioBufferList>, output: UnsafeMutablePointer<AudioBufferList>,
        offset: Int, frames: Int
    ) {
        inputList = input
        outputList = output
        self.offset = offset
        self.frames = frames
        channels = Int(min(input.pointee.mNumberBuffers, output.pointee.mNumberBuffers))
    }

    /// Channel `c`'s input samples for this slice.
    ///
    /// Thread: render.
    @inlinable @inline(__always)
    public func input(_ c: Int) -> UnsafePointer<Float> {
        UnsafePointer(sliceStart(inputList, c))
    }

    /// Channel `c`'s output samples for this slice.
    ///
    /// Thread: render.
    @inlinable @inline(__always)
    public func output(_ c: Int) -> UnsafeMutablePointer<Float> {
        sliceStart(outputList, c)
    }

    @inlinable @inline(__always)
    func sliceStart(_ list: UnsafeMutablePointer<AudioBufferList>, _ c: Int) -> UnsafeMutablePointer<Float> {
        // mBuffers follows mNumberBuffers, aligned as AudioBuffer (the C layout).
        let buffers = (UnsafeMutableRawPointer(list) + MemoryLayout<AudioBuffer>.alignment)
            .assumingMemoryBound(to: AudioBuffer.self)
        return buffers[c].mData.unsafelyUnwrapped.assumingMemoryBound(to: Float.self) + offset
    }
}

/// The current parameter values as the kernel reads them during a slice: plain Floats, already
/// updated for scheduled and ramped events at this slice's first frame (the SDK slices a render
/// call at every event and per frame while a ramp runs, so a value read here is sample-accurate).
///
/// Thread: render. Reading allocates nothing and takes no lock.
public struct ParameterValues {
    @usableFromInline let ids: UnsafePointer<AudioUnitParameterID>
    @usableFromInline let slots: UnsafePointer<UnsafeMutablePointer<Float>>
    @usableFromInline let count: Int
    /// Where the host's music is at this slice's first frame (``MusicalContext/notProvided`` when
    /// the host gives no musical time). The SDK ends a slice where the host's tempo changes, so the
    /// tempo holds for the whole slice.
    ///
    /// Thread: render.
    public let musicalContext: MusicalContext

    @inlinable
    init(
        ids: UnsafePointer<AudioUnitParameterID>, slots: UnsafePointer<UnsafeMutablePointer<Float>>, count: Int,
        musicalContext: MusicalContext = .notProvided
    ) {
        self.ids = ids
        self.slots = slots
        self.count = count
        self.musicalContext = musicalContext
    }

    /// The value of parameter `id` (0 for an identifier the kernel did not declare).
    ///
    /// Thread: render.
    @inlinable @inline(__always)
    public subscript(_ id: AudioUnitParameterID) -> Float {
        // Declaration order first: identifiers are usually 0, 1, 2 … in order.
        if Int(id) < count && ids[Int(id)] == id { return slots[Int(id)].pointee }
        for i in 0..<count where ids[i] == id { return slots[i].pointee }
        return 0
    }
}

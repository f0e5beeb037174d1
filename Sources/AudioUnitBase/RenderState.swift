import AudioTypes
import CAUHostAtomics

// The render-time state of a unit: allocated at setup, read and written in place by the render
// thread. The code that uses it lives beside what it does: the configuration swap
// (RenderConfiguration.swift), the render entry and its output cache (AUBase+Render.swift), the
// input pull (AUBase+InputPull.swift) and the parameter path (AUBase+ParameterEvents.swift).

/// One bus's own buffers, as input and output buses both keep them (made at initialize, from the
/// element's stream format and MaximumFramesPerSlice).
public struct BusBuffers {
    /// A list whose buffers point into `storage` (or, for a "nil mData" pull, at the source's).
    public var list: UnsafeMutablePointer<AudioBufferList>?
    /// One block of `bytesPerBuffer` bytes per buffer of the list, 16-byte aligned.
    public var storage: UnsafeMutableRawPointer?
    public var bytesPerBuffer: Int = 0
    public var channels: UInt32 = 0
    public var channelsPerBuffer: UInt32 = 1
    public var bytesPerFrame: UInt32 = 4

    /// No buffers (a bus of an uninitialized unit).
    ///
    /// Thread: setup.
    public init() {}

    /// Zeroed buffers for `maxFrames` frames of `format`.
    ///
    /// Thread: setup.
    public init(format: AudioStreamBasicDescription, maxFrames: Int) {
        let count = Int(format.bufferCount)
        list = AudioBufferStorage.allocateList(bufferCount: count)
        bytesPerBuffer = (Int(format.mBytesPerFrame) * maxFrames + 15) & ~15
        let memory = UnsafeMutableRawPointer.allocate(byteCount: max(bytesPerBuffer * count, 16), alignment: 16)
        memory.initializeMemory(as: UInt8.self, repeating: 0, count: bytesPerBuffer * count)
        storage = memory
        channels = format.mChannelsPerFrame
        channelsPerBuffer = format.channelsPerBuffer
        bytesPerFrame = format.mBytesPerFrame
    }

    /// Frees the list and the storage (the format fields stay).
    ///
    /// Thread: setup.
    public mutating func free() {
        list.map(AudioBufferStorage.deallocateList)
        storage?.deallocate()
        list = nil
        storage = nil
    }
}

/// One input bus as the render thread sees it (set while uninitialized).
public struct InputBus {
    /// Where the bus is pulled into (unless the unit pulls into a list of its own).
    public var buffers = BusBuffers()
    /// ShouldAllocateBuffer: false means the source provides the buffers (mData NULL when pulled).
    public var allocates: Bool = true
    /// Whether the last pull came back marked kAudioUnitRenderAction_OutputIsSilence.
    public var pulledSilence: Bool = false

    /// Thread: setup.
    public init() {}
}

/// One output bus: its own buffers (for "nil mData" pulls) and the time it last rendered.
public struct OutputBus {
    public var buffers = BusBuffers()
    public var lastSampleTime: Double = -1
    public var lastFrames: UInt32 = 0
    public var hasCachedOutput: Bool = false
    /// Whether the cached output was marked kAudioUnitRenderAction_OutputIsSilence (it goes out
    /// with the cache again: the samples are the same).
    public var cachedSilence: Bool = false

    /// Thread: setup.
    public init(buffers: BusBuffers = BusBuffers()) {
        self.buffers = buffers
    }
}

/// The render-time state of a unit.
public struct RenderState {
    public static let notifyCapacity = 32
    public static let eventCapacity = 512

    public var initialized = false
    /// Current parameter values (the parameter table's slots), for render code.
    public var parameterValues: UnsafeMutablePointer<Float>?
    public var maxFrames: UInt32 = 1156
    public var sampleRate: Double = 44_100
    public var inputs: UnsafeMutablePointer<InputBus>
    public var inputCount: Int = 0
    public var outputs: UnsafeMutablePointer<OutputBus>
    public var outputCount: Int = 0
    /// The published configuration (see RenderConfigurationChannel); allocated once.
    public let channel: UnsafeMutablePointer<RenderConfigurationChannel>
    /// The unit's parameter table (held by the unit, which keeps replaced tables until it goes).
    public var parameterTable: Unmanaged<ParameterTable>?
    /// Scheduled parameter changes (any thread pushes; the render thread applies them).
    public let events: UnsafeMutablePointer<RenderEventQueue>
    /// kAudioUnitProperty_CPULoad: the share of a CPU the host allows the unit (a hint, 0…1).
    public var cpuLoad: Double = 0
    /// How long silent input still counts as sound (an effect's latency and tail; AUEffectBase).
    public var silentTimeout = SilentTimeout()

    /// Thread: setup.
    public init() {
        inputs = .allocate(capacity: 1)
        outputs = .allocate(capacity: 1)
        channel = .allocate(capacity: 1)
        channel.initialize(to: RenderConfigurationChannel())
        events = RenderEventQueue.allocate(capacity: RenderState.eventCapacity)
    }

    /// kAudioUnitProperty_LastRenderError: the render thread records, any thread reads.
    ///
    /// Thread: any.
    public var lastRenderError: OSStatus {
        @_noAllocation @_noLocks
        get { _unsafePerformance { auhost_atomic_load_i32(&channel.pointee.lastRenderError) } }
        @_noAllocation @_noLocks
        nonmutating set { _unsafePerformance { auhost_atomic_store_i32(&channel.pointee.lastRenderError, newValue) } }
    }
}

extension AUBase {
    /// The render state, for render code in subclasses (reading `state` from a subclass's
    /// method is a reference-counted access as far as the real-time checker can tell).
    ///
    /// Thread: render.
    @_noAllocation @_noLocks
    public final func renderState() -> UnsafeMutablePointer<RenderState> { state }
}

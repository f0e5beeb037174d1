import AudioUnitBase
import Synchronization

// The instrument's render path and its MIDI queue, in one file for the compiler's real-time checks.

/// The unit the SDK builds around an ``InstrumentKernel``: one output element, no input, MIDI
/// queued without locks and delivered at its frame.
public final class KernelInstrumentUnit<Kernel: InstrumentKernel>: AUBase {
    private let storage = KernelStorage<Kernel>()
    private let queue = MIDIQueue()

    /// Thread: setup.
    public init(description: AudioComponentDescription) {
        super.init(description: description, inputs: 0, outputs: 1, parameters: Kernel.parameters.map(\.definition))
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
        queue.clear()
    }

    /// Thread: setup.
    public override func deallocateRenderResources() { storage.stop() }

    /// Thread: setup.
    public override func resetState() {
        queue.clear()
        storage.reset { $0.reset() }
    }

    public override var acceptsMIDI: Bool { true }

    /// MusicDeviceMIDIEvent: queued for the next render call at `offset` frames.
    ///
    /// Thread: render (or one setup thread at a time; the event lands in the next render).
    public override func midiEvent(status: UInt32, data1: UInt32, data2: UInt32, offset: UInt32) -> OSStatus {
        queue.push(
            MIDIQueue.Event(
                offset: Int(offset), status: UInt8(truncatingIfNeeded: status),
                data1: UInt8(truncatingIfNeeded: data1), data2: UInt8(truncatingIfNeeded: data2)))
            ? noErr : kAudioUnitErr_MIDIOutputBufferFull
    }

    /// Thread: render. The generic calls into the kernel are not compiler-checked in debug builds
    /// (see KernelEffectUnit.process); the benchmark counts 0 allocations.
    public override func renderBus(
        _ bus: UInt32, flags: UnsafeMutablePointer<AudioUnitRenderActionFlags>,
        timeStamp: UnsafePointer<AudioTimeStamp>, frames: UInt32,
        output: UnsafeMutablePointer<AudioBufferList>
    ) -> OSStatus {
        guard let k = storage.live.pointee.kernel, let r = storage.live.pointee.parameters else { return kAudioUnitErr_Uninitialized }
        let values = ParameterValues(ids: r.ids, slots: r.slots, count: r.count)
        let total = Int(frames)
        queue.takeArrivals()
        var position = 0
        while position < total {
            while let event = queue.due(at: position) {
                k.pointee.midi(status: event.status, data1: event.data1, data2: event.data2)
            }
            var count = nextParameterSlice(at: position, frames: total)
            if let next = queue.nextOffset, next > position { count = min(count, next - position) }
            k.pointee.render(KernelBuffers(input: output, output: output, offset: position, frames: count), values)
            position += count
        }
        finishParameterSlices(frames: total)
        queue.carry(past: total)
        return noErr
    }
}

/// MIDI from the host to the render thread: a single-producer, single-consumer ring (no lock),
/// then, on the render thread, a list ordered by frame offset. All memory allocated at creation.
final class MIDIQueue {
    struct Event {
        var offset: Int
        var status: UInt8
        var data1: UInt8
        var data2: UInt8
    }

    static let capacity = 512
    private let ring = UnsafeMutablePointer<Event>.allocate(capacity: MIDIQueue.capacity)
    private let written = Atomic<Int>(0)
    private let taken = Atomic<Int>(0)
    /// Render thread only: events of this and later calls, sorted by offset.
    private let pending = UnsafeMutablePointer<Event>.allocate(capacity: MIDIQueue.capacity)
    private var pendingCount = 0
    private var nextIndex = 0

    deinit {
        ring.deallocate()
        pending.deallocate()
    }

    /// Queues an event; false when full.
    ///
    /// Thread: the producer (render, or one setup thread at a time).
    @_noAllocation @_noLocks
    func push(_ event: Event) -> Bool {
        let w = written.load(ordering: .relaxed)
        guard w - taken.load(ordering: .acquiring) < MIDIQueue.capacity else { return false }
        ring[w % MIDIQueue.capacity] = event
        written.store(w + 1, ordering: .releasing)
        return true
    }

    /// Moves arrived events into the ordered list (dropping any that do not fit).
    ///
    /// Thread: render.
    @_noAllocation @_noLocks
    func takeArrivals() {
        let end = written.load(ordering: .acquiring)
        var t = taken.load(ordering: .relaxed)
        while t < end {
            let event = ring[t % MIDIQueue.capacity]
            t += 1
            guard pendingCount < MIDIQueue.capacity else { continue }
            var i = pendingCount
            let first = nextIndex, list = pending
            // (No `&&` here: its autoclosure would retain self.)
            while i > first {
                if list[i - 1].offset <= event.offset { break }
                list[i] = list[i - 1]
                i -= 1
            }
            pending[i] = event
            pendingCount += 1
        }
        taken.store(t, ordering: .releasing)
    }

    /// The next event due at or before `position`, consumed; nil when none is due.
    ///
    /// Thread: render.
    @_noAllocation @_noLocks
    func due(at position: Int) -> Event? {
        guard nextIndex < pendingCount else { return nil }
        guard pending[nextIndex].offset <= position else { return nil }
        nextIndex += 1
        return pending[nextIndex - 1]
    }

    /// The frame of the next undelivered event.
    ///
    /// Thread: render.
    var nextOffset: Int? { nextIndex < pendingCount ? pending[nextIndex].offset : nil }

    /// After a render call: undelivered events move into the next call's numbering.
    ///
    /// Thread: render.
    @_noAllocation @_noLocks
    func carry(past frames: Int) {
        var kept = 0
        for i in nextIndex..<pendingCount {
            pending[kept] = pending[i]
            pending[kept].offset -= frames
            kept += 1
        }
        pendingCount = kept
        nextIndex = 0
    }

    /// Drops everything (reset, initialize).
    ///
    /// Thread: setup.
    func clear() {
        taken.store(written.load(ordering: .acquiring), ordering: .releasing)
        pendingCount = 0
        nextIndex = 0
    }
}

import CLilv
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The host-owned memory every port is connected to, allocated once at instantiation: one float
/// per control port (initialised to its default), `maxBlockLength` floats per audio and CV port,
/// and an atom buffer per atom port of the sequence size (or the port's minimum size if larger).
final class LV2PortBuffers {
    /// One float per port index; only control ports use theirs.
    let controls: UnsafeMutablePointer<Float>
    private var pointers: [UnsafeMutableRawPointer?]
    private var owned: [UnsafeMutableRawPointer] = []
    private(set) var audioInputs: [UnsafeMutablePointer<Float>] = []
    private(set) var audioOutputs: [UnsafeMutablePointer<Float>] = []
    private(set) var cvInputs: [UnsafeMutablePointer<Float>] = []
    private(set) var cvOutputs: [UnsafeMutablePointer<Float>] = []
    /// (buffer, size, supports MIDI, supports time:Position, supports patch:Message).
    private var atomInputs: [(UnsafeMutableRawPointer, Int, Bool, Bool, Bool)] = []
    private var atomOutputs: [(UnsafeMutableRawPointer, Int)] = []
    private let sequenceType: UInt32

    /// Thread: setup (non-real-time).
    init(ports: [LV2PortInfo], configuration c: LV2InstanceConfiguration, map: LV2URIDMap) {
        sequenceType = map.map(LV2URI.atomSequence)
        controls = .allocate(capacity: max(ports.count, 1))
        controls.initialize(repeating: 0, count: max(ports.count, 1))
        pointers = Array(repeating: nil, count: ports.count)
        for port in ports {
            switch port.kind {
            case .control:
                pointers[port.index] = UnsafeMutableRawPointer(controls + port.index)
            case .audio, .cv:
                let buffer = UnsafeMutablePointer<Float>.allocate(capacity: c.maxBlockLength)
                buffer.initialize(repeating: 0, count: c.maxBlockLength)
                owned.append(UnsafeMutableRawPointer(buffer))
                pointers[port.index] = UnsafeMutableRawPointer(buffer)
                switch (port.kind, port.direction) {
                case (.audio, .input): audioInputs.append(buffer)
                case (.audio, _): audioOutputs.append(buffer)
                case (_, .input): cvInputs.append(buffer)
                default: cvOutputs.append(buffer)
                }
            case .atom:
                let size = max(c.sequenceSize, port.minimumBufferSize)
                let buffer = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 16)
                buffer.initializeMemory(as: UInt8.self, repeating: 0, count: size)
                owned.append(buffer)
                pointers[port.index] = buffer
                if port.direction == .input {
                    lv2ClearSequence(buffer, sequenceType: sequenceType)
                    atomInputs.append((buffer, size, port.supportsMIDI, port.supportsTimePosition, port.supportsPatchMessage))
                } else {
                    atomOutputs.append((buffer, size))
                }
            case .unknown:
                pointers[port.index] = nil  // connectionOptional: validated before instantiation
            }
        }
    }

    /// The memory port `index` is connected to (nil for an unconnected optional port).
    func pointer(for index: Int) -> UnsafeMutableRawPointer? { pointers[index] }

    /// The render thread's view: flat arrays in memory owned by this object. Thread: setup.
    func renderContext(
        handle: LV2_Handle?, run: (@convention(c) (LV2_Handle?, UInt32) -> Void)?,
        connect: (@convention(c) (LV2_Handle?, UInt32, UnsafeMutableRawPointer?) -> Void)?,
        worker: UnsafeMutablePointer<LV2WorkerState>, logRenderThread: UnsafeMutablePointer<Atomic<UInt>>,
        configuration c: LV2InstanceConfiguration, requirements: LV2BlockLengthRequirements,
        map: LV2URIDMap
    ) -> LV2RenderContext {
        func array<T>(_ values: [T]) -> UnsafeMutablePointer<T> {
            let pointer = UnsafeMutablePointer<T>.allocate(capacity: max(values.count, 1))
            pointer.initialize(from: values, count: values.count)
            owned.append(UnsafeMutableRawPointer(pointer))
            return pointer
        }
        return LV2RenderContext(
            handle: handle, runFunction: run, connectFunction: connect, worker: worker, logRenderThread: logRenderThread, live: c.live,
            maxFrames: UInt32(c.maxBlockLength),
            fixedFrames: requirements.fixed ? UInt32(c.nominalBlockLength) : 0,
            requiresPowerOf2: requirements.powerOf2,
            atomInputs: array(atomInputs.map(\.0)), atomInputCapacities: array(atomInputs.map(\.1)),
            atomInputCount: atomInputs.count,
            atomOutputs: array(atomOutputs.map(\.0)), atomOutputCapacities: array(atomOutputs.map(\.1)),
            atomOutputCount: atomOutputs.count,
            midiInputSlot: atomInputs.firstIndex { $0.2 } ?? -1,
            timeInputSlot: atomInputs.firstIndex { $0.3 } ?? -1, timeURIDs: LV2TimeURIDs(map: map),
            patchInputSlot: atomInputs.firstIndex { $0.4 } ?? -1, patchURIDs: LV2PatchURIDs(map: map),
            sequenceType: sequenceType, chunkType: map.map(LV2URI.atomChunk), midiEventType: map.map(LV2URI.midiEvent),
            lastQueuedFrame: 0,
            audioOutputs: array(audioOutputs), audioOutputCount: audioOutputs.count)
    }

    deinit {
        for pointer in owned { pointer.deallocate() }
        controls.deallocate()
    }
}

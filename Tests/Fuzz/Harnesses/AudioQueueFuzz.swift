import AUHost

/// Audio queues offline through the C API: an output queue in a near-valid format (PCM or
/// compressed), then up to 48 calls with hostile sizes and descriptions — buffers of any size and
/// description count, enqueues whose byte sizes, trims, packet descriptions and parameter events
/// lie, parameters and properties with special values and lying sizes (the memory is always
/// there), offline renders of any frame count, stops, resets, primes. The queue is started only
/// in offline mode (no device is opened). Nothing may trap or hang.
public enum AudioQueueFuzz {
    /// Thread: any (one call at a time).
    public static func run(_ data: UnsafeRawBufferPointer) {
        var input = CAPIFuzzInput(data)
        var format = AudioConverterFuzz.format(&input)
        var queue: AudioQueueRef?
        guard AudioQueueNewOutput(&format, { _, _, _ in }, nil, nil, nil, 0, &queue) == noErr, let queue else { return }
        defer { precondition(AudioQueueDispose(queue, true) == noErr) }
        var state = State()
        var calls = 0
        while !input.isAtEnd && calls < 48 {
            calls += 1
            step(&input, queue, &state)
        }
    }

    struct State {
        var buffers: [AudioQueueBufferRef] = []
        var offline = false
        /// The queue has a device (AudioQueueDeviceFuzz): Start opens it, whatever the offline state.
        var onDevice = false
    }

    static let parameterIDs: [UInt32] = [1, 2, 3, 4, 13, 0, 5]
    static let propertyIDs: [UInt32] = [
        kAudioQueueProperty_IsRunning, kAudioQueueProperty_MagicCookie, kAudioQueueProperty_MaximumOutputPacketSize,
        kAudioQueueProperty_StreamDescription, kAudioQueueProperty_ChannelLayout, kAudioQueueProperty_EnableLevelMetering,
        kAudioQueueProperty_CurrentLevelMeter, kAudioQueueProperty_CurrentLevelMeterDB, kAudioQueueProperty_DecodeBufferSizeFrames,
        kAudioQueueProperty_ConverterError, kAudioQueueProperty_EnableTimePitch, kAudioQueueProperty_TimePitchAlgorithm,
        kAudioQueueProperty_TimePitchBypass,
    ].map { UInt32($0) }

    static func step(_ input: inout CAPIFuzzInput, _ queue: AudioQueueRef, _ state: inout State) {
        let op = input.u8() % 14
        if op == 0 || state.buffers.isEmpty {
            let bytes = input.pick([0, 1, 4, 100, 4_096, 65_536, kAUHostAudioQueueMaximumBufferByteSize + 1, 0xFFFF_FFFF])
            let descriptions = input.pick([0, 1, 16, 1_024, kAUHostAudioQueueMaximumPacketDescriptions + 1, 0xFFFF_FFFF])
            var buffer: AudioQueueBufferRef?
            let status = AudioQueueAllocateBufferWithPacketDescriptions(queue, bytes, descriptions, &buffer)
            precondition(
                (status == noErr) == (buffer != nil), "AllocateBuffer answered \(status) with buffer \(String(describing: buffer))")
            if let buffer { state.buffers.append(buffer) }
            return
        }
        let buffer = state.buffers[input.below(state.buffers.count)]
        switch op {
        case 1, 2: enqueue(&input, queue, buffer, withParameters: op == 2)
        case 3:
            let id = input.pick(parameterIDs)
            _ = AudioQueueSetParameter(queue, id, input.float())
            var value: Float = 0
            _ = AudioQueueGetParameter(queue, id, &value)
        case 4: property(&input, queue)
        case 5:
            if input.u8() & 3 == 0 {
                _ = AudioQueueSetOfflineRenderFormat(queue, nil, nil)
                state.offline = false
            } else {
                var format = AudioConverterFuzz.format(&input)
                if AudioQueueSetOfflineRenderFormat(queue, &format, nil) == noErr { state.offline = true }
            }
        case 6: if state.offline || state.onDevice { _ = AudioQueueStart(queue, nil) }
        case 7:
            var time = AudioTimeStamp()
            time.mFlags = .sampleTimeValid
            time.mSampleTime = MusicPlayerFuzz.beat(&input)
            let frames = input.pick([0, 1, 512, 1_024, 4_096, 16_384, 65_536, 0xFFFF_FFFF])
            _ = AudioQueueOfflineRender(queue, &time, buffer, frames)
        case 8: _ = AudioQueueStop(queue, input.u8() & 1 == 0)
        case 9: _ = [AudioQueueReset, AudioQueueFlush, AudioQueuePause][input.below(3)](queue)
        case 10:
            var prepared: UInt32 = 0
            _ = AudioQueuePrime(queue, input.pick([0, 1, 4_096, 0xFFFF_FFFF]), &prepared)
        case 11:
            if AudioQueueFreeBuffer(queue, buffer) == noErr { state.buffers.removeAll { $0 == buffer } }
        default:
            var timeline: AudioQueueTimelineRef?
            _ = AudioQueueCreateTimeline(queue, &timeline)
            var time = AudioTimeStamp()
            var discontinuity: DarwinBoolean = false
            _ = AudioQueueGetCurrentTime(queue, timeline, &time, &discontinuity)
            if let timeline { _ = AudioQueueDisposeTimeline(queue, timeline) }
        }
    }

    /// Fills part of `buffer`, claims a byte size that may exceed its capacity, and enqueues it
    /// with up to 8 descriptions (offsets and sizes anywhere) and, with parameters, trims and events.
    static func enqueue(_ input: inout CAPIFuzzInput, _ queue: AudioQueueRef, _ buffer: AudioQueueBufferRef, withParameters: Bool) {
        let capacity = buffer.pointee.mAudioDataBytesCapacity
        input.fill(buffer.pointee.mAudioData, count: Int(min(capacity, UInt32(input.below(4_097)))))
        buffer.pointee.mAudioDataByteSize = input.pick([0, 1, capacity / 2, capacity, capacity &+ 1, 0xFFFF_FFFF])
        let count = input.below(9)
        let descriptions = (0..<count).map { _ in
            AudioStreamPacketDescription(
                mStartOffset: Int64(bitPattern: UInt64(input.pick([0, 1, 100, 4_096, 0xFFFF_FFFF]))) &* (input.u8() & 7 == 0 ? -1 : 1)
                    | (input.u8() & 15 == 0 ? Int64.max - 4 : 0),
                mVariableFramesInPacket: input.pick([0, 1, 1_152, 0xFFFF_FFFF]), mDataByteSize: input.pick([0, 1, 417, 4_096, 0xFFFF_FFFF]))
        }
        descriptions.withUnsafeBufferPointer { described in
            let pointer = count > 0 ? described.baseAddress : nil
            if !withParameters {
                _ = AudioQueueEnqueueBuffer(queue, buffer, UInt32(count), pointer)
                return
            }
            let events = (0..<input.below(5)).map { _ in AudioQueueParameterEvent(mID: input.pick(parameterIDs), mValue: input.float()) }
            let trimStart = input.pick([0, 1, 100, 0xFFFF_FFFF]), trimEnd = input.pick([0, 1, 100, 0xFFFF_FFFF])
            events.withUnsafeBufferPointer { given in
                _ = AudioQueueEnqueueBufferWithParameters(
                    queue, buffer, UInt32(count), pointer, trimStart, trimEnd, UInt32(given.count), given.isEmpty ? nil : given.baseAddress,
                    nil, nil)
            }
        }
    }

    /// A property get, set or size query with any of the queue's IDs (CurrentDevice, a CFString,
    /// is not set: its value is a pointer) and a size up to the 256 bytes passed.
    static func property(_ input: inout CAPIFuzzInput, _ queue: AudioQueueRef) {
        let id = input.pick(propertyIDs)
        let memory = UnsafeMutableRawPointer.allocate(byteCount: 256, alignment: 16)
        defer { memory.deallocate() }
        var size = min(input.pick([0, 1, 4, 8, 16, 40, 64, 256]), 256)
        input.fill(memory, count: Int(size))
        switch input.u8() % 3 {
        case 0: if id != UInt32(kAudioQueueProperty_CurrentDevice) { _ = AudioQueueSetProperty(queue, id, memory, size) }
        case 1:
            // CurrentDevice answers a +1 CFString, which the caller releases (as on Apple).
            if AudioQueueGetProperty(queue, id, memory, &size) == noErr, id == UInt32(kAudioQueueProperty_CurrentDevice),
                size == UInt32(MemoryLayout<UnsafeRawPointer>.size), let name = memory.load(as: UnsafeRawPointer?.self)
            {
                Unmanaged<CFString>.fromOpaque(name).release()
            }
        default: _ = AudioQueueGetPropertySize(queue, id, &size)
        }
    }
}

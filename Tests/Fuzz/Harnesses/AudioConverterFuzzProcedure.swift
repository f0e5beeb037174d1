import AudioToolbox

/// The input procedure of AudioConverterFuzz: each call follows the next step of a script drawn
/// from the input — how many packets it claims, how many bytes it hands over, where its packet
/// descriptions point, which status it returns. It never lies about memory: every buffer holds
/// the bytes it declares and the description array holds one entry per byte handed over (the
/// converter refuses more packets than bytes). What it handed over is freed (and poisoned) when
/// the fill returns. Thread: the harness's.
final class LyingProcedure {
    struct Step {
        var packets: UInt32
        var bytes: Int
        var fillByte: UInt8
        var offset: Int64
        var size: UInt32
        var status: OSStatus

        init(_ input: inout CAPIFuzzInput) {
            packets = input.pick([0, 1, 2, 3, 64, 100, 4_096, 10_000, 0xFFFF_FFFF])
            bytes = input.below(16_384)
            fillByte = input.u8()
            offset = Int64(bitPattern: UInt64(input.pick([0, 1, 100, 0xFFFF_FFFF]))) | (input.u8() & 7 == 0 ? Int64.max - 10 : 0)
            if input.u8() & 7 == 0 { offset = -offset }
            size = input.pick([0, 1, 100, 417, 4_096, 0xFFFF_FFFF])
            status = input.u8() & 15 == 0 ? OSStatus(bitPattern: input.u32()) : noErr
        }
    }

    var script: [Step] = []
    var next = 0
    private var handedOver: [(UnsafeMutableRawPointer, Int)] = []

    static let proc: AudioConverterComplexInputDataProc = { _, ioPackets, ioData, outDescriptions, user in
        let me = Unmanaged<LyingProcedure>.fromOpaque(user!).takeUnretainedValue()
        guard me.next < me.script.count else {
            ioPackets.pointee = 0
            return noErr
        }
        let step = me.script[me.next]
        me.next += 1
        let buffers = UnsafeMutableAudioBufferListPointer(ioData)
        let share = buffers.count > 0 ? step.bytes / buffers.count : 0
        let memory = me.hand(max(step.bytes, 1), step.fillByte)
        for i in 0..<buffers.count { buffers[i].mData = memory + i * share; buffers[i].mDataByteSize = UInt32(share) }
        if let outDescriptions {
            let count = max(share, 1)
            let descriptions = me.hand(count * MemoryLayout<AudioStreamPacketDescription>.stride, 0)
                .bindMemory(to: AudioStreamPacketDescription.self, capacity: count)
            for i in 0..<count {
                descriptions[i] = AudioStreamPacketDescription(
                    mStartOffset: i == 0 ? step.offset : Int64(i % max(share, 1)), mVariableFramesInPacket: 0,
                    mDataByteSize: i == 0 ? step.size : 1)
            }
            outDescriptions.pointee = descriptions
        }
        ioPackets.pointee = step.packets
        return step.status
    }

    /// Memory handed to the converter for this fill. Thread: the harness's.
    private func hand(_ bytes: Int, _ value: UInt8) -> UnsafeMutableRawPointer {
        let memory = UnsafeMutableRawPointer.allocate(byteCount: bytes, alignment: 16)
        memory.initializeMemory(as: UInt8.self, repeating: value, count: bytes)
        handedOver.append((memory, bytes))
        return memory
    }

    /// Poisons and frees what the procedure handed over (the fill has returned). Thread: the harness's.
    func releaseHandedOver() {
        for (memory, bytes) in handedOver {
            memory.initializeMemory(as: UInt8.self, repeating: 0xA5, count: bytes)
            memory.deallocate()
        }
        handedOver.removeAll()
    }
}

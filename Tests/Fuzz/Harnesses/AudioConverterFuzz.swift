import AudioConverterServices
import AudioToolbox
import AudioTypes

/// AudioConverter through the C API: formats drawn from near-valid PCM and compressed layouts (or
/// any 40 bytes), then up to 24 calls: property sets and gets with any ID and sizes that may lie
/// (the memory is always there), resets, the one-buffer conversions, and fills whose input
/// procedure lies — odd packet counts, packet descriptions anywhere, errors — with buffers that
/// it frees as soon as the fill returns (AudioConverter.h: valid until the next call). Every
/// failing call must answer a status; nothing may trap, read freed memory or hang.
public enum AudioConverterFuzz {
    /// Thread: any (one call at a time).
    public static func run(_ data: UnsafeRawBufferPointer) {
        var input = CAPIFuzzInput(data)
        var source = format(&input), destination = format(&input)
        var converter: AudioConverterRef?
        let status = AudioConverterNew(&source, &destination, &converter)
        guard status == noErr, let converter else {
            precondition(converter == nil && status != noErr, "AudioConverterNew failed without a status or left a converter")
            return
        }
        defer { precondition(AudioConverterDispose(converter) == noErr) }
        let procedure = LyingProcedure()
        var calls = 0
        while !input.isAtEnd && calls < 24 {
            calls += 1
            switch input.u8() % 8 {
            case 0, 1: property(&input, converter)
            case 2: _ = AudioConverterReset(converter)
            case 3: convertBuffer(&input, converter, source, destination)
            default: fill(&input, converter, destination, procedure)
            }
        }
    }

    static let propertyIDs: [UInt32] = [
        kAudioConverterPropertyMinimumInputBufferSize, kAudioConverterPropertyMinimumOutputBufferSize,
        kAudioConverterPropertyMaximumInputPacketSize, kAudioConverterPropertyMaximumOutputPacketSize,
        kAudioConverterPropertyCalculateInputBufferSize, kAudioConverterPropertyCalculateOutputBufferSize,
        kAudioConverterSampleRateConverterComplexity, kAudioConverterSampleRateConverterQuality, kAudioConverterCodecQuality,
        kAudioConverterPrimeMethod, kAudioConverterPrimeInfo, kAudioConverterChannelMap, kAudioConverterDecompressionMagicCookie,
        kAudioConverterCompressionMagicCookie, kAudioConverterEncodeBitRate, kAudioConverterCurrentOutputStreamDescription,
        kAudioConverterCurrentInputStreamDescription, kAudioConverterPropertyBitDepthHint,
    ].map { UInt32($0) }

    /// A property set, get or info with any ID, a size up to the 256 bytes passed, values from the input.
    static func property(_ input: inout CAPIFuzzInput, _ converter: AudioConverterRef) {
        let id = input.pick(propertyIDs)
        let memory = UnsafeMutableRawPointer.allocate(byteCount: 256, alignment: 16)
        defer { memory.deallocate() }
        var size = min(input.pick([0, 1, 2, 4, 8, 16, 40, 64, 255, 256]), 256)
        input.fill(memory, count: Int(size))
        switch input.u8() % 3 {
        case 0: _ = AudioConverterSetProperty(converter, id, size, memory)
        case 1: _ = AudioConverterGetProperty(converter, id, &size, memory)
        default:
            var writable: DarwinBoolean = false
            _ = AudioConverterGetPropertyInfo(converter, id, &size, &writable)
        }
    }

    /// AudioConverterConvertBuffer / ConvertComplexBuffer with sizes drawn from the input; the
    /// lists hold the memory they declare.
    static func convertBuffer(
        _ input: inout CAPIFuzzInput, _ converter: AudioConverterRef, _ source: AudioStreamBasicDescription,
        _ destination: AudioStreamBasicDescription
    ) {
        let inBytes = input.below(8_192), outBytes = input.below(16_384)
        let inMemory = UnsafeMutableRawPointer.allocate(byteCount: max(inBytes, 1), alignment: 16)
        let outMemory = UnsafeMutableRawPointer.allocate(byteCount: max(outBytes, 1), alignment: 16)
        defer { inMemory.deallocate(); outMemory.deallocate() }
        input.fill(inMemory, count: inBytes)
        if input.u8() & 1 == 0 {
            var size = UInt32(outBytes)
            _ = AudioConverterConvertBuffer(converter, UInt32(inBytes), inMemory, &size, outMemory)
            return
        }
        let inList = BufferList(count: input.below(4) + Int(min(source.bufferCount, 8)), memory: inMemory, bytes: inBytes)
        let outList = BufferList(count: input.below(4) + Int(min(destination.bufferCount, 8)), memory: outMemory, bytes: outBytes)
        _ = AudioConverterConvertComplexBuffer(converter, input.pick([0, 1, 16, 100, 1_024, 4_096]), inList.list, outList.list)
    }

    /// One fill of up to 8192 requested frames into a list sized from the input.
    static func fill(
        _ input: inout CAPIFuzzInput, _ converter: AudioConverterRef, _ destination: AudioStreamBasicDescription,
        _ procedure: LyingProcedure
    ) {
        procedure.script = (0..<8).map { _ in LyingProcedure.Step(&input) }
        procedure.next = 0
        let bytes = input.below(32_768)
        let memory = UnsafeMutableRawPointer.allocate(byteCount: max(bytes, 1), alignment: 16)
        defer { memory.deallocate() }
        let list = BufferList(count: Int(min(destination.bufferCount, 8)) + (input.u8() % 8 == 0 ? 1 : 0), memory: memory, bytes: bytes)
        var packets = input.pick([0, 1, 100, 1_024, 4_096, 8_192])
        packets = min(packets, 1 << 20)
        _ = AudioConverterFillComplexBuffer(
            converter, LyingProcedure.proc, Unmanaged.passUnretained(procedure).toOpaque(), &packets, list.list, nil)
        procedure.releaseHandedOver()
    }

    /// A near-valid format: PCM layouts, the decodable compressed IDs, or any 40 bytes.
    static func format(_ input: inout CAPIFuzzInput) -> AudioStreamBasicDescription {
        let kind = input.u8()
        var f = AudioStreamBasicDescription()
        if kind < 24 {
            withUnsafeMutableBytes(of: &f) { input.fill($0.baseAddress!, count: $0.count) }
            return f
        }
        f.mSampleRate = input.rate()
        let channels = input.pick([1, 2, 3, 6, 8, 255, 256, 1_024, 0])
        if kind < 64 {
            f.mFormatID = input.pick([kAudioFormatMPEGLayer3, kAudioFormatFLAC, kAudioFormatOpus, 0x766F_7262 /* vorb */])
            f.mChannelsPerFrame = channels
            f.mFramesPerPacket = input.pick([0, 1_152, 4_096, 960, 1])
            return f
        }
        let bits = input.pick([8, 16, 24, 32, 64, 0, 12])
        let isFloat = bits >= 32 && input.u8() & 1 == 0
        let interleaved = input.u8() & 3 != 0
        // Built by hand with wrapping arithmetic: raw channel counts overflow `.linearPCM`'s sizes.
        f.mFormatID = kAudioFormatLinearPCM
        f.mFormatFlags =
            (isFloat ? kAudioFormatFlagIsFloat : kAudioFormatFlagIsSignedInteger) | kAudioFormatFlagIsPacked
            | (interleaved ? 0 : kAudioFormatFlagIsNonInterleaved)
        f.mBitsPerChannel = bits
        f.mChannelsPerFrame = channels
        f.mBytesPerFrame = interleaved ? (bits / 8) &* channels : bits / 8
        f.mBytesPerPacket = f.mBytesPerFrame
        f.mFramesPerPacket = 1
        if input.u8() & 7 == 0 { f.mFormatFlags ^= input.u32() }
        return f
    }
}

/// An AudioBufferList of `count` buffers sharing `bytes` bytes of memory, split evenly.
final class BufferList {
    let list: UnsafeMutablePointer<AudioBufferList>

    init(count: Int, memory: UnsafeMutableRawPointer, bytes: Int) {
        list = AudioBufferStorage.allocateList(bufferCount: max(count, 1))
        let buffers = UnsafeMutableAudioBufferListPointer(list)
        buffers.count = count
        let share = count > 0 ? bytes / count : 0
        for i in 0..<count { buffers[i] = AudioBuffer(mNumberChannels: 1, mDataByteSize: UInt32(share), mData: memory + i * share) }
    }

    deinit { AudioBufferStorage.deallocateList(list) }
}

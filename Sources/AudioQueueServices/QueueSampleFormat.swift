import AudioToolbox
import AudioTypes

/// The interleaved linear PCM a queue's buffers hold, and its conversion to and from the Float32
/// the queue processes in (Volume, Pan, meters). Integers map to ±1 by 2^(bits-1), so 16-bit
/// samples survive the round trip exactly.
struct QueueSampleFormat {
    enum Kind { case int16, int24, int32, float32, float64 }
    let kind: Kind
    let channels: Int
    let bytesPerFrame: Int
    let bigEndian: Bool
    let sampleRate: Double

    /// Checks `format`, or throws 'fmt?' naming what is not supported.
    ///
    /// Thread: setup.
    init(_ format: AudioStreamBasicDescription) throws {
        func refuse(_ why: String) -> AudioError {
            AudioError(
                kAudioFileUnsupportedDataFormatError,
                "Audio queue format \(FourCC.string(format.mFormatID)) \(format.mBitsPerChannel)-bit × \(format.mChannelsPerFrame) at \(format.mSampleRate) Hz: \(why)"
            )
        }
        guard format.mFormatID == kAudioFormatLinearPCM else {
            throw refuse("only linear PCM is played or recorded here; compressed formats need Audio Converter Services")
        }
        // The engine's range (a rate past UInt32 trapped where time-pitch took it: the fuzzers found it).
        if let problem = AudioStreamBasicDescription.sampleRateProblem(format.mSampleRate) { throw refuse(problem) }
        guard (1...64).contains(format.mChannelsPerFrame) else { throw refuse("1 to 64 channels are supported") }
        guard format.mFormatFlags & kAudioFormatFlagIsNonInterleaved == 0 else { throw refuse("queue buffers are interleaved") }
        guard format.mFramesPerPacket == 1 else { throw refuse("linear PCM has one frame per packet") }
        let isFloat = format.mFormatFlags & kAudioFormatFlagIsFloat != 0
        let bytes = Int(format.mBitsPerChannel) / 8
        guard format.mBitsPerChannel % 8 == 0, Int(format.mBytesPerFrame) == bytes * Int(format.mChannelsPerFrame),
            format.mBytesPerPacket == format.mBytesPerFrame
        else { throw refuse("samples must be packed (mBytesPerFrame = channels × bits / 8)") }
        switch (isFloat, format.mBitsPerChannel) {
        case (false, 16): kind = .int16
        case (false, 24): kind = .int24
        case (false, 32): kind = .int32
        case (true, 32): kind = .float32
        case (true, 64): kind = .float64
        default: throw refuse("signed 16/24/32-bit integers or 32/64-bit floats are supported")
        }
        guard isFloat || format.mFormatFlags & kAudioFormatFlagIsSignedInteger != 0 else {
            throw refuse("integer samples must be signed (kAudioFormatFlagIsSignedInteger)")
        }
        channels = Int(format.mChannelsPerFrame)
        bytesPerFrame = Int(format.mBytesPerFrame)
        bigEndian = format.mFormatFlags & kAudioFormatFlagIsBigEndian != 0
        sampleRate = format.mSampleRate
    }

    /// Reads sample `index` (frame × channels + channel) of `data` as Float32.
    ///
    /// Thread: any (render-safe).
    @inline(__always)
    func load(_ data: UnsafeRawPointer, _ index: Int) -> Float {
        switch kind {
        case .int16:
            let raw = data.loadUnaligned(fromByteOffset: index * 2, as: UInt16.self)
            return Float(Int16(bitPattern: bigEndian ? raw.bigEndian : raw.littleEndian)) / 32_768
        case .int24:
            let p = data + index * 3
            let b0 = Int32(p.load(fromByteOffset: 0, as: UInt8.self)), b1 = Int32(p.load(fromByteOffset: 1, as: UInt8.self))
            let b2 = Int32(p.load(fromByteOffset: 2, as: UInt8.self))
            let value = bigEndian ? (b0 << 24 | b1 << 16 | b2 << 8) : (b2 << 24 | b1 << 16 | b0 << 8)
            return Float(value >> 8) / 8_388_608
        case .int32:
            let raw = data.loadUnaligned(fromByteOffset: index * 4, as: UInt32.self)
            return Float(Double(Int32(bitPattern: bigEndian ? raw.bigEndian : raw.littleEndian)) / 2_147_483_648)
        case .float32:
            let raw = data.loadUnaligned(fromByteOffset: index * 4, as: UInt32.self)
            return Float(bitPattern: bigEndian ? raw.bigEndian : raw.littleEndian)
        case .float64:
            let raw = data.loadUnaligned(fromByteOffset: index * 8, as: UInt64.self)
            return Float(Double(bitPattern: bigEndian ? raw.bigEndian : raw.littleEndian))
        }
    }

    /// Writes `value` as sample `index` of `data` (integers: rounded to nearest, clipped).
    ///
    /// Thread: any (render-safe).
    @inline(__always)
    func store(_ value: Float, _ data: UnsafeMutableRawPointer, _ index: Int) {
        func integer(_ scale: Double, _ low: Double, _ high: Double) -> Int64 {
            let scaled = (Double(value) * scale).rounded(.toNearestOrEven)
            return Int64(scaled.isNaN ? 0 : min(max(scaled, low), high))
        }
        switch kind {
        case .int16:
            let v = UInt16(bitPattern: Int16(integer(32_768, -32_768, 32_767)))
            data.storeBytes(of: bigEndian ? v.bigEndian : v.littleEndian, toByteOffset: index * 2, as: UInt16.self)
        case .int24:
            let v = Int32(integer(8_388_608, -8_388_608, 8_388_607))
            let bytes = (UInt8(truncatingIfNeeded: v), UInt8(truncatingIfNeeded: v >> 8), UInt8(truncatingIfNeeded: v >> 16))  // a tuple: no allocation
            let p = data + index * 3
            p.storeBytes(of: bigEndian ? bytes.2 : bytes.0, toByteOffset: 0, as: UInt8.self)
            p.storeBytes(of: bytes.1, toByteOffset: 1, as: UInt8.self)
            p.storeBytes(of: bigEndian ? bytes.0 : bytes.2, toByteOffset: 2, as: UInt8.self)
        case .int32:
            let v = UInt32(bitPattern: Int32(integer(2_147_483_648, -2_147_483_648, 2_147_483_647)))
            data.storeBytes(of: bigEndian ? v.bigEndian : v.littleEndian, toByteOffset: index * 4, as: UInt32.self)
        case .float32:
            let v = value.bitPattern
            data.storeBytes(of: bigEndian ? v.bigEndian : v.littleEndian, toByteOffset: index * 4, as: UInt32.self)
        case .float64:
            let v = Double(value).bitPattern
            data.storeBytes(of: bigEndian ? v.bigEndian : v.littleEndian, toByteOffset: index * 8, as: UInt64.self)
        }
    }
}

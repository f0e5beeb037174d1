import AudioToolbox

/// Converts between Float32 non-interleaved channels (the canonical format) and a `SampleFormat`:
/// `decode` reads the format into Float32, `encode` writes Float32 into the format. Scaling,
/// rounding and clamping are documented on `SampleFormat`; int16 and int24 round-trip
/// bit-exactly through Float32 (every such value is exactly representable), int32 keeps the top
/// 24 significant bits. Plain struct, no storage: safe to copy into render state.
public struct SampleFormatConverter: Sendable {
    /// The non-canonical side.
    public let format: SampleFormat
    let bytes: Int
    let frameStride: Int
    /// Byte offset of `mBuffers` inside AudioBufferList, measured at setup (no key paths later).
    let bufferListOffset: Int
    /// Float32 in this machine's byte order: samples are copied as they are (the generic path
    /// assembles them byte by byte, a third of a float file render's CPU).
    let isNativeFloat32: Bool
    /// Int32 / Int16 in this machine's byte order: loaded as whole words, converted with the same
    /// expression as `load` (so bit-identical). The file reader decodes every integer file through
    /// int32; byte-by-byte assembly was a third of the time of reading a FLAC file into floats.
    let isNativeInt32: Bool
    let isNativeInt16: Bool

    /// A converter for `format`. Thread: setup (non-real-time).
    public init(format: SampleFormat) {
        self.format = format
        bytes = format.encoding.bytesPerSample
        frameStride = format.isInterleaved ? bytes * format.channelCount : bytes
        bufferListOffset = MemoryLayout<AudioBufferList>.offset(of: \AudioBufferList.mBuffers) ?? 8
        if case .float32 = format.encoding, format.isBigEndian == (1.bigEndian == 1) {
            isNativeFloat32 = true
        } else {
            isNativeFloat32 = false
        }
        let native = format.isBigEndian == (1.bigEndian == 1)
        if case .int32 = format.encoding { isNativeInt32 = native } else { isNativeInt32 = false }
        if case .int16 = format.encoding { isNativeInt16 = native } else { isNativeInt16 = false }
    }

    /// A converter for the layout `description` names; throws as `SampleFormat.init(_:)` does.
    /// Thread: setup (non-real-time).
    public init(streamDescription description: AudioStreamBasicDescription) throws {
        self.init(format: try SampleFormat(description))
    }

    /// Reads `frameCount` frames from `buffers` (`format.bufferCount` pointers) into `channels`
    /// (`format.channelCount` Float32 buffers). Thread: render (real-time).
    @_noAllocation @_noLocks
    public func decode(
        from buffers: UnsafePointer<UnsafeRawPointer>,
        to channels: UnsafePointer<UnsafeMutablePointer<Float>>, frameCount: Int
    ) {
        for c in 0..<format.channelCount {
            let base = format.isInterleaved ? buffers[0] + c * bytes : buffers[c]
            let out = channels[c]
            if isNativeFloat32 {
                for i in 0..<frameCount { out[i] = base.loadUnaligned(fromByteOffset: i * frameStride, as: Float.self) }
                continue
            }
            if isNativeInt32 {
                // Float(x) * 2^-31 rounds exactly as Float(Double(x) * 2^-31) (a power of two scales
                // without rounding), without the Double conversions that were half of this loop.
                for i in 0..<frameCount {
                    out[i] = Float(base.loadUnaligned(fromByteOffset: i * frameStride, as: Int32.self)) * (1 / 2_147_483_648)
                }
                continue
            }
            if isNativeInt16 {
                for i in 0..<frameCount {
                    out[i] = Float(base.loadUnaligned(fromByteOffset: i * frameStride, as: Int16.self)) * (1 / 32768)
                }
                continue
            }
            for i in 0..<frameCount { out[i] = load(base + i * frameStride) }
        }
    }

    /// Writes `frameCount` frames from `channels` into `buffers`. Thread: render (real-time).
    @_noAllocation @_noLocks
    public func encode(
        from channels: UnsafePointer<UnsafePointer<Float>>,
        to buffers: UnsafePointer<UnsafeMutableRawPointer>, frameCount: Int
    ) {
        for c in 0..<format.channelCount {
            let base = format.isInterleaved ? buffers[0] + c * bytes : buffers[c]
            let input = channels[c]
            if isNativeFloat32 {
                for i in 0..<frameCount { base.storeBytes(of: input[i], toByteOffset: i * frameStride, as: Float.self) }
                continue
            }
            for i in 0..<frameCount { store(input[i], base + i * frameStride) }
        }
    }

    /// `decode` reading from an AudioBufferList of `format.bufferCount` buffers (their sizes are
    /// trusted). Thread: render (real-time).
    @_noAllocation @_noLocks
    public func decode(
        from list: UnsafePointer<AudioBufferList>,
        to channels: UnsafePointer<UnsafeMutablePointer<Float>>, frameCount: Int
    ) {
        let buffers = (UnsafeRawPointer(list) + bufferListOffset).assumingMemoryBound(to: AudioBuffer.self)
        for c in 0..<format.channelCount {
            guard let data = buffers[format.isInterleaved ? 0 : c].mData else { continue }
            let base = UnsafeRawPointer(data) + (format.isInterleaved ? c * bytes : 0)
            let out = channels[c]
            if isNativeFloat32 {
                for i in 0..<frameCount { out[i] = base.loadUnaligned(fromByteOffset: i * frameStride, as: Float.self) }
                continue
            }
            if isNativeInt32 {
                for i in 0..<frameCount {
                    out[i] = Float(base.loadUnaligned(fromByteOffset: i * frameStride, as: Int32.self)) * (1 / 2_147_483_648)
                }
                continue
            }
            if isNativeInt16 {
                for i in 0..<frameCount {
                    out[i] = Float(base.loadUnaligned(fromByteOffset: i * frameStride, as: Int16.self)) * (1 / 32768)
                }
                continue
            }
            for i in 0..<frameCount { out[i] = load(base + i * frameStride) }
        }
    }

    /// `encode` writing into an AudioBufferList of `format.bufferCount` buffers.
    /// Thread: render (real-time).
    @_noAllocation @_noLocks
    public func encode(
        from channels: UnsafePointer<UnsafePointer<Float>>,
        to list: UnsafeMutablePointer<AudioBufferList>, frameCount: Int
    ) {
        let buffers = (UnsafeRawPointer(list) + bufferListOffset).assumingMemoryBound(to: AudioBuffer.self)
        for c in 0..<format.channelCount {
            guard let data = buffers[format.isInterleaved ? 0 : c].mData else { continue }
            let base = data + (format.isInterleaved ? c * bytes : 0)
            let input = channels[c]
            if isNativeFloat32 {
                for i in 0..<frameCount { base.storeBytes(of: input[i], toByteOffset: i * frameStride, as: Float.self) }
                continue
            }
            for i in 0..<frameCount { store(input[i], base + i * frameStride) }
        }
    }

    // MARK: One sample

    @_noAllocation @_noLocks
    func loadBits(_ p: UnsafeRawPointer, count: Int) -> UInt64 {
        var value: UInt64 = 0
        if format.isBigEndian {
            for k in 0..<count { value = value << 8 | UInt64(p.load(fromByteOffset: k, as: UInt8.self)) }
        } else {
            for k in stride(from: count - 1, through: 0, by: -1) {
                value = value << 8 | UInt64(p.load(fromByteOffset: k, as: UInt8.self))
            }
        }
        return value
    }

    @_noAllocation @_noLocks
    func storeBits(_ value: UInt64, _ p: UnsafeMutableRawPointer, count: Int) {
        for k in 0..<count {
            let byte = UInt8(truncatingIfNeeded: value >> UInt64(8 * k))
            p.storeBytes(of: byte, toByteOffset: format.isBigEndian ? count - 1 - k : k, as: UInt8.self)
        }
    }

    @_noAllocation @_noLocks
    func load(_ p: UnsafeRawPointer) -> Float {
        switch format.encoding {
        case .int16:
            return Float(Int16(truncatingIfNeeded: loadBits(p, count: 2))) * (1 / 32768)
        case .int24Packed:
            // Shift the 24 bits to the top of an Int32 and back down to sign-extend.
            let raw = Int32(truncatingIfNeeded: loadBits(p, count: 3) << 8) >> 8
            return Float(raw) * (1 / 8_388_608)
        case .int24In32(let alignedHigh):
            let word = Int32(truncatingIfNeeded: loadBits(p, count: 4))
            let raw = alignedHigh ? word >> 8 : (word << 8) >> 8
            return Float(raw) * (1 / 8_388_608)
        case .int32:
            return Float(Double(Int32(truncatingIfNeeded: loadBits(p, count: 4))) * (1 / 2_147_483_648))
        case .fixed8_24:
            return Float(Double(Int32(truncatingIfNeeded: loadBits(p, count: 4))) * (1 / 16_777_216))
        case .float32:
            return Float(bitPattern: UInt32(truncatingIfNeeded: loadBits(p, count: 4)))
        case .float64:
            return Float(Double(bitPattern: loadBits(p, count: 8)))
        }
    }

    @_noAllocation @_noLocks
    func store(_ x: Float, _ p: UnsafeMutableRawPointer) {
        switch format.encoding {
        case .int16:
            storeBits(UInt64(truncatingIfNeeded: Self.quantize(Double(x), scale: 32768)), p, count: 2)
        case .int24Packed:
            storeBits(UInt64(truncatingIfNeeded: Self.quantize(Double(x), scale: 8_388_608)), p, count: 3)
        case .int24In32(let alignedHigh):
            let v = Self.quantize(Double(x), scale: 8_388_608)
            storeBits(UInt64(truncatingIfNeeded: alignedHigh ? v << 8 : v), p, count: 4)
        case .int32:
            storeBits(UInt64(truncatingIfNeeded: Self.quantize(Double(x), scale: 2_147_483_648)), p, count: 4)
        case .fixed8_24:
            storeBits(UInt64(truncatingIfNeeded: Self.quantize(Double(x), scale: 16_777_216, headroom: 128)), p, count: 4)
        case .float32:
            storeBits(UInt64(x.bitPattern), p, count: 4)
        case .float64:
            storeBits(Double(x).bitPattern, p, count: 8)
        }
    }

    /// Rounds x·scale to the nearest integer, clamped to [−scale·headroom, scale·headroom − 1];
    /// NaN becomes 0.
    @_noAllocation @_noLocks
    static func quantize(_ x: Double, scale: Double, headroom: Double = 1) -> Int64 {
        let limit = scale * headroom
        var v = x * scale
        if !(v == v) { v = 0 }
        if v >= limit - 0.5 { return Int64(limit) - 1 }
        if v <= -limit { return -Int64(limit) }
        // Round half away from zero without libm.
        return v >= 0 ? Int64(v + 0.5) : -Int64(-v + 0.5)
    }
}

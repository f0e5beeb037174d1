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
            decodeChannel(format.isInterleaved ? buffers[0] + c * bytes : buffers[c], to: channels[c], frameCount: frameCount)
        }
    }

    /// Writes `frameCount` frames from `channels` into `buffers`. Thread: render (real-time).
    @_noAllocation @_noLocks
    public func encode(
        from channels: UnsafePointer<UnsafePointer<Float>>,
        to buffers: UnsafePointer<UnsafeMutableRawPointer>, frameCount: Int
    ) {
        for c in 0..<format.channelCount {
            encodeChannel(channels[c], to: format.isInterleaved ? buffers[0] + c * bytes : buffers[c], frameCount: frameCount)
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
            decodeChannel(UnsafeRawPointer(data) + (format.isInterleaved ? c * bytes : 0), to: channels[c], frameCount: frameCount)
        }
    }

    /// One channel of `decode`. Float32, int32 and int16 in this machine's byte order are read as
    /// whole words, a channel stored alone (not interleaved) with a constant stride so that the
    /// loop vectorises (a strided float loop was 6 % of `auhost render`'s CPU, a copy is 1 %);
    /// other formats byte by byte.
    @_noAllocation @_noLocks
    func decodeChannel(_ base: UnsafeRawPointer, to out: UnsafeMutablePointer<Float>, frameCount: Int) {
        let contiguous = frameStride == bytes
        if isNativeFloat32 {
            if contiguous {
                UnsafeMutableRawPointer(out).copyMemory(from: base, byteCount: frameCount * 4)
            } else {
                for i in 0..<frameCount { out[i] = base.loadUnaligned(fromByteOffset: i * frameStride, as: Float.self) }
            }
        } else if isNativeInt32 {
            // Float(x) * 2^-31 rounds exactly as Float(Double(x) * 2^-31) (a power of two scales
            // without rounding), without the Double conversions that were half of this loop.
            let stride = frameStride, scale: Float = 1 / 2_147_483_648
            if contiguous {
                for i in 0..<frameCount { out[i] = Float(base.loadUnaligned(fromByteOffset: i &* 4, as: Int32.self)) * scale }
            } else {
                for i in 0..<frameCount { out[i] = Float(base.loadUnaligned(fromByteOffset: i &* stride, as: Int32.self)) * scale }
            }
        } else if isNativeInt16 {
            let stride = frameStride, scale: Float = 1 / 32768
            if contiguous {
                for i in 0..<frameCount { out[i] = Float(base.loadUnaligned(fromByteOffset: i &* 2, as: Int16.self)) * scale }
            } else {
                for i in 0..<frameCount { out[i] = Float(base.loadUnaligned(fromByteOffset: i &* stride, as: Int16.self)) * scale }
            }
        } else {
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
            encodeChannel(channels[c], to: data + (format.isInterleaved ? c * bytes : 0), frameCount: frameCount)
        }
    }

    /// One channel of `encode`: whole words for float32, int16 and int32 in this machine's byte
    /// order (through `quantizeWord`, which vectorises; the byte-by-byte path was a sixth of
    /// `auhost render`'s CPU for a 16-bit file), byte by byte otherwise. Each word loop is written
    /// twice: with a constant stride for a channel stored alone (only that one vectorises) and
    /// with the frame stride; a generic helper would not pass the real-time checks.
    @_noAllocation @_noLocks
    func encodeChannel(_ input: UnsafePointer<Float>, to base: UnsafeMutableRawPointer, frameCount: Int) {
        let contiguous = frameStride == bytes
        if isNativeFloat32 {
            if contiguous {
                base.copyMemory(from: input, byteCount: frameCount * 4)
            } else {
                for i in 0..<frameCount { base.storeBytes(of: input[i], toByteOffset: i * frameStride, as: Float.self) }
            }
        } else if isNativeInt16 {
            let stride = frameStride
            if contiguous {
                for i in 0..<frameCount { base.storeBytes(of: Self.quantizeInt16(input[i]), toByteOffset: i &* 2, as: Int16.self) }
            } else {
                for i in 0..<frameCount { base.storeBytes(of: Self.quantizeInt16(input[i]), toByteOffset: i &* stride, as: Int16.self) }
            }
        } else if isNativeInt32 {
            let stride = frameStride
            if contiguous {
                for i in 0..<frameCount { base.storeBytes(of: Self.quantizeInt32(input[i]), toByteOffset: i &* 4, as: Int32.self) }
            } else {
                for i in 0..<frameCount { base.storeBytes(of: Self.quantizeInt32(input[i]), toByteOffset: i &* stride, as: Int32.self) }
            }
        } else {
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

    @_noAllocation @_noLocks @inline(__always)
    static func quantizeInt16(_ x: Float) -> Int16 { Int16(truncatingIfNeeded: quantizeWord(x, scale: 32768)) }

    @_noAllocation @_noLocks @inline(__always)
    static func quantizeInt32(_ x: Float) -> Int32 { quantizeWord(x, scale: 2_147_483_648) }

    /// `quantize(Double(x), scale: scale)` for a scale of at most 2^31, with selects for branches
    /// and no call (baseline x86-64 has no trunc instruction), so that a loop of it vectorises;
    /// the same value for every Float (SampleFormatConverterTests). Why it is the same:
    /// - rounding half away from zero is floor(|v| + 0.5) with v's sign, and |v| + 0.5 rounds as
    ///   v + 0.5 and −v + 0.5 do;
    /// - adding and subtracting 1.5 · 2^52 rounds to the nearest integer (exact below 2^51); one
    ///   less when that went up is the floor. Larger values are clamped whatever they round to;
    /// - clamping after the rounding gives what `quantize`'s bounds checks before it give;
    /// - an integer-valued Double below 2^51 plus 1.5 · 2^52 holds that integer in its low bits.
    @_noAllocation @_noLocks @inline(__always)
    static func quantizeWord(_ x: Float, scale: Double) -> Int32 {
        let magic = 0x1.8p52
        let v = Double(x) * scale
        let up = v.magnitude + 0.5
        let nearest = (up + magic) - magic
        let floor = nearest > up ? nearest - 1 : nearest
        let rounded = v < 0 ? -floor : floor
        let low = rounded < -scale ? -scale : rounded
        let clamped = v == v ? (low > scale - 1 ? scale - 1 : low) : 0
        return Int32(truncatingIfNeeded: (clamped + magic).bitPattern)
    }
}

import AudioToolbox

/// Conversion kernels between the canonical format (Float32, one buffer per channel) and the
/// device formats. Float → integer: clamp to the integer range after scaling by 2^(bits-1),
/// rounding to nearest (halves away from zero); NaN becomes 0. Integer → float: divide by
/// 2^(bits-1). So 16- and 24-bit integers survive int → float → int exactly, and floats on the
/// k / 2^(bits-1) grid survive float → int → float exactly (S32 via Double, so every Float32 in
/// [-1, 1) lands on the nearest 32-bit integer). FLOAT_LE is copied unchanged (no clipping).
public enum SampleConversion {
    /// Byte offset of `mBuffers` inside `AudioBufferList` (after `mNumberBuffers`, aligned).
    /// Thread: any (render-safe).
    @inlinable
    public static var bufferListOffset: Int {
        let align = MemoryLayout<AudioBuffer>.alignment
        return (MemoryLayout<UInt32>.size + align - 1) & ~(align - 1)
    }

    /// Buffer `index` of a variable-length `AudioBufferList`.
    /// Thread: render (real-time).
    @inlinable @_noAllocation @_noLocks
    public static func buffer(_ list: UnsafeMutablePointer<AudioBufferList>, _ index: Int) -> UnsafeMutablePointer<AudioBuffer> {
        (UnsafeMutableRawPointer(list) + bufferListOffset).assumingMemoryBound(to: AudioBuffer.self) + index
    }

    /// One float to a signed integer of `bits` bits (16, 24 or 32). Computed in Double, where
    /// sample × 2^(bits-1) is exact, so adding ±0.5 and truncating rounds to nearest correctly.
    /// Thread: render (real-time).
    @inlinable @inline(__always) @_noAllocation @_noLocks
    public static func quantize(_ sample: Float, bits: Int) -> Int32 {
        let scale = Double(sign: .plus, exponent: bits - 1, significand: 1)
        let scaled = Double(sample) * scale
        if !(scaled == scaled) { return 0 }
        if scaled >= scale - 0.5 { return Int32(scale - 1) }
        if scaled <= -scale { return Int32(-scale) }
        return Int32(scaled < 0 ? scaled - 0.5 : scaled + 0.5)
    }

    /// Converts `frames` canonical samples of one channel into device format, writing every
    /// `strideBytes` bytes from `destination` (the channel's first sample).
    /// Thread: render (real-time).
    @inlinable @_noAllocation @_noLocks
    public static func encode(
        _ source: UnsafePointer<Float>, frames: Int, format: PCMSampleFormat,
        to destination: UnsafeMutableRawPointer, strideBytes: Int
    ) {
        switch format {
        case .s16LE:
            for i in 0..<frames {
                let value = Int16(truncatingIfNeeded: quantize(source[i], bits: 16))
                destination.storeBytes(of: value.littleEndian, toByteOffset: i * strideBytes, as: Int16.self)
            }
        case .s24LE:
            for i in 0..<frames {
                destination.storeBytes(
                    of: quantize(source[i], bits: 24).littleEndian,
                    toByteOffset: i * strideBytes, as: Int32.self)
            }
        case .s24Packed3LE:
            for i in 0..<frames {
                let value = UInt32(bitPattern: quantize(source[i], bits: 24))
                let at = destination + i * strideBytes
                at.storeBytes(of: UInt8(truncatingIfNeeded: value), as: UInt8.self)
                at.storeBytes(of: UInt8(truncatingIfNeeded: value >> 8), toByteOffset: 1, as: UInt8.self)
                at.storeBytes(of: UInt8(truncatingIfNeeded: value >> 16), toByteOffset: 2, as: UInt8.self)
            }
        case .s32LE:
            for i in 0..<frames {
                destination.storeBytes(of: quantize(source[i], bits: 32).littleEndian, toByteOffset: i * strideBytes, as: Int32.self)
            }
        case .float32LE:
            for i in 0..<frames {
                destination.storeBytes(of: source[i].bitPattern.littleEndian, toByteOffset: i * strideBytes, as: UInt32.self)
            }
        }
    }

    /// Converts `frames` device samples of one channel (every `strideBytes` bytes from `source`)
    /// into canonical floats.
    /// Thread: render (real-time).
    @inlinable @_noAllocation @_noLocks
    public static func decode(
        _ source: UnsafeRawPointer, strideBytes: Int, frames: Int, format: PCMSampleFormat,
        to destination: UnsafeMutablePointer<Float>
    ) {
        switch format {
        case .s16LE:
            for i in 0..<frames {
                let value = Int16(littleEndian: source.loadUnaligned(fromByteOffset: i * strideBytes, as: Int16.self))
                destination[i] = Float(value) * 0x1p-15
            }
        case .s24LE:
            for i in 0..<frames {
                let word = Int32(littleEndian: source.loadUnaligned(fromByteOffset: i * strideBytes, as: Int32.self))
                destination[i] = Float((word << 8) >> 8) * 0x1p-23  // sign-extend the low 24 bits
            }
        case .s24Packed3LE:
            for i in 0..<frames {
                let at = source + i * strideBytes
                let low = Int32(at.load(as: UInt8.self)) | Int32(at.load(fromByteOffset: 1, as: UInt8.self)) << 8
                let high = Int32(Int8(bitPattern: at.load(fromByteOffset: 2, as: UInt8.self))) << 16
                destination[i] = Float(low | high) * 0x1p-23
            }
        case .s32LE:
            for i in 0..<frames {
                let value = Int32(littleEndian: source.loadUnaligned(fromByteOffset: i * strideBytes, as: Int32.self))
                destination[i] = Float(value) * 0x1p-31
            }
        case .float32LE:
            for i in 0..<frames {
                let bits = UInt32(littleEndian: source.loadUnaligned(fromByteOffset: i * strideBytes, as: UInt32.self))
                destination[i] = Float(bitPattern: bits)
            }
        }
    }

    /// Converts a canonical buffer list into device memory. Channels the list lacks (or buffers
    /// with no data) become silence; a buffer shorter than `frames` is padded with silence.
    /// Thread: render (real-time).
    @inlinable @_noAllocation @_noLocks
    public static func encode(from list: UnsafeMutablePointer<AudioBufferList>, frames: Int, into device: PCMDeviceBuffer) {
        let count = min(frames, device.capacityFrames)
        let available = Int(list.pointee.mNumberBuffers)
        for channel in 0..<device.channels {
            guard let start = device.channelStarts[channel] else { continue }
            var done = 0
            if channel < available {
                let audio = buffer(list, channel)
                if let data = audio.pointee.mData {
                    done = min(count, Int(audio.pointee.mDataByteSize) / MemoryLayout<Float>.size)
                    encode(
                        data.assumingMemoryBound(to: Float.self), frames: done, format: device.format,
                        to: start, strideBytes: device.strideBytes)
                }
            }
            var zero: Float = 0
            for i in done..<max(count, done) {
                encode(&zero, frames: 1, format: device.format, to: start + i * device.strideBytes, strideBytes: 0)
            }
        }
    }

    /// Converts device memory into a canonical buffer list (as many channels as both have; at most
    /// each buffer's `mDataByteSize`).
    /// Thread: render (real-time).
    @inlinable @_noAllocation @_noLocks
    public static func decode(from device: PCMDeviceBuffer, frames: Int, into list: UnsafeMutablePointer<AudioBufferList>) {
        let count = min(frames, device.capacityFrames)
        for channel in 0..<min(device.channels, Int(list.pointee.mNumberBuffers)) {
            guard let start = device.channelStarts[channel] else { continue }
            let audio = buffer(list, channel)
            guard let data = audio.pointee.mData else { continue }
            let room = min(count, Int(audio.pointee.mDataByteSize) / MemoryLayout<Float>.size)
            decode(
                UnsafeRawPointer(start), strideBytes: device.strideBytes, frames: room, format: device.format,
                to: data.assumingMemoryBound(to: Float.self))
        }
    }
}

import ALSADevice
import AudioToolbox

/// Deterministic device-format integers for a format: the extremes, zero, and an LCG spread,
/// restricted (for S32) to multiples of 256 so each is exactly representable as a Float32.
func testIntegers(for format: PCMSampleFormat, count: Int) -> [Int32] {
    let bits = format.significantBits
    let maximum = Int64(1) << (bits - 1)
    var state: UInt64 = 0x9E37_79B9_7F4A_7C15
    var values: [Int32] = []
    for index in 0..<count {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        var value: Int64
        switch index % 7 {
        case 0: value = -maximum
        case 1: value = maximum - 1
        case 2: value = 0
        default: value = Int64(state >> 20) % (2 * maximum) - maximum
        }
        if bits == 32 { value = value / 256 * 256; if value > maximum - 256 { value = maximum - 256 } }
        values.append(Int32(value))
    }
    return values
}

/// Little-endian bytes of integers in a device format, written independently of the kernels.
func deviceBytes(_ values: [Int32], format: PCMSampleFormat) -> [UInt8] {
    var bytes: [UInt8] = []
    for value in values {
        let word = UInt32(bitPattern: value)
        let width = format == .s16LE ? 2 : (format == .s24Packed3LE ? 3 : 4)
        for byte in 0..<width { bytes.append(UInt8(truncatingIfNeeded: word >> (8 * UInt32(byte)))) }
    }
    return bytes
}

/// Little-endian Float32 bytes.
func floatBytes(_ values: [Float]) -> [UInt8] {
    values.flatMap { value in (0..<4).map { UInt8(truncatingIfNeeded: value.bitPattern >> (8 * UInt32($0))) } }
}

/// Playback source for `playInterleaved`: frames of interleaved floats, then silence.
struct PlaybackSource {
    var samples: UnsafeMutablePointer<Float>
    var frames: Int
    var channels: Int
    var position: Int
}

/// Render function: copies the next frames of a `PlaybackSource` into the buffer list.
let playInterleaved: PCMRenderFunction = { context, _, frames, list in
    let source = context!.assumingMemoryBound(to: PlaybackSource.self)
    let count = Int(frames)
    for channel in 0..<source.pointee.channels {
        let out = SampleConversion.buffer(list, channel).pointee.mData!.assumingMemoryBound(to: Float.self)
        for i in 0..<count {
            let frame = source.pointee.position + i
            out[i] = frame < source.pointee.frames ? source.pointee.samples[frame * source.pointee.channels + channel] : 0
        }
    }
    source.pointee.position += count
    return 0
}

/// Capture sink for `recordInterleaved` (and pass-through scratch for `passThroughRender`).
struct CaptureSink {
    var samples: UnsafeMutablePointer<Float>
    var capacityFrames: Int
    var channels: Int
    var position: Int
    var lastPeriod: UnsafeMutablePointer<Float>  // channels × period, channel-major
    var periodFrames: Int
}

/// Input function: appends captured frames (interleaved) to a `CaptureSink` and keeps the last
/// period for a pass-through render.
let recordInterleaved: PCMRenderFunction = { context, _, frames, list in
    let sink = context!.assumingMemoryBound(to: CaptureSink.self)
    let count = Int(frames)
    for channel in 0..<sink.pointee.channels {
        let data = SampleConversion.buffer(list, channel).pointee.mData!.assumingMemoryBound(to: Float.self)
        for i in 0..<count {
            sink.pointee.lastPeriod[channel * sink.pointee.periodFrames + i] = data[i]
            let frame = sink.pointee.position + i
            if frame < sink.pointee.capacityFrames { sink.pointee.samples[frame * sink.pointee.channels + channel] = data[i] }
        }
    }
    sink.pointee.position += count
    return 0
}

/// Render function: plays back the period `recordInterleaved` just stored.
let passThroughRender: PCMRenderFunction = { context, _, frames, list in
    let sink = context!.assumingMemoryBound(to: CaptureSink.self)
    for channel in 0..<sink.pointee.channels {
        let out = SampleConversion.buffer(list, channel).pointee.mData!.assumingMemoryBound(to: Float.self)
        for i in 0..<Int(frames) { out[i] = sink.pointee.lastPeriod[channel * sink.pointee.periodFrames + i] }
    }
    return 0
}

/// A capture sink with its memory; free with `release()`.
func makeSink(channels: Int, frames: Int, periodFrames: Int) -> UnsafeMutablePointer<CaptureSink> {
    let sink = UnsafeMutablePointer<CaptureSink>.allocate(capacity: 1)
    let samples = UnsafeMutablePointer<Float>.allocate(capacity: channels * frames)
    samples.initialize(repeating: .nan, count: channels * frames)
    let last = UnsafeMutablePointer<Float>.allocate(capacity: channels * periodFrames)
    last.initialize(repeating: 0, count: channels * periodFrames)
    sink.initialize(
        to: CaptureSink(
            samples: samples, capacityFrames: frames, channels: channels, position: 0,
            lastPeriod: last, periodFrames: periodFrames))
    return sink
}

func release(_ sink: UnsafeMutablePointer<CaptureSink>) {
    sink.pointee.samples.deallocate()
    sink.pointee.lastPeriod.deallocate()
    sink.deallocate()
}

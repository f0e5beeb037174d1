import AudioConverterServices
import AudioToolbox
import CodecTestSupport
import Foundation
import XCTest

/// PCM → PCM through AudioConverter.h: exact where the arithmetic is exact, measured where it is not.
final class PCMConversionTests: XCTestCase {
    /// Every int16 value, twice (stereo), in an order that is not monotonic.
    let everyInt16: [Int16] = (0..<65_536).flatMap { i -> [Int16] in
        let v = Int16(truncatingIfNeeded: i &* 40_503)
        return [v, ~v]
    }

    func testInt16ToFloatAndBackIsBitExact() throws {
        let int16 = pcm(44_100, 2, bits: 16, float: false)
        let float = pcm(44_100, 2, bits: 32, float: true)
        let toFloat = try makeConverter(int16, float)
        defer { AudioConverterDispose(toFloat) }
        let floats = drain(
            toFloat, ConverterSource(bytes: bytes(of: everyInt16), bytesPerFrame: 4, chunkFrames: 777), output: float, request: 1_000)
        let values = floats.reinterpreted(as: Float.self)
        XCTAssertEqual(values.count, everyInt16.count)
        // int16 n maps to n / 32768 exactly.
        XCTAssertEqual(values, everyInt16.map { Float($0) / 32_768 })

        let back = try makeConverter(float, int16)
        defer { AudioConverterDispose(back) }
        let ints = drain(back, ConverterSource(bytes: floats, bytesPerFrame: 8, chunkFrames: 4_097), output: int16, request: 3_000)
        XCTAssertEqual(ints.reinterpreted(as: Int16.self), everyInt16)
    }

    func testConvertBufferAndComplexBufferMatchFill() throws {
        // int16 little-endian interleaved → Float32 big-endian interleaved, one buffer.
        let source = pcm(48_000, 2, bits: 16, float: false)
        let target = pcm(48_000, 2, bits: 32, float: true, bigEndian: true)
        let converter = try makeConverter(source, target)
        defer { AudioConverterDispose(converter) }
        let input = Array(everyInt16.prefix(2_000))
        var output = [UInt8](repeating: 0, count: 1_000 * 8)
        var size = UInt32(output.count)
        let status = input.withUnsafeBytes { i in
            output.withUnsafeMutableBytes { o in
                AudioConverterConvertBuffer(converter, UInt32(i.count), i.baseAddress!, &size, o.baseAddress!)
            }
        }
        XCTAssertEqual(status, noErr)
        XCTAssertEqual(size, 8_000)
        let expected = input.map { (Float($0) / 32_768).bitPattern.bigEndian }
        XCTAssertEqual(output.reinterpreted(as: UInt32.self), expected)

        // Non-interleaved Float32 → interleaved int24 packed through ConvertComplexBuffer.
        let planar = pcm(48_000, 2, bits: 32, float: true, interleaved: false)
        let packed24 = pcm(48_000, 2, bits: 24, float: false)
        let second = try makeConverter(planar, packed24)
        defer { AudioConverterDispose(second) }
        var left = (0..<500).map { Float($0 - 250) / 256 / 1_024 }
        var right = left.map { -$0 }
        var out24 = [UInt8](repeating: 0, count: 500 * 6)
        let complexStatus = left.withUnsafeMutableBytes { l in
            right.withUnsafeMutableBytes { r in
                out24.withUnsafeMutableBytes { o -> OSStatus in
                    let inList = AudioBufferList.allocate(maximumBuffers: 2)
                    defer { free(inList.unsafeMutablePointer) }
                    inList[0] = AudioBuffer(mNumberChannels: 1, mDataByteSize: UInt32(l.count), mData: l.baseAddress)
                    inList[1] = AudioBuffer(mNumberChannels: 1, mDataByteSize: UInt32(r.count), mData: r.baseAddress)
                    var outList = AudioBufferList(
                        mNumberBuffers: 1, mBuffers: AudioBuffer(mNumberChannels: 2, mDataByteSize: UInt32(o.count), mData: o.baseAddress))
                    return AudioConverterConvertComplexBuffer(second, 500, inList.unsafePointer, &outList)
                }
            }
        }
        XCTAssertEqual(complexStatus, noErr)
        for i in 0..<500 {
            for (c, lane) in [left, right].enumerated() {
                let b = out24[(i * 2 + c) * 3..<(i * 2 + c) * 3 + 3].map(Int32.init)
                let value = ((b[0] | b[1] << 8 | b[2] << 16) << 8) >> 8
                XCTAssertEqual(value, Int32(lane[i] * 8_388_608), "frame \(i) channel \(c)")
            }
        }
    }

    func testSineFrom44_1To48kHzHasTHDPlusNoiseBelowMinus120dB() throws {
        let rateIn = 44_100.0, rateOut = 48_000.0, frequency = 997.0
        let input = sine(frequency: frequency, sampleRate: rateIn, count: 44_100 * 2, amplitude: 0.5)
        let source = pcm(rateIn, 1, bits: 32, float: true)
        let target = pcm(rateOut, 1, bits: 32, float: true)
        let converter = try makeConverter(source, target)
        defer { AudioConverterDispose(converter) }
        var quality = UInt32(kAudioConverterQuality_Max)
        XCTAssertEqual(AudioConverterSetProperty(converter, kAudioConverterSampleRateConverterQuality, 4, &quality), noErr)
        let output = drain(
            converter, ConverterSource(bytes: bytes(of: input), bytesPerFrame: 4, chunkFrames: 1_234), output: target, request: 2_000
        )
        .reinterpreted(as: Float.self)
        // Prime method Normal: the output is aligned with the input and as long as it (to a frame).
        XCTAssertEqual(Double(output.count), Double(input.count) * rateOut / rateIn, accuracy: 1)
        // Measure away from the ends (the filter rings at the start and end of the stream).
        let fit = SineFit(output[4_800..<(output.count - 4_800)], frequency: frequency, sampleRate: rateOut)
        let thdPlusNoise = 10 * log10(fit.residualPower / fit.signalPower)
        print("AudioConverter 44.1→48 kHz, 997 Hz sine at −6 dBFS, quality Max: THD+N \(thdPlusNoise) dB, amplitude \(fit.amplitude)")
        XCTAssertLessThan(thdPlusNoise, -120)
        XCTAssertEqual(fit.amplitude, 0.5, accuracy: 0.0001)
        // Aligned: output sample k is the sine at time k / 48000 (phase within a thousandth of a sample).
        let expected = sine(frequency: frequency, sampleRate: rateOut, count: output.count, amplitude: 0.5)
        let error = zip(output[4_800..<40_000], expected[4_800..<40_000]).map { abs($0 - $1) }.max()!
        XCTAssertLessThan(error, 1e-4)
    }

    func testChannelMapAndBigEndianInt32() throws {
        // Stereo int16 → three channels of big-endian int32: map [1, -1, 0].
        let source = pcm(8_000, 2, bits: 16, float: false)
        let target = pcm(8_000, 3, bits: 32, float: false, bigEndian: true)
        let converter = try makeConverter(source, target)
        defer { AudioConverterDispose(converter) }
        var map: [Int32] = [1, -1, 0]
        XCTAssertEqual(AudioConverterSetProperty(converter, kAudioConverterChannelMap, 12, &map), noErr)
        var readBack: [Int32] = [9, 9, 9]
        var size: UInt32 = 12
        XCTAssertEqual(AudioConverterGetProperty(converter, kAudioConverterChannelMap, &size, &readBack), noErr)
        XCTAssertEqual(readBack, map)
        let frames: [Int16] = [100, -200, 32_767, -32_768, 0, 1]
        let out = drain(converter, ConverterSource(bytes: bytes(of: frames), bytesPerFrame: 4), output: target)
            .reinterpreted(as: Int32.self).map { Int32(bigEndian: $0) }
        XCTAssertEqual(out, [-200 << 16, 0, 100 << 16, -32_768 << 16, 0, 32_767 << 16, 1 << 16, 0, 0])
        var bad: [Int32] = [2, 0, 0]
        XCTAssertEqual(AudioConverterSetProperty(converter, kAudioConverterChannelMap, 12, &bad), kAudio_ParamError)
    }

    func testPropertiesAndErrors() throws {
        let source = pcm(44_100, 2, bits: 16, float: false)
        let target = pcm(48_000, 2, bits: 32, float: true, interleaved: false)
        let converter = try makeConverter(source, target)
        var asbd = AudioStreamBasicDescription()
        var size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
        XCTAssertEqual(AudioConverterGetProperty(converter, kAudioConverterCurrentInputStreamDescription, &size, &asbd), noErr)
        XCTAssertEqual(asbd.mSampleRate, 44_100)
        XCTAssertEqual(AudioConverterGetProperty(converter, kAudioConverterCurrentOutputStreamDescription, &size, &asbd), noErr)
        XCTAssertEqual(asbd.mFormatFlags, target.mFormatFlags)
        var prime = AudioConverterPrimeInfo()
        size = 8
        XCTAssertEqual(AudioConverterGetProperty(converter, kAudioConverterPrimeInfo, &size, &prime), noErr)
        XCTAssertGreaterThan(prime.leadingFrames, 0, "libsoxr's filter has a delay at 44.1 → 48 kHz")
        var writable: DarwinBoolean = true
        XCTAssertEqual(AudioConverterGetPropertyInfo(converter, kAudioConverterPrimeInfo, &size, &writable), noErr)
        XCTAssertFalse(writable.boolValue)
        // 4800 output frames of non-interleaved Float32 (4 bytes a frame per buffer) need 4410 input frames.
        var bytesIn: UInt32 = 4_800 * 4
        size = 4
        XCTAssertEqual(AudioConverterGetProperty(converter, kAudioConverterPropertyCalculateInputBufferSize, &size, &bytesIn), noErr)
        XCTAssertEqual(bytesIn, 4_410 * 4)
        var quality: UInt32 = 500
        XCTAssertEqual(AudioConverterSetProperty(converter, kAudioConverterSampleRateConverterQuality, 4, &quality), kAudio_ParamError)
        XCTAssertEqual(
            AudioConverterSetProperty(converter, kAudioConverterSampleRateConverterQuality, 2, &quality),
            kAudioConverterErr_BadPropertySizeError)
        XCTAssertEqual(
            AudioConverterGetPropertyInfo(converter, kAudioConverterEncodeBitRate, nil, nil), kAudioConverterErr_PropertyNotSupported)
        // ConvertBuffer refuses rate conversion, as Apple's does.
        var one: Int32 = 0
        var outSize: UInt32 = 16
        var out = [UInt8](repeating: 0, count: 16)
        XCTAssertEqual(AudioConverterConvertBuffer(converter, 4, &one, &outSize, &out), kAudioConverterErr_InvalidInputSize)

        var none: AudioConverterRef?
        var encoded = source
        encoded.mFormatID = kAudioFormatMPEG4AAC
        XCTAssertEqual(AudioConverterNew(&encoded, [target], &none), kAudioConverterErr_FormatNotSupported)
        XCTAssertEqual(AudioConverterNew([source], &encoded, &none), kAudioConverterErr_FormatNotSupported)
        var eightBit = source
        eightBit.mBitsPerChannel = 8
        eightBit.mBytesPerFrame = 2; eightBit.mBytesPerPacket = 2
        XCTAssertEqual(AudioConverterNew(&eightBit, [target], &none), kAudioConverterErr_FormatNotSupported)
        var farRate = target
        farRate.mSampleRate = 44_100 * 65
        XCTAssertEqual(AudioConverterNew([source], &farRate, &none), kAudioConverterErr_OutputSampleRateOutOfRange)
        var zeroRate = source
        zeroRate.mSampleRate = 0
        XCTAssertEqual(AudioConverterNew(&zeroRate, [target], &none), kAudioConverterErr_InputSampleRateOutOfRange)
        XCTAssertNil(none)
        XCTAssertEqual(AudioConverterDispose(converter), noErr)
        XCTAssertEqual(AudioConverterReset(converter), kAudio_ParamError, "a disposed converter is refused, not used")
    }
}

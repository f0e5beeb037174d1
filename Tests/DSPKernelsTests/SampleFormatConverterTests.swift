import XCTest
import AudioToolbox
@testable import DSPKernels

final class SampleFormatConverterTests: XCTestCase {
    /// Decodes `bytes` (one buffer per entry) of `format` into Float channels.
    func decode(_ converter: SampleFormatConverter, _ buffers: [[UInt8]], frames: Int) -> [[Float]] {
        let raw = buffers.map { bytes -> UnsafeMutableRawPointer in
            let p = UnsafeMutableRawPointer.allocate(byteCount: max(bytes.count, 1), alignment: 16)
            p.copyMemory(from: bytes, byteCount: bytes.count)
            return p
        }
        let channels = (0..<converter.format.channelCount).map { _ in UnsafeMutablePointer<Float>.allocate(capacity: frames) }
        converter.decode(from: raw.map { UnsafeRawPointer($0) }, to: channels, frameCount: frames)
        let result = channels.map { Array(UnsafeBufferPointer(start: $0, count: frames)) }
        raw.forEach { $0.deallocate() }
        channels.forEach { $0.deallocate() }
        return result
    }

    /// Encodes Float channels into `format`'s buffers.
    func encode(_ converter: SampleFormatConverter, _ channels: [[Float]]) -> [[UInt8]] {
        let frames = channels[0].count, format = converter.format
        let bufferBytes = frames * format.encoding.bytesPerSample * (format.isInterleaved ? format.channelCount : 1)
        let raw = (0..<format.bufferCount).map { _ in UnsafeMutableRawPointer.allocate(byteCount: max(bufferBytes, 1), alignment: 16) }
        let inputs = channels.map { c -> UnsafePointer<Float> in
            let p = UnsafeMutablePointer<Float>.allocate(capacity: frames)
            p.initialize(from: c, count: frames)
            return UnsafePointer(p)
        }
        converter.encode(from: inputs, to: raw, frameCount: frames)
        let result = raw.map { Array(UnsafeRawBufferPointer(start: $0, count: bufferBytes)) }
        raw.forEach { $0.deallocate() }
        inputs.forEach { $0.deallocate() }
        return result
    }

    func testInt16RoundTripsBitExactlyOverAll65536Values() {
        for bigEndian in [false, true] {
            let converter = SampleFormatConverter(
                format: SampleFormat(
                    encoding: .int16, channelCount: 1,
                    isInterleaved: true, isBigEndian: bigEndian))
            let values = (Int(Int16.min)...Int(Int16.max)).map { Int16($0) }
            var bytes: [UInt8] = []
            for v in values {
                let u = UInt16(bitPattern: v)
                bytes += bigEndian ? [UInt8(u >> 8), UInt8(u & 0xFF)] : [UInt8(u & 0xFF), UInt8(u >> 8)]
            }
            let floats = decode(converter, [bytes], frames: values.count)[0]
            XCTAssertEqual(floats.first, -1)
            XCTAssertEqual(floats[32768], 0)
            XCTAssertEqual(floats.last, Float(32767) / 32768)
            XCTAssertEqual(encode(converter, [floats])[0], bytes, "big endian: \(bigEndian)")
        }
    }

    /// Native-endian int32 and int16 load whole words (the file reader's path for every integer
    /// file); the other byte order still goes sample by sample through load(). Both must give the
    /// same floats, interleaved or not.
    func testNativeIntegerFastPathsEqualTheGenericPath() {
        let int32s: [Int32] =
            [Int32.min, Int32.min + 1, -1, 0, 1, Int32.max, Int32.max - 1, 0x1234_5678, -0x0765_4321]
            + stride(from: Int32.min, to: Int32.max - 99_999_999, by: 99_999_999).map { $0 }
        let int16s: [Int16] = Array(stride(from: Int16.min, to: Int16.max, by: 97)) + [Int16.max]
        for interleaved in [true, false] {
            for (encoding, words, size) in [
                (SampleFormat.Encoding.int32, int32s.map { UInt64(UInt32(bitPattern: $0)) }, 4),
                (.int16, int16s.map { UInt64(UInt16(bitPattern: $0)) }, 2),
            ] {
                let channels = interleaved ? 2 : 1
                func bytes(bigEndian: Bool) -> [UInt8] {
                    var out: [UInt8] = []
                    for w in words {
                        var sample = (0..<size).map { UInt8(truncatingIfNeeded: w >> (8 * $0)) }
                        if bigEndian { sample.reverse() }
                        for _ in 0..<channels { out += sample }
                    }
                    return out
                }
                let native = SampleFormatConverter(
                    format: SampleFormat(encoding: encoding, channelCount: channels, isInterleaved: interleaved, isBigEndian: false))
                let generic = SampleFormatConverter(
                    format: SampleFormat(encoding: encoding, channelCount: channels, isInterleaved: interleaved, isBigEndian: true))
                XCTAssertTrue(native.isNativeInt32 || native.isNativeInt16)
                let buffers = interleaved ? 1 : channels
                let a = decode(native, Array(repeating: bytes(bigEndian: false), count: buffers), frames: words.count)
                let b = decode(generic, Array(repeating: bytes(bigEndian: true), count: buffers), frames: words.count)
                XCTAssertEqual(a.map { $0.map(\.bitPattern) }, b.map { $0.map(\.bitPattern) }, "\(encoding), interleaved \(interleaved)")
            }
        }
    }

    /// Floats where rounding and clamping decide: ±0, the ends of the range and just beyond,
    /// every half step of the first and last few 16-bit codes and their neighbours, tiny and
    /// huge values, infinities, NaN, and 300,000 random bit patterns (fixed seed).
    func quantizeProbes() -> [Float] {
        var probes: [Float] = [0, -0, 1, -1, 2, -2, .infinity, -.infinity, .nan, -.nan, .leastNonzeroMagnitude, .greatestFiniteMagnitude]
        for scale in [Float(32768), 2_147_483_648] {
            for k in stride(from: Float(-4), through: 4, by: 0.5) {
                for edge in [k / scale, (scale + k) / scale, (-scale + k) / scale] {
                    probes += [edge, edge.nextUp, edge.nextDown, edge.nextUp.nextUp, edge.nextDown.nextDown]
                }
            }
        }
        var state: UInt64 = 0x5EED  // xorshift64
        for _ in 0..<300_000 {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            probes.append(Float(bitPattern: UInt32(truncatingIfNeeded: state >> 16)))
        }
        return probes
    }

    /// quantizeWord (selects, no branch, so the loop vectorises) is quantize for every probe.
    func testBranchFreeQuantizeEqualsQuantize() {
        for x in quantizeProbes() {
            XCTAssertEqual(
                Int64(SampleFormatConverter.quantizeWord(x, scale: 32768)), SampleFormatConverter.quantize(Double(x), scale: 32768),
                "int16, x = \(x) (\(String(x.bitPattern, radix: 16)))")
            XCTAssertEqual(
                Int64(SampleFormatConverter.quantizeWord(x, scale: 2_147_483_648)),
                SampleFormatConverter.quantize(Double(x), scale: 2_147_483_648),
                "int32, x = \(x) (\(String(x.bitPattern, radix: 16)))")
        }
    }

    /// Native int16, int32 and float32 encode whole words (one after another for a channel stored
    /// alone); the other byte order goes sample by sample through store(). Both must give the
    /// same samples, interleaved or not.
    func testNativeEncodeFastPathsEqualTheGenericPath() {
        let probes = quantizeProbes()
        for interleaved in [true, false] {
            for encoding in [SampleFormat.Encoding.int16, .int32, .float32] {
                let channels = interleaved ? 2 : 1
                let input = (0..<channels).map { c in c == 0 ? probes : probes.reversed() }
                let native = SampleFormatConverter(
                    format: SampleFormat(encoding: encoding, channelCount: channels, isInterleaved: interleaved, isBigEndian: false))
                let generic = SampleFormatConverter(
                    format: SampleFormat(encoding: encoding, channelCount: channels, isInterleaved: interleaved, isBigEndian: true))
                let size = encoding.bytesPerSample
                // The generic side's bytes, each sample reversed into little-endian order.
                let swapped = encode(generic, input).map { bytes in
                    stride(from: 0, to: bytes.count, by: size).flatMap { bytes[$0..<$0 + size].reversed() }
                }
                XCTAssertEqual(encode(native, input), swapped, "\(encoding), interleaved \(interleaved)")
            }
        }
    }

    func testInt24PackedAndIn32RoundTripBitExactlyOnASweep() {
        // Every 61st value of the 24-bit range plus both ends and the values around zero.
        let values = Array(stride(from: -8_388_608, through: 8_388_607, by: 61)) + [8_388_607, -1, 0, 1]
        let layouts: [(SampleFormat.Encoding, Bool)] = [
            (.int24Packed, false), (.int24Packed, true),
            (.int24In32(alignedHigh: false), false),
            (.int24In32(alignedHigh: true), true),
        ]
        for (encoding, bigEndian) in layouts {
            let format = SampleFormat(encoding: encoding, channelCount: 1, isInterleaved: false, isBigEndian: bigEndian)
            let converter = SampleFormatConverter(format: format)
            var bytes: [UInt8] = []
            for v in values {
                var word = UInt32(bitPattern: Int32(v))
                var count = 3
                if case .int24In32(let high) = encoding {
                    count = 4
                    word = high ? word << 8 : word  // low alignment keeps the sign extension
                }
                var sample = (0..<count).map { UInt8(truncatingIfNeeded: word >> (8 * $0)) }
                if bigEndian { sample.reverse() }
                bytes += sample
            }
            let floats = decode(converter, [bytes], frames: values.count)[0]
            for (k, v) in values.enumerated() where k % 10_000 == 0 {
                XCTAssertEqual(floats[k], Float(v) / 8_388_608)
            }
            XCTAssertEqual(encode(converter, [floats])[0], bytes, "\(encoding) big endian \(bigEndian)")
        }
    }

    func testFloatFixedAndInt32LayoutsInterleavedAndBigEndianRoundTrip() throws {
        let left: [Float] = [0, 0.5, -0.25, 1 / 3, -1, 0.999]
        let right: [Float] = [0.125, -0.5, 0.75, -1 / 3, 0.001, 0]
        let encodings: [SampleFormat.Encoding] = [.float32, .float64, .int32, .fixed8_24, .int16, .int24Packed]
        for encoding in encodings {
            for interleaved in [true, false] {
                for bigEndian in [false, true] {
                    let format = SampleFormat(encoding: encoding, channelCount: 2, isInterleaved: interleaved, isBigEndian: bigEndian)
                    // The ASBD round-trips to the same layout.
                    XCTAssertEqual(try SampleFormat(format.streamDescription(sampleRate: 48_000)), format)
                    let converter = SampleFormatConverter(format: format)
                    let back = decode(converter, encode(converter, [left, right]), frames: left.count)
                    let step: Float
                    switch encoding {
                    case .int16: step = 1 / 32768
                    case .int24Packed: step = 1 / 8_388_608
                    case .fixed8_24: step = 1 / 16_777_216
                    case .int32: step = 1 / 2_147_483_648
                    default: step = 0  // float32 and float64 carry every Float32 exactly
                    }
                    for (expected, actual) in zip(left + right, back[0] + back[1]) {
                        XCTAssertEqual(actual, expected, accuracy: step / 2, "\(format)")
                    }
                }
            }
        }
    }

    func testKnownEncodingsOfOneSample() {
        let bigInt16 = SampleFormatConverter(
            format: SampleFormat(encoding: .int16, channelCount: 1, isInterleaved: true, isBigEndian: true))
        XCTAssertEqual(encode(bigInt16, [[0.5, -1, 2, -2]])[0], [0x40, 0x00, 0x80, 0x00, 0x7F, 0xFF, 0x80, 0x00])
        let fixed = SampleFormatConverter(format: SampleFormat(encoding: .fixed8_24, channelCount: 1, isInterleaved: true))
        XCTAssertEqual(encode(fixed, [[1, -0.5]])[0], [0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x80, 0xFF])
        let bigFloat = SampleFormatConverter(
            format: SampleFormat(encoding: .float32, channelCount: 1, isInterleaved: true, isBigEndian: true))
        XCTAssertEqual(encode(bigFloat, [[1]])[0], [0x3F, 0x80, 0x00, 0x00])
        XCTAssertEqual(decode(bigFloat, [[0xC0, 0x00, 0x00, 0x00]], frames: 1)[0], [-2])
    }

    /// Little-endian Float32 (copied as is on this machine) lays out and reads back the exact bytes,
    /// interleaved and not, NaN payloads and negative zero included.
    func testNativeFloat32CopiesExactBytes() {
        let interleaved = SampleFormatConverter(format: SampleFormat(encoding: .float32, channelCount: 2, isInterleaved: true))
        XCTAssertEqual(
            encode(interleaved, [[1, 0.5], [-2, -0.0]]),
            [[0x00, 0x00, 0x80, 0x3F, 0x00, 0x00, 0x00, 0xC0, 0x00, 0x00, 0x00, 0x3F, 0x00, 0x00, 0x00, 0x80]])
        let planar = SampleFormatConverter(format: SampleFormat(encoding: .float32, channelCount: 1, isInterleaved: false))
        let odd = Float(bitPattern: 0x7FC0_1234)
        let back = decode(planar, [[0x34, 0x12, 0xC0, 0x7F, 0x00, 0x00, 0x00, 0x80]], frames: 2)[0]
        XCTAssertEqual(back.map(\.bitPattern), [odd.bitPattern, (-0.0 as Float).bitPattern])
    }

    func testInterleavedLayoutPutsChannelsFrameByFrame() {
        let converter = SampleFormatConverter(format: SampleFormat(encoding: .int16, channelCount: 2, isInterleaved: true))
        let bytes = encode(converter, [[0.5, 0.25], [-0.5, -0.25]])
        XCTAssertEqual(bytes, [[0x00, 0x40, 0x00, 0xC0, 0x00, 0x20, 0x00, 0xE0]])
    }

    func testAudioBufferListEntryPoints() throws {
        var asbd = AudioStreamBasicDescription()
        asbd.mFormatID = kAudioFormatLinearPCM
        asbd.mFormatFlags = kAudioFormatFlagIsSignedInteger | kAudioFormatFlagIsPacked
        asbd.mChannelsPerFrame = 2; asbd.mBitsPerChannel = 16; asbd.mBytesPerFrame = 4
        asbd.mBytesPerPacket = 4; asbd.mFramesPerPacket = 1; asbd.mSampleRate = 44_100
        let converter = try SampleFormatConverter(streamDescription: asbd)
        var samples: [Int16] = [16384, -16384, 8192, -8192]
        let frames = 2
        var left = [Float](repeating: 9, count: frames), right = left
        samples.withUnsafeMutableBytes { raw in
            var list = AudioBufferList(
                mNumberBuffers: 1, mBuffers: AudioBuffer(mNumberChannels: 2, mDataByteSize: 8, mData: raw.baseAddress))
            left.withUnsafeMutableBufferPointer { l in
                right.withUnsafeMutableBufferPointer { r in
                    converter.decode(from: &list, to: [l.baseAddress!, r.baseAddress!], frameCount: frames)
                }
            }
            let halved: [[Float]] = [left.map { $0 / 2 }, right.map { $0 / 2 }]
            halved[0].withUnsafeBufferPointer { l in
                halved[1].withUnsafeBufferPointer { r in
                    converter.encode(from: [l.baseAddress!, r.baseAddress!], to: &list, frameCount: frames)
                }
            }
        }
        XCTAssertEqual(left, [0.5, 0.25])
        XCTAssertEqual(right, [-0.5, -0.25])
        XCTAssertEqual(samples, [8192, -8192, 4096, -4096])
    }

    func testUnsupportedDescriptionsThrowFormatNotSupported() {
        var asbd = AudioStreamBasicDescription(
            mSampleRate: 44_100, mFormatID: kAudioFormatLinearPCM,
            mFormatFlags: kAudioFormatFlagIsPacked, mBytesPerPacket: 1,
            mFramesPerPacket: 1, mBytesPerFrame: 1, mChannelsPerFrame: 1,
            mBitsPerChannel: 8, mReserved: 0)
        XCTAssertThrowsError(try SampleFormat(asbd)) {
            XCTAssertEqual(($0 as? DSPKernelError)?.status, OSStatus(kAudioUnitErr_FormatNotSupported))
        }
        asbd.mFormatID = kAudioFormatMPEG4AAC
        XCTAssertThrowsError(try SampleFormat(asbd)) {
            XCTAssertEqual(($0 as? DSPKernelError)?.status, OSStatus(kAudioUnitErr_FormatNotSupported))
        }
    }

    func testChannelMapRoutesAndSilences() throws {
        let map = try ChannelMap([2, -1, 0, 2], inputChannelCount: 3)
        let inputs: [[Float]] = [[1, 2], [3, 4], [5, 6]]
        let inPointers = inputs.map { c -> UnsafePointer<Float> in
            let p = UnsafeMutablePointer<Float>.allocate(capacity: 2); p.initialize(from: c, count: 2); return UnsafePointer(p)
        }
        let outPointers = (0..<4).map { _ -> UnsafeMutablePointer<Float> in
            let p = UnsafeMutablePointer<Float>.allocate(capacity: 2); p.initialize(repeating: 9, count: 2); return p
        }
        map.process(inputs: inPointers, outputs: outPointers, frameCount: 2)
        let outputs = outPointers.map { Array(UnsafeBufferPointer(start: $0, count: 2)) }
        XCTAssertEqual(outputs, [[5, 6], [0, 0], [1, 2], [5, 6]])
        inPointers.forEach { $0.deallocate() }
        outPointers.forEach { $0.deallocate() }
        assertThrowsParamError { _ = try ChannelMap([3], inputChannelCount: 3) }
        assertThrowsParamError { _ = try ChannelMap([], inputChannelCount: 3) }
    }
}

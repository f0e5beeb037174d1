import ALSADevice
import AudioToolbox
import XCTest

final class SampleConversionTests: XCTestCase {
    /// Every 16-bit value survives int → float → int, and the float is value / 32768.
    func testS16RoundTripIsExactForEveryValue() {
        let values = (Int32(Int16.min)...Int32(Int16.max)).map { $0 }
        let bytes = deviceBytes(values, format: .s16LE)
        var floats = [Float](repeating: .nan, count: values.count)
        var back = [UInt8](repeating: 0xAA, count: bytes.count)
        bytes.withUnsafeBytes { raw in
            SampleConversion.decode(raw.baseAddress!, strideBytes: 2, frames: values.count, format: .s16LE, to: &floats)
        }
        for (index, value) in values.enumerated() where floats[index] != Float(value) / 32768 {
            XCTFail("S16 \(value) decoded to \(floats[index])"); break
        }
        back.withUnsafeMutableBytes { raw in
            SampleConversion.encode(floats, frames: values.count, format: .s16LE, to: raw.baseAddress!, strideBytes: 2)
        }
        XCTAssertEqual(back, bytes)
    }

    /// Every third 24-bit value (and both extremes) survives int → float → int in both 24-bit layouts.
    func testS24RoundTripsAreExact() {
        var values = Array(stride(from: Int32(-8_388_608), through: 8_388_607, by: 3))
        values.append(8_388_607)
        for format in [PCMSampleFormat.s24LE, .s24Packed3LE] {
            let width = format.bytesPerSample
            let bytes = deviceBytes(values, format: format)
            var floats = [Float](repeating: .nan, count: values.count)
            bytes.withUnsafeBytes { raw in
                SampleConversion.decode(raw.baseAddress!, strideBytes: width, frames: values.count, format: format, to: &floats)
            }
            XCTAssertEqual(floats.first, -1.0, "\(format)")
            XCTAssertEqual(floats.last, Float(8_388_607) / 8_388_608, "\(format)")
            var back = [UInt8](repeating: 0xAA, count: bytes.count)
            back.withUnsafeMutableBytes { raw in
                SampleConversion.encode(floats, frames: values.count, format: format, to: raw.baseAddress!, strideBytes: width)
            }
            XCTAssertTrue(back == bytes, "\(format) round trip changed samples")
        }
    }

    /// Floats on the 2^-23 grid survive float → S32 → float exactly (S32 keeps more bits than Float).
    func testS32RoundTripOfRepresentableFloatsIsExact() {
        let values = testIntegers(for: .s32LE, count: 10_000)
        let floats = values.map { Float($0) / 2_147_483_648 }
        var bytes = [UInt8](repeating: 0, count: values.count * 4)
        bytes.withUnsafeMutableBytes { raw in
            SampleConversion.encode(floats, frames: floats.count, format: .s32LE, to: raw.baseAddress!, strideBytes: 4)
        }
        XCTAssertEqual(bytes, deviceBytes(values, format: .s32LE))
        var back = [Float](repeating: .nan, count: floats.count)
        bytes.withUnsafeBytes { raw in
            SampleConversion.decode(raw.baseAddress!, strideBytes: 4, frames: floats.count, format: .s32LE, to: &back)
        }
        XCTAssertEqual(back, floats)
    }

    /// Out-of-range floats clip to the integer extremes, NaN becomes 0, halves round away from 0.
    func testClippingAndRounding() {
        XCTAssertEqual(SampleConversion.quantize(1.0, bits: 16), 32767)
        XCTAssertEqual(SampleConversion.quantize(1.5, bits: 16), 32767)
        XCTAssertEqual(SampleConversion.quantize(.infinity, bits: 16), 32767)
        XCTAssertEqual(SampleConversion.quantize(-1.0, bits: 16), -32768)
        XCTAssertEqual(SampleConversion.quantize(-3.0, bits: 16), -32768)
        XCTAssertEqual(SampleConversion.quantize(.nan, bits: 16), 0)
        XCTAssertEqual(SampleConversion.quantize(0.5 / 32768, bits: 16), 1)
        XCTAssertEqual(SampleConversion.quantize(-0.5 / 32768, bits: 16), -1)
        XCTAssertEqual(SampleConversion.quantize(0.49 / 32768, bits: 16), 0)
        XCTAssertEqual(SampleConversion.quantize(100.4 / 32768, bits: 16), 100)
        XCTAssertEqual(SampleConversion.quantize(1.0, bits: 24), 8_388_607)
        XCTAssertEqual(SampleConversion.quantize(-1.0, bits: 24), -8_388_608)
        XCTAssertEqual(SampleConversion.quantize(1.0, bits: 32), Int32.max)
        XCTAssertEqual(SampleConversion.quantize(-1.0, bits: 32), Int32.min)
        XCTAssertEqual(SampleConversion.quantize(Float(0x1p-31) * 0.5, bits: 32), 1)
    }

    /// FLOAT_LE is copied bit for bit, out-of-range values included.
    func testFloatIsCopiedUnchanged() {
        let floats: [Float] = [0, -0.0, 1.5, -2, 0.123456789, .greatestFiniteMagnitude]
        var bytes = [UInt8](repeating: 0, count: floats.count * 4)
        bytes.withUnsafeMutableBytes { raw in
            SampleConversion.encode(floats, frames: floats.count, format: .float32LE, to: raw.baseAddress!, strideBytes: 4)
        }
        XCTAssertEqual(bytes, floatBytes(floats))
    }

    /// A buffer list encodes into interleaved and non-interleaved device memory with each channel
    /// in its place, and decodes back; channels missing from the list become silence.
    func testBufferListLayouts() {
        let frames = 5
        let list = FloatBufferList.allocate(channels: 2, frames: frames)
        defer { list.deallocate() }
        for i in 0..<frames {
            list.channel(0)[i] = Float(i + 1) / 32768
            list.channel(1)[i] = -Float(i + 1) / 32768
        }
        let interleaved = PCMDeviceBuffer.allocate(format: .s16LE, access: .interleaved, channels: 3, frames: frames)
        defer { interleaved.deallocate() }
        SampleConversion.encode(from: list.list, frames: frames, into: interleaved)
        let words = interleaved.memory.assumingMemoryBound(to: Int16.self)
        XCTAssertEqual((0..<(3 * frames)).map { words[$0] }, [1, -1, 0, 2, -2, 0, 3, -3, 0, 4, -4, 0, 5, -5, 0])

        let planar = PCMDeviceBuffer.allocate(format: .s16LE, access: .nonInterleaved, channels: 2, frames: frames)
        defer { planar.deallocate() }
        SampleConversion.encode(from: list.list, frames: frames, into: planar)
        let planarWords = planar.memory.assumingMemoryBound(to: Int16.self)
        XCTAssertEqual((0..<(2 * frames)).map { planarWords[$0] }, [1, 2, 3, 4, 5, -1, -2, -3, -4, -5])

        let decoded = FloatBufferList.allocate(channels: 2, frames: frames)
        defer { decoded.deallocate() }
        SampleConversion.decode(from: planar, frames: frames, into: decoded.list)
        for i in 0..<frames {
            XCTAssertEqual(decoded.channel(0)[i], list.channel(0)[i])
            XCTAssertEqual(decoded.channel(1)[i], list.channel(1)[i])
        }
    }
}

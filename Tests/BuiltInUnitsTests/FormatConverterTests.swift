import XCTest
import TestSupport

/// Raw bytes fed to an input bus in whatever format it has (one buffer: interleaved).
final class ByteSource {
    let bytes: [UInt8]
    let bytesPerFrame: Int
    var position = 0
    init(_ bytes: [UInt8], bytesPerFrame: Int) { self.bytes = bytes; self.bytesPerFrame = bytesPerFrame }
}

let byteCallback: AURenderCallback = { refCon, _, _, _, frames, ioData in
    let source = Unmanaged<ByteSource>.fromOpaque(refCon).takeUnretainedValue()
    let out = UnsafeMutableAudioBufferListPointer(ioData!)[0].mData!.assumingMemoryBound(to: UInt8.self)
    for i in 0..<Int(frames) * source.bytesPerFrame {
        let n = source.position + i
        out[i] = n < source.bytes.count ? source.bytes[n] : 0
    }
    source.position += Int(frames) * source.bytesPerFrame
    return noErr
}

/// Renders `frames` frames of `format` from `unit`; returns each buffer's bytes.
func renderBytes(
    _ unit: AudioUnit, format: AudioStreamBasicDescription, frames: Int, slice: Int = 512,
    timeStamp: inout AudioTimeStamp
) throws -> [[UInt8]] {
    let storage = AudioBufferStorage(format: format, capacity: UInt32(slice))
    var result = [[UInt8]](repeating: [], count: storage.bufferCount)
    var done = 0
    while done < frames {
        let n = min(slice, frames - done)
        storage.prepare(frames: UInt32(n))
        var flags: AudioUnitRenderActionFlags = []
        try AudioError.check(AudioUnitRender(unit, &flags, &timeStamp, 0, UInt32(n), storage.list), "render")
        for (b, buffer) in UnsafeMutableAudioBufferListPointer(storage.list).enumerated() {
            result[b] += UnsafeRawBufferPointer(start: buffer.mData, count: n * Int(format.mBytesPerFrame))
        }
        timeStamp.mSampleTime += Double(n)
        done += n
    }
    return result
}

final class FormatConverterTests: XCTestCase {
    func makeConverter(input: AudioStreamBasicDescription, output: AudioStreamBasicDescription) throws -> UnitHarness {
        let h = try UnitHarness(type: kAudioUnitType_FormatConverter, subType: kAudioUnitSubType_AUConverter)
        try h.setFormat(input, scope: kAudioUnitScope_Input)
        try h.setFormat(output, scope: kAudioUnitScope_Output)
        return h
    }

    func testInt16ToFloatToInt16IsBitExactThroughTwoConverters() throws {
        let int16 = AudioStreamBasicDescription.linearPCM(
            sampleRate: 44_100, channels: 2, bitsPerChannel: 16, isFloat: false, interleaved: true)
        let float = AudioStreamBasicDescription.canonical(sampleRate: 44_100, channels: 2)
        let toFloat = try makeConverter(input: int16, output: float)
        let toInt16 = try makeConverter(input: float, output: int16)
        // Every Int16 value on the left, the same values reversed on the right.
        let frames = 65_536
        var bytes = [UInt8]()
        for i in 0..<frames {
            for v in [Int16(truncatingIfNeeded: i - 32_768), Int16(truncatingIfNeeded: 32_767 - i)] {
                bytes += [UInt8(truncatingIfNeeded: v), UInt8(truncatingIfNeeded: v >> 8)]
            }
        }
        let source = ByteSource(bytes, bytesPerFrame: 4)
        var cb = AURenderCallbackStruct(inputProc: byteCallback, inputProcRefCon: Unmanaged.passUnretained(source).toOpaque())
        try AudioError.check(
            AudioUnitSetProperty(
                toFloat.unit, kAudioUnitProperty_SetRenderCallback, kAudioUnitScope_Input, 0, &cb,
                UInt32(MemoryLayout<AURenderCallbackStruct>.size)), "callback")
        var connection = AudioUnitConnection(sourceAudioUnit: toFloat.unit, sourceOutputNumber: 0, destInputNumber: 0)
        try AudioError.check(
            AudioUnitSetProperty(
                toInt16.unit, kAudioUnitProperty_MakeConnection, kAudioUnitScope_Input, 0, &connection,
                UInt32(MemoryLayout<AudioUnitConnection>.size)), "connect")
        try toFloat.initialize()
        try toInt16.initialize()
        let out = try renderBytes(toInt16.unit, format: int16, frames: frames, timeStamp: &toInt16.timeStamp)
        XCTAssertEqual(out.count, 1, "interleaved: one buffer")
        XCTAssertEqual(out[0], bytes)
    }

    func testSampleTypesBitDepthsAndEndiannessEncodeKnownBytes() throws {
        let mono = AudioStreamBasicDescription.canonical(sampleRate: 44_100, channels: 1)
        var fixed = AudioStreamBasicDescription.linearPCM(
            sampleRate: 44_100, channels: 1, bitsPerChannel: 32, isFloat: false, interleaved: false)
        fixed.mFormatFlags = kAudioFormatFlagsAudioUnitFixed824
        let cases: [(String, AudioStreamBasicDescription, [UInt8])] = [
            ("int16 LE", .linearPCM(sampleRate: 44_100, channels: 1, bitsPerChannel: 16, isFloat: false, interleaved: true), [0x00, 0x40]),
            (
                "int16 BE",
                .linearPCM(sampleRate: 44_100, channels: 1, bitsPerChannel: 16, isFloat: false, interleaved: true, bigEndian: true),
                [0x40, 0x00]
            ),
            (
                "int24 packed", .linearPCM(sampleRate: 44_100, channels: 1, bitsPerChannel: 24, isFloat: false, interleaved: true),
                [0x00, 0x00, 0x40]
            ),
            (
                "int32 BE",
                .linearPCM(sampleRate: 44_100, channels: 1, bitsPerChannel: 32, isFloat: false, interleaved: true, bigEndian: true),
                [0x40, 0, 0, 0]
            ),
            ("8.24", fixed, [0x00, 0x00, 0x80, 0x00]),
            (
                "float64 BE",
                .linearPCM(sampleRate: 44_100, channels: 1, bitsPerChannel: 64, isFloat: true, interleaved: true, bigEndian: true),
                [0x3F, 0xE0, 0, 0, 0, 0, 0, 0]
            ),
        ]
        for (name, format, expected) in cases {
            let h = try makeConverter(input: mono, output: format)
            try h.feed(bus: 0, [[Float](repeating: 0.5, count: 64)])
            try h.initialize()
            let out = try renderBytes(h.unit, format: format, frames: 4, timeStamp: &h.timeStamp)
            XCTAssertEqual(Array(out[0].prefix(expected.count)), expected, name)
            XCTAssertEqual(out[0].count, 4 * expected.count, name)
            // And back: the same format in front of a float output reads 0.5 again.
            let back = try makeConverter(input: format, output: mono)
            let source = ByteSource(out[0], bytesPerFrame: expected.count)
            var cb = AURenderCallbackStruct(inputProc: byteCallback, inputProcRefCon: Unmanaged.passUnretained(source).toOpaque())
            try AudioError.check(
                AudioUnitSetProperty(
                    back.unit, kAudioUnitProperty_SetRenderCallback, kAudioUnitScope_Input, 0, &cb,
                    UInt32(MemoryLayout<AURenderCallbackStruct>.size)), "callback")
            try back.initialize()
            XCTAssertEqual(try back.render(frames: 4, channels: 1)[0], [0.5, 0.5, 0.5, 0.5], name)
        }
    }

    func testRateConversion44_1To48kHzKeepsTHDPlusNoiseBelowMinus90dBWithTheReportedLatency() throws {
        let h = try makeConverter(input: .canonical(sampleRate: 44_100, channels: 1), output: .canonical(sampleRate: 48_000, channels: 1))
        let f = 1_000.0
        try h.feed(bus: 0, [(0..<(44_100 * 2)).map { Float(0.5 * sin(2 * .pi * f * Double($0) / 44_100)) }])
        try h.initialize()
        var latency = 0.0
        var size = UInt32(8)
        try AudioError.check(
            AudioUnitGetProperty(h.unit, kAudioUnitProperty_Latency, kAudioUnitScope_Global, 0, &latency, &size), "latency")
        XCTAssertGreaterThan(latency, 0, "the resampler's filter delay")
        XCTAssertLessThan(latency, 0.05)
        let out = try h.render(frames: 48_000 + 24_000, channels: 1)[0]
        let window = Array(out[24_000..<72_000])
        let fit = PhaseFit(window, firstIndex: 24_000, frequency: f, sampleRate: 48_000)
        let thdPlusNoise = 10 * log10(fit.residualPower / fit.signalPower)
        print(
            "converter 44.1→48 kHz: amplitude \(fit.amplitude), THD+N \(thdPlusNoise) dB, latency \(latency * 48_000) frames, measured delay \(fit.delayFrames) frames"
        )
        XCTAssertEqual(fit.amplitude, 0.5, accuracy: 0.0005)
        XCTAssertLessThan(thdPlusNoise, -90)
        // The output is the input delayed by Latency (the phase is known modulo one period).
        let period = 48_000 / f
        let difference = (fit.delayFrames - latency * 48_000).truncatingRemainder(dividingBy: period)
        // Latency is soxr's delay rounded to whole frames, so they agree within half a frame.
        XCTAssertLessThan(min(abs(difference), period - abs(difference)), 0.5, "measured delay equals Latency")
    }

    func testChannelMapRoutesAsConfiguredAndMonoFeedsEveryOutputByDefault() throws {
        let h = try makeConverter(input: .canonical(sampleRate: 44_100, channels: 3), output: .canonical(sampleRate: 44_100, channels: 3))
        try h.feed(bus: 0, [[Float](repeating: 0.1, count: 64), [Float](repeating: 0.2, count: 64), [Float](repeating: 0.3, count: 64)])
        var map: [Int32] = [2, -1, 0]
        try AudioError.check(AudioUnitSetProperty(h.unit, kAudioOutputUnitProperty_ChannelMap, kAudioUnitScope_Output, 0, &map, 12), "map")
        try h.initialize()
        let out = try h.render(frames: 8, channels: 3)
        XCTAssertEqual(out[0], [Float](repeating: 0.3, count: 8))
        XCTAssertEqual(out[1], [Float](repeating: 0, count: 8))
        XCTAssertEqual(out[2], [Float](repeating: 0.1, count: 8))

        let mono = try makeConverter(
            input: .canonical(sampleRate: 44_100, channels: 1), output: .canonical(sampleRate: 44_100, channels: 2))
        try mono.feed(bus: 0, [[Float](repeating: 0.25, count: 64)])
        var read = [Int32](repeating: 9, count: 2)
        var size = UInt32(8)
        try AudioError.check(
            AudioUnitGetProperty(mono.unit, kAudioOutputUnitProperty_ChannelMap, kAudioUnitScope_Global, 0, &read, &size), "get map")
        XCTAssertEqual(read, [0, 0])
        try mono.initialize()
        XCTAssertEqual(try mono.render(frames: 4, channels: 2), [[0.25, 0.25, 0.25, 0.25], [0.25, 0.25, 0.25, 0.25]])
    }

    func testBadMapsAndFormatsAreRefusedWithTheirStatus() throws {
        let h = try makeConverter(input: .canonical(sampleRate: 44_100, channels: 2), output: .canonical(sampleRate: 44_100, channels: 2))
        var bad: [Int32] = [0, -2]
        XCTAssertEqual(
            AudioUnitSetProperty(h.unit, kAudioOutputUnitProperty_ChannelMap, kAudioUnitScope_Global, 0, &bad, 8),
            kAudioUnitErr_InvalidPropertyValue)
        var missing: [Int32] = [0, 5]
        try AudioError.check(
            AudioUnitSetProperty(h.unit, kAudioOutputUnitProperty_ChannelMap, kAudioUnitScope_Global, 0, &missing, 8), "map")
        XCTAssertEqual(AudioUnitInitialize(h.unit), kAudioUnitErr_FormatNotSupported, "input channel 5 does not exist")
        var eightBit = AudioStreamBasicDescription.linearPCM(
            sampleRate: 44_100, channels: 2, bitsPerChannel: 8, isFloat: false, interleaved: true)
        eightBit.mFormatFlags = kAudioFormatFlagIsPacked  // unsigned 8-bit
        XCTAssertEqual(
            AudioUnitSetProperty(
                h.unit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Input, 0, &eightBit,
                UInt32(MemoryLayout<AudioStreamBasicDescription>.size)), kAudioUnitErr_FormatNotSupported)
    }

    func testResetClearsTheResamplerAndClassInfoKeepsTheMap() throws {
        let h = try makeConverter(input: .canonical(sampleRate: 44_100, channels: 2), output: .canonical(sampleRate: 48_000, channels: 2))
        try h.feed(bus: 0, [[Float](repeating: 0.5, count: 4_096), [Float](repeating: -0.5, count: 4_096)])
        var map: [Int32] = [1, 0]
        try AudioError.check(AudioUnitSetProperty(h.unit, kAudioOutputUnitProperty_ChannelMap, kAudioUnitScope_Global, 0, &map, 8), "map")
        var state: UnsafeRawPointer?
        var size = UInt32(MemoryLayout<UnsafeRawPointer>.size)
        try AudioError.check(AudioUnitGetProperty(h.unit, kAudioUnitProperty_ClassInfo, kAudioUnitScope_Global, 0, &state, &size), "save")
        var other: [Int32] = [0, 0]
        try AudioError.check(AudioUnitSetProperty(h.unit, kAudioOutputUnitProperty_ChannelMap, kAudioUnitScope_Global, 0, &other, 8), "map")
        try AudioError.check(AudioUnitSetProperty(h.unit, kAudioUnitProperty_ClassInfo, kAudioUnitScope_Global, 0, &state, size), "restore")
        Unmanaged<AnyObject>.fromOpaque(state!).release()
        var read = [Int32](repeating: 9, count: 2)
        size = 8
        try AudioError.check(
            AudioUnitGetProperty(h.unit, kAudioOutputUnitProperty_ChannelMap, kAudioUnitScope_Global, 0, &read, &size), "get map")
        XCTAssertEqual(read, [1, 0])
        var count = UInt32(0)
        size = 4
        XCTAssertEqual(AudioUnitGetPropertyInfo(h.unit, kAudioUnitProperty_ParameterList, kAudioUnitScope_Global, 0, &count, nil), noErr)
        XCTAssertEqual(count, 0, "the converter has no parameters")

        try h.initialize()
        let during = try h.render(frames: 2_048, channels: 2)
        XCTAssertEqual(during[0][2_000], -0.5, accuracy: 1e-3, "mapped: left takes the right input")
        try AudioError.check(AudioUnitReset(h.unit, kAudioUnitScope_Global, 0), "reset")
        h.sources[0].position = 1_000_000  // silence from here on
        let after = try h.render(frames: 1_024, channels: 2)
        XCTAssertEqual(after[0].map(abs).max(), 0, "nothing of the signal before the reset is left")
        XCTAssertEqual(after[1].map(abs).max(), 0)
    }
}

/// Least-squares fit of a·sin(wn) + b·cos(wn) + c: amplitude, the delay a pure sine would have
/// (in frames, modulo one period) and the residual power (THD+N).
struct PhaseFit {
    let amplitude: Double, delayFrames: Double, residualPower: Double, signalPower: Double

    init(_ x: [Float], firstIndex: Int, frequency: Double, sampleRate: Double) {
        let w = 2 * Double.pi * frequency / sampleRate
        var m = [[Double]](repeating: [0, 0, 0], count: 3), v = [0.0, 0.0, 0.0]
        for (k, s) in x.enumerated() {
            let n = Double(firstIndex + k), basis = [sin(w * n), cos(w * n), 1]
            for r in 0..<3 {
                v[r] += basis[r] * Double(s)
                for c in 0..<3 { m[r][c] += basis[r] * basis[c] }
            }
        }
        // Gaussian elimination (the system is well conditioned over many periods).
        for col in 0..<3 {
            for row in (col + 1)..<3 {
                let f = m[row][col] / m[col][col]
                for c in col..<3 { m[row][c] -= f * m[col][c] }
                v[row] -= f * v[col]
            }
        }
        var coefficients = [0.0, 0.0, 0.0]
        for row in stride(from: 2, through: 0, by: -1) {
            var s = v[row]
            for c in (row + 1)..<3 { s -= m[row][c] * coefficients[c] }
            coefficients[row] = s / m[row][row]
        }
        let (a, b, dc) = (coefficients[0], coefficients[1], coefficients[2])
        amplitude = (a * a + b * b).squareRoot()
        // A·sin(w(n − d)) = A cos(wd)·sin(wn) − A sin(wd)·cos(wn).
        var d = atan2(-b, a) / w
        if d < 0 { d += sampleRate / frequency }
        delayFrames = d
        var residual = 0.0
        for (k, s) in x.enumerated() {
            let n = Double(firstIndex + k)
            let e = Double(s) - (a * sin(w * n) + b * cos(w * n) + dc)
            residual += e * e
        }
        residualPower = residual / Double(x.count)
        signalPower = amplitude * amplitude / 2
    }
}

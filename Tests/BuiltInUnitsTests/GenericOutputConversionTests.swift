import CSoxr
import XCTest
import TestSupport

/// Records the largest pull and the buffers it was given, then plays `source`.
final class WatchedSource {
    let source: SignalSource
    var largestPull: UInt32 = 0
    var lastData: UnsafeMutableRawPointer?
    init(_ channels: [[Float]]) { source = SignalSource(channels) }
}

let watchedCallback: AURenderCallback = { refCon, flags, timeStamp, bus, frames, ioData in
    let watched = Unmanaged<WatchedSource>.fromOpaque(refCon).takeUnretainedValue()
    watched.largestPull = max(watched.largestPull, frames)
    watched.lastData = UnsafeMutableAudioBufferListPointer(ioData!)[0].mData
    return signalCallback(Unmanaged.passUnretained(watched.source).toOpaque(), flags, timeStamp, bus, frames, ioData)
}

/// libsoxr's own conversion of `input` (one channel), with the recipe the units use (20-bit
/// quality, no dither, float32), in one call: output frame k is input time k / outputRate. The
/// input is preceded by 100 ms of silence (trimmed from the output again) so that, like a
/// streaming converter's, the filter's history at the first sample is silence rather than
/// libsoxr's start-of-stream edge.
func soxrReference(_ input: [Float], from inputRate: Double, to outputRate: Double) -> [Float] {
    let lead = Int(inputRate / 10), leadOut = Int(outputRate / 10)
    let padded = [Float](repeating: 0, count: lead) + input
    var output = [Float](repeating: 0, count: Int(Double(padded.count) * outputRate / inputRate) + 16)
    var io = soxr_io_spec(SOXR_FLOAT32_I, SOXR_FLOAT32_I)
    io.flags = UInt(SOXR_NO_DITHER)
    var quality = soxr_quality_spec(UInt(SOXR_20_BITQ), 0)
    var done = 0
    let error = padded.withUnsafeBufferPointer { i in
        output.withUnsafeMutableBufferPointer { o in
            soxr_oneshot(inputRate, outputRate, 1, i.baseAddress, padded.count, nil, o.baseAddress, o.count, &done, &io, &quality, nil)
        }
    }
    XCTAssertNil(error.map { String(cString: $0) })
    return Array(output[leadOut..<done])
}

/// 10·log10 of the error energy relative to the reference's energy.
func errorLevel(_ actual: ArraySlice<Float>, _ reference: ArraySlice<Float>) -> Double {
    var error = 0.0, signal = 0.0
    for (a, r) in zip(actual, reference) {
        error += Double(a - r) * Double(a - r)
        signal += Double(r) * Double(r)
    }
    return 10 * log10(error / signal)
}

/// A deterministic test signal: four tones and white noise (xorshift), peak below 0.9.
func testSignal(frames: Int, sampleRate: Double) -> [Float] {
    var state: UInt32 = 0x1234_5678
    return (0..<frames).map { n in
        state ^= state << 13; state ^= state >> 17; state ^= state << 5
        let noise = Double(state) / Double(UInt32.max) - 0.5
        let t = Double(n) / sampleRate
        let tones = [440.0, 3_000, 11_025, 19_000].reduce(0.0) { $0 + 0.15 * sin(2 * .pi * $1 * t) }
        return Float(tones + 0.2 * noise)
    }
}

final class GenericOutputConversionTests: XCTestCase {
    let size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)

    func genericOutput(input: AudioStreamBasicDescription, output: AudioStreamBasicDescription, slice: UInt32 = 512) throws -> UnitHarness {
        let h = try UnitHarness(type: kAudioUnitType_Output, subType: kAudioUnitSubType_GenericOutput, slice: slice)
        try h.setFormat(input, scope: kAudioUnitScope_Input)
        try h.setFormat(output, scope: kAudioUnitScope_Output)
        return h
    }

    /// The bar: a 48 kHz graph (render callback → format converter at 48 kHz → generic output
    /// whose input scope is 48 kHz and output scope 44.1 kHz), pulled at 44.1 kHz, equals
    /// libsoxr's one-shot conversion of the same signal once shifted by the reported Latency.
    func testA48kHzGraphPulledAt44_1kHzMatchesLibsoxrWithinMinus100dB() throws {
        var graph: AUGraph?
        try AudioError.check(NewAUGraph(&graph), "NewAUGraph")
        defer { DisposeAUGraph(graph!) }
        func node(_ type: OSType, _ subType: OSType) throws -> AUNode {
            var d = AudioComponentDescription(
                componentType: type, componentSubType: subType,
                componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0)
            var n: AUNode = 0
            try AudioError.check(AUGraphAddNode(graph!, &d, &n), "add node")
            return n
        }
        let headNode = try node(kAudioUnitType_Output, kAudioUnitSubType_GenericOutput)
        let sourceNode = try node(kAudioUnitType_FormatConverter, kAudioUnitSubType_AUConverter)
        try AudioError.check(AUGraphOpen(graph!), "open")
        var head: AudioUnit?, source: AudioUnit?
        AUGraphNodeInfo(graph!, headNode, nil, &head)
        AUGraphNodeInfo(graph!, sourceNode, nil, &source)
        var at48 = AudioStreamBasicDescription.canonical(sampleRate: 48_000, channels: 1)
        var at44 = AudioStreamBasicDescription.canonical(sampleRate: 44_100, channels: 1)
        try AudioError.check(
            AudioUnitSetProperty(source!, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Input, 0, &at48, size), "source in")
        try AudioError.check(
            AudioUnitSetProperty(source!, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Output, 0, &at48, size), "source out")
        try AudioError.check(
            AudioUnitSetProperty(head!, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Output, 0, &at44, size), "head out")
        var slice: UInt32 = 512
        try AudioError.check(
            AudioUnitSetProperty(head!, kAudioUnitProperty_MaximumFramesPerSlice, kAudioUnitScope_Global, 0, &slice, 4), "slice")

        let signal = testSignal(frames: 48_000, sampleRate: 48_000)
        let watched = WatchedSource([signal])
        var callback = AURenderCallbackStruct(inputProc: watchedCallback, inputProcRefCon: Unmanaged.passUnretained(watched).toOpaque())
        try AudioError.check(AUGraphSetNodeInputCallback(graph!, sourceNode, 0, &callback), "callback")
        try AudioError.check(AUGraphConnectNodeInput(graph!, sourceNode, 0, headNode, 0), "connect")
        try AudioError.check(AUGraphInitialize(graph!), unitLastMessage())

        var headInput = AudioStreamBasicDescription()
        var formatSize = size
        try AudioError.check(
            AudioUnitGetProperty(head!, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Input, 0, &headInput, &formatSize), "get")
        XCTAssertEqual(headInput.mSampleRate, 48_000, "the graph propagated the source's rate to the head's input scope")
        var latency = 0.0
        var latencySize = UInt32(8)
        try AudioError.check(
            AudioUnitGetProperty(head!, kAudioUnitProperty_Latency, kAudioUnitScope_Global, 0, &latency, &latencySize), "latency")
        let latencyFrames = Int((latency * 44_100).rounded())
        XCTAssertGreaterThan(latencyFrames, 0, "the resampler's filter delay")
        XCTAssertEqual(latency * 44_100, Double(latencyFrames), accuracy: 1e-6, "whole frames")

        // Pull at 44.1 kHz in uneven slices, as an offline application may.
        let total = 44_100 + latencyFrames + 1_000
        let storage = AudioBufferStorage(format: at44, capacity: slice)
        var stamp = AudioTimeStamp()
        stamp.mFlags = .sampleTimeValid
        var rendered: [Float] = []
        var sizes: [UInt32] = [512, 300, 1, 511, 64]
        while rendered.count < total {
            let n = min(sizes[0], UInt32(total - rendered.count))
            sizes.append(sizes.removeFirst())
            storage.prepare(frames: n)
            var flags: AudioUnitRenderActionFlags = []
            try AudioError.check(AudioUnitRender(head!, &flags, &stamp, 0, n, storage.list), "render")
            rendered += storage.samples(channel: 0, frames: Int(n))
            stamp.mSampleTime += Double(n)
        }
        XCTAssertLessThanOrEqual(watched.largestPull, slice, "the upstream pull never exceeds MaximumFramesPerSlice")
        XCTAssertEqual(rendered[0..<latencyFrames].map { abs($0) }.max(), 0, "the delay is prerolled silence")

        let reference = soxrReference(signal, from: 48_000, to: 44_100)
        XCTAssertEqual(reference.count, 44_100)
        let level = errorLevel(rendered[latencyFrames..<(latencyFrames + reference.count)], reference[...])
        print("generic output 48 → 44.1 kHz in a graph vs libsoxr: error \(level) dB, latency \(latencyFrames) frames")
        XCTAssertLessThan(level, -100)
    }

    func testMonoToStereoDuplicatesAndStereoToMonoKeepsTheLeftChannelExactly() throws {
        let left: [Float] = [0.1, -0.2, 0.3, -0.4, 0.5, -0.6, 0.7, -0.8]
        let right: [Float] = [0.9, 0.8, 0.7, 0.6, 0.5, 0.4, 0.3, 0.2]
        let up = try genericOutput(input: .canonical(sampleRate: 44_100, channels: 1), output: .canonical(sampleRate: 44_100, channels: 2))
        try up.feed(bus: 0, [left])
        try up.initialize()
        XCTAssertEqual(try up.render(frames: 8, channels: 2), [left, left])

        let down = try genericOutput(
            input: .canonical(sampleRate: 44_100, channels: 2), output: .canonical(sampleRate: 44_100, channels: 1))
        try down.feed(bus: 0, [left, right])
        try down.initialize()
        XCTAssertEqual(try down.render(frames: 8, channels: 1), [left], "Apple's default channel map: the first input channel")

        // With rate conversion too, both output channels carry the same samples.
        let resampled = try genericOutput(
            input: .canonical(sampleRate: 48_000, channels: 1), output: .canonical(sampleRate: 44_100, channels: 2))
        try resampled.feed(bus: 0, [testSignal(frames: 4_800, sampleRate: 48_000)])
        try resampled.initialize()
        let both = try resampled.render(frames: 4_000, channels: 2)
        XCTAssertEqual(both[0], both[1])
        XCTAssertGreaterThan(both[0].map { abs($0) }.max() ?? 0, 0.1)
    }

    func testSampleTypeAndInterleavingConvertToKnownBytes() throws {
        let int16 = AudioStreamBasicDescription.linearPCM(
            sampleRate: 44_100, channels: 2, bitsPerChannel: 16, isFloat: false, interleaved: true)
        let h = try genericOutput(input: .canonical(sampleRate: 44_100, channels: 2), output: int16)
        try h.feed(bus: 0, [[0.5, -0.25], [-1, 0.125]])
        try h.initialize()
        var stamp = AudioTimeStamp()
        stamp.mFlags = .sampleTimeValid
        let bytes = try renderBytes(h.unit, format: int16, frames: 2, timeStamp: &stamp)
        let samples = bytes[0].withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
        XCTAssertEqual(samples, [16_384, -32_768, -8_192, 4_096], "L R L R, scaled by 32768")
    }

    func testEqualFormatsPassThroughBitIdenticallyIntoTheCallersBuffers() throws {
        let format = AudioStreamBasicDescription.canonical(sampleRate: 48_000, channels: 1)
        let h = try genericOutput(input: format, output: format)
        // Bit patterns a conversion would disturb: a NaN payload, denormals, -0.
        let patterns: [UInt32] = [0x7FC0_1234, 0x0000_0001, 0x8000_0000, 0x3EAA_AAAB, 0xFF80_0000, 0x0080_0000, 0x3F80_0001, 0xBF7F_FFFF]
        let signal = patterns.map { Float(bitPattern: $0) }
        let watched = WatchedSource([signal])
        var callback = AURenderCallbackStruct(inputProc: watchedCallback, inputProcRefCon: Unmanaged.passUnretained(watched).toOpaque())
        try AudioError.check(
            AudioUnitSetProperty(
                h.unit, kAudioUnitProperty_SetRenderCallback, kAudioUnitScope_Input, 0, &callback,
                UInt32(MemoryLayout<AURenderCallbackStruct>.size)), "callback")
        try h.initialize()
        let storage = AudioBufferStorage(format: format, capacity: 512)
        storage.prepare(frames: 8)
        var flags: AudioUnitRenderActionFlags = []
        var stamp = AudioTimeStamp()
        stamp.mFlags = .sampleTimeValid
        try AudioError.check(AudioUnitRender(h.unit, &flags, &stamp, 0, 8, storage.list), "render")
        XCTAssertEqual(storage.samples(channel: 0, frames: 8).map(\.bitPattern), patterns)
        XCTAssertEqual(
            watched.lastData, UnsafeMutableAudioBufferListPointer(storage.list)[0].mData,
            "no conversion stage: the source renders straight into the caller's buffers")
        var latency = 1.0
        var latencySize = UInt32(8)
        try AudioError.check(
            AudioUnitGetProperty(h.unit, kAudioUnitProperty_Latency, kAudioUnitScope_Global, 0, &latency, &latencySize), "latency")
        XCTAssertEqual(latency, 0)
    }

    func testRefusalsCarryTheirStatusAndNameBothFormats() throws {
        // A side the converter cannot read (unsigned 8-bit) is refused when it is set.
        let h = try genericOutput(input: .canonical(sampleRate: 48_000, channels: 2), output: .canonical(sampleRate: 44_100, channels: 2))
        var eightBit = AudioStreamBasicDescription.linearPCM(
            sampleRate: 44_100, channels: 2, bitsPerChannel: 8, isFloat: false, interleaved: true)
        eightBit.mFormatFlags = kAudioFormatFlagIsPacked
        XCTAssertEqual(
            AudioUnitSetProperty(h.unit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Output, 0, &eightBit, size),
            kAudioUnitErr_FormatNotSupported)
        // Rates further apart than the converter resamples in one step: refused at Initialize.
        let far = try genericOutput(input: .canonical(sampleRate: 1_000, channels: 2), output: .canonical(sampleRate: 96_000, channels: 1))
        XCTAssertEqual(AudioUnitInitialize(far.unit), kAudioUnitErr_FormatNotSupported)
        let message = unitLastMessage()
        XCTAssertTrue(message.contains("input format (2 ch, 1000 Hz") && message.contains("output format (1 ch, 96000 Hz"), message)
        XCTAssertTrue(message.contains("factor of 64"), message)
    }
}

/// The sentence of the last failed call on this thread.
func unitLastMessage() -> String { String(cfString: AUHostCopyLastErrorMessage()?.takeRetainedValue()) ?? "" }

import ALSADevice
import AudioToolbox
import XCTest

/// Content-exact tests over the file plugin: what the callbacks render is what the file holds,
/// and what the file holds is what the callbacks receive.
final class PCMStreamContentTests: XCTestCase {
    let period = 64
    override func setUp() { _ = ALSATestEnvironment.directory }

    /// Plays `frames` frames of interleaved floats through `pcm` and returns the stream's frame
    /// count after stop (the device is closed so the file is complete).
    func play(_ samples: [Float], channels: Int, pcm: String, format: PCMSampleFormat, access: PCMAccess) throws -> Int {
        let device = try PCMDevice(name: pcm, direction: .playback)
        try device.configure(
            PCMRequest(
                sampleRate: 48_000, channels: channels, format: format, access: access,
                periodFrames: period, periodCount: 4))
        let frames = samples.count / channels
        let buffer = UnsafeMutablePointer<Float>.allocate(capacity: samples.count)
        buffer.initialize(from: samples, count: samples.count)
        let source = UnsafeMutablePointer<PlaybackSource>.allocate(capacity: 1)
        source.initialize(to: PlaybackSource(samples: buffer, frames: frames, channels: channels, position: 0))
        defer { buffer.deallocate(); source.deallocate() }
        let stream = try PCMStream(
            playback: device, render: playInterleaved, context: UnsafeMutableRawPointer(source),
            realTimePriority: nil)
        try stream.start()
        XCTAssertTrue(ALSATestEnvironment.wait { stream.framesProcessed >= frames || !stream.isRunning })
        stream.stop()
        XCTAssertNil(stream.failure)
        XCTAssertEqual(stream.xrunCount, 0)
        let processed = stream.framesProcessed
        device.close()
        return processed
    }

    /// S16 playback into a WAV: the data chunk holds exactly the rendered samples (clipped values
    /// at the extremes), followed only by whole periods of the silence rendered after the source
    /// ran out and before stop() took effect. The file holds exactly the frames the stream processed.
    func testPlaybackWritesExactlyTheRenderedSamplesToWAV() throws {
        let channels = 2, frames = period * 20
        var values = testIntegers(for: .s16LE, count: frames * channels)
        var samples = values.map { Float($0) / 32768 }
        samples[2] = 1.7; values[2] = 32767  // clipped
        samples[3] = -4; values[3] = -32768
        let processed = try play(samples, channels: channels, pcm: "alsadev_wav_out", format: .s16LE, access: .interleaved)

        let wav = ALSATestEnvironment.read("out.wav")
        let parsed = try XCTUnwrap(WAVFile(wav))
        XCTAssertEqual(parsed.formatTag, 1)
        XCTAssertEqual(parsed.channels, 2)
        XCTAssertEqual(parsed.sampleRate, 48_000)
        XCTAssertEqual(parsed.bitsPerSample, 16)
        let expected = deviceBytes(values, format: .s16LE)
        XCTAssertGreaterThanOrEqual(parsed.data.count, expected.count)
        XCTAssertTrue(Array(parsed.data.prefix(expected.count)) == expected, "rendered samples differ in the WAV")
        let tail = parsed.data.dropFirst(expected.count)
        XCTAssertTrue(tail.allSatisfy { $0 == 0 }, "tail after the rendered samples is not silence")
        XCTAssertEqual(tail.count % (period * channels * 2), 0, "tail is not whole periods")
        XCTAssertEqual(parsed.data.count, processed * channels * 2)
    }

    /// Every format × access plays into a raw file with exactly the expected device bytes.
    func testEveryFormatAndAccessPlaysExactly() throws {
        let channels = 2, frames = period * 8
        for format in PCMSampleFormat.allCases {
            for access in PCMAccess.allCases {
                let values = testIntegers(for: format, count: frames * channels)
                let samples: [Float]
                let expected: [UInt8]
                if format == .float32LE {
                    samples = values.map { Float($0) / 2_147_483_648 * 1.25 }  // beyond ±1 passes through
                    expected = floatBytes(samples)
                } else {
                    let scale = Float(sign: .plus, exponent: format.significantBits - 1, significand: 1)
                    samples = values.map { Float($0) / scale }
                    expected = deviceBytes(values, format: format)
                }
                _ = try play(samples, channels: channels, pcm: "alsadev_raw_out", format: format, access: access)
                let raw = ALSATestEnvironment.read("out.raw")
                XCTAssertTrue(
                    raw.count >= expected.count && Array(raw.prefix(expected.count)) == expected,
                    "\(format) \(access): file differs from the rendered samples")
                XCTAssertTrue(raw.dropFirst(expected.count).allSatisfy { $0 == 0 }, "\(format) \(access): tail not silent")
            }
        }
    }

    /// Capture from a raw file delivers exactly its samples, for every format (interleaved: the
    /// file plugin implements infile only for interleaved reads).
    func testCaptureDeliversExactlyTheFileSamples() throws {
        let channels = 2, frames = period * 12
        for format in PCMSampleFormat.allCases {
            let values = testIntegers(for: format, count: frames * channels)
            let expected: [Float]
            if format == .float32LE {
                expected = values.map { Float($0) / 2_147_483_648 * 1.5 }
                ALSATestEnvironment.write(floatBytes(expected), to: "in.raw")
            } else {
                let scale = Float(sign: .plus, exponent: format.significantBits - 1, significand: 1)
                expected = values.map { Float($0) / scale }
                ALSATestEnvironment.write(deviceBytes(values, format: format), to: "in.raw")
            }
            let device = try PCMDevice(name: "alsadev_raw_in", direction: .capture)
            try device.configure(
                PCMRequest(
                    sampleRate: 48_000, channels: channels, format: format,
                    periodFrames: period, periodCount: 4))
            let sink = makeSink(channels: channels, frames: frames, periodFrames: period)
            defer { release(sink) }
            let stream = try PCMStream(
                capture: device, input: recordInterleaved, context: UnsafeMutableRawPointer(sink),
                realTimePriority: nil)
            try stream.start()
            XCTAssertTrue(ALSATestEnvironment.wait { stream.framesProcessed >= frames || !stream.isRunning })
            stream.stop()
            XCTAssertNil(stream.failure, "\(format)")
            let got = Array(UnsafeBufferPointer(start: sink.pointee.samples, count: frames * channels))
            XCTAssertTrue(got == expected, "\(format): captured samples differ from the file")
        }
    }

    /// Full duplex pass-through (capture → input → render → playback) copies the capture file to
    /// the playback file sample-exactly after a leading offset of exactly `duplexLatencyFrames`
    /// frames of silence (the playback buffer prefilled before both start).
    func testDuplexPassThroughCopiesCaptureToPlayback() throws {
        let channels = 2, frames = period * 16
        let values = testIntegers(for: .s16LE, count: frames * channels)
        ALSATestEnvironment.write(deviceBytes(values, format: .s16LE), to: "in.raw")
        let request = PCMRequest(sampleRate: 48_000, channels: channels, format: .s16LE, periodFrames: period, periodCount: 3)
        let input = try PCMDevice(name: "alsadev_raw_in", direction: .capture)
        try input.configure(request)
        let output = try PCMDevice(name: "alsadev_raw_out", direction: .playback)
        try output.configure(request)
        let sink = makeSink(channels: channels, frames: frames, periodFrames: period)
        defer { release(sink) }
        let stream = try PCMStream(
            playback: output, capture: input, render: passThroughRender, input: recordInterleaved,
            context: UnsafeMutableRawPointer(sink), realTimePriority: nil)
        XCTAssertEqual(stream.duplexLatencyFrames, period * 3)
        try stream.start()
        XCTAssertTrue(ALSATestEnvironment.wait { stream.framesProcessed >= frames || !stream.isRunning })
        stream.stop()
        XCTAssertNil(stream.failure)
        XCTAssertEqual(stream.xrunCount, 0)
        let offset = stream.duplexLatencyFrames * channels * 2  // read before close() forgets the configuration
        output.close()
        input.close()
        let raw = ALSATestEnvironment.read("out.raw")
        let expected = deviceBytes(values, format: .s16LE)
        XCTAssertGreaterThanOrEqual(raw.count, offset + expected.count)
        XCTAssertTrue(raw.prefix(offset).allSatisfy { $0 == 0 }, "leading offset is not silence")
        let copied = Array(raw.dropFirst(offset).prefix(expected.count))
        let firstDifference = copied.indices.first { copied[$0] != expected[$0] }
        XCTAssertTrue(
            copied == expected, "pass-through changed samples from byte \(firstDifference.map(String.init) ?? "end") of \(copied.count)")
    }
}

import XCTest
import AVFAudio
import Foundation

/// Runs every corpus file (Swift written after Apple's AVFAudio documentation and samples,
/// importing only AVFAudio and Foundation) and checks the samples it produces against values
/// computed here independently (files read back with ExtAudioFile's C API, expectations from the
/// documented behaviour).
final class AVFAudioCorpusTests: XCTestCase {
    var directory: String!

    override func setUpWithError() throws {
        directory = NSTemporaryDirectory() + "avfaudio-corpus-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }

    override func tearDown() {
        try? FileManager.default.removeItem(atPath: directory)
    }

    func assertSamplesEqual(_ actual: [Float], _ expected: [Float], _ what: String, file: StaticString = #filePath, line: UInt = #line) {
        let mismatch =
            actual.count != expected.count ? min(actual.count, expected.count) : actual.indices.first { actual[$0] != expected[$0] }
        if let i = mismatch {
            let got = i < actual.count ? "\(actual[i])" : "nothing (\(actual.count) samples)"
            let wanted = i < expected.count ? "\(expected[i])" : "nothing (\(expected.count) samples)"
            XCTFail("\(what): sample \(i) is \(got), expected \(wanted)", file: file, line: line)
        }
    }

    /// A float file written with ExtAudioFile's C API (independent of AVAudioFile).
    func writeFloatWAV(_ path: String, _ samples: [Float], sampleRate: Double) {
        var format = AudioStreamBasicDescription(
            mSampleRate: sampleRate, mFormatID: kAudioFormatLinearPCM, mFormatFlags: kAudioFormatFlagsNativeFloatPacked,
            mBytesPerPacket: 4, mFramesPerPacket: 1, mBytesPerFrame: 4, mChannelsPerFrame: 1, mBitsPerChannel: 32, mReserved: 0)
        var file: ExtAudioFileRef?
        XCTAssertEqual(ExtAudioFileCreateWithPath(path, kAudioFileWAVEType, &format, nil, AudioFileFlags.eraseFile.rawValue, &file), noErr)
        var copy = samples
        copy.withUnsafeMutableBytes { bytes in
            var list = AudioBufferList(
                mNumberBuffers: 1, mBuffers: AudioBuffer(mNumberChannels: 1, mDataByteSize: UInt32(bytes.count), mData: bytes.baseAddress))
            XCTAssertEqual(ExtAudioFileWrite(file!, UInt32(samples.count), &list), noErr)
        }
        ExtAudioFileDispose(file!)
    }

    /// A mono file's samples as Float32, read with ExtAudioFile's C API.
    func readMonoFloat(_ path: String) -> (samples: [Float], format: AudioStreamBasicDescription) {
        var file: ExtAudioFileRef?
        XCTAssertEqual(ExtAudioFileOpenPath(path, &file), noErr)
        defer { ExtAudioFileDispose(file!) }
        var fileFormat = AudioStreamBasicDescription()
        var size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
        ExtAudioFileGetProperty(file!, kExtAudioFileProperty_FileDataFormat, &size, &fileFormat)
        var client = AudioStreamBasicDescription(
            mSampleRate: fileFormat.mSampleRate, mFormatID: kAudioFormatLinearPCM, mFormatFlags: kAudioFormatFlagsNativeFloatPacked,
            mBytesPerPacket: 4, mFramesPerPacket: 1, mBytesPerFrame: 4, mChannelsPerFrame: 1, mBitsPerChannel: 32, mReserved: 0)
        ExtAudioFileSetProperty(file!, kExtAudioFileProperty_ClientDataFormat, size, &client)
        var samples: [Float] = []
        var chunk = [Float](repeating: 0, count: 1024)
        while true {
            var frames: UInt32 = 1024
            chunk.withUnsafeMutableBytes { bytes in
                var list = AudioBufferList(
                    mNumberBuffers: 1, mBuffers: AudioBuffer(mNumberChannels: 1, mDataByteSize: 4096, mData: bytes.baseAddress))
                XCTAssertEqual(ExtAudioFileRead(file!, &frames, &list), noErr)
            }
            if frames == 0 { break }
            samples += chunk.prefix(Int(frames))
        }
        return (samples, fileFormat)
    }

    // MARK: The imports rule

    /// Every corpus file imports AVFAudio and nothing else from this project: only AVFAudio and
    /// Foundation (this test file may import XCTest).
    func testCorpusFilesImportOnlyAVFAudioAndFoundation() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".swift") }.sorted()
        XCTAssertGreaterThanOrEqual(files.count, 7, "the corpus: \(files)")
        for name in files {
            let text = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
            let modules = text.split(separator: "\n").compactMap { line -> String? in
                let words = line.split(separator: " ")
                guard words.first == "import", words.count >= 2 else { return nil }
                return String(words[1])
            }
            let allowed: Set<String> = name == "CorpusTests.swift" ? ["AVFAudio", "Foundation", "XCTest"] : ["AVFAudio", "Foundation"]
            for module in modules where !allowed.contains(module) { XCTFail("\(name) imports \(module); allowed: \(allowed.sorted())") }
            XCTAssertTrue(modules.contains("AVFAudio"), "\(name) imports AVFAudio")
        }
    }

    // MARK: Engine: player → effect → mixer → output, offline

    func testOfflineManualRenderingOfAFileThroughADelayMixesDryAndDelayedHalves() throws {
        let source = directory + "/source.wav", output = directory + "/output.wav"
        let impulses: [Int: Float] = [0: 1, 300: -0.5, 5000: 0.25, 9000: 0.75]
        let length = 10_000
        writeFloatWAV(source, (0..<length).map { impulses[$0] ?? 0 }, sampleRate: 44_100)

        try OfflineEffectRenderer().render(
            sourceURL: URL(fileURLWithPath: source), outputURL: URL(fileURLWithPath: output), delayTime: 0.01)

        let (samples, format) = readMonoFloat(output)
        XCTAssertEqual(format.mSampleRate, 44_100)
        XCTAssertEqual(format.mBitsPerChannel, 32, "the output file has the source's file format")
        let d = 441  // 0.01 s at 44.1 kHz
        let expected = (0..<length).map { n in 0.5 * (impulses[n] ?? 0) + 0.5 * (impulses[n - d] ?? 0) }
        assertSamplesEqual(samples, expected, "rendered file")
    }

    // MARK: Engine: player → reverb → time-pitch → mixer → output, offline

    /// A dry reverb and the time-pitch at +1200 cents: a one-second 441 Hz tone comes out at
    /// 882 Hz (within 1 %, zero crossings of the file read back with ExtAudioFile) and still lasts
    /// one second (within 1024 frames).
    func testOfflineRenderingThroughReverbAndTimePitchShiftsAnOctaveKeepingTheLength() throws {
        let source = directory + "/tone.wav", output = directory + "/octave.wav"
        let length = 2 * 44_100
        writeFloatWAV(
            source, (0..<length).map { $0 < 44_100 ? 0.5 * Float(sin(2 * Double.pi * 441 * Double($0) / 44_100)) : 0 }, sampleRate: 44_100)
        try OfflineReverbTimePitchRenderer().render(
            sourceURL: URL(fileURLWithPath: source), outputURL: URL(fileURLWithPath: output), preset: .mediumHall, wetDryMix: 0,
            rate: 1, pitch: 1200)
        let (samples, format) = readMonoFloat(output)
        XCTAssertEqual(format.mSampleRate, 44_100)
        XCTAssertEqual(samples.count, length)
        let first = try XCTUnwrap(samples.firstIndex { abs($0) > 0.05 }), last = try XCTUnwrap(samples.lastIndex { abs($0) > 0.05 })
        XCTAssertEqual(Double(last - first), 44_100, accuracy: 1024)
        var crossings: [Double] = []
        for i in (first + 2048)..<(last - 2048) where samples[i - 1] < 0 && samples[i] >= 0 {
            crossings.append(Double(i - 1) + Double(-samples[i - 1] / (samples[i] - samples[i - 1])))
        }
        let frequency = Double(crossings.count - 1) / (crossings.last! - crossings.first!) * 44_100
        XCTAssertEqual(frequency, 882, accuracy: 8.82)
    }

    /// A fully wet large hall with the time-pitch at rate 1, pitch 0 (exact pass-through): the
    /// impulse response's RT60 (Schroeder backward integration, T30 × 2, computed here) lies
    /// between the preset's decay times at Nyquist and at 0 Hz (this project's Large Hall: 1.1 and
    /// 2.4 s).
    func testOfflineRenderingOfAnImpulseThroughALargeHallRingsForItsDecayTime() throws {
        let source = directory + "/impulse.wav", output = directory + "/hall.wav"
        let length = 4 * 44_100
        writeFloatWAV(source, (0..<length).map { $0 == 0 ? 1 : 0 }, sampleRate: 44_100)
        try OfflineReverbTimePitchRenderer().render(
            sourceURL: URL(fileURLWithPath: source), outputURL: URL(fileURLWithPath: output), preset: .largeHall, wetDryMix: 100,
            rate: 1, pitch: 0)
        let (samples, _) = readMonoFloat(output)
        var remaining = [Double](repeating: 0, count: samples.count + 1)
        for i in stride(from: samples.count - 1, through: 0, by: -1) { remaining[i] = remaining[i + 1] + Double(samples[i] * samples[i]) }
        func crossing(_ dB: Double) -> Double { Double(remaining.firstIndex { $0 < remaining[0] * pow(10, dB / 10) } ?? 0) / 44_100 }
        let rt60 = 2 * (crossing(-35) - crossing(-5))
        XCTAssertGreaterThan(rt60, 1.1)
        XCTAssertLessThan(rt60, 2.4)
    }

    // MARK: Taps

    func testTapOnTheMainMixerDeliversExactlyWhatWasRenderedInBuffersOfItsSizeWithTheirTimes() throws {
        let recorder = MixerTapRecorder()
        let rendered = try recorder.run(frames: 5_000, tapSize: 1_024)
        XCTAssertEqual(recorder.done.wait(timeout: .now() + 30), .success, "the tap delivered 4 buffers")
        recorder.stop()
        let expected = (0..<5_000).map { Float($0 % 1000) / 1000 }
        assertSamplesEqual(rendered, expected, "renderOffline output")
        assertSamplesEqual(recorder.recorded, Array(expected.prefix(4_096)), "tap")
        XCTAssertEqual(recorder.bufferSizes, [1_024, 1_024, 1_024, 1_024])
        XCTAssertEqual(recorder.times, [0, 1_024, 2_048, 3_072])
    }

    // MARK: Scheduling at times

    func testBufferAndFileSegmentPlayAtTheirScheduledSampleTimes() throws {
        let path = directory + "/segment.wav"
        let fileSamples = (0..<2_000).map { Float($0) / 2_000 }
        writeFloatWAV(path, fileSamples, sampleRate: 44_100)
        let file = try AVAudioFile(forReading: URL(fileURLWithPath: path))
        let buffer = AVAudioPCMBuffer(pcmFormat: file.processingFormat, frameCapacity: 300)!
        for i in 0..<300 { buffer.floatChannelData![0][i] = -Float(i + 1) / 300 }
        buffer.frameLength = 300

        let scheduler = SegmentScheduler()
        let output = try scheduler.render(
            file: file, buffer: buffer, bufferTime: 1_000, segmentStart: 100, segmentLength: 500, segmentTime: 3_000, frames: 4_096)
        var expected = [Float](repeating: 0, count: 4_096)
        for i in 0..<300 { expected[1_000 + i] = -Float(i + 1) / 300 }
        for i in 0..<500 { expected[3_000 + i] = fileSamples[100 + i] }
        assertSamplesEqual(output, expected, "player output")
        XCTAssertEqual(scheduler.playerTime, 3_584, "player time of the last render cycle's first frame (7 cycles of 512)")
        scheduler.engine.deliverPendingCallbacks()
        XCTAssertEqual(Set(scheduler.completedSoFar), ["buffer", "segment 2"])
    }

    // MARK: Files

    func testAVAudioFileWritesA16BitWAVAndReadsItBackAsFloatAndAsInterleavedInt16() throws {
        let url = URL(fileURLWithPath: directory + "/file.wav")
        let left = (0..<1_000).map { Float($0 - 500) / 512 }  // exact multiples of 1/512 → exact Int16
        let right = left.map { -$0 / 2 }
        let roundTrip = AudioFileRoundTrip(url: url)
        try roundTrip.write([left, right], sampleRate: 22_050)

        // Independently: the file's format as ExtAudioFile reports it.
        var file: ExtAudioFileRef?
        XCTAssertEqual(ExtAudioFileOpenPath(url.path, &file), noErr)
        var format = AudioStreamBasicDescription()
        var size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
        ExtAudioFileGetProperty(file!, kExtAudioFileProperty_FileDataFormat, &size, &format)
        ExtAudioFileDispose(file!)
        XCTAssertEqual(format.mBitsPerChannel, 16)
        XCTAssertEqual(format.mChannelsPerFrame, 2)
        XCTAssertEqual(format.mSampleRate, 22_050)

        let floats = try roundTrip.readFloat()
        assertSamplesEqual(floats[0], left, "left")
        assertSamplesEqual(floats[1], right, "right")

        let (fileFormat, processing, length, ints) = try roundTrip.readInt16(from: 600)
        XCTAssertEqual(fileFormat.commonFormat, .pcmFormatInt16)
        XCTAssertEqual(processing.commonFormat, .pcmFormatInt16)
        XCTAssertTrue(processing.isInterleaved)
        XCTAssertEqual(length, 1_000)
        let expected = (600..<1_000).flatMap { i in [Int16(left[i] * 32_768), Int16(right[i] * 32_768)] }
        XCTAssertEqual(ints, expected)
    }

    // MARK: Converter

    func testConverterResamplesA441HzSineFrom44100To48000() throws {
        let inputFormat = AVAudioFormat(standardFormatWithSampleRate: 44_100, channels: 2)!
        let input = AVAudioPCMBuffer(pcmFormat: inputFormat, frameCapacity: 4_410)!
        for i in 0..<4_410 {
            let s = Float(0.5 * sin(2 * Double.pi * 441 * Double(i) / 44_100))
            input.floatChannelData![0][i] = s
            input.floatChannelData![1][i] = -s
        }
        input.frameLength = 4_410
        let output = try resample(input, to: AVAudioFormat(standardFormatWithSampleRate: 48_000, channels: 2)!)
        XCTAssertEqual(output[0].count, 4_800, "0.1 s at 48 kHz")
        // Away from the ends, frame k is the sine at k / 48000 (libsoxr keeps the output aligned);
        // tolerance 2e-4, the resampler's passband error for this tone.
        for k in stride(from: 500, to: 4_300, by: 7) {
            let expected = Float(0.5 * sin(2 * Double.pi * 441 * Double(k) / 48_000))
            XCTAssertEqual(output[0][k], expected, accuracy: 2e-4, "frame \(k)")
            XCTAssertEqual(output[1][k], -output[0][k], "frame \(k), right")
        }
    }

    // MARK: Compressed buffers and decoding

    /// Runs a command-line encoder; skips the test when it is not installed.
    func encode(_ arguments: String...) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw XCTSkip("\(arguments[0]) failed; install it (scripts/debian-packages.txt)") }
    }

    /// A 16-bit stereo WAV of the given samples, written with ExtAudioFile's C API.
    func writeInt16WAV(_ path: String, _ interleaved: [Int16], sampleRate: Double) {
        var format = AudioStreamBasicDescription(
            mSampleRate: sampleRate, mFormatID: kAudioFormatLinearPCM,
            mFormatFlags: kAudioFormatFlagIsSignedInteger | kAudioFormatFlagIsPacked,
            mBytesPerPacket: 4, mFramesPerPacket: 1, mBytesPerFrame: 4, mChannelsPerFrame: 2, mBitsPerChannel: 16, mReserved: 0)
        var file: ExtAudioFileRef?
        XCTAssertEqual(ExtAudioFileCreateWithPath(path, kAudioFileWAVEType, &format, nil, AudioFileFlags.eraseFile.rawValue, &file), noErr)
        var copy = interleaved
        copy.withUnsafeMutableBytes { bytes in
            var list = AudioBufferList(
                mNumberBuffers: 1, mBuffers: AudioBuffer(mNumberChannels: 2, mDataByteSize: UInt32(bytes.count), mData: bytes.baseAddress))
            XCTAssertEqual(ExtAudioFileWrite(file!, UInt32(interleaved.count / 2), &list), noErr)
        }
        ExtAudioFileDispose(file!)
    }

    /// A FLAC file (made here with the flac encoder from 16-bit samples computed here: a 441 Hz
    /// sine on the left, noise from a linear congruential generator on the right, 30000 frames)
    /// decodes through AudioFileStream, AVAudioCompressedBuffer and AVAudioConverter to exactly
    /// those samples over 32768 (FLAC is lossless; libFLAC's samples scale by 2^15).
    func testCompressedBuffersOfAFLACFileDecodeToItsExactSamples() throws {
        let frames = 30_000
        var seed: UInt32 = 12_345
        var interleaved: [Int16] = []
        for i in 0..<frames {
            interleaved.append(Int16((0.5 * sin(2 * Double.pi * 441 * Double(i) / 44_100) * 32_767).rounded()))
            seed = seed &* 1_664_525 &+ 1_013_904_223
            interleaved.append(Int16(truncatingIfNeeded: seed >> 16))
        }
        let wav = directory + "/source.wav", flac = directory + "/source.flac"
        writeInt16WAV(wav, interleaved, sampleRate: 44_100)
        try encode("flac", "--silent", "-f", "-o", flac, wav)

        let decoder = CompressedFileDecoder()
        let samples = try decoder.decode(url: URL(fileURLWithPath: flac))
        XCTAssertEqual(decoder.format?.streamDescription.pointee.mFormatID, kAudioFormatFLAC)
        XCTAssertEqual(decoder.format?.commonFormat, .otherFormat)
        XCTAssertNotNil(decoder.format?.magicCookie, "FLAC's STREAMINFO")
        XCTAssertEqual(samples.count, 2)
        for c in 0..<2 {
            let expected = stride(from: c, to: interleaved.count, by: 2).map { Float(interleaved[$0]) / 32_768 }
            assertSamplesEqual(samples[c], expected, "channel \(c)")
        }
    }

    /// An Opus file (opusenc, from a 0.5-amplitude 1000 Hz sine at 48 kHz computed here) decodes
    /// through the same program to about the file's length (within one 20 ms packet) and a sine of
    /// amplitude 0.5 at 1000 Hz (least-squares fit over the middle, within 0.01; Opus is lossy).
    func testCompressedBuffersOfAnOpusFileDecodeToTheSine() throws {
        let frames = 48_000
        let tone = (0..<frames).flatMap { i -> [Int16] in
            let s = Int16((0.5 * sin(2 * Double.pi * 1_000 * Double(i) / 48_000) * 32_767).rounded())
            return [s, s]
        }
        let wav = directory + "/tone.wav", opus = directory + "/tone.opus"
        writeInt16WAV(wav, tone, sampleRate: 48_000)
        try encode("opusenc", "--quiet", wav, opus)

        let decoder = CompressedFileDecoder()
        let samples = try decoder.decode(url: URL(fileURLWithPath: opus))
        XCTAssertEqual(decoder.format?.streamDescription.pointee.mFormatID, kAudioFormatOpus)
        XCTAssertEqual(Double(samples[0].count), Double(frames), accuracy: 960)
        var ss = 0.0, sc = 0.0, cc = 0.0, ys = 0.0, yc = 0.0
        for n in 4_800..<43_200 {
            let phase = 2 * Double.pi * 1_000 * Double(n) / 48_000
            let (s, c, y) = (sin(phase), cos(phase), Double(samples[1][n]))
            ss += s * s; sc += s * c; cc += c * c; ys += y * s; yc += y * c
        }
        let det = ss * cc - sc * sc
        let a = (ys * cc - yc * sc) / det, b = (yc * ss - ys * sc) / det
        XCTAssertEqual((a * a + b * b).squareRoot(), 0.5, accuracy: 0.01)
    }

    // MARK: Any component

    /// eg-amp (lv2-examples, on the tests' LV2_PATH) at −6 dB computes out = in · powf(10, −6 · 0.05).
    func testLV2AmplifierInstantiatedByDescriptionAppliesItsGainExactlyInAndOutOfProcess() throws {
        let egAmp = AudioComponentDescription(
            componentType: kAudioUnitType_Effect, componentSubType: 0x3556_4C66 /* '5VLf' */,
            componentManufacturer: 0x516B_684E /* 'QkhN' */,
            componentFlags: 0, componentFlagsMask: 0)
        let input = (0..<2_000).map { Float(($0 * 37) % 200 - 100) / 128 }
        let coefficient = powf(10, -6 * 0.05)
        let expected = input.map { $0 * coefficient }
        for options: AudioComponentInstantiationOptions in [[], .loadOutOfProcess] {
            let output = try ComponentEffectHost().render(egAmp, options: options, gain: -6, input: input)
            assertSamplesEqual(output, expected, "eg-amp, options \(options.rawValue)")
        }
    }
}

extension AVFAudioCorpusTests {
    // MARK: Source and sink nodes

    func testSourceNodeSineReachesTheOutputAndTheInputReachesTheSinkNodeAtTheRenderTimes() throws {
        let input = (0..<3_000).map { Float(($0 * 11) % 256) / 256 - 0.5 }
        let host = SineSourceAndInputSink(frequency: 1_000, input: input)
        let output = try host.run(frames: 3_000)
        // The phase is accumulated in Double as the block does; Float rounding only.
        var phase = 0.0
        let expected = (0..<3_000).map { _ -> Float in
            defer { phase += 2 * Double.pi * 1_000 / 48_000 }
            return Float(sin(phase))
        }
        assertSamplesEqual(output, expected, "source node through the main mixer")
        assertSamplesEqual(host.received, input, "sink node")
        XCTAssertEqual(host.receivedTimes, [0, 1_024, 2_048], "one call per render cycle at the engine's sample time")
    }
}

extension AVFAudioCorpusTests {
    // MARK: AVAudioPlayer

    func testAudioPlayerPlaysAFileTwiceOnTheDeviceAndTellsItsDelegate() throws {
        let source = directory + "/sound.wav", played = directory + "/played.raw"
        let sound = (0..<3_000).map { Float(($0 * 5) % 512 - 256) / 512 }
        writeFloatWAV(source, sound, sampleRate: 44_100)
        let playback = FilePlayback()
        XCTAssertTrue(try playback.play(URL(fileURLWithPath: source), device: "file:FILE=\(played),FORMAT=raw"))
        XCTAssertEqual(playback.player?.duration ?? 0, 3_000 / 44_100, accuracy: 1e-12)
        XCTAssertEqual(playback.finished.wait(timeout: .now() + 30), .success, "the delegate heard the end")
        XCTAssertEqual(playback.finishedSuccessfully, true)
        XCTAssertEqual(playback.player?.isPlaying, false)
        XCTAssertEqual(playback.player?.currentTime, 0, "back at the start after the last loop")
        playback.player = nil

        // ALSA's file PCM wrote the device's bytes: FLOAT_LE (the ALSA I/O unit's first choice,
        // which the null PCM grants), one channel, at the file's rate (asked of the device).
        let bytes = try Data(contentsOf: URL(fileURLWithPath: played))
        let samples = bytes.withUnsafeBytes { raw in (0..<raw.count / 4).map { raw.load(fromByteOffset: $0 * 4, as: Float.self) } }
        XCTAssertGreaterThanOrEqual(samples.count, 6_000)
        assertSamplesEqual(Array(samples.prefix(6_000)), sound + sound, "what the device played")
        XCTAssertTrue(samples.dropFirst(6_000).allSatisfy { $0 == 0 }, "silence after the last loop until the device stopped")
    }
}

extension AVFAudioCorpusTests {
    // MARK: AVAudioSequencer

    /// A type-0 file at 480 ticks a beat, 120 bpm (the default): middle C at beat 1 (0.5 s, frame
    /// 22,050 at 44.1 kHz). eg-sampler plays its click.wav (44.1 kHz, 8-bit) from the note's frame.
    func testSequencerPlaysAMIDIFileIntoTheSamplerAtTheNotesFrame() throws {
        func be(_ v: UInt32, _ n: Int) -> [UInt8] { (0..<n).map { UInt8(truncatingIfNeeded: v >> (8 * UInt32(n - 1 - $0))) } }
        let events: [UInt8] = [0x83, 0x60, 0x90, 60, 100, 0x83, 0x60, 0x80, 60, 0, 0x00, 0xFF, 0x2F, 0x00]  // 480 ticks, on; 480, off; end
        let midi =
            Array("MThd".utf8) + be(6, 4) + be(0, 2) + be(1, 2) + be(480, 2) + Array("MTrk".utf8) + be(UInt32(events.count), 4) + events
        let path = directory + "/note.mid"
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data(midi)))

        let output = try SequencedSampler().render(midiFile: URL(fileURLWithPath: path), frames: 30_000)

        // click.wav, read independently through ExtAudioFile.
        // Where lilv finds it: LV2_PATH, else the default path (lv2-examples installs it there).
        let folders =
            ProcessInfo.processInfo.environment["LV2_PATH"].map { $0.split(separator: ":").map(String.init) }
            ?? [NSHomeDirectory() + "/.lv2", "/usr/local/lib/lv2", "/usr/lib/lv2", "/usr/lib/x86_64-linux-gnu/lv2"]
        let clickPath = folders.map { $0 + "/eg-sampler.lv2/click.wav" }.first { FileManager.default.fileExists(atPath: $0) }
        let click = readMonoFloat(try XCTUnwrap(clickPath, "eg-sampler on LV2_PATH")).samples
        XCTAssertEqual(click.count, 600)
        // eg-sampler plays the first 599 of the file's 600 frames here (the 600th never sounds;
        // observed, not investigated further), then silence; the note-off changes nothing.
        var expected = [Float](repeating: 0, count: 30_000)
        for (i, s) in click.prefix(599).enumerated() { expected[22_050 + i] = s }
        assertSamplesEqual(output, expected, "sampler output")
    }

    /// AVAudioUnitSampler with TimGM6mb (package timgm6mb-soundfont): middle C on the piano is
    /// audible (RMS over 0.003) and repeats every 183.5 frames at 48 kHz (261.6 Hz) within 2 %,
    /// the lag of the best autocorrelation between 200 and 400 Hz.
    func testSamplerPlaysMiddleCFromASoundFontBank() throws {
        let bank = "/usr/share/sounds/sf2/TimGM6mb.sf2"
        try XCTSkipUnless(FileManager.default.fileExists(atPath: bank), "timgm6mb-soundfont is not installed")
        let output = Array(try SoundFontSampler().render(bankURL: URL(fileURLWithPath: bank), note: 60, frames: 24_000).dropFirst(2_400))
        let level = (output.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(output.count)).squareRoot()
        XCTAssertGreaterThan(level, 0.003)
        let window = output.count - 240
        let lags = 120...240
        let scores = lags.map { lag in (0..<window).reduce(0.0) { $0 + Double(output[$1]) * Double(output[$1 + lag]) } }
        let best = lags.lowerBound + scores.indices.max { scores[$0] < scores[$1] }!
        XCTAssertEqual(48_000 / Double(best), 261.63, accuracy: 261.63 * 0.02)
    }
}

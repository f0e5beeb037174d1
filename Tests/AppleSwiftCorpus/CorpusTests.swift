import XCTest
import AudioToolbox
import Foundation

/// Runs every corpus file (Swift written from Apple's documents and samples exactly as on Apple's
/// platforms, importing only AudioToolbox and Foundation) and checks the samples it produces
/// against expectations computed here from the documented behaviour.
final class CorpusTests: XCTestCase {
    var directory: String!

    override func setUpWithError() throws {
        directory = NSTemporaryDirectory() + "apple-swift-corpus-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }

    override func tearDown() {
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// Index of the first sample that differs (exactly), or nil.
    func firstDifference(_ a: [Float32], _ b: [Float32]) -> Int? {
        if a.count != b.count { return min(a.count, b.count) }
        return a.indices.first { a[$0] != b[$0] }
    }

    func assertSamplesEqual(_ actual: [Float32], _ expected: [Float32], _ what: String, file: StaticString = #filePath, line: UInt = #line)
    {
        if let i = firstDifference(actual, expected) {
            let got = i < actual.count ? "\(actual[i])" : "nothing (\(actual.count) samples)"
            let wanted = i < expected.count ? "\(expected[i])" : "nothing (\(expected.count) samples)"
            XCTFail("\(what): sample \(i) is \(got), expected \(wanted)", file: file, line: line)
        }
    }

    // MARK: The imports rule

    /// Every corpus file imports AudioToolbox and nothing from this project besides: only
    /// AudioToolbox and Foundation (the test file itself may import XCTest).
    func testCorpusFilesImportOnlyAudioToolboxAndFoundation() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".swift") }.sorted()
        let corpus = files.filter { $0 != "CorpusTests.swift" }
        XCTAssertGreaterThanOrEqual(corpus.count, 12, "the corpus has at least 12 files: \(corpus)")
        for name in files {
            let text = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
            var modules: [String] = []
            for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
                let words = line.split(separator: " ").map(String.init)
                guard let index = words.firstIndex(of: "import"), words[..<index].allSatisfy({ $0.hasPrefix("@") }),
                    index + 1 < words.count
                else { continue }
                // `import struct Module.Type` names a kind before the module.
                let kinds: Set<String> = ["struct", "class", "enum", "protocol", "typealias", "func", "var", "let"]
                let target = kinds.contains(words[index + 1]) && index + 2 < words.count ? words[index + 2] : words[index + 1]
                modules.append(String(target.split(separator: ".").first ?? ""))
            }
            let allowed: Set<String> =
                name == "CorpusTests.swift" ? ["AudioToolbox", "Foundation", "XCTest"] : ["AudioToolbox", "Foundation"]
            for module in modules where !allowed.contains(module) {
                XCTFail("\(name) imports \(module); corpus files may import only \(allowed.sorted())")
            }
            XCTAssertTrue(modules.contains("AudioToolbox"), "\(name) imports AudioToolbox")
        }
    }

    // MARK: Render callbacks, buffer lists, converters

    func testSineRenderCallbackWithUnmanagedRefConIsWhatTheGenericOutputDelivers() {
        let player = GenericOutputSinePlayer(frequency: 441)
        let channels = player.render(slices: 4, framesPerSlice: 512)
        let expected = (0..<2048).map { n in Float32(0.5 * sin(2 * Double.pi * 441 * Double(n) / 44100)) }
        XCTAssertEqual(channels.count, 2)
        for (c, channel) in channels.enumerated() { assertSamplesEqual(channel, expected, "channel \(c)") }
        XCTAssertEqual(player.generator.sampleTime, 2048, "the callback ran once per slice")
    }

    func testBufferListHelpersIterateEveryBufferOfAFourChannelRender() {
        let renderer = BufferListRenderer(channelCount: 4)
        XCTAssertEqual(renderer.listSize, MemoryLayout<AudioBufferList>.offset(of: \.mBuffers)! + 4 * MemoryLayout<AudioBuffer>.stride)
        let channels = renderer.render(slices: 3, frames: 256)
        XCTAssertEqual(channels.count, 4)
        for c in 0..<4 {
            let expected = (0..<768).map { n in Float(c + 1) * (Float(n % 1024) / 1024 - 0.5) }
            assertSamplesEqual(channels[c], expected, "channel \(c)")
        }
    }

    func testConverterTurnsFloatIntoInterleavedInt16AndHonoursTheChannelMap() {
        let k = (0..<1024).map { i in (i * 37) % 65536 - 32768 }
        let straight = ConverterChannelSwapper().convert(frames: 1024, swapChannels: false)
        let swapped = ConverterChannelSwapper().convert(frames: 1024, swapChannels: true)
        let left = k.map { Int16($0) }, right = k.map { Int16(-$0 - 1) }
        XCTAssertEqual(straight, (0..<1024).flatMap { [left[$0], right[$0]] })
        XCTAssertEqual(swapped, (0..<1024).flatMap { [right[$0], left[$0]] })
    }

    func testStreamedWAVIsParsedInPiecesAndResampledThroughAudioConverter() {
        // A 16-bit stereo WAV of 4410 frames at 44.1 kHz (a 441 Hz sine, half scale) fed in 333-byte
        // pieces, converted to Float32 interleaved at 48 kHz: 4800 frames, the sine at 0.5.
        let frames = 4_410
        var pcm: [Int16] = []
        for i in 0..<frames {
            let s = Int16((0.5 * sin(2 * Double.pi * 441 * Double(i) / 44_100) * 32_767).rounded())
            pcm += [s, s]
        }
        func le(_ v: UInt32, _ n: Int) -> [UInt8] { (0..<n).map { UInt8(truncatingIfNeeded: v >> (8 * UInt32($0))) } }
        let data = pcm.withUnsafeBytes { Array($0) }
        let wav =
            Array("RIFF".utf8) + le(UInt32(36 + data.count), 4) + Array("WAVEfmt ".utf8) + le(16, 4) + le(1, 2) + le(2, 2)
            + le(44_100, 4) + le(44_100 * 4, 4) + le(4, 2) + le(16, 2) + Array("data".utf8) + le(UInt32(data.count), 4) + data
        let output = AudioStreamBasicDescription(
            mSampleRate: 48_000, mFormatID: kAudioFormatLinearPCM, mFormatFlags: kAudioFormatFlagsNativeFloatPacked,
            mBytesPerPacket: 8, mFramesPerPacket: 1, mBytesPerFrame: 8, mChannelsPerFrame: 2, mBitsPerChannel: 32, mReserved: 0)
        let player = StreamedFilePlayer(outputFormat: output)
        let samples = player.play(wav, chunk: 333)
        XCTAssertEqual(player.status, noErr)
        XCTAssertEqual(player.packetCount, UInt32(frames))
        XCTAssertEqual(samples.count / 2, 4_800)
        // Away from the ends, sample k is the sine at k / 48000 (libsoxr keeps the output aligned).
        for k in stride(from: 500, to: 4_300, by: 7) {
            let expected = Float(0.5 * sin(2 * Double.pi * 441 * Double(k) / 48_000)) * 32_767 / 32_768
            XCTAssertEqual(samples[2 * k], expected, accuracy: 2e-4, "frame \(k)")
            XCTAssertEqual(samples[2 * k + 1], samples[2 * k], "frame \(k)")
        }
    }

    // MARK: Graphs and connections

    func testAUGraphMixerPulledOfflineThroughTheGenericOutputScalesEachBusByItsVolume() {
        let a = (0..<64).map { Float32($0 - 32) / 64 }
        let b = (0..<128).map { Float32(($0 * 5) % 128 - 64) / 128 }
        let host = MixerHostOfflineGraph(sounds: [a, b], busVolumes: [0.5, 0.25])
        host.configureAndInitializeAudioProcessingGraph()
        XCTAssertTrue(host.isInitialized, "AUGraphIsInitialized after AUGraphInitialize")
        let output = host.renderOffline(slices: 4, framesPerSlice: 512)
        host.dispose()
        let expected = (0..<2048).map { n in 0.5 * a[n % 64] + 0.25 * b[n % 128] }
        assertSamplesEqual(output[0], expected, "left")
        assertSamplesEqual(output[1], expected, "right")
    }

    func testDirectConnectionFromTheDelayMixesDryAndDelayedImpulsesHalfAndHalf() {
        let impulses: Set<Int> = [0, 300, 1000]
        let chain = DirectDelayChain(impulseFrames: impulses)
        let delayTime: Float32 = 0.01
        chain.build(sampleRate: 44100, delayTime: delayTime, wetDryMix: 50)
        let output = chain.pull(frames: 2048, framesPerSlice: 512)
        chain.dispose()
        let d = Int((Double(delayTime) * 44100).rounded())
        XCTAssertEqual(d, 441)
        let expected = (0..<2048).map { n -> Float32 in
            (impulses.contains(n) ? 0.5 : 0) + (impulses.contains(n - d) ? 0.5 : 0)
        }
        assertSamplesEqual(output, expected, "delay output")
    }

    func testCapturedBuffersGoThroughTheDelayIntoAnAsyncWrittenFile() throws {
        let path = directory + "/capture.wav"
        let delayTime: Float32 = 0.0125
        let controller = CaptureSessionController(sampleRate: 44100, delayTime: delayTime, outputPath: path)
        let impulses: Set<Int> = [0, 700]
        let buffer = UnsafeMutablePointer<Float32>.allocate(capacity: 512)
        defer { buffer.deallocate() }
        for slice in 0..<6 {
            for i in 0..<512 { buffer[i] = impulses.contains(slice * 512 + i) ? 1 : 0 }
            controller.captureOutput(didOutput: buffer, numberOfFrames: 512)
        }
        controller.stopRecording()
        let file = try XCTUnwrap(ExtAudioFileReader.read(path: path), "read \(path)")
        let d = Int((Double(delayTime) * 44100).rounded())
        XCTAssertEqual(d, 551)
        XCTAssertEqual(file.fileLengthFrames, 3072)
        XCTAssertEqual(file.channels.count, 1)
        let expected = (0..<3072).map { n -> Float32 in impulses.contains(n - d) ? 1 : 0 }
        assertSamplesEqual(file.channels.first ?? [], expected, "file written from the delay's output")
    }

    // MARK: Extended Audio File Services

    func testExtAudioFileWritesInt16FromAFloatClientAndReadsItBackExactly() throws {
        let path = directory + "/int16.wav"
        let k = (0..<10_000).map { ($0 * 91) % 65536 - 32768 }
        let left = k.map { Float32($0) / 32768 }, right = k.map { Float32(-$0 - 1) / 32768 }
        XCTAssertEqual(
            ExtAudioFileWriter.writeInt16File(path: path, fileType: kAudioFileWAVEType, sampleRate: 48000, channels: [left, right]), noErr)
        let file = try XCTUnwrap(ExtAudioFileReader.read(path: path))
        XCTAssertEqual(file.fileDataFormat.mSampleRate, 48000)
        XCTAssertEqual(file.fileDataFormat.mChannelsPerFrame, 2)
        XCTAssertEqual(file.fileDataFormat.mBitsPerChannel, 16)
        XCTAssertEqual(file.fileDataFormat.mFormatFlags & kAudioFormatFlagIsFloat, 0)
        XCTAssertEqual(file.fileLengthFrames, 10_000)
        assertSamplesEqual(file.channels[0], left, "left")
        assertSamplesEqual(file.channels[1], right, "right")
    }

    func testExtAudioFileConvertSampleTurnsAFloatWAVEIntoA16BitCAF() throws {
        let source = directory + "/source.wav", destination = directory + "/converted.caf"
        let samples = (0..<20_000).map { Float32(($0 * 123) % 65536 - 32768) / 32768 }
        XCTAssertEqual(Float32FileWriter.write(path: source, sampleRate: 22050, samples: samples), noErr)
        XCTAssertEqual(ExtAudioFileConverter.doConvertFile(sourcePath: source, destinationPath: destination), noErr)
        let converted = try XCTUnwrap(ExtAudioFileReader.read(path: destination))
        XCTAssertEqual(converted.fileDataFormat.mBitsPerChannel, 16)
        XCTAssertEqual(converted.fileDataFormat.mSampleRate, 22050)
        XCTAssertEqual(converted.fileDataFormat.mChannelsPerFrame, 1)
        XCTAssertEqual(converted.fileLengthFrames, 20_000)
        assertSamplesEqual(converted.channels[0], samples, "converted samples")
    }

    func testAudioFilePlayerPlaysItsScheduledRegionThenSilence() throws {
        let path = directory + "/player.wav"
        let k = (0..<5000).map { ($0 * 29) % 65536 - 32768 }
        let left = k.map { Float32($0) / 32768 }, right = k.map { Float32(-$0 - 1) / 32768 }
        XCTAssertEqual(
            ExtAudioFileWriter.writeInt16File(path: path, fileType: kAudioFileWAVEType, sampleRate: 44100, channels: [left, right]), noErr)
        let player = AudioFilePlayerGraph()
        let output = player.play(path: path, startFrame: 1000, framesToPlay: 2000, totalFrames: 3000, framesPerSlice: 512)
        player.dispose()
        for (c, channel) in [left, right].enumerated() {
            let expected = Array(channel[1000..<3000]) + [Float32](repeating: 0, count: 1000)
            assertSamplesEqual(output[c], expected, "channel \(c)")
        }
    }

    // MARK: Listeners and notifications

    func testPropertyListenersSeeStreamFormatChangesAndIsRunningUntilRemoved() {
        let host = PropertyListenerHost()
        let formatChanges = host.observeStreamFormatChanges(rates: [48000, 96000], afterRemoval: 22050)
        XCTAssertEqual(
            formatChanges,
            [
                PropertyChange(propertyID: kAudioUnitProperty_StreamFormat, scope: kAudioUnitScope_Output, element: 0, value: 48000),
                PropertyChange(propertyID: kAudioUnitProperty_StreamFormat, scope: kAudioUnitScope_Output, element: 0, value: 96000),
            ])
        let runningChanges = PropertyListenerHost().observeIsRunning()
        XCTAssertEqual(
            runningChanges,
            [
                PropertyChange(propertyID: kAudioOutputUnitProperty_IsRunning, scope: kAudioUnitScope_Global, element: 0, value: 1),
                PropertyChange(propertyID: kAudioOutputUnitProperty_IsRunning, scope: kAudioUnitScope_Global, element: 0, value: 0),
            ])
    }

    func testRenderNotifySeesPreAndPostRenderAndThePostRenderSamplesUntilRemoved() {
        let host = MixerOutputTapHost()
        let received = host.render(slices: 4, frames: 256, outputVolume: 0.5)
        let expected = (0..<1024).map { Float32($0) / 4096 * 0.5 }
        assertSamplesEqual(received, expected, "mixer output at volume 0.5")
        assertSamplesEqual(host.tap.captured, expected, "what the post-render notification saw")
        XCTAssertEqual(host.tap.preRenderCount, 4)
        XCTAssertEqual(host.tap.postRenderCount, 4)
        XCTAssertEqual(host.tap.preRenderSampleTimes, [0, 256, 512, 768])
    }

    // MARK: Parameters

    func testScheduledImmediateChangesAndRampsApplyAtTheirFrames() {
        let automation = DelayMixAutomation()
        automation.setUp(sampleRate: 44100, maximumFrames: 1024)
        let first = automation.render(
            frames: 1024,
            scheduling: [
                DelayMixAutomation.immediate(kDelayParam_WetDryMix, value: 0, atOffset: 0),
                DelayMixAutomation.immediate(kDelayParam_WetDryMix, value: 50, atOffset: 128),
                DelayMixAutomation.ramp(kDelayParam_WetDryMix, from: 50, to: 100, startingAt: 256, over: 512),
            ])
        // Dry part only (the 1 s delay line is still empty): 1 − mix/100, mix linear over the ramp.
        func mix(_ n: Int) -> Double {
            switch n {
            case ..<128: return 0
            case ..<256: return 50
            case ..<768: return 50 + 50 * Double(n - 256) / 512
            default: return 100
            }
        }
        for n in 0..<1024 {
            XCTAssertEqual(Double(first[n]), 1 - mix(n) / 100, accuracy: 1e-6, "frame \(n)")
        }
        // AudioUnitSetParameter with a buffer offset: sample-accurate inside the next render call.
        AudioUnitSetParameter(automation.delayUnit!, kDelayParam_WetDryMix, kAudioUnitScope_Global, 0, 25, 300)
        let second = automation.render(frames: 1024)
        automation.dispose()
        assertSamplesEqual(second, (0..<1024).map { $0 < 300 ? 0 : 0.75 }, "second render call")
    }

    func testRampedMixerVolumeFadesTheBusOutFrameByFrame() {
        let output = MixerFadeOut().render(frames: 1024, fadeStart: 256, duration: 512)
        let expected = (0..<1024).map { n -> Float32 in n < 256 ? 1 : n >= 768 ? 0 : 1 - Float32(n - 256) / 512 }
        assertSamplesEqual(output, expected, "faded bus")
    }

    func testClassInfoPresetFileRestoresEveryParameterAndTheSound() throws {
        let path = directory + "/delay.aupreset"
        let store = DelayPresetStore()
        store.setParameter(kDelayParam_WetDryMix, 100)
        store.setParameter(kDelayParam_DelayTime, 0.01)
        store.setParameter(kDelayParam_Feedback, 0)
        store.setParameter(kDelayParam_LopassCutoff, 22050)
        try store.savePreset(to: path)
        XCTAssertTrue(try String(contentsOfFile: path, encoding: .utf8).contains("<plist"), "an XML property list")
        store.setParameter(kDelayParam_WetDryMix, 30)
        store.setParameter(kDelayParam_DelayTime, 0.5)
        store.setParameter(kDelayParam_Feedback, 40)
        store.setParameter(kDelayParam_LopassCutoff, 1000)
        try store.loadPreset(from: path)
        XCTAssertEqual(store.parameter(kDelayParam_WetDryMix), 100)
        XCTAssertEqual(store.parameter(kDelayParam_DelayTime), 0.01)
        XCTAssertEqual(store.parameter(kDelayParam_Feedback), 0)
        XCTAssertEqual(store.parameter(kDelayParam_LopassCutoff), 22050)
        let output = store.renderImpulse(frames: 2048)
        store.dispose()
        let d = Int((Double(Float32(0.01)) * 44100).rounded())
        assertSamplesEqual(output, (0..<2048).map { $0 == d ? 1 : 0 }, "impulse through the restored delay")
    }

    // MARK: Formats and presets

    func testPrintASBDListsTheCanonicalFormatAndAUnitsDefaultFormatIsCanonical() {
        func field(_ label: String, _ value: String) -> String {
            "  " + label + String(repeating: " ", count: 21 - label.count) + String(repeating: " ", count: max(0, 10 - value.count)) + value
        }
        let canonical = ASBDPrinter.canonicalAUASBD(sampleRate: 44100, channels: 2)
        let flags = kAudioFormatFlagIsFloat | kAudioFormatFlagIsPacked | kAudioFormatFlagIsNonInterleaved
        XCTAssertEqual(
            ASBDPrinter.printASBD(canonical),
            [
                field("Sample Rate:", "44100"), field("Format ID:", "lpcm"),
                field("Format Flags:", String(flags, radix: 16, uppercase: true)),
                field("Bytes per Packet:", "4"), field("Frames per Packet:", "1"), field("Bytes per Frame:", "4"),
                field("Channels per Frame:", "2"), field("Bits per Channel:", "32"),
            ].joined(separator: "\n"))
        // An effect's default output format is the canonical stereo format at 44.1 kHz, as on Apple.
        var description = AudioComponentDescription(
            componentType: kAudioUnitType_Effect, componentSubType: kAudioUnitSubType_Delay,
            componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0)
        var unit: AudioUnit?
        XCTAssertEqual(AudioComponentInstanceNew(AudioComponentFindNext(nil, &description)!, &unit), noErr)
        XCTAssertEqual(
            ASBDPrinter.printASBD(ASBDPrinter.streamFormat(of: unit!, scope: kAudioUnitScope_Output)), ASBDPrinter.printASBD(canonical))
        AudioComponentInstanceDispose(unit!)
    }

    func testIPodEQInstantiatedAsynchronouslyListsApplesPresetsAndFlatPassesAudioUnchanged() {
        let host = IPodEQPresetHost()
        host.instantiate()
        XCTAssertEqual(host.instantiationStatus, noErr)
        XCTAssertNotNil(host.iPodEQUnit)
        guard host.iPodEQUnit != nil else { return }
        defer { host.dispose() }
        let presets = host.factoryPresets()
        // The 22 presets the iPod EQ documents, by name.
        let documented: Set<String> = [
            "Acoustic", "Bass Booster", "Bass Reducer", "Classical", "Dance", "Deep", "Electronic", "Flat",
            "Hip-Hop", "Jazz", "Latin", "Loudness", "Lounge", "Piano", "Pop", "R&B", "Rock",
            "Small Speakers", "Spoken Word", "Treble Booster", "Treble Reducer", "Vocal Booster",
        ]
        XCTAssertEqual(Set(presets.map(IPodEQPresetHost.name(of:))), documented)
        let rock = presets.first { IPodEQPresetHost.name(of: $0) == "Rock" }!
        let flat = presets.first { IPodEQPresetHost.name(of: $0) == "Flat" }!
        let input = (0..<4096).map { n in Float32((n * 7919) % 2001 - 1000) / 1024 }
        XCTAssertEqual(host.select(rock), noErr)
        XCTAssertEqual(host.presentPresetName(), "Rock")
        XCTAssertNotEqual(host.process(input).first, input, "Rock changes the sound")
        XCTAssertEqual(host.select(flat), noErr)
        XCTAssertEqual(host.presentPresetName(), "Flat")
        for (c, channel) in host.process(input).enumerated() { assertSamplesEqual(channel, input, "Flat, channel \(c)") }
    }

    // MARK: MIDI

    func testMusicDeviceMIDIEventPlaysTheMDAPianoAtItsOffsetAndReleasesIt() throws {
        let piano = try XCTUnwrap(
            ComponentFinder.find(type: kAudioUnitType_MusicDevice, nameSuffix: "MDA Piano"),
            "mda Piano (LV2, mda-lv2) is found as an 'aumu' component")
        let host = MIDIInstrumentHost(component: piano, feedsInput: false)
        defer { host.dispose() }
        func peak(_ slices: [[[Float32]]]) -> Float32 { slices.flatMap { $0.flatMap { $0 } }.map(abs).max() ?? 0 }
        XCTAssertEqual(peak((0..<4).map { _ in host.renderSlice() }), 0, "silent before any note")
        let first = host.renderSlice(sending: [MIDINote(status: 0x90, note: 60, velocity: 100, offset: 100)])
        for (c, channel) in first.enumerated() {
            XCTAssertEqual(channel[0..<100].map(abs).max(), 0, "channel \(c): nothing before the note's offset")
        }
        XCTAssertGreaterThan(first.map { $0[100...].map(abs).max()! }.max()!, 0.01, "the note starts at its offset")
        XCTAssertGreaterThan(peak((0..<8).map { _ in host.renderSlice() }), 0.05, "the note sounds")
        _ = host.renderSlice(sending: [MIDINote(status: 0x80, note: 60, velocity: 0, offset: 0)])
        _ = (0..<300).map { _ in host.renderSlice() }  // 3.2 s of release tail
        XCTAssertLessThan(peak((0..<8).map { _ in host.renderSlice() }), 1e-4, "silent after note-off and its tail")
    }

    func testAMusicPlayerPlaysASequenceBuiltInCodeIntoTheGraphsInstrument() throws {
        let piano = try XCTUnwrap(ComponentFinder.find(type: kAudioUnitType_MusicDevice, nameSuffix: "MDA Piano"))
        // 90 BPM: beat 1 is 2/3 s = frame 29,400 at 44.1 kHz, beat 2 frame 58,800.
        let host = MusicSequenceOfflinePlayback(instrument: piano, tempo: 90, notes: [(2, 64, 0.5), (1, 60, 0.5)])
        defer { host.dispose() }
        XCTAssertEqual(host.listNotes().map(\.0), [1, 2])
        XCTAssertEqual(host.listNotes().map(\.1), [60, 64])
        XCTAssertEqual(host.roundTripTrackCount(), 1)
        XCTAssertEqual(host.start(), noErr)
        XCTAssertTrue(host.isPlaying)
        var left: [Float32] = []
        for _ in 0..<80 { left += host.render(frames: 1024) }
        XCTAssertEqual(left.firstIndex { $0 != 0 }, 29_400, "the first note at beat 1's frame")
    }

    func testMusicDeviceMIDIEventOpensAndClosesTheMIDIGateAtItsFrameOffsets() throws {
        let gate = try XCTUnwrap(
            ComponentFinder.find(type: kAudioUnitType_MusicEffect, nameSuffix: "Example MIDI Gate"),
            "eg-midigate (LV2, lv2-examples) is found as an 'aumf' component")
        let host = MIDIInstrumentHost(component: gate, feedsInput: true)
        defer { host.dispose() }
        let closed = host.renderSlice()
        for channel in closed { assertSamplesEqual(channel, [Float32](repeating: 0, count: 512), "gate closed without notes") }
        let notes = [
            MIDINote(status: 0x90, note: 64, velocity: 90, offset: 100),
            MIDINote(status: 0x80, note: 64, velocity: 0, offset: 300),
            MIDINote(status: 0x90, note: 67, velocity: 90, offset: 400),
        ]
        let gated = host.renderSlice(sending: notes)
        // eg-midigate's run() (the LV2 example's source) counts each event's note before it writes the frames that
        // precede the event, so frames [previous event, event) follow the count *after* the event.
        var expected = [Float32](repeating: 0, count: 512)
        var held = 0, start = 0
        for (index, note) in notes.enumerated() {
            held += note.status == 0x90 ? 1 : -1
            for n in start..<Int(note.offset) { expected[n] = held > 0 ? 0.25 : 0 }
            start = Int(note.offset)
            if index == notes.count - 1 { for n in start..<512 { expected[n] = held > 0 ? 0.25 : 0 } }
        }
        XCTAssertEqual(expected.filter { $0 != 0 }.count, 100 + 212, "the model itself: frames 0..<100 and 300..<512 open")
        for channel in gated { assertSamplesEqual(channel, expected, "input gated at the events' frame offsets") }
    }
}

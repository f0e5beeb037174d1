import Foundation
import AUHost
import LV2Units
import TestSupport
import XCTest

/// A tempo change inside a render cycle reaches an LV2 plug-in at its sample: the unit splits the
/// plug-in's run there and sends time:Position at the split (AUHostTime.h). The fixture
/// tempo-reporter (Tests/LV2HostTests/Fixtures/tempo_reporter.c) writes the tempo it was last sent
/// as its output, reading its events at the start of a run as DPF and JUCE plug-ins do.
final class LV2UnitTempoChangeTests: XCTestCase {
    private func lastMessage() -> String { String(cfString: AUHostCopyLastErrorMessage()?.takeRetainedValue()) ?? "" }
    let reporter = "urn:auhost:fixture:tempo-reporter"

    /// The LV2 plug-in `uri` (with `parameters` set) in a graph whose MusicSequence goes from
    /// `tempos[0]` to each later (beat, BPM), made with MusicTrackNewExtendedTempoEvent or loaded
    /// from a Standard MIDI File holding them (`fromMIDIFile`), fed `input` (an effect) and
    /// rendered `total` frames in 512-frame cycles at 48 kHz: its mono output.
    func renderWithTempoMap(
        _ uri: String, parameters: [(AudioUnitParameterID, Float)] = [], input: [Float]? = nil,
        tempos: [(beat: Double, bpm: Double)], fromMIDIFile: Bool = false, total: Int
    ) throws -> [Float] {
        let component = try XCTUnwrap(LV2Provider.component(uri: uri) ?? LV2UnitTestSupport.fixtures.component(uri: uri), uri)
        var graph: AUGraph?
        try AudioError.check(NewAUGraph(&graph), "NewAUGraph")
        defer { DisposeAUGraph(graph!) }
        var headDescription = AudioComponentDescription(type: kAudioUnitType_Output, subType: kAudioUnitSubType_GenericOutput)
        var pluginDescription = component.description
        var head: AUNode = 0, plugin: AUNode = 0
        try AudioError.check(AUGraphAddNode(graph!, &headDescription, &head), lastMessage())
        try AudioError.check(AUGraphAddNode(graph!, &pluginDescription, &plugin), lastMessage())
        try AudioError.check(AUGraphOpen(graph!), lastMessage())
        var units: [AudioUnit] = []
        for node in [plugin, head] {
            var unit: AudioUnit?
            try AudioError.check(AUGraphNodeInfo(graph!, node, nil, &unit), lastMessage())
            units.append(unit!)
        }
        var format = AudioStreamBasicDescription.canonical(sampleRate: 48_000, channels: 1)
        let formatSize = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
        var formats = [(units[0], kAudioUnitScope_Output), (units[1], kAudioUnitScope_Input), (units[1], kAudioUnitScope_Output)]
        if input != nil { formats.append((units[0], kAudioUnitScope_Input)) }
        for (unit, scope) in formats {
            try AudioError.check(AudioUnitSetProperty(unit, kAudioUnitProperty_StreamFormat, scope, 0, &format, formatSize), lastMessage())
        }
        for (id, value) in parameters {
            try AudioError.check(AudioUnitSetParameter(units[0], id, kAudioUnitScope_Global, 0, value, 0), lastMessage())
        }
        let feed = Feed(input ?? [])
        if input != nil {
            var callback = AURenderCallbackStruct(inputProc: Feed.callback, inputProcRefCon: Unmanaged.passUnretained(feed).toOpaque())
            try AudioError.check(AUGraphSetNodeInputCallback(graph!, plugin, 0, &callback), lastMessage())
        }
        try AudioError.check(AUGraphConnectNodeInput(graph!, plugin, 0, head, 0), lastMessage())
        try AudioError.check(AUGraphInitialize(graph!), lastMessage())

        var sequence: MusicSequence?
        try AudioError.check(NewMusicSequence(&sequence), "NewMusicSequence")
        defer { DisposeMusicSequence(sequence!) }
        if fromMIDIFile {
            let path = FileManager.default.temporaryDirectory.appendingPathComponent("tempo-\(getpid()).mid").path
            try Self.standardMIDIFile(tempos: tempos).write(to: URL(fileURLWithPath: path))
            defer { try? FileManager.default.removeItem(atPath: path) }
            let url = CFURLCreateFromFileSystemRepresentation(nil, path, path.utf8.count, false)!
            try AudioError.check(MusicSequenceFileLoad(sequence!, url, .midiType, []), lastMessage())
        } else {
            var tempoTrack: MusicTrack?
            try AudioError.check(MusicSequenceGetTempoTrack(sequence!, &tempoTrack), lastMessage())
            for (beat, bpm) in tempos { try AudioError.check(MusicTrackNewExtendedTempoEvent(tempoTrack!, beat, bpm), lastMessage()) }
        }
        try AudioError.check(MusicSequenceSetAUGraph(sequence!, graph!), lastMessage())
        var player: MusicPlayer?
        try AudioError.check(NewMusicPlayer(&player), "NewMusicPlayer")
        defer { DisposeMusicPlayer(player!) }
        try AudioError.check(MusicPlayerSetSequence(player!, sequence!), lastMessage())
        try AudioError.check(MusicPlayerStart(player!), lastMessage())

        let block: UInt32 = 512
        let output = AudioBufferStorage(format: .canonical(sampleRate: 48_000, channels: 1), capacity: block)
        var timeStamp = AudioTimeStamp()
        timeStamp.mFlags = .sampleTimeValid
        var samples: [Float] = []
        while samples.count < total {
            output.prepare(frames: block)
            var flags: AudioUnitRenderActionFlags = []
            feed.position = samples.count
            try AudioError.check(AudioUnitRender(units[1], &flags, &timeStamp, 0, block, output.list), lastMessage())
            samples += output.samples(channel: 0, frames: Int(block))
            timeStamp.mSampleTime += Double(block)
        }
        return samples
    }

    /// A format 0 Standard MIDI File, 480 ticks a quarter note, holding only `tempos` as Set Tempo
    /// meta events (microseconds per quarter note, rounded).
    static func standardMIDIFile(tempos: [(beat: Double, bpm: Double)]) -> Data {
        func variableLength(_ value: Int) -> [UInt8] {
            var bytes = [UInt8(value & 0x7F)]
            var rest = value >> 7
            while rest > 0 {
                bytes.insert(UInt8(rest & 0x7F) | 0x80, at: 0)
                rest >>= 7
            }
            return bytes
        }
        func bigEndian32(_ value: Int) -> [UInt8] { (0..<4).map { UInt8(value >> (24 - 8 * $0) & 0xFF) } }
        var track: [UInt8] = []
        var tick = 0
        for (beat, bpm) in tempos {
            let at = Int((beat * 480).rounded())
            let micros = Int((60_000_000 / bpm).rounded())
            track += variableLength(at - tick) + [0xFF, 0x51, 0x03]
            track += [UInt8(micros >> 16 & 0xFF), UInt8(micros >> 8 & 0xFF), UInt8(micros & 0xFF)]
            tick = at
        }
        track += [0x00, 0xFF, 0x2F, 0x00]
        let header: [UInt8] = Array("MThd".utf8) + bigEndian32(6) + [0, 0, 0, 1, 0x01, 0xE0]
        return Data(header + Array("MTrk".utf8) + bigEndian32(track.count) + track)
    }

    /// An input signal for the render callback, from `position` on (silence past its end).
    final class Feed {
        let samples: [Float]
        var position = 0
        init(_ samples: [Float]) { self.samples = samples }

        static let callback: AURenderCallback = { refCon, _, _, _, frames, data in
            let feed = Unmanaged<Feed>.fromOpaque(refCon).takeUnretainedValue()
            let buffer = UnsafeMutableAudioBufferListPointer(data!)[0]
            let out = buffer.mData!.assumingMemoryBound(to: Float.self)
            for i in 0..<Int(frames) { out[i] = feed.position + i < feed.samples.count ? feed.samples[feed.position + i] : 0 }
            return noErr
        }
    }

    /// Beat 4 at 120 BPM is sample 96,000, in the middle of the 512-frame cycle from 95,744:
    /// the plug-in plays 90 BPM from 96,000 exactly (without the split: from 96,256).
    func testATempoChangeInsideACycleReachesThePlugInAtItsSample() throws {
        let out = try renderWithTempoMap(reporter, tempos: [(0, 120), (4, 90)], total: 97_280)
        XCTAssertEqual(out[0], 120, "the first cycle's time:Position")
        XCTAssertEqual(Array(out[95_744..<96_000]), [Float](repeating: 120, count: 256), "before the change")
        XCTAssertEqual(Array(out[96_000..<96_256]), [Float](repeating: 90, count: 256), "from the change's sample")
        XCTAssertEqual(out.last, 90)
    }

    func testTwoTempoChangesInOneCycleSplitItTwice() throws {
        // Beats 4 and 4.005: samples 96,000 and 96,160 (a beat at 90 BPM is 32,000 samples).
        let out = try renderWithTempoMap(reporter, tempos: [(0, 120), (4, 90), (4.005, 60)], total: 97_280)
        XCTAssertEqual(out[95_999], 120)
        XCTAssertEqual(Array(out[96_000..<96_160]), [Float](repeating: 90, count: 160))
        XCTAssertEqual(Array(out[96_160..<96_256]), [Float](repeating: 60, count: 96))
    }

    /// ZamDelay (zam-plugins, DPF) with Sync BPM on echoes a quarter note after the sound (24,000
    /// samples at 120 BPM, 32,000 at 90) and crossfades to a new delay over the run in which it
    /// learns of it. A MIDI file's tempo goes from 120 to 90 at sample 96,000, inside a cycle
    /// (95,744 … 96,256): fed noise, its output equals the one at a steady 120 BPM up to sample
    /// 95,999 and differs from 96,000 on (sent at the next cycle, the change moved it from 96,256).
    func testATempoSyncedDelayChangesAtTheSampleOfTheTempoChange() throws {
        guard LV2Provider.component(uri: "urn:zamaudio:ZamDelay") != nil else {
            throw XCTSkip("zam-plugins is not installed (make test installs it: scripts/debian-packages.txt)")
        }
        let noise = LV2UnitTestSupport.noise(120_000, seed: 31)
        // Sync BPM on, Divisor 3 (a quarter note), LPF open, Dry/Wet 1 (the echo alone), no feedback.
        let parameters: [(AudioUnitParameterID, Float)] = [(5, 1), (7, 3), (6, 20_000), (9, 1), (10, 0)]
        let changing = try renderWithTempoMap(
            "urn:zamaudio:ZamDelay", parameters: parameters, input: noise, tempos: [(0, 120), (4, 90)], fromMIDIFile: true,
            total: 100_352)
        let steady = try renderWithTempoMap(
            "urn:zamaudio:ZamDelay", parameters: parameters, input: noise, tempos: [(0, 120)], fromMIDIFile: true, total: 100_352)
        XCTAssertNotEqual(steady[90_000], 0, "the echo of the noise")
        XCTAssertEqual(LV2UnitTestSupport.firstDifference(changing, steady), 96_000)
    }
}

import AUHost
import Foundation
import LV2Host
import LV2Units
import PlugInLoader
import XCTest

/// The fixture Fixtures/MusicalProbe, built against the SDK like any plug-in, once per test
/// process (debug, incremental), and listed with its manifest beside the binary.
enum MusicalProbePlugIn {
    static let folder: Result<String, Error> = Result(catching: { () throws -> String in
        let package = checkoutRoot.appendingPathComponent("Tests/PlugInLoaderTests/Fixtures/MusicalProbe").path
        let build = try runCommand("/usr/bin/env", ["swift", "build", "--package-path", package])
        guard build.status == 0 else { throw AudioError(kAudio_ParamError, "MusicalProbe failed to build:\n\(build.output)") }
        let path = try runCommand("/usr/bin/env", ["swift", "build", "--package-path", package, "--show-bin-path"])
        let bin = path.output.split(separator: "\n").last.map(String.init) ?? ""
        let manifest = "MusicalProbe.auplugin.json"
        try? FileManager.default.removeItem(atPath: bin + "/" + manifest)
        try FileManager.default.copyItem(atPath: package + "/Sources/MusicalProbe/" + manifest, toPath: bin + "/" + manifest)
        return bin
    })

    /// The LV2 bundle of the same binary (SDK/Tools/make-lv2-bundle.sh), in a folder of this
    /// process's own, listed by an LV2 provider of its own: the probe's LV2 component.
    nonisolated(unsafe) static var lv2Folder = ""
    static let lv2Component: Result<Component, Error> = Result(catching: { () throws -> Component in
        let bin = try folder.get()
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("musical-probe-lv2-\(getpid())").path
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        let make = try runCommand(
            "/bin/sh",
            [
                checkoutRoot.appendingPathComponent("SDK/Tools/make-lv2-bundle.sh").path, bin,
                bin + "/MusicalProbe.auplugin.json", out,
            ])
        guard make.status == 0 else { throw AudioError(kAudio_ParamError, "make-lv2-bundle.sh failed:\n\(make.output)") }
        lv2Folder = out
        let provider = LV2Provider(lv2Path: out)
        ComponentRegistry.shared.install(provider)
        guard let component = provider.component(uri: "urn:auhost:aufx:mtim:AUSt") else {
            throw AudioError(kAudioUnitErr_InvalidFile, "the LV2 build of MusicalProbe is not listed")
        }
        return component
    })

    static func component() throws -> AudioComponent {
        let folder = try folder.get()
        var desc = AudioComponentDescription("aufx", "mtim", "AUSt")!
        if let found = AudioComponentFindNext(nil, &desc) { return found }
        ComponentRegistry.shared.install(PlugInProvider(folders: [folder]))
        return try XCTUnwrap(AudioComponentFindNext(nil, &desc), "aufx mtim AUSt is not listed")
    }
}

/// A kernel written against the SDK reads the host's musical time (kAudioUnitProperty_HostCallbacks
/// and AUHostTime.h's tempo changes) through `ParameterValues.musicalContext`, sample-accurately:
/// the probe writes tempo, beat, sample time, bar start, meter, transport into its channels.
final class MusicalTimeTests: XCTestCase {
    enum Channel: Int { case tempo, beat, sample, barStart, numerator, playing, changed }
    static let channels = 7

    /// The probe (the effect, or the instrument) in a graph (generic output head) driven by a
    /// MusicPlayer whose sequence's tempo map is `tempos`, rendered `total` frames in cycles of
    /// `block` frames at 48 kHz; with `graphTempo`, driven by AUGraphSetTempo instead.
    func renderWithTempoMap(
        tempos: [(beat: Double, bpm: Double)], total: Int, block: UInt32 = 512, instrument: Bool = false,
        description: AudioComponentDescription? = nil, channels: Int = MusicalTimeTests.channels,
        graphTempo: (bpm: Double, beatsPerBar: UInt32, beatUnit: UInt32)? = nil
    ) throws -> [[Float]] {
        _ = try MusicalProbePlugIn.component()  // lists the probe's binary
        var graph: AUGraph?
        try AudioError.check(NewAUGraph(&graph), "NewAUGraph")
        defer { DisposeAUGraph(graph!) }
        var headDescription = AudioComponentDescription(type: kAudioUnitType_Output, subType: kAudioUnitSubType_GenericOutput)
        var probeDescription =
            description
            ?? (instrument ? AudioComponentDescription("aumu", "mtin", "AUSt")! : AudioComponentDescription("aufx", "mtim", "AUSt")!)
        var head: AUNode = 0, probe: AUNode = 0
        try AudioError.check(AUGraphAddNode(graph!, &headDescription, &head), lastErrorMessage())
        try AudioError.check(AUGraphAddNode(graph!, &probeDescription, &probe), lastErrorMessage())
        try AudioError.check(AUGraphOpen(graph!), lastErrorMessage())
        var units: [AudioUnit] = []
        for node in [probe, head] {
            var unit: AudioUnit?
            try AudioError.check(AUGraphNodeInfo(graph!, node, nil, &unit), lastErrorMessage())
            units.append(unit!)
        }
        var format = AudioStreamBasicDescription.canonical(sampleRate: 48_000, channels: UInt32(channels))
        let formatSize = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
        var formats = [(units[0], kAudioUnitScope_Output), (units[1], kAudioUnitScope_Input), (units[1], kAudioUnitScope_Output)]
        if !instrument { formats.append((units[0], kAudioUnitScope_Input)) }
        for (unit, scope) in formats {
            try AudioError.check(
                AudioUnitSetProperty(unit, kAudioUnitProperty_StreamFormat, scope, 0, &format, formatSize), lastErrorMessage())
        }
        var silence = AURenderCallbackStruct(
            inputProc: { _, _, _, _, frames, data in
                for buffer in UnsafeMutableAudioBufferListPointer(data!) {
                    buffer.mData!.initializeMemory(as: Float.self, repeating: 0, count: Int(frames))
                }
                return noErr
            }, inputProcRefCon: nil)
        if !instrument { try AudioError.check(AUGraphSetNodeInputCallback(graph!, probe, 0, &silence), lastErrorMessage()) }
        try AudioError.check(AUGraphConnectNodeInput(graph!, probe, 0, head, 0), lastErrorMessage())
        try AudioError.check(AUGraphInitialize(graph!), lastErrorMessage())

        var sequence: MusicSequence?
        var player: MusicPlayer?
        defer {
            if let player { DisposeMusicPlayer(player) }
            if let sequence { DisposeMusicSequence(sequence) }
        }
        if let meter = graphTempo {
            // A plain graph's transport (AUGraphSetTempo) instead of a player.
            try AudioError.check(AUGraphSetTempo(graph!, meter.bpm, meter.beatsPerBar, meter.beatUnit), lastErrorMessage())
        } else {
            try AudioError.check(NewMusicSequence(&sequence), "NewMusicSequence")
            var tempoTrack: MusicTrack?
            try AudioError.check(MusicSequenceGetTempoTrack(sequence!, &tempoTrack), lastErrorMessage())
            for (beat, bpm) in tempos { try AudioError.check(MusicTrackNewExtendedTempoEvent(tempoTrack!, beat, bpm), lastErrorMessage()) }
            try AudioError.check(MusicSequenceSetAUGraph(sequence!, graph!), lastErrorMessage())
            try AudioError.check(NewMusicPlayer(&player), "NewMusicPlayer")
            try AudioError.check(MusicPlayerSetSequence(player!, sequence!), lastErrorMessage())
            try AudioError.check(MusicPlayerStart(player!), lastErrorMessage())
        }

        let output = AudioBufferStorage(format: format, capacity: block)
        var timeStamp = AudioTimeStamp()
        timeStamp.mFlags = .sampleTimeValid
        var samples = [[Float]](repeating: [], count: channels)
        while samples[0].count < total {
            output.prepare(frames: block)
            var flags: AudioUnitRenderActionFlags = []
            try AudioError.check(AudioUnitRender(units[1], &flags, &timeStamp, 0, block, output.list), lastErrorMessage())
            for c in 0..<channels { samples[c] += output.samples(channel: c, frames: Int(block)) }
            timeStamp.mSampleTime += Double(block)
        }
        return samples
    }

    /// The tempo map's answer at sample `n` (48 kHz), worked out from the map itself: each
    /// segment lasts (next beat − beat) × 60 / bpm seconds.
    static func expected(_ tempos: [(beat: Double, bpm: Double)], sample n: Int) -> (tempo: Double, beat: Double) {
        let seconds = Double(n) / 48_000
        var start = 0.0
        for (i, segment) in tempos.enumerated() {
            let end = i + 1 < tempos.count ? start + (tempos[i + 1].beat - segment.beat) * 60 / segment.bpm : .infinity
            if seconds < end { return (segment.bpm, segment.beat + (seconds - start) * segment.bpm / 60) }
            start = end
        }
        return (tempos[0].bpm, 0)
    }

    /// 120 BPM, then 90 from beat 4: beat 4 is 4 × 60 / 120 = 2 s = sample 96,000, inside the
    /// 512-frame cycle from 95,744. Every frame of every block reads the map's tempo and beat,
    /// and 90 starts at sample 96,000 exactly (not at the next cycle, 96,256). The bar start is
    /// the one at each slice's first frame; the only bar line in range (beat 4) is the tempo
    /// change, where a slice starts, so it holds at every frame here.
    func testKernelReadsTheTempoMapAtEveryFrameAndTheChangeAtItsSample() throws {
        let tempos: [(beat: Double, bpm: Double)] = [(0, 120), (4, 90)]
        let total = 100_352
        let out = try renderWithTempoMap(tempos: tempos, total: total)
        let change = Int(4 * 60 / 120 * 48_000.0)
        XCTAssertEqual(change, 96_000)
        XCTAssertEqual(out[Channel.tempo.rawValue][change - 1], 120)
        XCTAssertEqual(out[Channel.tempo.rawValue][change], 90)
        var tempoErrors = 0, beatErrors = 0, sampleErrors = 0, barErrors = 0
        for n in 0..<total {
            let want = Self.expected(tempos, sample: n)
            if out[Channel.tempo.rawValue][n] != Float(want.tempo) { tempoErrors += 1 }
            if abs(Double(out[Channel.beat.rawValue][n]) - want.beat) > 1e-5 { beatErrors += 1 }
            if out[Channel.sample.rawValue][n] != Float(n) { sampleErrors += 1 }
            if out[Channel.barStart.rawValue][n] != Float((want.beat / 4).rounded(.down) * 4) { barErrors += 1 }
        }
        XCTAssertEqual(tempoErrors, 0, "frames whose tempo is not the map's")
        XCTAssertEqual(beatErrors, 0, "frames whose beat is not the map's")
        XCTAssertEqual(sampleErrors, 0, "frames whose sample time is not their sample")
        XCTAssertEqual(barErrors, 0, "frames whose bar start is not the bar holding their beat")
        XCTAssertEqual(Set(out[Channel.numerator.rawValue]), [4])
        XCTAssertEqual(Set(out[Channel.playing.rawValue]), [1])
    }

    /// The LV2 build of the probe (wantsMusicalContext: a `time_in` port supporting time:Position)
    /// hosted by AUHost's LV2 unit, which sends time:Position from the same MusicPlayer and splits
    /// the run at the tempo change: the kernel reads the same tempo and beat as the Audio Unit
    /// build, 90 BPM from sample 96,000 exactly.
    func testLV2BuildReadsTheSameMusicalTimeFromTimePosition() throws {
        let component = try MusicalProbePlugIn.lv2Component.get()
        let tempos: [(beat: Double, bpm: Double)] = [(0, 120), (4, 90)]
        let total = 100_352
        let out = try renderWithTempoMap(tempos: tempos, total: total, description: component.description, channels: 2)
        XCTAssertEqual(out[Channel.tempo.rawValue][95_999], 120)
        XCTAssertEqual(out[Channel.tempo.rawValue][96_000], 90)
        var tempoErrors = 0, beatErrors = 0
        for n in 0..<total {
            let want = Self.expected(tempos, sample: n)
            if out[Channel.tempo.rawValue][n] != Float(want.tempo) { tempoErrors += 1 }
            if abs(Double(out[Channel.beat.rawValue][n]) - want.beat) > 1e-5 { beatErrors += 1 }
        }
        XCTAssertEqual(tempoErrors, 0, "frames whose tempo is not the map's")
        XCTAssertEqual(beatErrors, 0, "frames whose beat is not the map's")
    }

    /// A host that sends time:Position inside a run (at frame 200 of 512, as a host may when its
    /// tempo changes there): the SDK's LV2 side ends the unit's render call at that frame, so the
    /// kernel reads 120 BPM before it and 90 from it. The second position is in 6/8 (beatUnit 8:
    /// 180 eighths a minute is 90 quarter notes, beat 20 eighths is quarter note 10).
    func testLV2BuildTakesATimePositionInsideARunAtItsFrame() throws {
        let direct = try activeLV2Probe()
        let first = LV2TimePosition(frame: 0, speed: 1, bar: 0, barBeat: 2, beat: 2, beatUnit: 4, beatsPerBar: 4, beatsPerMinute: 120)
        let second = LV2TimePosition(
            frame: 9_000, speed: 1, bar: 1, barBeat: 14, beat: 20, beatUnit: 8, beatsPerBar: 6, beatsPerMinute: 180)
        XCTAssertTrue(lv2QueueTimePosition(direct.renderContext, frame: 0, first))
        XCTAssertTrue(lv2QueueTimePosition(direct.renderContext, frame: 200, second))
        XCTAssertEqual(direct.run(frames: 512), .ok)
        let tempo = Array(UnsafeBufferPointer(start: direct.audioOutput(0), count: 512))
        let beat = Array(UnsafeBufferPointer(start: direct.audioOutput(1), count: 512))
        XCTAssertEqual(Array(tempo[0..<200]), [Float](repeating: 120, count: 200))
        XCTAssertEqual(Array(tempo[200..<512]), [Float](repeating: 90, count: 312))
        for n in [0, 199] { XCTAssertEqual(Double(beat[n]), 2 + Double(n) * 2 / 48_000, accuracy: 1e-5, "beat at \(n)") }
        for n in [200, 511] { XCTAssertEqual(Double(beat[n]), 10 + Double(n - 200) * 1.5 / 48_000, accuracy: 1e-5, "beat at \(n)") }
        // The next run carries on from where the last one ended, at 90 BPM, with no new position.
        XCTAssertEqual(direct.run(frames: 512), .ok)
        XCTAssertEqual(direct.audioOutput(0)[0], 90)
        XCTAssertEqual(Double(direct.audioOutput(1)[0]), 10 + 312 * 1.5 / 48_000, accuracy: 1e-5)
    }

    /// The probe's LV2 build run directly through lilv at 48 kHz, 512 frames a run, inputs silent.
    private func activeLV2Probe() throws -> LV2Instance {
        _ = try MusicalProbePlugIn.lv2Component.get()
        let world = LV2World(lv2Path: MusicalProbePlugIn.lv2Folder)
        let plugin = try world.plugin(uri: "urn:auhost:aufx:mtim:AUSt")
        let direct = try LV2Instance(plugin: plugin, configuration: .init(sampleRate: 48_000, maxBlockLength: 512))
        direct.activate()
        for c in 0..<2 { direct.audioInput(c).update(repeating: 0, count: 512) }
        return direct
    }

    /// A host's time:Position is input nobody here wrote: a beat of 1e300 or below zero must not
    /// trap on the render thread (the beats-to-next-beat answer converted the beat to Int).
    func testLV2BuildTakesHostileBeatsWithoutTrapping() throws {
        let direct = try activeLV2Probe()
        for beat in [1e300, -1e300, -0.5] {
            let position = LV2TimePosition(
                frame: 0, speed: 1, bar: 0, barBeat: 0, beat: beat, beatUnit: 4, beatsPerBar: 4, beatsPerMinute: 120)
            XCTAssertTrue(lv2QueueTimePosition(direct.renderContext, frame: 0, position))
            XCTAssertEqual(direct.run(frames: 512), .ok, "beat \(beat)")
            XCTAssertEqual(direct.audioOutput(0)[0], 120, "beat \(beat)")
            XCTAssertEqual(direct.audioOutput(1)[0], Float(beat), "beat \(beat)")
        }
    }

    /// An instrument kernel reads the same: 90 BPM from sample 96,000, the beat of the map.
    func testInstrumentKernelReadsTheTempoMapAndTheChangeAtItsSample() throws {
        let tempos: [(beat: Double, bpm: Double)] = [(0, 120), (4, 90)]
        let out = try renderWithTempoMap(tempos: tempos, total: 97_280, instrument: true)
        XCTAssertEqual(Array(out[Channel.tempo.rawValue][95_744..<96_000]), [Float](repeating: 120, count: 256))
        XCTAssertEqual(Array(out[Channel.tempo.rawValue][96_000..<97_280]), [Float](repeating: 90, count: 1280))
        for n in [0, 511, 512, 95_999, 96_000, 96_255, 96_256, 97_279] {
            XCTAssertEqual(Double(out[Channel.beat.rawValue][n]), Self.expected(tempos, sample: n).beat, accuracy: 1e-5, "beat at \(n)")
            XCTAssertEqual(out[Channel.sample.rawValue][n], Float(n), "sample time at \(n)")
        }
    }

    /// A plain graph's transport (AUGraphSetTempo 90 BPM in 6/8: three quarter notes a bar): the
    /// kernel reads the meter, the beat at every frame, bars of three beats at each cycle's first
    /// frame, and the transport change in the first cycle only.
    func testKernelReadsAGraphTransportsTempoAndMeter() throws {
        let out = try renderWithTempoMap(tempos: [], total: 102_400, graphTempo: (90, 6, 8))
        XCTAssertEqual(Set(out[Channel.tempo.rawValue]), [90])
        XCTAssertEqual(Set(out[Channel.numerator.rawValue]), [6])
        var beatErrors = 0
        for n in 0..<102_400 where abs(Double(out[Channel.beat.rawValue][n]) - Double(n) * 1.5 / 48_000) > 1e-5 { beatErrors += 1 }
        XCTAssertEqual(beatErrors, 0, "frames whose beat is not 1.5 a second")
        for cycle in stride(from: 0, to: 102_400, by: 512) {
            let beat = Double(cycle) * 1.5 / 48_000
            XCTAssertEqual(out[Channel.barStart.rawValue][cycle], Float((beat / 3).rounded(.down) * 3), "bar start at \(cycle)")
        }
        XCTAssertEqual(out[Channel.changed.rawValue][0], 1)
        XCTAssertEqual(Set(out[Channel.changed.rawValue][512...]), [0])
    }

    /// Two changes 160 samples apart in one cycle (beats 4 and 4.005 at 90 BPM: 96,000 and
    /// 96,160), in 300-frame cycles that do not line up with either.
    func testTwoTempoChangesInOneCycleInOddBlocks() throws {
        let tempos: [(beat: Double, bpm: Double)] = [(0, 120), (4, 90), (4.005, 60)]
        let out = try renderWithTempoMap(tempos: tempos, total: 96_600, block: 300)
        XCTAssertEqual(Array(out[Channel.tempo.rawValue][95_700..<96_000]), [Float](repeating: 120, count: 300))
        XCTAssertEqual(Array(out[Channel.tempo.rawValue][96_000..<96_160]), [Float](repeating: 90, count: 160))
        XCTAssertEqual(Array(out[Channel.tempo.rawValue][96_160..<96_600]), [Float](repeating: 60, count: 440))
        for n in [95_999, 96_000, 96_100, 96_159, 96_160, 96_599] {
            XCTAssertEqual(Double(out[Channel.beat.rawValue][n]), Self.expected(tempos, sample: n).beat, accuracy: 1e-5, "beat at \(n)")
        }
    }

    /// No host callbacks (a bare AudioUnitRender loop): the context says so, and the kernel runs.
    func testWithoutHostCallbacksTheContextSaysNotProvided() throws {
        let harness = try EffectHarness(
            MusicalProbePlugIn.component(), sampleRate: 48_000, channels: Self.channels,
            input: [[Float]](repeating: [0], count: Self.channels))
        let out = try harness.render(1024, slice: 256)
        XCTAssertEqual(Set(out[Channel.tempo.rawValue]), [-1], "tempo: not provided")
        XCTAssertEqual(Set(out[Channel.beat.rawValue]), [0])
        XCTAssertEqual(Set(out[Channel.barStart.rawValue]), [0])
        XCTAssertEqual(Set(out[Channel.numerator.rawValue]), [4], "the 4/4 default")
        XCTAssertEqual(Set(out[Channel.playing.rawValue]), [1])
        XCTAssertEqual(out[Channel.sample.rawValue][0..<256].map { $0 }, (0..<256).map(Float.init), "the kernel ran")
    }
}

/// A host's callbacks answering fixed values, counting the calls.
struct FakeHost {
    var beat = 11.99
    var tempo = 100.0
    var playing: UInt8 = 1
    var beatAndTempoCalls = 0
    var locationCalls = 0
    var transportCalls = 0

    static let info = HostCallbackInfo(
        hostUserData: nil,
        beatAndTempoProc: { user, beat, tempo in
            let host = user!.assumingMemoryBound(to: FakeHost.self)
            host.pointee.beatAndTempoCalls += 1
            beat?.pointee = host.pointee.beat
            tempo?.pointee = host.pointee.tempo
            return noErr
        },
        musicalTimeLocationProc: { user, toNextBeat, numerator, denominator, downBeat in
            let host = user!.assumingMemoryBound(to: FakeHost.self)
            host.pointee.locationCalls += 1
            toNextBeat?.pointee = 0
            numerator?.pointee = 6
            denominator?.pointee = 8
            downBeat?.pointee = 9
            return noErr
        },
        transportStateProc: nil,
        transportStateProc2: { user, playing, recording, changed, sample, cycling, cycleStart, cycleEnd in
            let host = user!.assumingMemoryBound(to: FakeHost.self)
            host.pointee.transportCalls += 1
            playing?.pointee = host.pointee.playing
            recording?.pointee = 0
            changed?.pointee = 1
            sample?.pointee = 12_345
            cycling?.pointee = 0
            cycleStart?.pointee = 0
            cycleEnd?.pointee = 0
            return noErr
        })
}

extension MusicalTimeTests {
    /// Host callbacks set on the unit by hand: 6/8 (three quarter notes a bar), bar from beat 9,
    /// beat 11.99 at 100 BPM, sample 12,345, transport just changed. A 320-frame ramp slices the
    /// first render call per frame; the callbacks are still asked once per render call, and every
    /// slice reads the values at its own first frame: the bar turns at beat 12, frame 288 at
    /// 48 kHz (0.01 beat × 60 / 100 × 48,000; frame 288 itself is left out, rounding may put it on
    /// either side).
    func testCallbacksAreAskedOncePerRenderCallAndEverySliceReadsItsFrame() throws {
        let harness = try EffectHarness(
            MusicalProbePlugIn.component(), sampleRate: 48_000, channels: MusicalTimeTests.channels,
            input: [[Float]](repeating: [0], count: MusicalTimeTests.channels))
        let host = UnsafeMutablePointer<FakeHost>.allocate(capacity: 1)
        host.initialize(to: FakeHost())
        defer { host.deallocate() }
        var info = FakeHost.info
        info.hostUserData = UnsafeMutableRawPointer(host)
        try AudioError.check(
            AudioUnitSetProperty(
                harness.unit, kAudioUnitProperty_HostCallbacks, kAudioUnitScope_Global, 0, &info,
                UInt32(MemoryLayout<HostCallbackInfo>.size)), lastErrorMessage())
        var ramp = AudioUnitParameterEvent()
        ramp.scope = kAudioUnitScope_Global
        ramp.parameter = 0
        ramp.eventType = .parameterEvent_Ramped
        ramp.eventValues.ramp = .init(startBufferOffset: 0, durationInFrames: 320, startValue: 0, endValue: 1)
        try AudioError.check(AudioUnitScheduleParameters(harness.unit, &ramp, 1), lastErrorMessage())

        let out = try harness.render(512, slice: 512)
        XCTAssertEqual(host.pointee.beatAndTempoCalls, 1, "beat and tempo: once for the render call")
        XCTAssertEqual(host.pointee.locationCalls, 1)
        XCTAssertEqual(host.pointee.transportCalls, 1)
        let perFrame = 100.0 / 60 / 48_000
        XCTAssertEqual(Set(out[Channel.tempo.rawValue]), [100])
        for n in [0, 1, 287, 288, 319, 320, 511] {
            XCTAssertEqual(Double(out[Channel.beat.rawValue][n]), 11.99 + Double(n) * perFrame, accuracy: 1e-5, "beat at \(n)")
            XCTAssertEqual(out[Channel.sample.rawValue][n], Float(12_345 + n), "sample time at \(n)")
        }
        XCTAssertEqual(Set(out[Channel.numerator.rawValue]), [6])
        XCTAssertEqual(Array(out[Channel.barStart.rawValue][0..<288]), [Float](repeating: 9, count: 288), "bar 3 (beats 9 to 12)")
        XCTAssertEqual(Array(out[Channel.barStart.rawValue][289..<320]), [Float](repeating: 12, count: 31), "bar 4 after frame 288")
        XCTAssertEqual(out[Channel.barStart.rawValue][511], 12, "the slice from frame 320 began in bar 4")
        XCTAssertEqual(out[Channel.changed.rawValue][0], 1, "the transport change, in the first slice")
        XCTAssertEqual(Set(out[Channel.changed.rawValue][1...]), [0], "and only there")

        // Stopped at beat 14.5 (bar from 12): the beat stands still, the sample time too.
        host.pointee.playing = 0
        host.pointee.beat = 14.5
        let stopped = try harness.render(512, slice: 512)
        XCTAssertEqual(host.pointee.beatAndTempoCalls, 2)
        XCTAssertEqual(Set(stopped[Channel.beat.rawValue]), [14.5])
        XCTAssertEqual(Set(stopped[Channel.sample.rawValue].prefix(1)), [12_345])
        XCTAssertEqual(Set(stopped[Channel.playing.rawValue]), [0])
    }
}

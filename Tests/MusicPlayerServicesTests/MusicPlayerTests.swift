import AUHost
import XCTest

/// The player delivers a sequence to a graph's instrument sample-accurately, offline.
final class MusicPlayerTests: XCTestCase {
    /// A sequence loaded from a fixture, played by a new player into `graph`.
    final class Playback {
        var sequence: MusicSequence?
        var player: MusicPlayer?

        /// `file`'s sequence, or an empty one with no track but the tempo track.
        init(_ file: URL? = nil, graph: AUGraph) throws {
            try AudioError.check(NewMusicSequence(&sequence), "NewMusicSequence")
            if let file { try AudioError.check(MusicSequenceFileLoad(sequence!, cfURL(file.path), .midiType, []), lastMessage()) }
            try AudioError.check(MusicSequenceSetAUGraph(sequence!, graph), lastMessage())
            try AudioError.check(NewMusicPlayer(&player), "NewMusicPlayer")
            try AudioError.check(MusicPlayerSetSequence(player!, sequence!), lastMessage())
        }

        func newTrack() throws -> MusicTrack {
            var track: MusicTrack?
            try AudioError.check(MusicSequenceNewTrack(sequence!, &track), lastMessage())
            return track!
        }

        func setLoop(_ track: MusicTrack, duration: MusicTimeStamp, count: Int32) {
            var loop = MusicTrackLoopInfo(loopDuration: duration, numberOfLoops: count)
            MusicTrackSetProperty(track, UInt32(kSequenceTrackProperty_LoopInfo), &loop, UInt32(MemoryLayout<MusicTrackLoopInfo>.size))
        }

        deinit {
            DisposeMusicPlayer(player!)
            DisposeMusicSequence(sequence!)
        }
    }

    /// The SDK SineSynth with no attack, no release and full level: silent outside its notes,
    /// and a voice starting at frame k is sin(0) = 0 at k and non-zero from k + 1 (SineSynth.swift).
    func sineSynthGraph(sampleRate: Double) throws -> InstrumentGraph {
        let graph = try InstrumentGraph(try BuiltPlugIns.sineSynth(), sampleRate: sampleRate)
        for (id, value) in [(AudioUnitParameterID(0), Float(0)), (1, 0), (2, 0)] {
            try AudioError.check(
                AudioUnitSetParameter(graph.unit(graph.instrument), id, kAudioUnitScope_Global, 0, value, 0), "SineSynth parameter \(id)")
        }
        return graph
    }

    /// (onset, end) of each stretch of sound: onset = the frame before the first non-zero sample
    /// (the note-on frame, see above), end = the first silent frame (the note-off frame).
    func soundingStretches(_ samples: [Float]) -> [(on: Int, off: Int)] {
        var out: [(Int, Int)] = []
        var start: Int?
        for (i, x) in samples.enumerated() {
            if x != 0, start == nil { start = i - 1 }
            if x == 0, let s = start {
                out.append((s, i))
                start = nil
            }
        }
        return out
    }

    func testEveryNoteOfAType1FileWithTempoChangesStartsAndEndsOnTheSampleMidoGives() throws {
        let mido = try MidoNotes.load("tempo-changes.json")
        let sampleRate = 48_000.0
        // Expected frames: mido's seconds × rate, rounded to the nearest frame (MusicPlayer.h).
        let expected = mido.notes.map { (on: Int(($0.on * sampleRate).rounded()), off: Int(($0.off * sampleRate).rounded())) }
        let total = expected.last!.off + 4_800
        for block in [64, 512, 4096] {
            let graph = try sineSynthGraph(sampleRate: sampleRate)
            let playback = try Playback(try fixture("tempo-changes.mid"), graph: graph.graph!)
            XCTAssertEqual(MusicPlayerPreroll(playback.player!), noErr, lastMessage())
            XCTAssertEqual(MusicPlayerStart(playback.player!), noErr, lastMessage())
            let left = try graph.render(total, block: block)
            let stretches = soundingStretches(left)
            XCTAssertEqual(stretches.count, expected.count, "block \(block): one stretch of sound per note")
            for (i, (got, want)) in zip(stretches, expected).enumerated() {
                XCTAssertEqual(got.on, want.on, "block \(block), note \(i) (\(mido.notes[i].note)) onset")
                XCTAssertEqual(got.off, want.off, "block \(block), note \(i) (\(mido.notes[i].note)) note-off")
            }
            var playing: DarwinBoolean = false
            XCTAssertEqual(MusicPlayerIsPlaying(playback.player!, &playing), noErr)
            XCTAssertTrue(playing.boolValue)
            var beat: MusicTimeStamp = 0
            XCTAssertEqual(MusicPlayerGetTime(playback.player!, &beat), noErr)
            var seconds: Float64 = 0
            MusicSequenceGetSecondsForBeats(playback.sequence!, beat, &seconds)
            XCTAssertEqual(seconds * sampleRate, Double(total), accuracy: 1e-6, "GetTime: the beat the last cycle reached")
            XCTAssertEqual(MusicPlayerStop(playback.player!), noErr)
        }
    }

    func testPlayRateAndStartTimeScaleAndShiftTheTimeline() throws {
        let sampleRate = 48_000.0
        let graph = try sineSynthGraph(sampleRate: sampleRate)
        var sequence: MusicSequence?
        NewMusicSequence(&sequence)
        defer { DisposeMusicSequence(sequence!) }
        var track: MusicTrack?
        MusicSequenceNewTrack(sequence!, &track)
        for beat in [1.0, 2.0, 3.0] {
            var note = MIDINoteMessage(channel: 0, note: 69, velocity: 127, releaseVelocity: 0, duration: 0.25)
            XCTAssertEqual(MusicTrackNewMIDINoteEvent(track!, beat, &note), noErr)
        }
        MusicSequenceSetAUGraph(sequence!, graph.graph!)
        var player: MusicPlayer?
        NewMusicPlayer(&player)
        defer { DisposeMusicPlayer(player!) }
        MusicPlayerSetSequence(player!, sequence!)
        // From beat 1.5 at twice the speed: the notes at beats 2 and 3 (120 BPM: 0.25 s and 0.75 s
        // after the start at normal speed) land at 0.125 s and 0.375 s.
        XCTAssertEqual(MusicPlayerSetTime(player!, 1.5), noErr)
        XCTAssertEqual(MusicPlayerSetPlayRateScalar(player!, 2), noErr)
        XCTAssertEqual(MusicPlayerStart(player!), noErr, lastMessage())
        let stretches = soundingStretches(try graph.render(48_000, block: 512))
        XCTAssertEqual(stretches.map(\.on), [6_000, 18_000])
        XCTAssertEqual(stretches.map(\.off), [9_000, 21_000])
    }

    func testLoopMuteSoloAndOffsetShapeWhatPlays() throws {
        // At 120 BPM a beat is 24,000 frames. A: one note, a one-beat track looped three times;
        // B: muted; C: offset by three beats.
        func play(soloC: Bool) throws -> [Int] {
            let graph = try sineSynthGraph(sampleRate: 48_000)
            var sequence: MusicSequence?
            NewMusicSequence(&sequence)
            defer { DisposeMusicSequence(sequence!) }
            var a: MusicTrack?, b: MusicTrack?, c: MusicTrack?
            MusicSequenceNewTrack(sequence!, &a)
            MusicSequenceNewTrack(sequence!, &b)
            MusicSequenceNewTrack(sequence!, &c)
            for (track, note) in [(a!, UInt8(60)), (b!, 62), (c!, 64)] {
                var m = MIDINoteMessage(channel: 0, note: note, velocity: 127, releaseVelocity: 0, duration: 0.25)
                XCTAssertEqual(MusicTrackNewMIDINoteEvent(track, track == b ? 0.5 : 0, &m), noErr)
            }
            var length: MusicTimeStamp = 1
            XCTAssertEqual(MusicTrackSetProperty(a!, UInt32(kSequenceTrackProperty_TrackLength), &length, 8), noErr)
            var loop = MusicTrackLoopInfo(loopDuration: 1, numberOfLoops: 3)
            XCTAssertEqual(
                MusicTrackSetProperty(a!, UInt32(kSequenceTrackProperty_LoopInfo), &loop, UInt32(MemoryLayout<MusicTrackLoopInfo>.size)),
                noErr)
            var on: UInt8 = 1
            XCTAssertEqual(MusicTrackSetProperty(b!, UInt32(kSequenceTrackProperty_MuteStatus), &on, 1), noErr)
            var offset: MusicTimeStamp = 3
            XCTAssertEqual(MusicTrackSetProperty(c!, UInt32(kSequenceTrackProperty_OffsetTime), &offset, 8), noErr)
            if soloC { XCTAssertEqual(MusicTrackSetProperty(c!, UInt32(kSequenceTrackProperty_SoloStatus), &on, 1), noErr) }
            MusicSequenceSetAUGraph(sequence!, graph.graph!)
            var player: MusicPlayer?
            NewMusicPlayer(&player)
            defer { DisposeMusicPlayer(player!) }
            MusicPlayerSetSequence(player!, sequence!)
            XCTAssertEqual(MusicPlayerStart(player!), noErr, lastMessage())
            return soundingStretches(try graph.render(120_000, block: 4096)).map(\.on)
        }
        XCTAssertEqual(try play(soloC: false), [0, 24_000, 48_000, 72_000])
        XCTAssertEqual(try play(soloC: true), [72_000])
    }

    /// What the user callback saw: (beat, first data byte, length), written on the render thread.
    static let userCalls = UnsafeMutablePointer<(Double, UInt8, UInt32)>.allocate(capacity: 4)
    static let userCallCount = UnsafeMutablePointer<Int>.allocate(capacity: 1)

    /// Records `sequence`'s user events into userCalls (the first 4), from none.
    func recordUserCalls(_ sequence: MusicSequence) {
        Self.userCallCount.pointee = 0
        XCTAssertEqual(
            MusicSequenceSetUserCallback(
                sequence,
                { _, _, _, time, data, _, _ in
                    guard MusicPlayerTests.userCallCount.pointee < 4 else { return }
                    MusicPlayerTests.userCalls[MusicPlayerTests.userCallCount.pointee] = (
                        time, UnsafeRawPointer(data).load(fromByteOffset: 4, as: UInt8.self), data.pointee.length
                    )
                    MusicPlayerTests.userCallCount.pointee += 1
                }, nil), noErr)
    }

    func testParameterAndUserEventsReachTheirUnitAndCallback() throws {
        let graph = try sineSynthGraph(sampleRate: 48_000)
        var sequence: MusicSequence?
        NewMusicSequence(&sequence)
        defer { DisposeMusicSequence(sequence!) }
        var track: MusicTrack?
        MusicSequenceNewTrack(sequence!, &track)
        var note = MIDINoteMessage(channel: 0, note: 69, velocity: 127, releaseVelocity: 0, duration: 4)
        XCTAssertEqual(MusicTrackNewMIDINoteEvent(track!, 0, &note), noErr)
        // Level (parameter 2) to -6.0206 dB (×0.5) at beat 0.5 = frame 12,000.
        var level = ParameterEvent(parameterID: 2, scope: kAudioUnitScope_Global, element: 0, value: -6.020_6)
        XCTAssertEqual(MusicTrackNewParameterEvent(track!, 0.5, &level), noErr)
        let user = UnsafeMutableRawPointer.allocate(byteCount: 8, alignment: 4)
        defer { user.deallocate() }
        user.storeBytes(of: UInt32(3), as: UInt32.self)
        user.storeBytes(of: 0x2A, toByteOffset: 4, as: UInt8.self)
        XCTAssertEqual(MusicTrackNewUserEvent(track!, 1, user.assumingMemoryBound(to: MusicEventUserData.self)), noErr)
        recordUserCalls(sequence!)
        MusicSequenceSetAUGraph(sequence!, graph.graph!)
        var player: MusicPlayer?
        NewMusicPlayer(&player)
        defer { DisposeMusicPlayer(player!) }
        MusicPlayerSetSequence(player!, sequence!)
        XCTAssertEqual(MusicPlayerStart(player!), noErr, lastMessage())
        let left = try graph.render(36_000, block: 512)
        let before = left[8_000..<11_000].map(abs).max() ?? 0
        let after = left[13_000..<16_000].map(abs).max() ?? 0
        XCTAssertEqual(before, 1, accuracy: 1e-3, "full level before the parameter event")
        XCTAssertEqual(after, 0.5, accuracy: 1e-3, "half level after it")
        XCTAssertEqual(Self.userCallCount.pointee, 1)
        XCTAssertEqual(Self.userCalls[0].0, 1, "the user event's beat")
        XCTAssertEqual(Self.userCalls[0].1, 0x2A)
        XCTAssertEqual(Self.userCalls[0].2, 3)
    }

    /// A user event on a looped track reaches the callback on every pass, with its own bytes each
    /// time (the schedule keeps the bytes once and points every pass at them).
    func testALoopedUserEventReachesTheCallbackOnEveryPass() throws {
        let graph = try sineSynthGraph(sampleRate: 48_000)
        var sequence: MusicSequence?
        NewMusicSequence(&sequence)
        defer { DisposeMusicSequence(sequence!) }
        var track: MusicTrack?
        MusicSequenceNewTrack(sequence!, &track)
        let user = UnsafeMutableRawPointer.allocate(byteCount: 8, alignment: 4)
        defer { user.deallocate() }
        user.storeBytes(of: UInt32(2), as: UInt32.self)
        user.storeBytes(of: 0x5C, toByteOffset: 4, as: UInt8.self)
        XCTAssertEqual(MusicTrackNewUserEvent(track!, 0.5, user.assumingMemoryBound(to: MusicEventUserData.self)), noErr)
        var length: MusicTimeStamp = 1
        XCTAssertEqual(MusicTrackSetProperty(track!, UInt32(kSequenceTrackProperty_TrackLength), &length, 8), noErr)
        var loop = MusicTrackLoopInfo(loopDuration: 1, numberOfLoops: 3)
        XCTAssertEqual(
            MusicTrackSetProperty(track!, UInt32(kSequenceTrackProperty_LoopInfo), &loop, UInt32(MemoryLayout<MusicTrackLoopInfo>.size)),
            noErr)
        recordUserCalls(sequence!)
        MusicSequenceSetAUGraph(sequence!, graph.graph!)
        var player: MusicPlayer?
        NewMusicPlayer(&player)
        defer { DisposeMusicPlayer(player!) }
        MusicPlayerSetSequence(player!, sequence!)
        XCTAssertEqual(MusicPlayerStart(player!), noErr, lastMessage())
        _ = try graph.render(96_000, block: 512)
        XCTAssertEqual(Self.userCallCount.pointee, 3)
        for pass in 0..<3 {
            XCTAssertEqual(Self.userCalls[pass].0, 0.5 + Double(pass), "pass \(pass)'s beat")
            XCTAssertEqual(Self.userCalls[pass].1, 0x5C, "pass \(pass)'s bytes")
            XCTAssertEqual(Self.userCalls[pass].2, 2, "pass \(pass)'s length")
        }
    }

    /// A schedule holds at most 1,000,000 events, looped passes counted: 100 notes (200 events)
    /// looped 4,999 times fit, 5,001 times do not (kAudio_MemFullError, the player stays stopped), and
    /// a track looping for ever stops repeating at half the bound instead of failing.
    func testLoopedTracksAreBoundedAtAMillionScheduledEvents() throws {
        let graph = try sineSynthGraph(sampleRate: 48_000)
        let playback = try Playback(graph: graph.graph!)
        let track = try playback.newTrack()
        for i in 0..<100 {
            var note = MIDINoteMessage(channel: 0, note: 60, velocity: 100, releaseVelocity: 0, duration: 0.005)
            XCTAssertEqual(MusicTrackNewMIDINoteEvent(track, Double(i) * 0.01, &note), noErr)
        }
        let player = playback.player!
        func start(loops: Int32) -> (OSStatus, String) {
            playback.setLoop(track, duration: 1, count: loops)
            let status = MusicPlayerStart(player)
            let message = lastMessage()
            var playing: DarwinBoolean = false
            MusicPlayerIsPlaying(player, &playing)
            XCTAssertEqual(playing.boolValue, status == noErr, "\(loops) loops: playing after Start")
            MusicPlayerStop(player)
            return (status, message)
        }
        XCTAssertEqual(start(loops: 4_999).0, noErr)
        let (status, message) = start(loops: 5_001)
        XCTAssertEqual(status, kAudio_MemFullError)
        XCTAssertTrue(message.contains("1000000 events"), message)
        XCTAssertEqual(start(loops: 0).0, noErr)
    }

    /// A tempo of 1e-300 BPM makes a later tempo's start time infinite (1e7 beats of 6e301 s); a
    /// player started after it reads its current beat as NaN, and SetPlayRateScalar rebuilds the
    /// schedule from that beat. No loop pass reaches a NaN beat: the rebuild walks none of the
    /// 2^31 − 1 passes of the track (it walked them all, each adding nothing, and never returned).
    func testARebuildFromAnUnreachableBeatWalksNoLoopPass() throws {
        let graph = try sineSynthGraph(sampleRate: 48_000)
        let playback = try Playback(graph: graph.graph!)
        var tempo: MusicTrack?
        MusicSequenceGetTempoTrack(playback.sequence!, &tempo)
        XCTAssertEqual(MusicTrackNewExtendedTempoEvent(tempo!, 0, 1e-300), noErr, lastMessage())
        XCTAssertEqual(MusicTrackNewExtendedTempoEvent(tempo!, 1e7, 120), noErr, lastMessage())
        let track = try playback.newTrack()
        var note = MIDINoteMessage(channel: 0, note: 60, velocity: 100, releaseVelocity: 0, duration: 0.001)
        XCTAssertEqual(MusicTrackNewMIDINoteEvent(track, 0, &note), noErr)
        // Beat 2e7 lies beyond all 2^31 − 1 passes of 0.001 beats: Start schedules nothing.
        playback.setLoop(track, duration: Double(Float32(0.001)), count: Int32.max)
        let player = playback.player!
        XCTAssertEqual(MusicPlayerSetTime(player, 2e7), noErr, lastMessage())
        XCTAssertEqual(MusicPlayerStart(player), noErr, lastMessage())
        _ = try graph.render(512, block: 512)
        var now: MusicTimeStamp = 0
        MusicPlayerGetTime(player, &now)
        XCTAssertTrue(now.isNaN, "the current beat under this tempo map (\(now))")
        XCTAssertEqual(MusicPlayerSetPlayRateScalar(player, 2), noErr, lastMessage())
        XCTAssertEqual(MusicPlayerStop(player), noErr)
    }

    /// MusicTrackSetDestAudioUnit (AUHost extension): a track plays to the unit it names; a unit
    /// that takes no MIDI is refused.
    func testATrackPlaysToTheAudioUnitItNames() throws {
        let graph = try sineSynthGraph(sampleRate: 48_000)
        var sequence: MusicSequence?
        NewMusicSequence(&sequence)
        defer { DisposeMusicSequence(sequence!) }
        var track: MusicTrack?
        MusicSequenceNewTrack(sequence!, &track)
        var note = MIDINoteMessage(channel: 0, note: 69, velocity: 127, releaseVelocity: 0, duration: 0.25)
        XCTAssertEqual(MusicTrackNewMIDINoteEvent(track!, 1, &note), noErr)
        XCTAssertEqual(
            MusicTrackSetDestAudioUnit(track!, graph.unit(graph.head)), kAudioToolboxErr_IllegalTrackDestination,
            "the generic output takes no MIDI")
        XCTAssertEqual(MusicTrackSetDestAudioUnit(track!, graph.unit(graph.instrument)), noErr, lastMessage())
        var unit: AudioUnit?
        XCTAssertEqual(MusicTrackGetDestAudioUnit(track!, &unit), noErr)
        XCTAssertEqual(unit, graph.unit(graph.instrument))
        MusicSequenceSetAUGraph(sequence!, graph.graph!)
        var player: MusicPlayer?
        NewMusicPlayer(&player)
        defer { DisposeMusicPlayer(player!) }
        MusicPlayerSetSequence(player!, sequence!)
        XCTAssertEqual(MusicPlayerStart(player!), noErr, lastMessage())
        XCTAssertEqual(soundingStretches(try graph.render(48_000, block: 1024)).map(\.on), [24_000])
    }

    func testStopReleasesTheSoundingNoteInTheNextCycle() throws {
        let graph = try sineSynthGraph(sampleRate: 48_000)
        var sequence: MusicSequence?
        NewMusicSequence(&sequence)
        defer { DisposeMusicSequence(sequence!) }
        var track: MusicTrack?
        MusicSequenceNewTrack(sequence!, &track)
        var note = MIDINoteMessage(channel: 0, note: 69, velocity: 127, releaseVelocity: 0, duration: 100)
        XCTAssertEqual(MusicTrackNewMIDINoteEvent(track!, 0, &note), noErr)
        MusicSequenceSetAUGraph(sequence!, graph.graph!)
        var player: MusicPlayer?
        NewMusicPlayer(&player)
        defer { DisposeMusicPlayer(player!) }
        MusicPlayerSetSequence(player!, sequence!)
        XCTAssertEqual(MusicPlayerStart(player!), noErr, lastMessage())
        let playing = try graph.render(1024, block: 512)
        XCTAssertNotEqual(playing[1023], 0, "the long note sounds")
        XCTAssertEqual(MusicPlayerStop(player!), noErr)
        var time: MusicTimeStamp = 0
        XCTAssertEqual(MusicPlayerGetTime(player!, &time), noErr)
        XCTAssertEqual(time, 1024 / 48_000.0 * 2, accuracy: 1e-9, "stopped where the last cycle ended (120 BPM)")
        let after = try graph.render(512, block: 512)
        XCTAssertEqual(after, [Float](repeating: 0, count: 512), "released at the next cycle's first frame (no release time)")
    }

    /// An application may dispose its graph before its player: the player's release of the notes
    /// still sounding must not reach the freed units (it skips them).
    func testDisposingThePlayerAfterItsGraphIsSafe() throws {
        var graph: InstrumentGraph? = try sineSynthGraph(sampleRate: 48_000)
        var sequence: MusicSequence?
        NewMusicSequence(&sequence)
        defer { DisposeMusicSequence(sequence!) }
        var track: MusicTrack?
        MusicSequenceNewTrack(sequence!, &track)
        var note = MIDINoteMessage(channel: 0, note: 69, velocity: 127, releaseVelocity: 0, duration: 100)
        XCTAssertEqual(MusicTrackNewMIDINoteEvent(track!, 0, &note), noErr)
        MusicSequenceSetAUGraph(sequence!, graph!.graph!)
        var player: MusicPlayer?
        NewMusicPlayer(&player)
        MusicPlayerSetSequence(player!, sequence!)
        XCTAssertEqual(MusicPlayerStart(player!), noErr, lastMessage())
        let playing = try graph!.render(1024, block: 512)
        XCTAssertNotEqual(playing[1023], 0, "the long note sounds")
        graph = nil  // DisposeAUGraph: the instrument is gone while its note sounds
        XCTAssertEqual(DisposeMusicPlayer(player!), noErr)
    }

    func testAnLV2InstrumentRendersTheFileIdenticallyAtEveryBlockSize() throws {
        let piano = try XCTUnwrap(
            findComponent(type: kAudioUnitType_MusicDevice, nameSuffix: "MDA Piano"), "mda Piano (mda-lv2) in LV2_PATH")
        var description = AudioComponentDescription()
        AudioComponentGetDescription(piano, &description)
        let mido = try MidoNotes.load("tempo-changes.json")
        let rate = 1.5
        let total = Int((mido.notes.last!.off / rate * 48_000).rounded()) + 4_800
        var renders: [Int: [Float]] = [:]
        for block in [64, 512, 4096] {
            let graph = try InstrumentGraph(description, sampleRate: 48_000)
            let playback = try Playback(try fixture("tempo-changes.mid"), graph: graph.graph!)
            // mda Piano does one thing per block: at the end of each run it retires the voices whose
            // envelope fell below its silence threshold (mdaPiano.cpp). So that none falls that low
            // while the file plays, the sustain pedal holds every note, the envelope decays as
            // slowly as it can (the highest note, 83, lasts about 7 s) and all 32 voices are
            // available (no stealing); the file plays at 1.5× (6.5 s) so that it ends before note
            // 83 (at 1.6 s) dies. The file's program change, which would load a preset over these
            // settings, is taken out. The plug-in is then block-independent; so must the output be.
            for name in ["Envelope Decay", "Polyphony"] { try setParameter(graph.unit(graph.instrument), named: name, toMaximum: ()) }
            var track: MusicTrack?
            MusicSequenceGetIndTrack(playback.sequence!, 0, &track)
            var iterator: MusicEventIterator?
            NewMusicEventIterator(track!, &iterator)
            var type: MusicEventType = 0
            MusicEventIteratorGetEventInfo(iterator!, nil, &type, nil, nil)
            XCTAssertEqual(type, kMusicEventType_MIDIChannelMessage, "the program change comes first")
            XCTAssertEqual(MusicEventIteratorDeleteEvent(iterator!), noErr)
            DisposeMusicEventIterator(iterator!)
            var pedal = MIDIChannelMessage(status: 0xB0, data1: 64, data2: 127, reserved: 0)
            XCTAssertEqual(MusicTrackNewMIDIChannelEvent(track!, 0, &pedal), noErr)
            XCTAssertEqual(MusicPlayerSetPlayRateScalar(playback.player!, rate), noErr)
            XCTAssertEqual(MusicPlayerStart(playback.player!), noErr, lastMessage())
            renders[block] = try graph.render(total, block: block)
        }
        let reference = try XCTUnwrap(renders[64])
        XCTAssertGreaterThan(reference.map(abs).max() ?? 0, 0.01, "the piano plays")
        // Silent until the first note (tick 7 at 120 BPM, 1.5×: 0.0048611 s = frame 233.3 → 233).
        XCTAssertEqual(reference.firstIndex { $0 != 0 }, 233)
        for block in [512, 4096] {
            let other = try XCTUnwrap(renders[block])
            let first = zip(other, reference).enumerated().first { $0.element.0 != $0.element.1 }
            XCTAssertNil(first.map { "frame \($0.offset): \($0.element.0) vs \($0.element.1)" }, "\(block)-frame blocks against 64")
        }
    }

    /// Sets the global parameter called `name` to its maximum.
    func setParameter(_ unit: AudioUnit, named name: String, toMaximum: Void) throws {
        var size: UInt32 = 0
        try AudioError.check(
            AudioUnitGetPropertyInfo(unit, kAudioUnitProperty_ParameterList, kAudioUnitScope_Global, 0, &size, nil), "parameter list size")
        var ids = [AudioUnitParameterID](repeating: 0, count: Int(size) / 4)
        try AudioError.check(
            AudioUnitGetProperty(unit, kAudioUnitProperty_ParameterList, kAudioUnitScope_Global, 0, &ids, &size), "parameter list")
        for id in ids {
            var info = AudioUnitParameterInfo()
            var infoSize = UInt32(MemoryLayout<AudioUnitParameterInfo>.size)
            try AudioError.check(
                AudioUnitGetProperty(unit, kAudioUnitProperty_ParameterInfo, kAudioUnitScope_Global, id, &info, &infoSize), "info")
            let infoName = withUnsafeBytes(of: info.name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if infoName == name {
                try AudioError.check(AudioUnitSetParameter(unit, id, kAudioUnitScope_Global, 0, info.maxValue, 0), "set \(name)")
                return
            }
        }
        XCTFail("no parameter named \(name)")
    }
}

import AUHost
import Foundation
import XCTest

/// MusicSequenceFileLoad / FileCreate against files python3-mido wrote and reads.
final class StandardMIDIFileTests: XCTestCase {
    var sequence: MusicSequence!

    override func setUpWithError() throws {
        var s: MusicSequence?
        XCTAssertEqual(NewMusicSequence(&s), noErr)
        sequence = try XCTUnwrap(s)
    }

    override func tearDown() {
        if let sequence { DisposeMusicSequence(sequence) }
    }

    func load(_ url: URL, flags: MusicSequenceLoadFlags = []) throws {
        try AudioError.check(MusicSequenceFileLoad(sequence, cfURL(url.path), .midiType, flags), lastMessage())
    }

    func testAType1FileLoadsIntoATempoTrackAndItsTracks() throws {
        try load(try fixture("tempo-changes.mid"))
        let all = try events(of: sequence)
        XCTAssertEqual(all.count, 3, "tempo track + the two note tracks (the conductor track becomes the tempo track)")
        XCTAssertEqual(all[0].filter { $0.contains("type 3:") }.count, 5, "five tempo changes")
        XCTAssertEqual(all[0].filter { $0.contains("type 5:") }.count, 1, "the time signature")
        XCTAssertEqual(all[1].filter { $0.contains("type 6:") }.count, 13)
        XCTAssertEqual(all[2].filter { $0.contains("type 6:") }.count, 12)
        XCTAssertEqual(all[1].first, "0.0 type 7: c0 5 0 0", "the program change, as a channel message")

        var tempo: MusicTrack?
        MusicSequenceGetTempoTrack(sequence, &tempo)
        var resolution: Int16 = 0
        var size = UInt32(2)
        XCTAssertEqual(MusicTrackGetProperty(tempo!, UInt32(kSequenceTrackProperty_TimeResolution), &resolution, &size), noErr)
        XCTAssertEqual(resolution, 480)

        // Every note's time and duration through the tempo map against mido's seconds.
        let mido = try MidoNotes.load("tempo-changes.json")
        var notes: [(beat: MusicTimeStamp, message: MIDINoteMessage)] = []
        for index in 0..<2 {
            var track: MusicTrack?
            MusicSequenceGetIndTrack(sequence, UInt32(index), &track)
            var iterator: MusicEventIterator?
            NewMusicEventIterator(track!, &iterator)
            var has: DarwinBoolean = false
            MusicEventIteratorHasCurrentEvent(iterator!, &has)
            while has.boolValue {
                var time: MusicTimeStamp = 0
                var type: MusicEventType = 0
                var data: UnsafeRawPointer?
                MusicEventIteratorGetEventInfo(iterator!, &time, &type, &data, nil)
                if type == kMusicEventType_MIDINoteMessage { notes.append((time, data!.load(as: MIDINoteMessage.self))) }
                MusicEventIteratorNextEvent(iterator!)
                MusicEventIteratorHasCurrentEvent(iterator!, &has)
            }
            DisposeMusicEventIterator(iterator!)
        }
        notes.sort { $0.beat < $1.beat }
        XCTAssertEqual(notes.count, mido.notes.count)
        for (ours, theirs) in zip(notes, mido.notes) {
            XCTAssertEqual(Int(ours.message.channel), theirs.channel)
            XCTAssertEqual(Int(ours.message.note), theirs.note)
            XCTAssertEqual(Int(ours.message.velocity), theirs.velocity)
            XCTAssertEqual(ours.message.duration, Float32(100.0 / 480), "100 ticks")
            var on: Float64 = 0, off: Float64 = 0
            MusicSequenceGetSecondsForBeats(sequence, ours.beat, &on)
            MusicSequenceGetSecondsForBeats(sequence, ours.beat + Double(ours.message.duration), &off)
            XCTAssertEqual(on, theirs.on, accuracy: 1e-9, "note \(theirs.note) on")
            XCTAssertEqual(off, theirs.off, accuracy: 1e-6, "note \(theirs.note) off (duration is a Float32)")
        }
    }

    func testChannelsToTracksGivesOneTrackPerChannelThenOneForMetaEvents() throws {
        // One track mixing channels 9 and 2 and a track-name meta event, written, then loaded both ways.
        var track: MusicTrack?
        MusicSequenceNewTrack(sequence, &track)
        for (i, channel) in [9, 2, 9].enumerated() {
            var note = MIDINoteMessage(channel: UInt8(channel), note: UInt8(60 + i), velocity: 100, releaseVelocity: 0, duration: 0.5)
            XCTAssertEqual(MusicTrackNewMIDINoteEvent(track!, Double(i), &note), noErr)
        }
        let name = Array("lead".utf8)
        let meta = UnsafeMutableRawPointer.allocate(byteCount: 8 + name.count, alignment: 8)
        defer { meta.deallocate() }
        meta.initializeMemory(as: UInt8.self, repeating: 0, count: 8 + name.count)
        meta.storeBytes(of: 0x03, as: UInt8.self)
        meta.storeBytes(of: UInt32(name.count), toByteOffset: 4, as: UInt32.self)
        name.withUnsafeBytes { (meta + 8).copyMemory(from: $0.baseAddress!, byteCount: name.count) }
        XCTAssertEqual(MusicTrackNewMetaEvent(track!, 0, meta.assumingMemoryBound(to: MIDIMetaEvent.self)), noErr)
        var data: Unmanaged<CFData>?
        XCTAssertEqual(MusicSequenceFileCreateData(sequence, .midiType, [], 0, &data), noErr, lastMessage())
        let cfData = try XCTUnwrap(data).takeRetainedValue()

        var split: MusicSequence?
        NewMusicSequence(&split)
        defer { DisposeMusicSequence(split!) }
        XCTAssertEqual(MusicSequenceFileLoadData(split!, cfData, .midiType, .smf_ChannelsToTracks), noErr, lastMessage())
        let tracks = try events(of: split!)
        XCTAssertEqual(tracks.count, 4, "tempo, channel 2, channel 9, meta events")
        XCTAssertEqual(tracks[1].map { $0.prefix(15) }, ["1.0 type 6: 2 3"])
        XCTAssertEqual(tracks[2].map { $0.prefix(15) }, ["0.0 type 6: 9 3", "2.0 type 6: 9 3"])
        XCTAssertEqual(tracks[3], ["0.0 type 5: 3 0 0 0 4 0 0 0 6c 65 61 64"])

        var whole: MusicSequence?
        NewMusicSequence(&whole)
        defer { DisposeMusicSequence(whole!) }
        XCTAssertEqual(MusicSequenceFileLoadData(whole!, cfData, .midiType, []), noErr)
        XCTAssertEqual(try events(of: whole!).count, 2, "PreserveTracks: tempo track + the one track")
    }

    func testLoadCreateLoadYieldsIdenticalEvents() throws {
        try load(try fixture("tempo-changes.mid"))
        let first = try events(of: sequence)
        var data: Unmanaged<CFData>?
        XCTAssertEqual(MusicSequenceFileCreateData(sequence, .midiType, [], 0, &data), noErr, lastMessage())
        var again: MusicSequence?
        NewMusicSequence(&again)
        defer { DisposeMusicSequence(again!) }
        XCTAssertEqual(MusicSequenceFileLoadData(again!, try XCTUnwrap(data).takeRetainedValue(), .midiType, []), noErr, lastMessage())
        XCTAssertEqual(try events(of: again!), first)
    }

    func testFileCreateOutputReadsBackInMidoWithTheSameEvents() throws {
        let original = try fixture("tempo-changes.mid")
        try load(original)
        let written = FileManager.default.temporaryDirectory.appendingPathComponent("auhost-music-\(getpid()).mid")
        defer { try? FileManager.default.removeItem(at: written) }
        XCTAssertEqual(MusicSequenceFileCreate(sequence, cfURL(written.path), .midiType, .eraseFile, 0), noErr, lastMessage())
        XCTAssertEqual(
            MusicSequenceFileCreate(sequence, cfURL(written.path), .midiType, [], 0), kAudio_FilePermissionError,
            "an existing file is replaced only with kMusicSequenceFileFlags_EraseFile")
        // mido lists each file's tracks as (absolute tick, message) with a note-on of velocity 0
        // spelled as the note-off it means, sorted within a tick, end-of-track left out.
        let script = """
            import sys, mido
            def norm(path):
                f = mido.MidiFile(path)
                out = [f.type, f.ticks_per_beat]
                for track in f.tracks:
                    now, items = 0, []
                    for m in track:
                        now += m.time
                        if m.type == 'end_of_track': continue
                        if m.type == 'note_on' and m.velocity == 0: m = mido.Message('note_off', channel=m.channel, note=m.note, velocity=0)
                        items.append((now, str(m.copy(time=0))))
                    out.append(sorted(items))
                return out
            a, b = norm(sys.argv[1]), norm(sys.argv[2])
            print('same' if a == b else 'different\\n%r\\n%r' % (a, b))
            """
        let result = try runCommand("/usr/bin/python3", ["-c", script, original.path, written.path])
        XCTAssertEqual(result.status, 0, "python3-mido (scripts/debian-packages.txt) must be installed: \(result.output)")
        XCTAssertEqual(result.output.trimmingCharacters(in: .whitespacesAndNewlines), "same")
    }

    func testEveryTruncationOfAFileIsRefusedWithTheDocumentedError() throws {
        let bytes = try Data(contentsOf: try fixture("tempo-changes.mid"))
        for length in 0..<bytes.count {
            let data = bytes.prefix(length) as NSData
            var s: MusicSequence?
            NewMusicSequence(&s)
            let status = MusicSequenceFileLoadData(s!, unsafeBitCast(data, to: CFData.self), .midiType, [])
            XCTAssertEqual(status, kAudioFileInvalidFileError, "\(length) of \(bytes.count) bytes")
            XCTAssertTrue(lastMessage().contains("byte"), "the message names the offset: \(lastMessage())")
            DisposeMusicSequence(s!)
        }
    }

    /// 10,000 mutants of the fixture (seeded, so every run checks the same ones): byte flips,
    /// boundary values, deleted and repeated ranges, truncations. Each loads or is refused with a
    /// documented error; what loads is written back (or refused with kAudio_ParamError).
    func testTenThousandMutatedFilesLoadOrGetADocumentedError() throws {
        let original = [UInt8](try Data(contentsOf: try fixture("tempo-changes.mid")))
        var seed: UInt64 = 0x5EED_0017
        func next() -> Int {  // SplitMix64
            seed &+= 0x9E37_79B9_7F4A_7C15
            var z = seed
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return Int(truncatingIfNeeded: (z ^ (z >> 31)) >> 1)
        }
        var outcomes: [OSStatus: Int] = [:]
        for _ in 0..<10_000 {
            var bytes = original
            for _ in 0..<(1 + next() % 8) where !bytes.isEmpty {
                let at = next() % bytes.count
                switch next() % 6 {
                case 0: bytes[at] ^= UInt8(1 << (next() % 8))
                case 1: bytes[at] = [0x00, 0x7F, 0x80, 0xFF][next() % 4]
                case 2: bytes.removeSubrange(at..<min(bytes.count, at + 1 + next() % 16))
                case 3: bytes.insert(contentsOf: bytes[at..<min(bytes.count, at + 1 + next() % 16)], at: at)
                case 4: bytes.removeSubrange(at...)
                default: bytes[at] = UInt8(truncatingIfNeeded: next())
                }
            }
            let data = Data(bytes) as NSData
            var s: MusicSequence?
            NewMusicSequence(&s)
            let status = MusicSequenceFileLoadData(s!, unsafeBitCast(data, to: CFData.self), .midiType, [])
            outcomes[status, default: 0] += 1
            if status == noErr {
                var written: Unmanaged<CFData>?
                let create = MusicSequenceFileCreateData(s!, .midiType, [], 0, &written)
                XCTAssertTrue(create == noErr || create == kAudio_ParamError, "FileCreateData answered \(create)")
                written?.release()
            }
            DisposeMusicSequence(s!)
        }
        XCTAssertEqual(
            Set(outcomes.keys).subtracting([noErr, kAudioFileInvalidFileError, kAudio_MemFullError]), [],
            "only documented errors: \(outcomes)")
        print("mutated MIDI files: \(outcomes.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" })")
        XCTAssertGreaterThan(outcomes[noErr] ?? 0, 100, "some mutants still load: \(outcomes)")
        XCTAssertGreaterThan(outcomes[kAudioFileInvalidFileError] ?? 0, 1000, "many are refused: \(outcomes)")
    }

    func testBadFilesAndTypesGetTheirErrors() throws {
        let riff = Data("RIFF\0\0\0\0WAVE".utf8) as NSData
        XCTAssertEqual(MusicSequenceFileLoadData(sequence, unsafeBitCast(riff, to: CFData.self), .anyType, []), kAudioFileInvalidFileError)
        XCTAssertTrue(lastMessage().contains("MThd"), lastMessage())
        let good = try Data(contentsOf: try fixture("tempo-changes.mid")) as NSData
        XCTAssertEqual(
            MusicSequenceFileLoadData(sequence, unsafeBitCast(good, to: CFData.self), .iMelodyType, []), kAudioFileUnsupportedFileTypeError)
        XCTAssertEqual(MusicSequenceFileLoad(sequence, cfURL("/nonexistent/x.mid"), .midiType, []), kAudio_FileNotFoundError)
        // A tempo of 0 microseconds per beat would make time stand still.
        var bytes = [UInt8](good as Data)
        let tempoAt = try XCTUnwrap((0..<bytes.count - 3).first { bytes[$0] == 0xFF && bytes[$0 + 1] == 0x51 })
        bytes[tempoAt + 3] = 0
        bytes[tempoAt + 4] = 0
        bytes[tempoAt + 5] = 0
        let zero = Data(bytes) as NSData
        XCTAssertEqual(MusicSequenceFileLoadData(sequence, unsafeBitCast(zero, to: CFData.self), .midiType, []), kAudioFileInvalidFileError)
        XCTAssertTrue(lastMessage().contains("tempo of 0"), lastMessage())
    }
}

import AUHost
import XCTest

/// Sequences, tracks, events, iterators and the tempo map through the C API.
final class MusicSequenceTests: XCTestCase {
    var sequence: MusicSequence!

    override func setUpWithError() throws {
        var s: MusicSequence?
        XCTAssertEqual(NewMusicSequence(&s), noErr)
        sequence = try XCTUnwrap(s)
    }

    override func tearDown() {
        if let sequence { DisposeMusicSequence(sequence) }
    }

    func newTrack() throws -> MusicTrack {
        var t: MusicTrack?
        XCTAssertEqual(MusicSequenceNewTrack(sequence, &t), noErr)
        return try XCTUnwrap(t)
    }

    func testTracksAreCountedIndexedAndDisposed() throws {
        var count: UInt32 = 99
        XCTAssertEqual(MusicSequenceGetTrackCount(sequence, &count), noErr)
        XCTAssertEqual(count, 0, "a new sequence has only its tempo track, which is not counted")
        let a = try newTrack(), b = try newTrack()
        XCTAssertEqual(MusicSequenceGetTrackCount(sequence, &count), noErr)
        XCTAssertEqual(count, 2)
        var found: MusicTrack?
        XCTAssertEqual(MusicSequenceGetIndTrack(sequence, 1, &found), noErr)
        XCTAssertEqual(found, b)
        var index: UInt32 = 9
        XCTAssertEqual(MusicSequenceGetTrackIndex(sequence, a, &index), noErr)
        XCTAssertEqual(index, 0)
        XCTAssertEqual(MusicSequenceGetIndTrack(sequence, 2, &found), kAudioToolboxErr_TrackIndexError)
        XCTAssertTrue(lastMessage().contains("has 2 tracks"), lastMessage())
        var owner: MusicSequence?
        XCTAssertEqual(MusicTrackGetSequence(a, &owner), noErr)
        XCTAssertEqual(owner, sequence)
        XCTAssertEqual(MusicSequenceDisposeTrack(sequence, a), noErr)
        XCTAssertEqual(MusicSequenceGetTrackCount(sequence, &count), noErr)
        XCTAssertEqual(count, 1)
        var note = MIDINoteMessage(channel: 0, note: 60, velocity: 100, releaseVelocity: 0, duration: 1)
        XCTAssertEqual(MusicTrackNewMIDINoteEvent(a, 0, &note), kAudio_ParamError, "a disposed track's handle is refused")
    }

    func testEventsKeepTimeOrderAndInsertionOrderAtOneTime() throws {
        let track = try newTrack()
        var c4 = MIDINoteMessage(channel: 0, note: 60, velocity: 100, releaseVelocity: 0, duration: 0.5)
        var e4 = MIDINoteMessage(channel: 0, note: 64, velocity: 90, releaseVelocity: 0, duration: 1.5)
        var cc = MIDIChannelMessage(status: 0xB0, data1: 7, data2: 99, reserved: 0)
        XCTAssertEqual(MusicTrackNewMIDINoteEvent(track, 2, &c4), noErr)
        XCTAssertEqual(MusicTrackNewMIDINoteEvent(track, 1, &e4), noErr)
        XCTAssertEqual(MusicTrackNewMIDIChannelEvent(track, 1, &cc), noErr)
        var iterator: MusicEventIterator?
        XCTAssertEqual(NewMusicEventIterator(track, &iterator), noErr)
        let it = try XCTUnwrap(iterator)
        defer { DisposeMusicEventIterator(it) }
        var seen: [(MusicTimeStamp, MusicEventType)] = []
        var hasNext: DarwinBoolean = false
        MusicEventIteratorHasNextEvent(it, &hasNext)
        while hasNext.boolValue {  // Apple's loop: HasNextEvent is true on the last event too
            var time: MusicTimeStamp = 0
            var type: MusicEventType = 0
            XCTAssertEqual(MusicEventIteratorGetEventInfo(it, &time, &type, nil, nil), noErr)
            seen.append((time, type))
            MusicEventIteratorNextEvent(it)
            MusicEventIteratorHasNextEvent(it, &hasNext)
        }
        XCTAssertEqual(seen.map(\.0), [1, 1, 2])
        XCTAssertEqual(
            seen.map(\.1),
            [UInt32(kMusicEventType_MIDINoteMessage), UInt32(kMusicEventType_MIDIChannelMessage), UInt32(kMusicEventType_MIDINoteMessage)])
        XCTAssertEqual(MusicEventIteratorGetEventInfo(it, nil, nil, nil, nil), kAudioToolboxErr_EndOfTrack)
        XCTAssertEqual(MusicEventIteratorNextEvent(it), kAudioToolboxErr_EndOfTrack)

        // Seek to beat 1.5 lands on the C4 at 2; its data is the note as given.
        XCTAssertEqual(MusicEventIteratorSeek(it, 1.5), noErr)
        var data: UnsafeRawPointer?
        var size: UInt32 = 0
        XCTAssertEqual(MusicEventIteratorGetEventInfo(it, nil, nil, &data, &size), noErr)
        XCTAssertEqual(Int(size), MemoryLayout<MIDINoteMessage>.size)
        XCTAssertEqual(data?.load(as: MIDINoteMessage.self).note, 60)
        // Moving it to beat 0 makes it first; deleting it leaves two events.
        XCTAssertEqual(MusicEventIteratorSetEventTime(it, 0), noErr)
        XCTAssertEqual(MusicEventIteratorSeek(it, 0), noErr)
        var time: MusicTimeStamp = -1
        XCTAssertEqual(MusicEventIteratorGetEventInfo(it, &time, nil, &data, nil), noErr)
        XCTAssertEqual(time, 0)
        XCTAssertEqual(data?.load(as: MIDINoteMessage.self).note, 60)
        XCTAssertEqual(MusicEventIteratorDeleteEvent(it), noErr)
        XCTAssertEqual(try events(of: sequence)[1].count, 2)
        var hasPrevious: DarwinBoolean = true
        XCTAssertEqual(MusicEventIteratorHasPreviousEvent(it, &hasPrevious), noErr)
        XCTAssertFalse(hasPrevious.boolValue)
        XCTAssertEqual(MusicEventIteratorPreviousEvent(it), kAudioToolboxErr_StartOfTrack)
    }

    func testTrackLengthFollowsTheLastNoteEndAndTheSetLength() throws {
        let track = try newTrack()
        var note = MIDINoteMessage(channel: 0, note: 60, velocity: 100, releaseVelocity: 0, duration: 1.25)
        XCTAssertEqual(MusicTrackNewMIDINoteEvent(track, 3, &note), noErr)
        var length: MusicTimeStamp = 0
        var size = UInt32(8)
        XCTAssertEqual(MusicTrackGetProperty(track, UInt32(kSequenceTrackProperty_TrackLength), &length, &size), noErr)
        XCTAssertEqual(length, 4.25)
        var longer: MusicTimeStamp = 8
        XCTAssertEqual(MusicTrackSetProperty(track, UInt32(kSequenceTrackProperty_TrackLength), &longer, 8), noErr)
        XCTAssertEqual(MusicTrackGetProperty(track, UInt32(kSequenceTrackProperty_TrackLength), &length, &size), noErr)
        XCTAssertEqual(length, 8)
        var loop = MusicTrackLoopInfo(loopDuration: 2, numberOfLoops: 3)
        XCTAssertEqual(
            MusicTrackSetProperty(track, UInt32(kSequenceTrackProperty_LoopInfo), &loop, UInt32(MemoryLayout<MusicTrackLoopInfo>.size)),
            noErr)
        var back = MusicTrackLoopInfo()
        size = UInt32(MemoryLayout<MusicTrackLoopInfo>.size)
        XCTAssertEqual(MusicTrackGetProperty(track, UInt32(kSequenceTrackProperty_LoopInfo), &back, &size), noErr)
        XCTAssertEqual(back.loopDuration, 2)
        XCTAssertEqual(back.numberOfLoops, 3)
        var muted: UInt8 = 1
        XCTAssertEqual(MusicTrackSetProperty(track, UInt32(kSequenceTrackProperty_MuteStatus), &muted, 1), noErr)
        muted = 0
        size = 1
        XCTAssertEqual(MusicTrackGetProperty(track, UInt32(kSequenceTrackProperty_MuteStatus), &muted, &size), noErr)
        XCTAssertEqual(muted, 1)
        XCTAssertEqual(MusicTrackSetProperty(track, 77, &muted, 1), kAudioUnitErr_InvalidProperty)
        XCTAssertEqual(
            MusicTrackSetProperty(track, UInt32(kSequenceTrackProperty_OffsetTime), &muted, 1), kAudioUnitErr_InvalidPropertyValue)
    }

    func testTheTempoTrackMapsBeatsToSecondsBothWays() throws {
        var tempo: MusicTrack?
        XCTAssertEqual(MusicSequenceGetTempoTrack(sequence, &tempo), noErr)
        var seconds: Float64 = 0
        XCTAssertEqual(MusicSequenceGetSecondsForBeats(sequence, 3, &seconds), noErr)
        XCTAssertEqual(seconds, 1.5, "120 BPM until the first tempo event")
        XCTAssertEqual(MusicTrackNewExtendedTempoEvent(tempo!, 0, 60), noErr)
        XCTAssertEqual(MusicTrackNewExtendedTempoEvent(tempo!, 4, 240), noErr)
        XCTAssertEqual(MusicSequenceGetSecondsForBeats(sequence, 6, &seconds), noErr)
        XCTAssertEqual(seconds, 4.5, "4 beats at 60 BPM, then 2 at 240")
        var beats: MusicTimeStamp = 0
        XCTAssertEqual(MusicSequenceGetBeatsForSeconds(sequence, 4.5, &beats), noErr)
        XCTAssertEqual(beats, 6)
        XCTAssertEqual(MusicSequenceGetBeatsForSeconds(sequence, 2, &beats), noErr)
        XCTAssertEqual(beats, 2)
    }

    func testBadEventsAndHandlesGetTheDocumentedErrors() throws {
        let track = try newTrack()
        XCTAssertEqual(
            MusicTrackNewExtendedTempoEvent(track, 0, 100), kAudioToolboxErr_InvalidEventType, "tempo belongs on the tempo track")
        var tempo: MusicTrack?
        MusicSequenceGetTempoTrack(sequence, &tempo)
        XCTAssertEqual(MusicTrackNewExtendedTempoEvent(tempo!, 0, 0), kAudio_ParamError, "0 BPM")
        var note = MIDINoteMessage(channel: 16, note: 60, velocity: 100, releaseVelocity: 0, duration: 1)
        XCTAssertEqual(MusicTrackNewMIDINoteEvent(track, 0, &note), kAudio_ParamError)
        XCTAssertTrue(lastMessage().contains("channel 16"), lastMessage())
        note.channel = 0
        XCTAssertEqual(MusicTrackNewMIDINoteEvent(track, -1, &note), kAudio_ParamError, "negative time")
        XCTAssertEqual(MusicTrackNewMIDINoteEvent(track, .nan, &note), kAudio_ParamError)
        var status = MIDIChannelMessage(status: 0x40, data1: 0, data2: 0, reserved: 0)
        XCTAssertEqual(MusicTrackNewMIDIChannelEvent(track, 0, &status), kAudio_ParamError, "not a status byte")
        var bogus: MusicSequence? = OpaquePointer(bitPattern: 0x1234)
        var count: UInt32 = 0
        XCTAssertEqual(MusicSequenceGetTrackCount(bogus!, &count), kAudio_ParamError)
        bogus = nil
        var player: MusicPlayer?
        XCTAssertEqual(NewMusicPlayer(&player), noErr)
        defer { DisposeMusicPlayer(player!) }
        XCTAssertEqual(MusicPlayerStart(player!), kAudioToolboxErr_NoSequence)
        XCTAssertEqual(MusicPlayerSetSequence(player!, sequence), noErr)
        XCTAssertEqual(MusicPlayerStart(player!), kAudioToolboxError_NoTrackDestination, "no graph")
        XCTAssertEqual(DisposeMusicSequence(sequence), kAudioToolboxErr_InvalidPlayerState, "a player uses it")
        XCTAssertEqual(MusicPlayerSetPlayRateScalar(player!, 0), kAudio_ParamError)
        XCTAssertEqual(MusicPlayerSetSequence(player!, nil), noErr)
    }
}

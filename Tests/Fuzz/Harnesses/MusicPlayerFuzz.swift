import AUHost
import Foundation
@_spi(Fuzzing) import MusicPlayerServices

/// Music Sequencing Services through the C API with hostile numbers: up to 64 calls on a
/// sequence, its tracks, event iterators and a player that plays to a silent instrument in an
/// offline graph (pulled here). Beats, durations, tempos, loop lengths and counts, offsets, play
/// rates and property sizes are often special (NaN, ±∞, huge, tiny, 2^53, the 1e12-beat bound)
/// and otherwise any bits. A call may fail with any status; none may trap or hang. Start, SetTime
/// and SetPlayRateScalar each rebuild the schedule, so an input makes at most ``maximumRebuilds``
/// of them, and schedules hold at most ``maximumScheduledEvents`` (the player's own bound,
/// 1,000,000, takes about a second to build under AddressSanitizer: the campaign ran at 15–56
/// inputs a second once its inputs had found looped tracks).
public enum MusicPlayerFuzz {
    static let maximumRebuilds = 3
    static let maximumScheduledEvents = 20_000
    nonisolated(unsafe) static var rebuilds = 0

    /// Thread: any (one call at a time).
    public static func run(_ data: UnsafeRawBufferPointer) {
        precondition(MusicPlayerFuzzSynth.registered)
        // Restored after the input: the replay tests share their process with the player's own tests.
        musicPlayerSetMaximumScheduledEvents(maximumScheduledEvents)
        defer { musicPlayerSetMaximumScheduledEvents(.max) }
        var input = CAPIFuzzInput(data)
        let graph = OfflineGraph()
        defer { graph.dispose() }
        var sequence: MusicSequence?
        precondition(NewMusicSequence(&sequence) == noErr)
        defer { DisposeMusicSequence(sequence!) }
        precondition(MusicSequenceSetAUGraph(sequence!, graph.graph) == noErr)
        var player: MusicPlayer?
        precondition(NewMusicPlayer(&player) == noErr)
        defer { DisposeMusicPlayer(player!) }
        precondition(MusicPlayerSetSequence(player!, sequence!) == noErr)
        var tracks: [MusicTrack] = []
        var calls = 0
        rebuilds = 0
        while !input.isAtEnd && calls < 64 {
            calls += 1
            step(&input, sequence!, player!, &tracks, graph)
        }
        _ = MusicPlayerStop(player!)
    }

    static func step(
        _ input: inout CAPIFuzzInput, _ sequence: MusicSequence, _ player: MusicPlayer, _ tracks: inout [MusicTrack], _ graph: OfflineGraph
    ) {
        let op = input.u8() % 20
        if op == 0 || tracks.isEmpty {
            var track: MusicTrack?
            if tracks.count < 8, MusicSequenceNewTrack(sequence, &track) == noErr { tracks.append(track!) }
            return
        }
        let track = tracks[input.below(tracks.count)]
        switch op {
        case 1:
            var note = MIDINoteMessage(
                channel: input.u8(), note: input.u8(), velocity: input.u8(), releaseVelocity: input.u8(), duration: input.float())
            _ = MusicTrackNewMIDINoteEvent(track, beat(&input), &note)
        case 2:
            var message = MIDIChannelMessage(status: input.u8(), data1: input.u8(), data2: input.u8(), reserved: 0)
            _ = MusicTrackNewMIDIChannelEvent(track, beat(&input), &message)
        case 3:
            var tempo: MusicTrack?
            guard MusicSequenceGetTempoTrack(sequence, &tempo) == noErr else { return }
            _ = MusicTrackNewExtendedTempoEvent(tempo!, beat(&input), beat(&input))
        case 4:
            var loop = MusicTrackLoopInfo(
                loopDuration: beat(&input), numberOfLoops: Int32(bitPattern: input.pick([0, 1, 2, 3, 1000, 0x7FFF_FFFF])))
            _ = MusicTrackSetProperty(track, UInt32(kSequenceTrackProperty_LoopInfo), &loop, UInt32(MemoryLayout<MusicTrackLoopInfo>.size))
        case 5, 6:
            var value = beat(&input)
            let id = op == 5 ? kSequenceTrackProperty_OffsetTime : kSequenceTrackProperty_TrackLength
            _ = MusicTrackSetProperty(track, UInt32(id), &value, 8)
        case 7:
            var flag = input.u8() & 1
            _ = MusicTrackSetProperty(
                track, UInt32(input.u8() & 1 == 0 ? kSequenceTrackProperty_MuteStatus : kSequenceTrackProperty_SoloStatus), &flag, 1)
        case 8: iterate(&input, track)
        case 9, 10, 11:
            let value = op == 11 ? Double(input.u8()) : beat(&input)
            guard rebuilds < maximumRebuilds else { return }
            rebuilds += 1
            if op == 9 { _ = MusicPlayerSetTime(player, value) }
            if op == 10 { _ = MusicPlayerSetPlayRateScalar(player, value) }
            if op == 11 { _ = Int(value) & 1 == 0 ? MusicPlayerStart(player) : MusicPlayerPreroll(player) }
        case 12: _ = MusicPlayerStop(player)
        case 13: graph.render(frames: UInt32(1 + input.below(2_048)))
        case 14:
            var seconds: Float64 = 0, beats: MusicTimeStamp = 0
            _ = MusicSequenceGetSecondsForBeats(sequence, beat(&input), &seconds)
            _ = MusicSequenceGetBeatsForSeconds(sequence, beat(&input), &beats)
            var now: MusicTimeStamp = 0
            _ = MusicPlayerGetTime(player, &now)
        case 15:
            var event = ParameterEvent(parameterID: input.u32(), scope: input.u32() % 8, element: input.u32() % 4, value: input.float())
            _ = MusicTrackNewParameterEvent(track, beat(&input), &event)
        case 16:
            // A raw-data or user event whose length matches the memory passed (0 … 64 bytes).
            let length = input.below(65)
            let bytes = UnsafeMutableRawPointer.allocate(byteCount: 4 + max(length, 1), alignment: 4)
            defer { bytes.deallocate() }
            bytes.storeBytes(of: UInt32(length), as: UInt32.self)
            input.fill(bytes + 4, count: length)
            if input.u8() & 1 == 0 {
                _ = MusicTrackNewMIDIRawDataEvent(track, beat(&input), bytes.assumingMemoryBound(to: MIDIRawData.self))
            } else {
                _ = MusicTrackNewUserEvent(track, beat(&input), bytes.assumingMemoryBound(to: MusicEventUserData.self))
            }
        case 17: _ = MusicTrackClear(track, beat(&input), beat(&input))
        case 18:
            // A property with any ID and a size that may lie (the memory holds 64 bytes).
            var buffer = (UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0))
            let id = input.pick([0, 1, 2, 3, 4, 5, 6, 7, 8])
            var length = input.pick([0, 1, 2, 4, 8, 16, 64])
            withUnsafeMutableBytes(of: &buffer) { raw in
                input.fill(raw.baseAddress!, count: 16)
                if input.u8() & 1 == 0 {
                    _ = MusicTrackSetProperty(track, id, raw.baseAddress!, min(length, 64))
                } else {
                    length = min(length, 64)
                    _ = MusicTrackGetProperty(track, id, raw.baseAddress!, &length)
                }
            }
        default:
            if let index = tracks.firstIndex(of: track), MusicSequenceDisposeTrack(sequence, track) == noErr { tracks.remove(at: index) }
        }
    }

    /// Iterator calls on `track`: seek, step, change the time or data, delete, query.
    static func iterate(_ input: inout CAPIFuzzInput, _ track: MusicTrack) {
        var iterator: MusicEventIterator?
        guard NewMusicEventIterator(track, &iterator) == noErr, let iterator else { return }
        defer { DisposeMusicEventIterator(iterator) }
        for _ in 0..<(1 + input.below(6)) {
            switch input.u8() % 8 {
            case 0: _ = MusicEventIteratorSeek(iterator, beat(&input))
            case 1: _ = MusicEventIteratorNextEvent(iterator)
            case 2: _ = MusicEventIteratorPreviousEvent(iterator)
            case 3: _ = MusicEventIteratorSetEventTime(iterator, beat(&input))
            case 4: _ = MusicEventIteratorDeleteEvent(iterator)
            case 5:
                var time: MusicTimeStamp = 0, type: MusicEventType = 0, size: UInt32 = 0
                var data: UnsafeRawPointer?
                _ = MusicEventIteratorGetEventInfo(iterator, &time, &type, &data, &size)
            case 6:
                var note = MIDINoteMessage(channel: input.u8(), note: input.u8(), velocity: 64, releaseVelocity: 0, duration: input.float())
                _ = MusicEventIteratorSetEventInfo(iterator, UInt32(kMusicEventType_MIDINoteMessage), &note)
            default:
                var flag: DarwinBoolean = false
                _ = MusicEventIteratorHasNextEvent(iterator, &flag)
                _ = MusicEventIteratorHasPreviousEvent(iterator, &flag)
                _ = MusicEventIteratorHasCurrentEvent(iterator, &flag)
            }
        }
    }

    /// A beat, seconds value, tempo or rate: often special, otherwise any bits.
    static func beat(_ input: inout CAPIFuzzInput) -> Double {
        let specials: [Double] = [
            0, -0.0, 0.25, 1, 4, 120, 999_999_999_999, 1e12, 1e15, 1e300, -1, .nan, .infinity, -.infinity,
            .greatestFiniteMagnitude, .leastNonzeroMagnitude, 1e-300, 9_007_199_254_740_992, 9.3e18, 1_000_000, 1_000_001,
        ]
        let selector = input.u8()
        return selector < 224 ? specials[Int(selector) % specials.count] : Double(bitPattern: input.u64())
    }
}

/// The silent synth into a generic output, initialized, pulled by ``render(frames:)``.
final class OfflineGraph {
    var graph: AUGraph
    var head: AUNode = 0
    let output = AudioBufferStorage(format: .canonical(sampleRate: 44_100, channels: 2), capacity: 2_048)
    var time = AudioTimeStamp()

    /// Thread: setup.
    init() {
        var made: AUGraph?
        precondition(NewAUGraph(&made) == noErr)
        graph = made!
        var headDesc = AudioComponentDescription(type: kAudioUnitType_Output, subType: kAudioUnitSubType_GenericOutput)
        var synthDesc = MusicPlayerFuzzSynth.description
        var synth: AUNode = 0
        precondition(AUGraphAddNode(graph, &headDesc, &head) == noErr)
        precondition(AUGraphAddNode(graph, &synthDesc, &synth) == noErr)
        precondition(AUGraphOpen(graph) == noErr)
        precondition(AUGraphConnectNodeInput(graph, synth, 0, head, 0) == noErr)
        precondition(AUGraphInitialize(graph) == noErr)
        time.mFlags = .sampleTimeValid
    }

    /// Pulls `frames` frames (the offline render a player's graph gets). Thread: setup (the render caller).
    func render(frames: UInt32) {
        var unit: AudioUnit?
        guard AUGraphNodeInfo(graph, head, nil, &unit) == noErr, let unit else { return }
        var flags: AudioUnitRenderActionFlags = []
        let n = min(frames, 1_024)
        output.prepare(frames: n)
        _ = AudioUnitRender(unit, &flags, &time, 0, n, output.list)
        time.mSampleTime += Double(n)
    }

    /// Thread: setup.
    func dispose() { DisposeAUGraph(graph) }
}

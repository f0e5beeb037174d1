import AudioToolbox
import AUHost
import Foundation

/// Standard MIDI Files through MusicSequenceFileLoadData, both ways of splitting tracks. Every
/// outcome is a sequence or a documented error (kAudioFileInvalidFileError for malformed data,
/// kAudio_MemFullError above the size bound). A file that loads is written back with
/// MusicSequenceFileCreateData (which may refuse only with kAudio_ParamError, for gaps a MIDI
/// file cannot hold); what it writes must load again into as many tracks and events, and the
/// tempo map must answer for every track's end.
public enum MIDIFileFuzz {
    /// Thread: any (one call at a time).
    public static func run(_ data: UnsafeRawBufferPointer) {
        let bytes = NSData(bytes: data.baseAddress, length: data.count)
        let cfData = unsafeBitCast(bytes, to: CFData.self)
        for flags in [MusicSequenceLoadFlags(), .smf_ChannelsToTracks] {
            var sequence: MusicSequence?
            precondition(NewMusicSequence(&sequence) == noErr)
            defer { DisposeMusicSequence(sequence!) }
            let status = MusicSequenceFileLoadData(sequence!, cfData, .midiType, flags)
            precondition(
                [noErr, kAudioFileInvalidFileError, kAudio_MemFullError].contains(status),
                "MusicSequenceFileLoadData answered \(status), not a documented error")
            guard status == noErr else { continue }
            let shape = counts(sequence!)
            for track in tracks(sequence!) {
                var length: MusicTimeStamp = 0
                var size = UInt32(8)
                precondition(MusicTrackGetProperty(track, UInt32(kSequenceTrackProperty_TrackLength), &length, &size) == noErr)
                var seconds: Float64 = 0
                precondition(MusicSequenceGetSecondsForBeats(sequence!, length, &seconds) == noErr && seconds.isFinite)
            }
            var type: MusicSequenceType = .beats
            MusicSequenceGetSequenceType(sequence!, &type)
            var written: Unmanaged<CFData>?
            let create = MusicSequenceFileCreateData(sequence!, .midiType, [], 0, &written)
            precondition(create == noErr || create == kAudio_ParamError, "MusicSequenceFileCreateData answered \(create)")
            guard create == noErr, let output = written?.takeRetainedValue() else { continue }
            var again: MusicSequence?
            precondition(NewMusicSequence(&again) == noErr)
            defer { DisposeMusicSequence(again!) }
            let reload = MusicSequenceFileLoadData(again!, output, .midiType, [])
            precondition(reload == noErr, "a file AUHost wrote does not load (\(reload))")
            // Beats files keep their shape; SMPTE (seconds) files are rewritten in beats at 60 BPM.
            if type == .beats && flags.isEmpty {
                precondition(counts(again!) == shape, "the rewritten file has other tracks or events: \(counts(again!)) vs \(shape)")
            }
        }
    }

    static func tracks(_ sequence: MusicSequence) -> [MusicTrack] {
        var out: [MusicTrack] = []
        var tempo: MusicTrack?
        MusicSequenceGetTempoTrack(sequence, &tempo)
        out.append(tempo!)
        var count: UInt32 = 0
        MusicSequenceGetTrackCount(sequence, &count)
        for i in 0..<count {
            var t: MusicTrack?
            MusicSequenceGetIndTrack(sequence, i, &t)
            out.append(t!)
        }
        return out
    }

    /// Events per track, tempo track first.
    static func counts(_ sequence: MusicSequence) -> [Int] {
        tracks(sequence).map { track in
            var iterator: MusicEventIterator?
            NewMusicEventIterator(track, &iterator)
            defer { DisposeMusicEventIterator(iterator!) }
            var n = 0
            var has: DarwinBoolean = false
            MusicEventIteratorHasCurrentEvent(iterator!, &has)
            while has.boolValue {
                n += 1
                MusicEventIteratorNextEvent(iterator!)
                MusicEventIteratorHasCurrentEvent(iterator!, &has)
            }
            return n
        }
    }
}

import AudioTypes
import Foundation

/// Standard MIDI File ↔ sequence. Loading pairs each note-on with the next note-off of the same
/// channel and note (first on, first off) into a MIDINoteMessage with its duration; a note left
/// open ends at its track's end. Tempo, time- and key-signature and SMPTE-offset meta events go
/// to the tempo track (tempo as ExtendedTempo events); the end-of-track event sets the track's
/// length; SMPTE files' tempo events are dropped (their time is seconds). Writing produces a
/// type-1 file: the tempo track first, then each track; user and parameter events have no
/// MIDI-file form and are left out, and so are tempo meta events (tempo comes from the tempo
/// track's ExtendedTempo events).
extension StandardMIDIFile {
    /// Meta events that describe the whole sequence and live on its tempo track.
    static let tempoTrackMetaTypes: Set<UInt8> = [0x51, 0x54, 0x58, 0x59]

    /// Fills `sequence` (replacing its tracks) from the file. Thread: setup.
    func load(into sequence: SequenceModel, flags: MusicSequenceLoadFlags) throws {
        let tempo = SequenceTrack(sequence: sequence, isTempoTrack: true)
        let beatsPerTick: Double
        switch division {
        case .ticksPerBeat(let n):
            beatsPerTick = 1 / Double(n)
            sequence.timeResolution = Int16(clamping: n)
            sequence.sequenceType = MusicSequenceType.beats
        case .smpte(let fps, let ticksPerFrame):
            // SMPTE time is seconds: a 60 BPM sequence, beats are seconds.
            beatsPerTick = 1 / (fps * Double(ticksPerFrame))
            sequence.timeResolution = Int16(clamping: Int((fps * Double(ticksPerFrame)).rounded()))
            sequence.sequenceType = MusicSequenceType.seconds
            try tempo.insert(.tempo(0, bpm: 60))
        }
        let channelsToTracks = flags.contains(.smf_ChannelsToTracks)
        var channelTracks: [Int: SequenceTrack] = [:]
        var otherTrack: SequenceTrack?
        var tracks: [SequenceTrack] = []

        for (index, events) in self.tracks.enumerated() {
            let own = SequenceTrack(sequence: sequence, isTempoTrack: false)
            var ownUsed = false
            // Open notes per (channel, note): their events, oldest first from `first` (a queue
            // that never shifts, so a file of many overlapping notes stays linear).
            var open: [Int: (notes: [(event: MusicEvent, tick: UInt64)], first: Int)] = [:]
            var lastTick: UInt64 = 0
            func target(channel: Int?) -> SequenceTrack {
                guard channelsToTracks else { ownUsed = true; return own }
                if let channel {
                    if let t = channelTracks[channel] { return t }
                    let t = SequenceTrack(sequence: sequence, isTempoTrack: false)
                    channelTracks[channel] = t
                    return t
                }
                if let otherTrack { return otherTrack }
                let t = SequenceTrack(sequence: sequence, isTempoTrack: false)
                otherTrack = t
                return t
            }
            for event in events {
                let beat = Double(event.tick) * beatsPerTick
                lastTick = max(lastTick, event.tick)
                switch event.message {
                case .channel(let status, let data1, let data2):
                    let kind = status & 0xF0, channel = Int(status & 0x0F)
                    let key = channel << 7 | Int(data1)
                    if kind == 0x90 && data2 > 0 {
                        let note = MusicEvent.note(
                            beat, MIDINoteMessage(channel: UInt8(channel), note: data1, velocity: data2, releaseVelocity: 0, duration: 0))
                        target(channel: channel).append(note)
                        open[key, default: ([], 0)].notes.append((note, event.tick))
                    } else if kind == 0x80 || kind == 0x90 {
                        guard let queue = open[key], queue.first < queue.notes.count else { continue }  // an unmatched note-off
                        let (note, onTick) = queue.notes[queue.first]
                        open[key]!.first += 1
                        close(note, onTick: onTick, offTick: event.tick, beatsPerTick: beatsPerTick, release: kind == 0x80 ? data2 : 0)
                    } else {
                        target(channel: channel).append(
                            .channel(beat, MIDIChannelMessage(status: status, data1: data1, data2: data2, reserved: 0)))
                    }
                case .sysex(let bytes):
                    let t = target(channel: nil)
                    bytes.withUnsafeBytes { t.append(.lengthPrefixed(beat, type: UInt32(kMusicEventType_MIDIRawData), data: $0)) }
                case .meta(let type, let data):
                    if type == 0x51, case .ticksPerBeat = division {
                        guard data.count == 3 else {
                            throw AudioError(
                                kAudioFileInvalidFileError, "Track \(index) has a tempo event of \(data.count) bytes; a tempo has 3.")
                        }
                        let microseconds = Int(data[0]) << 16 | Int(data[1]) << 8 | Int(data[2])
                        guard microseconds > 0 else {
                            throw AudioError(
                                kAudioFileInvalidFileError, "Track \(index) has a tempo of 0 microseconds per beat at tick \(event.tick).")
                        }
                        tempo.append(.tempo(beat, bpm: 60_000_000 / Double(microseconds)))
                    } else if type == 0x51 {
                        continue  // SMPTE time has no tempo: the sequence is 60 BPM seconds
                    } else if type == 0x2F {
                        let t = channelsToTracks ? nil : own
                        t?.setLength = max(t?.setLength ?? 0, beat)
                    } else if StandardMIDIFile.tempoTrackMetaTypes.contains(type) {
                        data.withUnsafeBytes { tempo.append(.meta(beat, type: type, data: $0)) }
                    } else {
                        let t = target(channel: nil)
                        data.withUnsafeBytes { t.append(.meta(beat, type: type, data: $0)) }
                    }
                }
            }
            for (_, queue) in open {
                for (note, onTick) in queue.notes[queue.first...] {
                    close(note, onTick: onTick, offTick: lastTick, beatsPerTick: beatsPerTick, release: 0)
                }
            }
            if ownUsed { tracks.append(own) }
        }
        if channelsToTracks {
            tracks = channelTracks.keys.sorted().map { channelTracks[$0]! } + (otherTrack.map { [$0] } ?? [])
        }
        // Tracks from several file tracks (type 1 tempo events, channels to tracks) were appended in
        // file order per source track: order them by time, keeping equal times in that order.
        tempo.sortStably()
        for t in tracks { t.sortStably() }
        sequence.replaceContents(tempo: tempo, tracks: tracks)
    }

    private func close(_ note: MusicEvent, onTick: UInt64, offTick: UInt64, beatsPerTick: Double, release: UInt8) {
        var m = note.note!
        m.duration = Float32(Double(offTick - onTick) * beatsPerTick)
        m.releaseVelocity = release
        note.bytes.storeBytes(of: m, as: MIDINoteMessage.self)
    }

    /// The type-1 file of `sequence` at `ticksPerBeat`. Thread: setup.
    static func bytes(of sequence: SequenceModel, ticksPerBeat: Int) throws -> [UInt8] {
        guard (1...0x7FFF).contains(ticksPerBeat) else {
            throw AudioError(kAudio_ParamError, "A MIDI file's resolution must be 1…32767 ticks per beat (got \(ticksPerBeat)).")
        }
        guard sequence.sequenceType == MusicSequenceType.beats || sequence.sequenceType == MusicSequenceType.seconds else {
            throw AudioError(kAudioToolboxErr_InvalidSequenceType, "A samples-type sequence cannot be written as a MIDI file.")
        }
        let tracks = [sequence.tempoTrack!] + sequence.tracks
        guard tracks.count <= 0xFFFF else {
            throw AudioError(kAudio_ParamError, "A MIDI file holds at most 65535 tracks; the sequence has \(tracks.count).")
        }
        var out: [UInt8] = Array("MThd".utf8)
        out += be32(6) + be16(1) + be16(tracks.count) + be16(ticksPerBeat)
        for track in tracks {
            let body = try trackBytes(track, ticksPerBeat: Double(ticksPerBeat))
            out += Array("MTrk".utf8) + be32(body.count) + body
        }
        return out
    }

    private static func trackBytes(_ track: SequenceTrack, ticksPerBeat: Double) throws -> [UInt8] {
        func tick(_ beats: Double) -> UInt64 { UInt64(max(0, (beats * ticksPerBeat).rounded())) }
        // (tick, rank, order, bytes): at one tick note-offs go first (rank 0) unless their own note
        // starts at that tick (rank 2), so a repeated note is never cut by its predecessor's end.
        var items: [(tick: UInt64, rank: Int, order: Int, bytes: [UInt8])] = []
        for (order, event) in track.events.enumerated() {
            let t = tick(event.time)
            if let n = event.note {
                let off = t + UInt64(max(0, (Double(n.duration) * ticksPerBeat).rounded()))
                items.append((t, 1, order, [0x90 | n.channel, n.note, n.velocity]))
                items.append((off, off == t ? 2 : 0, order, [0x80 | n.channel, n.note, n.releaseVelocity]))
            } else if let m = event.channelMessage {
                let one = (0xC0...0xDF).contains(m.status)
                items.append((t, 1, order, one ? [m.status, m.data1] : [m.status, m.data1, m.data2]))
            } else if let bpm = event.tempoBPM {
                let us = min(0xFF_FFFF, max(1, Int((60_000_000 / bpm).rounded())))
                items.append((t, 1, order, [0xFF, 0x51, 3, UInt8(us >> 16), UInt8(us >> 8 & 0xFF), UInt8(us & 0xFF)]))
            } else if let type = event.metaType {
                // The end of track is written once, below; tempo is written from the tempo events
                // (a tempo meta event given by hand could hold bytes no reader takes).
                if type == 0x2F || type == 0x51 { continue }
                items.append((t, 1, order, [0xFF, type] + vlq(event.data.count) + Array(event.data)))
            } else if event.type == UInt32(kMusicEventType_MIDIRawData) {
                let data = Array(event.data)
                if data.first == 0xF0 {
                    items.append((t, 1, order, [0xF0] + vlq(data.count - 1) + data.dropFirst()))
                } else {
                    items.append((t, 1, order, [0xF7] + vlq(data.count) + data))
                }
            }
        }
        items.sort { ($0.tick, $0.rank, $0.order) < ($1.tick, $1.rank, $1.order) }
        var out: [UInt8] = []
        var now: UInt64 = 0
        for item in items {
            let delta = item.tick - now
            guard delta <= 0x0FFF_FFFF else {
                throw AudioError(kAudio_ParamError, "Two events are more than 2^28 ticks apart; a MIDI file cannot hold the gap.")
            }
            out += vlq(Int(delta)) + item.bytes
            now = item.tick
        }
        let end = max(now, tick(track.length))
        guard end - now <= 0x0FFF_FFFF else {
            throw AudioError(kAudio_ParamError, "The track's length is too far past its last event for a MIDI file.")
        }
        out += vlq(Int(end - now)) + [0xFF, 0x2F, 0]
        return out
    }

    static func vlq(_ value: Int) -> [UInt8] {
        var v = value
        var out = [UInt8(v & 0x7F)]
        v >>= 7
        while v > 0 {
            out.insert(UInt8(v & 0x7F) | 0x80, at: 0)
            v >>= 7
        }
        return out
    }
    private static func be16(_ v: Int) -> [UInt8] { [UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
    private static func be32(_ v: Int) -> [UInt8] { [UInt8(v >> 24 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
}

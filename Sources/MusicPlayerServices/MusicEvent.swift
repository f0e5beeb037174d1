import AudioTypes
import Foundation

/// One event of a track: its time in beats and its payload, kept in the C layout that
/// MusicEventIteratorGetEventInfo hands out (the pointer stays valid while the event lives).
///
/// Thread: setup (under `MusicServices.lock`).
final class MusicEvent {
    var time: MusicTimeStamp
    let type: MusicEventType
    /// The payload in its C layout (MIDINoteMessage, MIDIMetaEvent header + data, …).
    let bytes: UnsafeMutableRawPointer
    let size: Int

    /// The largest payload accepted (a raw, meta or user event's data): bounds what a bad length field allocates.
    static let maximumDataLength = 16 << 20

    private init(time: MusicTimeStamp, type: MusicEventType, size: Int) {
        self.time = time
        self.type = type
        self.size = size
        bytes = .allocate(byteCount: max(size, 16), alignment: 8)
        bytes.initializeMemory(as: UInt8.self, repeating: 0, count: max(size, 16))
    }

    deinit { bytes.deallocate() }

    static func note(_ time: MusicTimeStamp, _ message: MIDINoteMessage) -> MusicEvent {
        let e = MusicEvent(time: time, type: UInt32(kMusicEventType_MIDINoteMessage), size: MemoryLayout<MIDINoteMessage>.size)
        e.bytes.storeBytes(of: message, as: MIDINoteMessage.self)
        return e
    }

    static func channel(_ time: MusicTimeStamp, _ message: MIDIChannelMessage) -> MusicEvent {
        let e = MusicEvent(time: time, type: UInt32(kMusicEventType_MIDIChannelMessage), size: MemoryLayout<MIDIChannelMessage>.size)
        e.bytes.storeBytes(of: message, as: MIDIChannelMessage.self)
        return e
    }

    static func tempo(_ time: MusicTimeStamp, bpm: Float64) -> MusicEvent {
        let e = MusicEvent(time: time, type: UInt32(kMusicEventType_ExtendedTempo), size: MemoryLayout<ExtendedTempoEvent>.size)
        e.bytes.storeBytes(of: ExtendedTempoEvent(bpm: bpm), as: ExtendedTempoEvent.self)
        return e
    }

    static func parameter(_ time: MusicTimeStamp, _ event: ParameterEvent) -> MusicEvent {
        let e = MusicEvent(time: time, type: UInt32(kMusicEventType_Parameter), size: MemoryLayout<ParameterEvent>.size)
        e.bytes.storeBytes(of: event, as: ParameterEvent.self)
        return e
    }

    /// A meta event: the 8-byte MIDIMetaEvent header, then the data.
    static func meta(_ time: MusicTimeStamp, type metaType: UInt8, data: UnsafeRawBufferPointer) -> MusicEvent {
        let e = MusicEvent(time: time, type: UInt32(kMusicEventType_Meta), size: 8 + data.count)
        e.bytes.storeBytes(of: metaType, as: UInt8.self)
        e.bytes.storeBytes(of: UInt32(data.count), toByteOffset: 4, as: UInt32.self)
        if let base = data.baseAddress { (e.bytes + 8).copyMemory(from: base, byteCount: data.count) }
        return e
    }

    /// MIDIRawData or MusicEventUserData: a UInt32 length, then the data.
    static func lengthPrefixed(_ time: MusicTimeStamp, type: MusicEventType, data: UnsafeRawBufferPointer) -> MusicEvent {
        let e = MusicEvent(time: time, type: type, size: 4 + data.count)
        e.bytes.storeBytes(of: UInt32(data.count), as: UInt32.self)
        if let base = data.baseAddress { (e.bytes + 4).copyMemory(from: base, byteCount: data.count) }
        return e
    }

    /// A copy of a C payload of `type` (MusicEventIteratorSetEventInfo and the NewXEvent calls):
    /// lengths inside the structure are bounded by `maximumDataLength`.
    static func fromC(_ time: MusicTimeStamp, type: MusicEventType, _ data: UnsafeRawPointer) throws -> MusicEvent {
        func lengthField(_ offset: Int, _ what: String) throws -> Int {
            let n = Int(data.load(fromByteOffset: offset, as: UInt32.self))
            guard n <= maximumDataLength else {
                throw AudioError(kAudio_ParamError, "The \(what) claims \(n) bytes; AUHost accepts at most \(maximumDataLength).")
            }
            return n
        }
        switch Int(type) {
        case Int(kMusicEventType_MIDINoteMessage):
            let m = data.loadUnaligned(as: MIDINoteMessage.self)
            try checkNote(m)
            return note(time, m)
        case Int(kMusicEventType_MIDIChannelMessage):
            let m = data.loadUnaligned(as: MIDIChannelMessage.self)
            try checkChannel(m)
            return channel(time, m)
        case Int(kMusicEventType_ExtendedTempo):
            let bpm = data.loadUnaligned(as: ExtendedTempoEvent.self).bpm
            try checkTempo(bpm)
            return tempo(time, bpm: bpm)
        case Int(kMusicEventType_Parameter):
            return parameter(time, data.loadUnaligned(as: ParameterEvent.self))
        case Int(kMusicEventType_Meta):
            let n = try lengthField(4, "meta event")
            return meta(time, type: data.load(as: UInt8.self), data: UnsafeRawBufferPointer(start: data + 8, count: n))
        case Int(kMusicEventType_MIDIRawData), Int(kMusicEventType_User):
            let n = try lengthField(0, type == UInt32(kMusicEventType_User) ? "user event" : "raw MIDI data")
            return lengthPrefixed(time, type: type, data: UnsafeRawBufferPointer(start: data + 4, count: n))
        default:
            throw AudioError(
                kAudioToolboxErr_InvalidEventType,
                "Event type \(type) is not one AUHost stores (note, channel, raw, meta, user, tempo, parameter).")
        }
    }

    static func checkNote(_ m: MIDINoteMessage) throws {
        guard m.channel < 16, m.note < 128, m.velocity < 128, m.releaseVelocity < 128 else {
            throw AudioError(
                kAudio_ParamError,
                "A MIDI note needs channel 0…15 and note and velocities 0…127 (got channel \(m.channel), note \(m.note), velocity \(m.velocity), release \(m.releaseVelocity))."
            )
        }
        guard m.duration.isFinite, m.duration >= 0 else {
            throw AudioError(kAudio_ParamError, "A MIDI note's duration must be a finite number of beats ≥ 0 (got \(m.duration)).")
        }
    }

    static func checkChannel(_ m: MIDIChannelMessage) throws {
        guard (0x80...0xEF).contains(m.status), m.data1 < 128, m.data2 < 128 else {
            throw AudioError(
                kAudio_ParamError,
                "A MIDI channel message needs a status byte 0x80…0xEF and data bytes 0…127 (got \(m.status), \(m.data1), \(m.data2)).")
        }
    }

    static func checkTempo(_ bpm: Float64) throws {
        guard bpm.isFinite, bpm > 0, bpm <= 1_000_000 else {
            throw AudioError(kAudio_ParamError, "A tempo must be above 0 and at most 1,000,000 BPM (got \(bpm)).")
        }
    }

    var note: MIDINoteMessage? {
        type == UInt32(kMusicEventType_MIDINoteMessage) ? bytes.load(as: MIDINoteMessage.self) : nil
    }
    var channelMessage: MIDIChannelMessage? {
        type == UInt32(kMusicEventType_MIDIChannelMessage) ? bytes.load(as: MIDIChannelMessage.self) : nil
    }
    var tempoBPM: Float64? {
        type == UInt32(kMusicEventType_ExtendedTempo) ? bytes.load(as: ExtendedTempoEvent.self).bpm : nil
    }
    var parameterEvent: ParameterEvent? {
        type == UInt32(kMusicEventType_Parameter) ? bytes.load(as: ParameterEvent.self) : nil
    }
    var metaType: UInt8? { type == UInt32(kMusicEventType_Meta) ? bytes.load(as: UInt8.self) : nil }
    /// The data of a meta, raw or user event.
    var data: UnsafeRawBufferPointer {
        switch Int(type) {
        case Int(kMusicEventType_Meta):
            return UnsafeRawBufferPointer(start: bytes + 8, count: Int(bytes.load(fromByteOffset: 4, as: UInt32.self)))
        case Int(kMusicEventType_MIDIRawData), Int(kMusicEventType_User):
            return UnsafeRawBufferPointer(start: bytes + 4, count: Int(bytes.load(as: UInt32.self)))
        default: return UnsafeRawBufferPointer(start: bytes, count: size)
        }
    }

    /// Where the event ends (a note's end, else its time).
    var end: MusicTimeStamp { time + Double(note?.duration ?? 0) }

    /// Whether two events carry the same type, time and payload bytes (round-trip checks).
    func same(as other: MusicEvent) -> Bool {
        time == other.time && type == other.type && size == other.size && memcmp(bytes, other.bytes, size) == 0
    }
}

import AudioTypes

/// A Standard MIDI File as read from bytes: the header's format and division, and each track's
/// events with absolute tick times. Reading is bounded: every length is checked against what is
/// left, variable-length numbers have at most four bytes, and the input is at most
/// `maximumFileSize` bytes, so a malformed file fails with a sentence naming the byte offset.
///
/// Thread: any (a value; reading allocates).
public struct StandardMIDIFile: Sendable {
    public enum Division: Sendable, Equatable {
        /// Ticks per quarter note (beat).
        case ticksPerBeat(Int)
        /// SMPTE frames per second (24, 25, 29.97, 30) and ticks per frame.
        case smpte(framesPerSecond: Double, ticksPerFrame: Int)
    }

    public enum Message: Sendable, Equatable {
        /// A channel message: status 0x80…0xEF and its one or two data bytes (data2 0 for one).
        case channel(status: UInt8, data1: UInt8, data2: UInt8)
        /// F0 system exclusive (the bytes include the F0) or an F7 escape (the bytes as they are).
        case sysex([UInt8])
        case meta(type: UInt8, data: [UInt8])
    }

    public struct Event: Sendable, Equatable {
        public var tick: UInt64
        public var message: Message
    }

    public var format: Int
    public var division: Division
    public var tracks: [[Event]]

    /// The largest file read (a bound on what one input allocates).
    public static let maximumFileSize = 64 << 20

    public init(format: Int, division: Division, tracks: [[Event]]) {
        self.format = format
        self.division = division
        self.tracks = tracks
    }

    /// Parses `bytes`. Errors: kAudioFileInvalidFileError (malformed, naming the offset),
    /// kAudio_MemFullError (above `maximumFileSize`).
    public init(bytes: UnsafeRawBufferPointer, name: String = "the MIDI data") throws {
        guard bytes.count <= StandardMIDIFile.maximumFileSize else {
            throw AudioError(
                kAudio_MemFullError,
                "\(name) is \(bytes.count) bytes; AUHost reads MIDI files of at most \(StandardMIDIFile.maximumFileSize) bytes.")
        }
        var reader = ByteReader(bytes: bytes, name: name)
        guard try reader.chunkType() == "MThd" else { throw reader.error("it does not start with an MThd header chunk", at: 0) }
        let headerLength = Int(try reader.uint32())
        guard headerLength >= 6, headerLength <= reader.remaining else {
            throw reader.error("the header chunk's length \(headerLength) is below 6 or past the end", at: 4)
        }
        let headerEnd = reader.offset + headerLength
        format = Int(try reader.uint16())
        let trackCount = Int(try reader.uint16())
        let rawDivision = try reader.uint16()
        reader.offset = headerEnd
        guard format <= 2 else { throw reader.error("the format \(format) is not 0, 1 or 2", at: 8) }
        guard format != 0 || trackCount == 1 else { throw reader.error("a format-0 file must have 1 track, not \(trackCount)", at: 10) }
        if rawDivision & 0x8000 != 0 {
            let fps = -Int(Int8(bitPattern: UInt8(rawDivision >> 8)))
            let ticks = Int(rawDivision & 0xFF)
            guard [24, 25, 29, 30].contains(fps), ticks > 0 else {
                throw reader.error("the SMPTE division (\(fps) frames per second, \(ticks) ticks per frame) is not valid", at: 12)
            }
            division = .smpte(framesPerSecond: fps == 29 ? 29.97 : Double(fps), ticksPerFrame: ticks)
        } else {
            guard rawDivision > 0 else { throw reader.error("the division is 0 ticks per beat", at: 12) }
            division = .ticksPerBeat(Int(rawDivision))
        }
        var tracks: [[Event]] = []
        while tracks.count < trackCount {
            guard reader.remaining >= 8 else {
                throw reader.error("the header announces \(trackCount) tracks but the file ends after \(tracks.count)", at: reader.offset)
            }
            let chunkStart = reader.offset
            let type = try reader.chunkType()
            let length = Int(try reader.uint32())
            guard length <= reader.remaining else {
                throw reader.error("the \(type) chunk's length \(length) runs past the end of the file", at: chunkStart + 4)
            }
            if type == "MTrk" {
                var trackReader = ByteReader(
                    bytes: UnsafeRawBufferPointer(rebasing: bytes[reader.offset..<(reader.offset + length)]), name: name,
                    base: reader.offset)
                tracks.append(try StandardMIDIFile.readTrack(&trackReader, index: tracks.count))
            }  // Other chunk types are skipped, as the standard asks.
            reader.offset += length
        }
        self.tracks = tracks
    }

    private static func readTrack(_ r: inout ByteReader, index: Int) throws -> [Event] {
        var events: [Event] = []
        var tick: UInt64 = 0
        var runningStatus: UInt8 = 0
        while r.remaining > 0 {
            tick += UInt64(try r.variableLength())
            let eventStart = r.offset
            var status = try r.uint8()
            if status < 0x80 {
                guard runningStatus != 0 else {
                    throw r.error("track \(index) has a data byte \(status) with no running status", at: eventStart)
                }
                status = runningStatus
                r.offset -= 1
            }
            switch status {
            case 0xFF:
                runningStatus = 0
                let type = try r.uint8()
                let length = Int(try r.variableLength())
                let data = try r.bytes(length, "track \(index)'s meta event \(type)")
                events.append(Event(tick: tick, message: .meta(type: type, data: data)))
                if type == 0x2F { return events }
            case 0xF0, 0xF7:
                runningStatus = 0
                let length = Int(try r.variableLength())
                let data = try r.bytes(length, "track \(index)'s system-exclusive event")
                events.append(Event(tick: tick, message: .sysex(status == 0xF0 ? [0xF0] + data : data)))
            case 0x80...0xEF:
                runningStatus = status
                let data1 = try r.dataByte(index)
                let twoBytes = !(0xC0...0xDF).contains(status)
                let data2 = twoBytes ? try r.dataByte(index) : 0
                events.append(Event(tick: tick, message: .channel(status: status, data1: data1, data2: data2)))
            default:
                throw r.error("track \(index) has the status byte \(status), which a MIDI file cannot hold", at: eventStart)
            }
        }
        return events  // A missing end-of-track event is tolerated (many writers omit it).
    }
}

/// A bounds-checked cursor over the file's bytes; every read throws at the end instead of trapping.
struct ByteReader {
    let bytes: UnsafeRawBufferPointer
    let name: String
    /// Where `bytes` starts in the file (for messages).
    var base = 0
    var offset = 0

    init(bytes: UnsafeRawBufferPointer, name: String, base: Int = 0) {
        self.bytes = bytes
        self.name = name
        self.base = base
    }

    var remaining: Int { bytes.count - offset }

    func error(_ what: String, at offset: Int) -> AudioError {
        AudioError(kAudioFileInvalidFileError, "\(name) is not a valid Standard MIDI File: \(what) (byte \(base + offset)).")
    }

    mutating func uint8() throws -> UInt8 {
        guard remaining >= 1 else { throw error("it ends in the middle of an event", at: offset) }
        defer { offset += 1 }
        return bytes[offset]
    }

    mutating func dataByte(_ track: Int) throws -> UInt8 {
        let start = offset
        let b = try uint8()
        guard b < 0x80 else { throw error("track \(track) has a status byte \(b) where a data byte belongs", at: start) }
        return b
    }

    mutating func uint16() throws -> UInt16 { UInt16(try uint8()) << 8 | UInt16(try uint8()) }
    mutating func uint32() throws -> UInt32 { UInt32(try uint16()) << 16 | UInt32(try uint16()) }

    mutating func chunkType() throws -> String {
        guard remaining >= 4 else { throw error("it ends where a chunk should start", at: offset) }
        let type = String(decoding: bytes[offset..<(offset + 4)].map { $0 >= 0x20 && $0 < 0x7F ? $0 : 0x3F }, as: UTF8.self)
        offset += 4
        return type
    }

    /// A variable-length quantity: at most four bytes (up to 0x0FFFFFFF).
    mutating func variableLength() throws -> UInt32 {
        let start = offset
        var value: UInt32 = 0
        for _ in 0..<4 {
            let b = try uint8()
            value = value << 7 | UInt32(b & 0x7F)
            if b & 0x80 == 0 { return value }
        }
        throw error("a variable-length number is longer than four bytes", at: start)
    }

    mutating func bytes(_ count: Int, _ what: String) throws -> [UInt8] {
        guard count <= remaining else { throw error("\(what) claims \(count) bytes but \(remaining) are left", at: offset) }
        defer { offset += count }
        return Array(bytes[offset..<(offset + count)])
    }
}

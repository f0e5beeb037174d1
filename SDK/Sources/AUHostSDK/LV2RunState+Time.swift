import AudioUnitBase
import CLV2Export

// Musical time for an SDK unit running as an LV2 plug-in that wants it (wantsMusicalContext): the
// host's time:Position objects on the event input are read in `run`, and the unit's own host
// callbacks (kAudioUnitProperty_HostCallbacks, set at instantiate) answer from them, so the
// kernel's MusicalContext comes through the same path as in an Audio Unit host. A position at a
// frame inside a run ends the unit's render call there, so the new tempo starts at its frame.

/// The URIDs `run` compares atoms against (0 without urid:map: no time is read then).
///
/// Thread: setup (made at instantiate), read on the render thread.
struct LV2TimeURIDs {
    var object: LV2_URID = 0
    var blank: LV2_URID = 0
    var position: LV2_URID = 0
    var bar: LV2_URID = 0
    var barBeat: LV2_URID = 0
    var beat: LV2_URID = 0
    var beatUnit: LV2_URID = 0
    var beatsPerBar: LV2_URID = 0
    var beatsPerMinute: LV2_URID = 0
    var frame: LV2_URID = 0
    var speed: LV2_URID = 0
    var int: LV2_URID = 0
    var long: LV2_URID = 0
    var float: LV2_URID = 0
    var double: LV2_URID = 0

    init() {}

    /// Thread: setup.
    init(_ features: LV2Features) {
        let atom = "http://lv2plug.in/ns/ext/atom#", time = "http://lv2plug.in/ns/ext/time#"
        object = features.urid(atom + "Object")
        blank = features.urid(atom + "Blank")
        int = features.urid(atom + "Int")
        long = features.urid(atom + "Long")
        float = features.urid(atom + "Float")
        double = features.urid(atom + "Double")
        position = features.urid(time + "Position")
        bar = features.urid(time + "bar")
        barBeat = features.urid(time + "barBeat")
        beat = features.urid(time + "beat")
        beatUnit = features.urid(time + "beatUnit")
        beatsPerBar = features.urid(time + "beatsPerBar")
        beatsPerMinute = features.urid(time + "beatsPerMinute")
        frame = features.urid(time + "frame")
        speed = features.urid(time + "speed")
    }
}

/// Where the music is at the next frame the unit renders, in the host callbacks' terms (quarter
/// notes, quarter notes per minute), from the last time:Position and the frames since.
struct LV2HostTime {
    var known = false
    var beat: Double = 0
    var tempo: Double = 120
    var numerator: Float = 4
    var denominator: UInt32 = 4
    var barStartBeat: Double = 0
    var speed: Double = 1
    var frame: Double = 0
    var changed = false
    var sampleRate: Double = 48_000

    init() {}

    /// Nothing known yet, at `sampleRate`. Thread: setup.
    init(sampleRate: Double) { self.sampleRate = sampleRate }

    /// Moves on by `frames` frames at the current tempo and speed.
    ///
    /// Thread: render.
    @_noAllocation @_noLocks
    mutating func advance(frames: Int) {
        changed = false
        guard known, speed != 0 else { return }
        beat += Double(frames) * speed * tempo / 60 / sampleRate
        frame += Double(frames) * speed
        let perBar = Double(numerator) * 4 / Double(denominator)
        let bars = (beat - barStartBeat) / perBar
        if bars.isFinite, bars >= 1, bars < 9e18 { barStartBeat += Double(Int64(bars)) * perBar }
    }
}

/// Applies the time:Position objects stamped at frame `start` of this run (at or before it when
/// `start` is 0) and returns the frame of the next one after `start` (`frames` when none).
///
/// Thread: render.
@_noAllocation @_noLocks
func lv2ReadTimePositions(_ s: UnsafeMutablePointer<LV2RunState>, at start: Int, frames: Int) -> Int {
    guard s.pointee.midiIndex >= 0, let port = s.pointee.ports[s.pointee.midiIndex] else { return frames }
    var next = frames
    // An atom:Sequence: the atom header, the body header (unit, pad), then events (a 64-bit frame
    // and an atom), each padded to 8 bytes.
    let size = Int(port.load(as: LV2_Atom.self).size)
    let header = MemoryLayout<LV2_Atom>.size, bodyHeader = MemoryLayout<LV2_Atom_Sequence_Body>.size
    let eventHeader = MemoryLayout<LV2_Atom_Event>.size
    var offset = bodyHeader
    let u = s.pointee.timeURIDs
    while offset + eventHeader <= size {
        let e = (port + header + offset).assumingMemoryBound(to: LV2_Atom_Event.self)
        let bodySize = Int(e.pointee.body.size)
        guard offset + eventHeader + bodySize <= size else { break }
        offset += (eventHeader + bodySize + 7) & ~7
        let type = e.pointee.body.type
        guard type == u.object || type == u.blank, bodySize >= 8 else { continue }
        let body = UnsafeRawPointer(e + 1)
        guard body.load(fromByteOffset: 4, as: UInt32.self) == u.position else { continue }
        let frame = Int(clamping: e.pointee.time.frames)
        if frame == start || (start == 0 && frame < 0) {
            lv2ApplyTimePosition(s, body + 8, bytes: bodySize - 8)
        } else if frame > start && frame < next {
            next = frame
        }
    }
    return next
}

/// Reads one time:Position's properties (key, context, then an atom: 16 bytes before each value)
/// into the run state's time.
@_noAllocation @_noLocks
private func lv2ApplyTimePosition(_ s: UnsafeMutablePointer<LV2RunState>, _ properties: UnsafeRawPointer, bytes: Int) {
    let u = s.pointee.timeURIDs
    var beat: Double?, bpm: Double?, barBeat: Double?, bar: Double?, beatUnit: Double?, beatsPerBar: Double?
    var frame: Double?, speed: Double?
    var offset = 0
    while offset + 16 <= bytes {
        let key = properties.load(fromByteOffset: offset, as: UInt32.self)
        let valueSize = Int(properties.load(fromByteOffset: offset + 8, as: UInt32.self))
        let valueType = properties.load(fromByteOffset: offset + 12, as: UInt32.self)
        guard offset + 16 + valueSize <= bytes else { break }
        let value = properties + offset + 16
        var number: Double?
        if valueType == u.int && valueSize >= 4 {
            number = Double(value.loadUnaligned(as: Int32.self))
        } else if valueType == u.long && valueSize >= 8 {
            number = Double(value.loadUnaligned(as: Int64.self))
        } else if valueType == u.float && valueSize >= 4 {
            number = Double(value.loadUnaligned(as: Float.self))
        } else if valueType == u.double && valueSize >= 8 {
            number = value.loadUnaligned(as: Double.self)
        }
        offset += (16 + valueSize + 7) & ~7
        guard let number, number.isFinite else { continue }
        switch key {
        case u.beat: beat = number
        case u.beatsPerMinute: bpm = number
        case u.barBeat: barBeat = number
        case u.bar: bar = number
        case u.beatUnit: beatUnit = number
        case u.beatsPerBar: beatsPerBar = number
        case u.frame: frame = number
        case u.speed: speed = number
        default: break
        }
    }
    var t = s.pointee.time
    if let beatUnit, beatUnit >= 1, beatUnit < 1e6 { t.denominator = UInt32(beatUnit) }
    if let beatsPerBar, beatsPerBar > 0 { t.numerator = Float(beatsPerBar) }
    // LV2 counts beats in the meter's note value (beatUnit); the host callbacks in quarter notes.
    let perQuarter = Double(t.denominator) / 4
    if let bpm, bpm > 0 { t.tempo = bpm / perQuarter }
    if let beat { t.beat = beat / perQuarter }
    if let barBeat, beat != nil {
        t.barStartBeat = t.beat - barBeat / perQuarter
    } else if let bar {
        t.barStartBeat = bar * Double(t.numerator) / perQuarter
    }
    if let frame { t.frame = frame }
    if let speed {
        t.changed = t.changed || !t.known || (speed != 0) != (t.speed != 0)
        t.speed = speed
    }
    t.known = t.known || (beat != nil && bpm != nil)
    s.pointee.time = t
}

/// The host callbacks the unit is given, answering from `s.pointee.time`.
///
/// Thread: setup.
func lv2HostCallbacks(_ s: UnsafeMutablePointer<LV2RunState>) -> HostCallbackInfo {
    HostCallbackInfo(
        hostUserData: UnsafeMutableRawPointer(s), beatAndTempoProc: lv2BeatAndTempo, musicalTimeLocationProc: lv2MusicalTimeLocation,
        transportStateProc: nil, transportStateProc2: lv2TransportState2)
}

private let lv2BeatAndTempo: HostCallback_GetBeatAndTempo = { user, outBeat, outTempo in
    guard let time = user?.assumingMemoryBound(to: LV2RunState.self).pointee.time, time.known else {
        return kAudioUnitErr_CannotDoInCurrentContext
    }
    outBeat?.pointee = time.beat
    outTempo?.pointee = time.tempo
    return noErr
}

private let lv2MusicalTimeLocation: HostCallback_GetMusicalTimeLocation = {
    user, outToNextBeat, outNumerator, outDenominator, outDownBeat in
    guard let time = user?.assumingMemoryBound(to: LV2RunState.self).pointee.time, time.known else {
        return kAudioUnitErr_CannotDoInCurrentContext
    }
    if let outToNextBeat {
        // Floored as a Double: a host's beat can be any finite number (Int() trapped past Int.max
        // and truncated negative beats towards zero).
        let left = (time.beat.rounded(.down) + 1 - time.beat) * 60 / time.tempo * time.sampleRate
        outToNextBeat.pointee = time.speed != 0 && left.isFinite && left >= 0 && left < 4e9 ? UInt32(left) : 0
    }
    outNumerator?.pointee = time.numerator
    outDenominator?.pointee = time.denominator
    outDownBeat?.pointee = time.barStartBeat
    return noErr
}

private let lv2TransportState2: HostCallback_GetTransportState2 = {
    user, outPlaying, outRecording, outChanged, outSample, outCycling, outCycleStart, outCycleEnd in
    guard let time = user?.assumingMemoryBound(to: LV2RunState.self).pointee.time, time.known else {
        return kAudioUnitErr_CannotDoInCurrentContext
    }
    outPlaying?.pointee = time.speed != 0 ? 1 : 0
    outRecording?.pointee = 0
    outChanged?.pointee = time.changed ? 1 : 0
    outSample?.pointee = time.frame
    outCycling?.pointee = 0
    outCycleStart?.pointee = 0
    outCycleEnd?.pointee = 0
    return noErr
}

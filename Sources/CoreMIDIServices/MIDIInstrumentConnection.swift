import AudioTypes
import CAUHostAtomics
import CoreMIDI
import Foundation

/// A MIDI source playing an instrument unit, each message at the sample its timestamp gives (an
/// AUHost extension; on Apple a read proc calls MusicDeviceMIDIEvent and picks the offset itself).
///
/// An input port of its own client is connected to `source`; its read proc (the MIDI thread) puts
/// each channel message with its MIDITimeStamp in a lock-free single-producer ring. A pre-render
/// notification on the instrument takes, at the start of each render call, the messages due before
/// the call's end and hands them to MusicDeviceMIDIEvent at
///
///     offset = round((timestamp − cycle host time) × sample rate ÷ 1e9)
///
/// where the cycle's host time is the render time stamp's mHostTime (kAudioTimeStampHostTimeValid;
/// I/O units set it to CLOCK_MONOTONIC at the cycle, as MIDITimeStamp is), else the clock now.
/// A timestamp of 0 ("now") or in the past plays at offset 0; one at or after the cycle's end waits
/// for its cycle. Messages are taken in arrival order (a later one never plays before an earlier one).
///
/// Thread: setup, unless noted.
public final class MIDIInstrumentConnection {
    struct Event {
        var time: UInt64
        var packed: UInt32
    }
    /// What the MIDI thread and the render thread share (one allocation, freed after both stopped).
    struct Shared {
        static let capacity: UInt64 = 4096
        var events: UnsafeMutablePointer<Event>
        var written: UInt64 = 0
        var read: UInt64 = 0
        var dropped: UInt64 = 0
        var sampleRate: Double
        var unit: AudioUnit
    }

    private let shared: UnsafeMutablePointer<Shared>
    private var client: MIDIClientRef = 0
    /// The instrument. Thread: any.
    public let unit: AudioUnit

    /// Connects `source` to `instrument` (an initialized unit; its output element 0's sample rate
    /// converts time to frames). Errors: the Core MIDI and Audio Unit calls' statuses.
    public convenience init(source: MIDIEndpointRef, instrument: AudioUnit) throws {
        try self.init(instrument: instrument) { client, shared in
            var port: MIDIPortRef = 0
            try AudioError.check(
                MIDIInputPortCreate(client, AUHostConstantString("in").takeUnretainedValue(), midiInstrumentRead, shared, &port),
                LastErrorMessage.current ?? "MIDIInputPortCreate")
            try AudioError.check(MIDIPortConnectSource(port, source, nil), LastErrorMessage.current ?? "MIDIPortConnectSource")
            return 0
        }
    }

    /// Makes the instrument a virtual destination called `destinationName` (``destination``):
    /// what is sent to it plays the instrument. With the JACK backend it is also a JACK MIDI input
    /// port other programs connect to.
    public convenience init(destinationName: String, instrument: AudioUnit) throws {
        try self.init(instrument: instrument) { client, shared in
            var destination: MIDIEndpointRef = 0
            let name = CFBridge.string(destinationName)
            defer { name.release() }
            try AudioError.check(
                MIDIDestinationCreate(client, name.takeUnretainedValue(), midiInstrumentRead, shared, &destination),
                LastErrorMessage.current ?? "MIDIDestinationCreate")
            return destination
        }
    }

    /// The virtual destination (init(destinationName:instrument:)), else 0.
    public private(set) var destination: MIDIEndpointRef = 0

    private init(instrument: AudioUnit, attach: (MIDIClientRef, UnsafeMutableRawPointer) throws -> MIDIEndpointRef) throws {
        unit = instrument
        var format = AudioStreamBasicDescription()
        var size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
        try AudioError.check(
            AudioUnitGetProperty(instrument, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Output, 0, &format, &size),
            "The instrument's output format")
        guard format.mSampleRate > 0 else { throw AudioError(kAudioUnitErr_FormatNotSupported, "The instrument has no sample rate.") }
        shared = .allocate(capacity: 1)
        shared.initialize(to: Shared(events: .allocate(capacity: Int(Shared.capacity)), sampleRate: format.mSampleRate, unit: instrument))
        // From here a throw runs deinit (every stored property is set), which undoes what was done.
        try AudioError.check(
            MIDIClientCreate(AUHostConstantString("AUHost instrument input").takeUnretainedValue(), nil, nil, &client),
            LastErrorMessage.current ?? "MIDIClientCreate")
        destination = try attach(client, UnsafeMutableRawPointer(shared))
        try AudioError.check(
            AudioUnitAddRenderNotify(instrument, midiInstrumentDrain, UnsafeMutableRawPointer(shared)), "AudioUnitAddRenderNotify")
    }

    deinit {
        if client != 0 { MIDIClientDispose(client) }  // no read proc runs after this
        AudioUnitRemoveRenderNotify(unit, midiInstrumentDrain, UnsafeMutableRawPointer(shared))  // nor a drain
        shared.pointee.events.deallocate()
        shared.deallocate()
    }

    /// Messages received from the source so far. Thread: any.
    public var received: UInt64 { auhost_atomic_load_u64(&shared.pointee.written) + dropped }

    /// Messages dropped because the ring was full (4096 waiting). Thread: any.
    public var dropped: UInt64 { auhost_atomic_load_u64(&shared.pointee.dropped) }
}

/// The input port's read proc: channel messages into the ring. Thread: the client's MIDI thread.
private let midiInstrumentRead: MIDIReadProc = { list, refCon, _ in
    let shared = refCon!.assumingMemoryBound(to: MIDIInstrumentConnection.Shared.self)
    forEachPacket(list) { packet in
        forEachMessage(packet.bytes) { message in
            guard message.count <= 3, message[0] >= 0x80, message[0] < 0xF0 else { return }
            var packed = UInt32(message[0])
            if message.count > 1 { packed |= UInt32(message[1]) << 8 }
            if message.count > 2 { packed |= UInt32(message[2]) << 16 }
            let written = auhost_atomic_load_u64(&shared.pointee.written)
            guard written - auhost_atomic_load_u64(&shared.pointee.read) < MIDIInstrumentConnection.Shared.capacity else {
                _ = auhost_atomic_add_u64(&shared.pointee.dropped, 1)
                return
            }
            shared.pointee.events[Int(written % MIDIInstrumentConnection.Shared.capacity)] = .init(time: packet.timeStamp, packed: packed)
            auhost_atomic_store_u64(&shared.pointee.written, written + 1)
        }
    }
}

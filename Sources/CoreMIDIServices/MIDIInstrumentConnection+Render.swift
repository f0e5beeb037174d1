import AudioTypes
import CAUHostAtomics
import CoreMIDI

/// The instrument's pre-render notification: the messages due in this render call, at their
/// offsets (MIDIInstrumentConnection says how). Thread: render (no allocation, no lock).
let midiInstrumentDrain: AURenderCallback = { refCon, flags, timeStamp, _, frames, _ in
    guard flags.pointee.contains(.unitRenderAction_PreRender) else { return noErr }
    let shared = refCon.assumingMemoryBound(to: MIDIInstrumentConnection.Shared.self)
    let hostTimeValid = timeStamp.pointee.mFlags.rawValue & AudioTimeStampFlags.hostTimeValid.rawValue != 0
    let start = hostTimeValid ? timeStamp.pointee.mHostTime : AudioGetCurrentHostTime()
    let rate = shared.pointee.sampleRate
    let written = auhost_atomic_load_u64(&shared.pointee.written)
    var read = auhost_atomic_load_u64(&shared.pointee.read)
    while read < written {
        let event = shared.pointee.events[Int(read % MIDIInstrumentConnection.Shared.capacity)]
        var offset: UInt32 = 0
        if event.time > start {
            let frame = (Double(event.time - start) * rate / 1e9).rounded()
            if frame >= Double(frames) { break }  // a later cycle's
            offset = UInt32(frame)
        }
        let packed = event.packed
        _ = MusicDeviceMIDIEvent(shared.pointee.unit, packed & 0xFF, packed >> 8 & 0xFF, packed >> 16 & 0xFF, offset)
        read += 1
    }
    auhost_atomic_store_u64(&shared.pointee.read, read)
    return noErr
}

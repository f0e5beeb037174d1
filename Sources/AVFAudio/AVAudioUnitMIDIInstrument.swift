import AudioToolbox
import Foundation

/// An instrument node (Apple's AVAudioUnitMIDIInstrument): a music device ('aumu') — an LV2 or
/// SDK instrument — played with MIDI messages or by an AVAudioSequencer.
///
/// Thread: setup to make; MIDI from any thread.
open class AVAudioUnitMIDIInstrument: AVAudioUnit, AVAudioMixing {
    /// The first instrument matching the description (attach reports a missing one).
    ///
    /// Thread: setup.
    public convenience init(audioComponentDescription description: AudioComponentDescription) {
        if let unit = try? makeUnit(description) {
            self.init(unit: unit)
        } else {
            self.init(unit: try! makeUnit(AVAudioMixerNode.description))  // stands in; attach refuses it
            missing = description
        }
    }

    override init(unit: AudioUnit) { super.init(unit: unit) }

    /// Thread: any.
    public func startNote(_ note: UInt8, withVelocity velocity: UInt8, onChannel channel: UInt8) {
        MusicDeviceMIDIEvent(unit, 0x90 | UInt32(channel & 0x0F), UInt32(note & 0x7F), UInt32(velocity & 0x7F), 0)
    }

    /// Thread: any.
    public func stopNote(_ note: UInt8, onChannel channel: UInt8) {
        MusicDeviceMIDIEvent(unit, 0x80 | UInt32(channel & 0x0F), UInt32(note & 0x7F), 0, 0)
    }

    /// Any channel message (status, then up to two data bytes).
    ///
    /// Thread: any.
    public func sendMIDIEvent(_ midiStatus: UInt8, data1: UInt8, data2: UInt8) {
        MusicDeviceMIDIEvent(unit, UInt32(midiStatus), UInt32(data1), UInt32(data2), 0)
    }

    /// Thread: any.
    public func sendController(_ controller: UInt8, withValue value: UInt8, onChannel channel: UInt8) {
        sendMIDIEvent(0xB0 | (channel & 0x0F), data1: controller, data2: value)
    }

    /// Thread: any.
    public func sendProgramChange(_ program: UInt8, onChannel channel: UInt8) {
        MusicDeviceMIDIEvent(unit, 0xC0 | UInt32(channel & 0x0F), UInt32(program & 0x7F), 0, 0)
    }

}

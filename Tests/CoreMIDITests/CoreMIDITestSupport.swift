import AUHost
import CoreMIDI
import CoreMIDIServices
import Foundation
import TestSupport
import XCTest

/// A packet list of channel messages at their timestamps, built with MIDIPacketListAdd.
func packetList(_ messages: [(time: MIDITimeStamp, bytes: [UInt8])]) -> [UInt8] {
    var storage = [UInt8](repeating: 0, count: 1024)
    storage.withUnsafeMutableBytes { raw in
        let list = raw.baseAddress!.assumingMemoryBound(to: MIDIPacketList.self)
        var packet = MIDIPacketListInit(list)
        for message in messages {
            packet = message.bytes.withUnsafeBufferPointer {
                MIDIPacketListAdd(list, 1024, packet, message.time, message.bytes.count, $0.baseAddress!)
            }!
        }
    }
    return storage
}

/// Host time of `frame` frames after `origin` at `rate` (nanoseconds, rounded).
func hostTime(_ origin: UInt64, frame: Int, rate: Double = 48_000) -> UInt64 {
    origin + UInt64((Double(frame) * 1e9 / rate).rounded())
}

/// An initialized onset instrument (TestOnsetInstrument: 1.0 while a note is held), mono 48 kHz.
final class OnsetInstrument {
    let unit: AudioUnit

    init() throws {
        registerTestOnsetInstrument()
        var description = TestOnsetInstrument.description
        let component = try XCTUnwrap(AudioComponentFindNext(nil, &description), "the onset instrument is registered")
        var made: AudioUnit?
        try AudioError.check(AudioComponentInstanceNew(component, &made), "AudioComponentInstanceNew")
        unit = made!
        try AudioError.check(AudioUnitInitialize(unit), "AudioUnitInitialize")
    }

    deinit { AudioComponentInstanceDispose(unit) }

    /// Renders `cycles` calls of `frames` frames; call k's time stamp has sample time k·frames
    /// and host time `hostTimeOfFrame(k·frames)`.
    func render(cycles: Int, frames: Int, hostTimeOfFrame: (Int) -> UInt64) throws -> [Float] {
        var out: [Float] = []
        let storage = AudioBufferStorage(format: .canonical(sampleRate: 48_000, channels: 1), capacity: UInt32(frames))
        for k in 0..<cycles {
            storage.prepare(frames: UInt32(frames))
            var flags = AudioUnitRenderActionFlags()
            var stamp = AudioTimeStamp()
            stamp.mSampleTime = Double(k * frames)
            stamp.mHostTime = hostTimeOfFrame(k * frames)
            stamp.mFlags = [.sampleTimeValid, .hostTimeValid]
            try AudioError.check(AudioUnitRender(unit, &flags, &stamp, 0, UInt32(frames), storage.list), "AudioUnitRender")
            out += Array(UnsafeBufferPointer(start: UnsafeMutableAudioBufferListPointer(storage.list).floatChannel(0)!, count: frames))
        }
        return out
    }
}

/// Where the output switches on and off: (frame, 1) for a rise to 1, (frame, 0) for a fall to 0.
func edges(_ samples: [Float]) -> [(Int, Float)] {
    var result: [(Int, Float)] = []
    var last: Float = 0
    for (i, x) in samples.enumerated() where x != last {
        result.append((i, x))
        last = x
    }
    return result
}

/// Waits up to `timeout` seconds for `condition`.
func eventually(_ timeout: Double = 5, _ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
        if condition() { return true }
        usleep(1_000)
    }
    return condition()
}

/// A CFString for a Swift string (held by CFSTR's table for the process).
func cf(_ s: String) -> CFString { AUHostConstantString(s).takeUnretainedValue() }

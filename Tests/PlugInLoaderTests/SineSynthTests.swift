import AUHost
import PlugInLoader
import XCTest

/// The instrument plug-in: MIDI through MusicDeviceMIDIEvent lands at its frame.
final class SineSynthTests: XCTestCase {
    enum P { static let attack: AudioUnitParameterID = 0, release: AudioUnitParameterID = 1, level: AudioUnitParameterID = 2 }

    private func makeSynth(sampleRate: Double = 48_000) throws -> (AudioUnit, AudioBufferStorage) {
        var desc = AudioComponentDescription("aumu", "sins", "AUSd")!
        _ = try BuiltPlugIns.component("gain")  // plug-ins built and listed
        var found = AudioComponentFindNext(nil, &desc)
        if found == nil {
            ComponentRegistry.shared.install(PlugInProvider(folders: [try BuiltPlugIns.folder.get()]));
            found = AudioComponentFindNext(nil, &desc)
        }
        var unit: AudioUnit?
        XCTAssertEqual(AudioComponentInstanceNew(try XCTUnwrap(found), &unit), noErr, lastErrorMessage())
        let u = try XCTUnwrap(unit)
        var format = AudioStreamBasicDescription.canonical(sampleRate: sampleRate, channels: 2)
        XCTAssertEqual(
            AudioUnitSetProperty(
                u, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Output, 0, &format,
                UInt32(MemoryLayout<AudioStreamBasicDescription>.size)), noErr)
        XCTAssertEqual(AudioUnitInitialize(u), noErr, lastErrorMessage())
        return (u, AudioBufferStorage(format: format, capacity: 4096))
    }

    func testNoteSoundsFromItsFrameAtItsPitchAndStopsAtNoteOff() throws {
        let fs = 48_000.0
        let (unit, storage) = try makeSynth(sampleRate: fs)
        defer { AudioComponentInstanceDispose(unit) }
        XCTAssertEqual(AudioComponentInstanceCanDo(unit, Int16(kMusicDeviceMIDIEventSelect)), 1)
        for (id, value) in [(P.attack, Float(0)), (P.release, 0), (P.level, 0)] {
            XCTAssertEqual(AudioUnitSetParameter(unit, id, kAudioUnitScope_Global, 0, value, 0), noErr)
        }
        var time = AudioTimeStamp()
        time.mFlags = .sampleTimeValid
        var flags: AudioUnitRenderActionFlags = []
        XCTAssertEqual(MusicDeviceMIDIEvent(unit, 0x90, 69, 127, 100), noErr)  // A4, full velocity, at frame 100
        storage.prepare(frames: 512)
        XCTAssertEqual(AudioUnitRender(unit, &flags, &time, 0, 512, storage.list), noErr)
        let first = storage.samples(channel: 0, frames: 512)
        XCTAssertEqual(Array(first[0..<100]), Array(repeating: 0, count: 100), "silent before the note's frame")
        for n in 0..<412 {
            XCTAssertEqual(Double(first[100 + n]), sin(2 * .pi * 440 * Double(n) / fs), accuracy: 1e-5, "frame \(100 + n)")
        }
        XCTAssertEqual(storage.samples(channel: 1, frames: 512), first, "every channel gets the voice")
        // Note off 300 frames into the next call; with no release the voice is silent from there.
        XCTAssertEqual(MusicDeviceMIDIEvent(unit, 0x80, 69, 0, 300), noErr)
        time.mSampleTime += 512
        storage.prepare(frames: 512)
        XCTAssertEqual(AudioUnitRender(unit, &flags, &time, 0, 512, storage.list), noErr)
        let second = storage.samples(channel: 0, frames: 512)
        for n in 0..<299 {
            XCTAssertEqual(Double(second[n]), sin(2 * .pi * 440 * Double(412 + n) / fs), accuracy: 1e-5, "frame \(n)")
        }
        XCTAssertEqual(Array(second[300...]), Array(repeating: 0, count: 212))
    }

    func testVelocityAndLevelScaleTheVoice() throws {
        let (unit, storage) = try makeSynth()
        defer { AudioComponentInstanceDispose(unit) }
        XCTAssertEqual(AudioUnitSetParameter(unit, P.attack, kAudioUnitScope_Global, 0, 0, 0), noErr)
        XCTAssertEqual(AudioUnitSetParameter(unit, P.level, kAudioUnitScope_Global, 0, -6.020_6, 0), noErr)
        XCTAssertEqual(MusicDeviceMIDIEvent(unit, 0x90, 81, 64, 0), noErr)  // A5 = 880 Hz, velocity 64
        var time = AudioTimeStamp()
        var flags: AudioUnitRenderActionFlags = []
        storage.prepare(frames: 1024)
        XCTAssertEqual(AudioUnitRender(unit, &flags, &time, 0, 1024, storage.list), noErr)
        let peak = storage.samples(channel: 0, frames: 1024).map(abs).max() ?? 0
        XCTAssertEqual(peak, 0.5 * 64 / 127, accuracy: 1e-3)
    }
}

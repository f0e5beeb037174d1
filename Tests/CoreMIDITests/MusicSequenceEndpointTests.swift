import AUHost
import CoreMIDI
import CoreMIDIServices
import Foundation
import TestSupport
import XCTest

/// MusicSequenceSetMIDIEndpoint: a sequence played to a Core MIDI destination, each message
/// timestamped with the host time of its sample, and an instrument behind that destination
/// sounding from those samples.
final class MusicSequenceEndpointTests: XCTestCase {
    func testASequencePlaysToAMIDIEndpointAtTheSamplesOfItsBeats() throws {
        registerTestOnsetInstrument()
        let instrument = try OnsetInstrument()
        let connection = try MIDIInstrumentConnection(destinationName: "sequence synth", instrument: instrument.unit)

        // The player's clock: a graph of a generic output head (48 kHz mono) pulled by the test,
        // with an onset instrument of its own that the endpoint track does not play.
        var graph: AUGraph?
        XCTAssertEqual(NewAUGraph(&graph), noErr)
        defer { DisposeAUGraph(graph!) }
        var headDescription = AudioComponentDescription(type: kAudioUnitType_Output, subType: kAudioUnitSubType_GenericOutput)
        var instrumentDescription = TestOnsetInstrument.description
        var head: AUNode = 0
        var local: AUNode = 0
        XCTAssertEqual(AUGraphAddNode(graph!, &headDescription, &head), noErr)
        XCTAssertEqual(AUGraphAddNode(graph!, &instrumentDescription, &local), noErr)
        XCTAssertEqual(AUGraphOpen(graph!), noErr)
        var headUnit: AudioUnit?
        XCTAssertEqual(AUGraphNodeInfo(graph!, head, nil, &headUnit), noErr)
        var format = AudioStreamBasicDescription.canonical(sampleRate: 48_000, channels: 1)
        let size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
        for scope in [kAudioUnitScope_Input, kAudioUnitScope_Output] {
            XCTAssertEqual(AudioUnitSetProperty(headUnit!, kAudioUnitProperty_StreamFormat, scope, 0, &format, size), noErr)
        }
        XCTAssertEqual(AUGraphConnectNodeInput(graph!, local, 0, head, 0), noErr)
        XCTAssertEqual(AUGraphInitialize(graph!), noErr)

        // One note at beat 1 for half a beat (120 BPM: samples 24000 to 36000).
        var sequence: MusicSequence?
        XCTAssertEqual(NewMusicSequence(&sequence), noErr)
        defer { DisposeMusicSequence(sequence!) }
        var track: MusicTrack?
        XCTAssertEqual(MusicSequenceNewTrack(sequence!, &track), noErr)
        var note = MIDINoteMessage(channel: 0, note: 60, velocity: 100, releaseVelocity: 0, duration: 0.5)
        XCTAssertEqual(MusicTrackNewMIDINoteEvent(track!, 1.0, &note), noErr)
        XCTAssertEqual(MusicSequenceSetAUGraph(sequence!, graph!), noErr)
        var source: MIDIEndpointRef = 0
        var client: MIDIClientRef = 0
        XCTAssertEqual(MIDIClientCreate(cf("other"), nil, nil, &client), noErr)
        defer { MIDIClientDispose(client) }
        XCTAssertEqual(MIDISourceCreate(client, cf("a source"), &source), noErr)
        XCTAssertEqual(MusicSequenceSetMIDIEndpoint(sequence!, source), kMIDIWrongEndpointType)
        XCTAssertEqual(MusicSequenceSetMIDIEndpoint(sequence!, connection.destination), noErr)
        var endpoint: MIDIEndpointRef = 0
        XCTAssertEqual(MusicTrackGetDestMIDIEndpoint(track!, &endpoint), noErr)
        XCTAssertEqual(endpoint, connection.destination)

        var player: MusicPlayer?
        XCTAssertEqual(NewMusicPlayer(&player), noErr)
        defer { DisposeMusicPlayer(player!) }
        XCTAssertEqual(MusicPlayerSetSequence(player!, sequence), noErr)
        XCTAssertEqual(MusicPlayerStart(player!), noErr)

        let origin: UInt64 = 9_000_000_000_000
        let storage = AudioBufferStorage(format: format, capacity: 256)
        var local0: [Float] = []
        for k in 0..<160 {
            storage.prepare(frames: 256)
            var flags = AudioUnitRenderActionFlags()
            var stamp = AudioTimeStamp()
            stamp.mSampleTime = Double(k * 256)
            stamp.mHostTime = hostTime(origin, frame: k * 256)
            stamp.mFlags = [.sampleTimeValid, .hostTimeValid]
            XCTAssertEqual(AudioUnitRender(headUnit!, &flags, &stamp, 0, 256, storage.list), noErr)
            local0 += Array(UnsafeBufferPointer(start: UnsafeMutableAudioBufferListPointer(storage.list).floatChannel(0)!, count: 256))
        }
        XCTAssertEqual(edges(local0).count, 0, "the graph's own instrument got nothing: the track plays to the endpoint")
        XCTAssertTrue(eventually { connection.received == 2 }, "the note-on and note-off reached the destination")

        let output = try instrument.render(cycles: 160, frames: 256) { hostTime(origin, frame: $0) }
        XCTAssertEqual(edges(output).map(\.0), [24_000, 36_000], "the note sounds over the samples of beats 1 to 1.5")
        XCTAssertEqual(MusicPlayerStop(player!), noErr)
    }
}

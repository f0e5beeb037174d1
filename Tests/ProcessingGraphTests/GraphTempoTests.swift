import CGainUnit
import TestSupport
import XCTest

/// AUGraphSetTempo: a graph no MusicPlayer plays hands every node host callbacks counting beats
/// from the head's frames (the C tempo probe of Tests/CHost reads them at every block).
final class GraphTempoTests: XCTestCase {
    static let probe: AudioComponentDescription = {
        var description = AudioComponentDescription(
            type: kAudioUnitType_MusicDevice, subType: FourCC.code("tprb")!, manufacturer: FourCC.code("AUHt")!)
        if AudioComponentFindNext(nil, &description) == nil {
            AudioComponentRegister(
                &description, AUHostConstantString("AUHost Tests: Tempo Probe")!.takeUnretainedValue(), 0x0001_0000, TempoProbeFactory)
        }
        return description
    }()

    func probeGraph() throws -> GraphFixture {
        let f = try GraphFixture()
        let probe = try f.add(Self.probe)
        XCTAssertEqual(AUGraphConnectNodeInput(f.graph!, probe, 0, f.head, 0), noErr)
        XCTAssertEqual(AUGraphOpen(f.graph!), noErr)
        var format = AudioStreamBasicDescription.canonical(sampleRate: 44_100, channels: 2)
        XCTAssertEqual(
            AudioUnitSetProperty(
                f.unit(probe), kAudioUnitProperty_StreamFormat, kAudioUnitScope_Output, 0, &format,
                UInt32(MemoryLayout<AudioStreamBasicDescription>.size)), noErr)
        return f
    }

    func testEveryBlockReadsTheBeatOfTheHeadsFramesInTheMeterGiven() throws {
        let f = try probeGraph()
        XCTAssertEqual(AUGraphSetTempo(f.graph!, 90, 3, 4), noErr, lastMessage())
        XCTAssertEqual(AUGraphInitialize(f.graph!), noErr, lastMessage())
        TempoProbeReset()
        for _ in 0..<200 { XCTAssertEqual(f.pull(441), noErr) }
        XCTAssertEqual(TempoProbeCount(), 200)
        for i in 0..<200 {
            let entry = TempoProbeGet(Int32(i))
            let n = Double(i * 441)
            let beat = n * 90 / 60 / 44_100
            XCTAssertEqual(entry.beatStatus, noErr)
            XCTAssertEqual(entry.beat, beat, accuracy: 1e-9, "block \(i)")
            XCTAssertEqual(entry.tempo, 90)
            XCTAssertEqual(entry.numerator, 3)
            XCTAssertEqual(entry.denominator, 4)
            XCTAssertEqual(entry.downBeat, (beat / 3).rounded(.down) * 3, "block \(i)")
            XCTAssertEqual(entry.playing, 1)
            XCTAssertEqual(entry.changed, i == 0 ? 1 : 0)
            XCTAssertEqual(entry.sampleInTimeLine, n)
            // 29,400 frames a beat: the next beat is that far on from the last.
            let next = (beat.rounded(.down) + 1) * 29_400
            if beat != beat.rounded(.down) { XCTAssertEqual(Double(entry.samplesToNextBeat), next - n, "block \(i)") }
        }
        // A new tempo starts again from beat 0; 0 BPM takes the callbacks back.
        XCTAssertEqual(AUGraphSetTempo(f.graph!, 120, 4, 4), noErr, lastMessage())
        TempoProbeReset()
        for _ in 0..<2 { XCTAssertEqual(f.pull(441), noErr) }
        XCTAssertEqual(TempoProbeGet(0).beat, 0)
        XCTAssertEqual(TempoProbeGet(1).beat, 441 * 2 / 44_100, accuracy: 1e-12)
        XCTAssertEqual(AUGraphSetTempo(f.graph!, 0, 4, 4), noErr, lastMessage())
        TempoProbeReset()
        XCTAssertEqual(f.pull(441), noErr)
        XCTAssertEqual(TempoProbeGet(0).beatStatus, kAudioUnitErr_InvalidProperty, "the probe still has callbacks")
    }

    func testTemposAndMetersOutsideTheirRangesAreParamErrors() throws {
        let f = try probeGraph()
        for (bpm, count, unit) in [(-1.0, 4, 4), (.nan, 4, 4), (1_001, 4, 4), (120, 0, 4), (120, 65, 4), (120, 4, 3), (120, 4, 0)] {
            XCTAssertEqual(AUGraphSetTempo(f.graph!, bpm, UInt32(count), UInt32(unit)), kAudio_ParamError, "\(bpm) \(count)/\(unit)")
            XCTAssertFalse(lastMessage().isEmpty)
        }
    }
}

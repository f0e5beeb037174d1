import AUHost
import CGainUnit
import XCTest

/// A unit written in C that calls its HostCallbacks (kAudioUnitProperty_HostCallbacks), in a
/// graph a MusicPlayer plays: at every block it reads the beat and tempo of the sequence's tempo
/// map at the block's first sample, the next beat's distance in samples and the transport.
final class HostCallbacksTests: XCTestCase {
    static let probe: AudioComponentDescription = {
        var description = AudioComponentDescription("aumu", "tprb", "AUHt")!
        if AudioComponentFindNext(nil, &description) == nil {
            AudioComponentRegister(
                &description, AUHostConstantString("AUHost Tests: Tempo Probe")!.takeUnretainedValue(), 0x0001_0000, TempoProbeFactory)
        }
        return description
    }()

    /// 120 BPM, 90 from beat 4, 150 from beat 10, at 48 kHz: beat b starts at this sample.
    static func sample(ofBeat b: Double) -> Double {
        if b <= 4 { return b * 24_000 }
        if b <= 10 { return 96_000 + (b - 4) * 32_000 }
        return 288_000 + (b - 10) * 19_200
    }

    /// The beat and tempo at sample n, by the same tempo map.
    static func beatAndTempo(atSample n: Double) -> (beat: Double, tempo: Double) {
        if n < 96_000 { return (n / 24_000, 120) }
        if n < 288_000 { return (4 + (n - 96_000) / 32_000, 90) }
        return (10 + (n - 288_000) / 19_200, 150)
    }

    func entries() -> [TempoProbeEntry] { (0..<TempoProbeCount()).map { TempoProbeGet(Int32($0)) } }

    func testAUnitReadsTheTempoMapAtEveryBlock() throws {
        let graph = try InstrumentGraph(Self.probe, sampleRate: 48_000)
        let (sequence, player) = try tempoSequence([(0, 120), (4, 90), (10, 150)], graph: graph.graph!)
        defer {
            DisposeMusicPlayer(player)
            DisposeMusicSequence(sequence)
        }
        XCTAssertEqual(MusicPlayerStart(player), noErr, lastMessage())
        TempoProbeReset()
        let block = 512
        _ = try graph.render(384_000, block: block)  // 8 s: through both tempo changes
        let log = entries()
        XCTAssertEqual(log.count, 750)
        for (i, entry) in log.enumerated() {
            let n = Double(i * block)
            let expected = Self.beatAndTempo(atSample: n)
            XCTAssertEqual(entry.beatStatus, noErr)
            XCTAssertEqual(entry.beat, expected.beat, accuracy: 1e-9, "block \(i)")
            XCTAssertEqual(entry.tempo, expected.tempo, "block \(i)")
            XCTAssertEqual(entry.playing, 1)
            XCTAssertEqual(entry.changed, i == 0 ? 1 : 0, "the transport changed in the first block only")
            XCTAssertEqual(entry.sampleInTimeLine, n, accuracy: 1e-6)
            XCTAssertEqual(entry.numerator, 4)
            XCTAssertEqual(entry.denominator, 4)
            XCTAssertEqual(entry.downBeat, (expected.beat / 4).rounded(.down) * 4, "block \(i)")
            // The next whole beat, exactly in samples (blocks that start on a beat are skipped:
            // there "next" is this beat or the one after, by rounding).
            let fraction = expected.beat - expected.beat.rounded(.down)
            if fraction > 1e-9 && fraction < 1 - 1e-9 {
                let next = Self.sample(ofBeat: expected.beat.rounded(.down) + 1)
                XCTAssertEqual(Double(entry.samplesToNextBeat), next - n, "block \(i)")
            }
        }
    }

    func testStoppedTheBeatStandsStillAndADisposedPlayerTakesItsCallbacksBack() throws {
        let graph = try InstrumentGraph(Self.probe, sampleRate: 48_000)
        let (sequence, player) = try tempoSequence([(0, 120), (4, 90), (10, 150)], graph: graph.graph!)
        defer { DisposeMusicSequence(sequence) }
        XCTAssertEqual(MusicPlayerStart(player), noErr, lastMessage())
        _ = try graph.render(48_000, block: 480)  // 1 s at 120: beat 2
        XCTAssertEqual(MusicPlayerStop(player), noErr, lastMessage())
        TempoProbeReset()
        _ = try graph.render(4_800, block: 480)
        let stopped = entries()
        XCTAssertEqual(stopped.count, 10)
        for entry in stopped {
            XCTAssertEqual(entry.beatStatus, noErr)
            XCTAssertEqual(entry.beat, 2, accuracy: 1e-9, "a stopped player's beat stands where it stopped")
            XCTAssertEqual(entry.tempo, 120)
            XCTAssertEqual(entry.playing, 0)
            XCTAssertEqual(entry.samplesToNextBeat, 0)
        }
        XCTAssertEqual(stopped.map(\.changed), [1] + Array(repeating: 0, count: 9))
        DisposeMusicPlayer(player)
        TempoProbeReset()
        _ = try graph.render(480, block: 480)
        XCTAssertEqual(entries().map(\.beatStatus), [kAudioUnitErr_InvalidProperty], "the unit was left without callbacks")
        var info = HostCallbackInfo()
        var size = UInt32(MemoryLayout<HostCallbackInfo>.size)
        XCTAssertEqual(
            AudioUnitGetProperty(graph.unit(graph.instrument), kAudioUnitProperty_HostCallbacks, kAudioUnitScope_Global, 0, &info, &size),
            noErr)
        XCTAssertNil(info.beatAndTempoProc)
    }
}

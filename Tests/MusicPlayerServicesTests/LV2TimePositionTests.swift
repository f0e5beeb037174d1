import AUHost
import TestSupport
import XCTest

/// LV2 plug-ins that read time:Position follow a MusicPlayer's tempo map: eg-metro (lv2-examples)
/// clicks on every beat, counting frames per beat from the tempo it was sent and re-synchronising
/// on the position it was sent.
final class LV2TimePositionTests: XCTestCase {
    func metronome() throws -> InstrumentGraph {
        let metro = try XCTUnwrap(findComponent(type: 0, nameSuffix: "Example Metronome"), "eg-metro (lv2-examples) in LV2_PATH")
        var description = AudioComponentDescription()
        AudioComponentGetDescription(metro, &description)
        return try InstrumentGraph(description, sampleRate: 48_000, channels: 1)
    }

    /// eg-metro's envelope starts at 0 on the beat's sample, so a click's first non-zero sample is
    /// the one after it (or the next, where its sine table is at 0); a position re-synchronised
    /// from a Float bar beat may land one sample either way.
    func assertClicks(_ onsets: [Int], atBeatSamples beats: [Int], file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(onsets.count, beats.count, "clicks at \(onsets)", file: file, line: line)
        for (onset, beat) in zip(onsets, beats) {
            XCTAssertTrue((beat...beat + 2).contains(onset), "a click at \(onset), the beat at \(beat)", file: file, line: line)
        }
    }

    func testClicksFallOnTheBeatsOfTheTempoAt120And90BPM() throws {
        for (bpm, spacing) in [(120.0, 24_000), (90, 32_000)] {
            let graph = try metronome()
            let (sequence, player) = try tempoSequence([(0, bpm)], graph: graph.graph!)
            defer {
                DisposeMusicPlayer(player)
                DisposeMusicSequence(sequence)
            }
            XCTAssertEqual(MusicPlayerStart(player), noErr, lastMessage())
            let samples = try graph.render(200_000, block: 512)
            assertClicks(clickOnsets(samples), atBeatSamples: Array(stride(from: 0, to: 200_000, by: spacing)))
        }
    }

    func testATempoChangeInTheSequenceMovesTheClicksAtItsSample() throws {
        let graph = try metronome()
        let (sequence, player) = try tempoSequence([(0, 120), (4, 90)], graph: graph.graph!)
        defer {
            DisposeMusicPlayer(player)
            DisposeMusicSequence(sequence)
        }
        XCTAssertEqual(MusicPlayerStart(player), noErr, lastMessage())
        let samples = try graph.render(230_000, block: 512)
        // Beats 0…4 every 24,000 samples (beat 4 at 96,000), then every 32,000.
        let beats = [0, 24_000, 48_000, 72_000, 96_000, 128_000, 160_000, 192_000, 224_000]
        assertClicks(clickOnsets(samples), atBeatSamples: beats)
    }

    func testStoppingThePlayerStopsTheClicks() throws {
        let graph = try metronome()
        let (sequence, player) = try tempoSequence([(0, 120)], graph: graph.graph!)
        defer {
            DisposeMusicPlayer(player)
            DisposeMusicSequence(sequence)
        }
        XCTAssertEqual(MusicPlayerStart(player), noErr, lastMessage())
        let playing = try graph.render(48_000, block: 512)
        XCTAssertEqual(clickOnsets(playing).count, 2)
        XCTAssertEqual(MusicPlayerStop(player), noErr, lastMessage())
        let stopped = try graph.render(96_000, block: 512)
        // The cycle after Stop ends the click that was sounding; then nothing.
        XCTAssertTrue(stopped.dropFirst(512).allSatisfy { $0 == 0 }, "eg-metro clicks on after Stop")
    }
}

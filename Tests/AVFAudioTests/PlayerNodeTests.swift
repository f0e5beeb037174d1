import AVFAudio
import Foundation
import XCTest

/// The player's schedule: times, options, stop, pause and its clocks.
final class PlayerNodeTests: XCTestCase {
    func makeRig() throws -> (OfflineRig, AVAudioPlayerNode) {
        let rig = OfflineRig()
        let player = AVAudioPlayerNode()
        rig.engine.attach(player)
        rig.engine.connect(player, to: rig.engine.mainMixerNode, format: rig.format)
        try rig.enable()
        return (rig, player)
    }

    func testBuffersWithoutATimePlayBackToBackFromPlay() throws {
        let (rig, player) = try makeRig()
        player.scheduleBuffer(makeBuffer([[1, 2, 3]]))
        player.scheduleBuffer(makeBuffer([[4, 5]]))
        try rig.engine.start()
        XCTAssertEqual(try rig.render(8)[0], [Float](repeating: 0, count: 8), "nothing before play")
        player.play()
        XCTAssertEqual(try rig.render(8)[0], [1, 2, 3, 4, 5, 0, 0, 0])
        XCTAssertEqual(player.playerTime(forNodeTime: rig.engine.lastRenderTime!)?.sampleTime, 0)
        XCTAssertEqual(player.nodeTime(forPlayerTime: AVAudioTime(sampleTime: 0, atRate: 48_000))?.sampleTime, 8)
    }

    func testALoopingBufferRepeatsUntilAnInterruptingOneReplacesIt() throws {
        let (rig, player) = try makeRig()
        var completions: [String] = []
        player.scheduleBuffer(makeBuffer([[1, 2, 3]]), at: nil, options: .loops) { completions.append("loop") }
        try rig.engine.start()
        player.play()
        XCTAssertEqual(try rig.render(8)[0], [1, 2, 3, 1, 2, 3, 1, 2])
        player.scheduleBuffer(makeBuffer([[9, 8]]), at: nil, options: .interrupts) { completions.append("interrupting") }
        XCTAssertEqual(try rig.render(4)[0], [9, 8, 0, 0])
        rig.engine.deliverPendingCallbacks()
        XCTAssertEqual(completions, ["loop", "interrupting"])
    }

    func testPlayAtANodeTimeStartsAtThatSample() throws {
        let (rig, player) = try makeRig()
        player.scheduleBuffer(makeBuffer([[1, 1, 1, 1]]))
        try rig.engine.start()
        _ = try rig.render(10)
        player.play(at: AVAudioTime(sampleTime: 13, atRate: 48_000))
        var expected = [Float](repeating: 0, count: 10)
        for i in 3..<7 { expected[i] = 1 }
        XCTAssertEqual(try rig.render(10)[0], expected)
        XCTAssertEqual(player.nodeTime(forPlayerTime: AVAudioTime(sampleTime: 0, atRate: 48_000))?.sampleTime, 13)
    }

    func testPauseHoldsThePlayersTimeAndStopDropsTheScheduleCallingItsHandlers() throws {
        let (rig, player) = try makeRig()
        var stopped = 0
        player.scheduleBuffer(makeBuffer([(0..<20).map(Float.init)])) { stopped += 1 }
        player.scheduleBuffer(makeBuffer([[7, 7]]), at: AVAudioTime(sampleTime: 100, atRate: 48_000), options: []) { stopped += 1 }
        try rig.engine.start()
        player.play()
        XCTAssertEqual(try rig.render(5)[0], [0, 1, 2, 3, 4])
        player.pause()
        XCTAssertFalse(player.isPlaying)
        XCTAssertEqual(try rig.render(5)[0], [0, 0, 0, 0, 0])
        player.play()
        XCTAssertEqual(try rig.render(5)[0], [5, 6, 7, 8, 9], "resumes where it paused")
        player.stop()
        XCTAssertEqual(try rig.render(5)[0], [0, 0, 0, 0, 0])
        rig.engine.deliverPendingCallbacks()
        XCTAssertEqual(stopped, 2, "stop completes everything scheduled")
        player.scheduleBuffer(makeBuffer([[3, 3]]))
        player.play()
        XCTAssertEqual(try rig.render(3)[0], [3, 3, 0], "after stop the player's time starts at 0 again")
    }

    func testStoppingAPlayerWhoseEngineIsStoppedCallsTheHandlersAtOnce() throws {
        let (_, player) = try makeRig()
        var called = false
        player.scheduleBuffer(makeBuffer([[1]])) { called = true }
        player.stop()
        XCTAssertTrue(called)
    }
}

import AVFAudio
import Foundation
import XCTest

/// Nodes and engines released in any order, nodes moved between engines: no crash, and a moved
/// node renders in its new engine.
final class EngineLifecycleTests: XCTestCase {
    func testANodeOutlivesItsEngineAndPlaysInTheNextOne() throws {
        let player = AVAudioPlayerNode()
        let eq = AVAudioUnitEQ(numberOfBands: 1)
        do {
            let rig = OfflineRig()
            rig.engine.attach(player)
            rig.engine.attach(eq)
            rig.engine.connect(player, to: eq, format: rig.format)
            rig.engine.connect(eq, to: rig.engine.mainMixerNode, format: rig.format)
            eq.installTap(onBus: 0, bufferSize: 64, format: nil) { _, _ in }
            try rig.enable()
            player.scheduleBuffer(makeBuffer([[1, 2]]))
            try rig.engine.start()
            player.play()
            XCTAssertEqual(try rig.render(4)[0], [1, 2, 0, 0])
        }  // the engine goes while running, with a tap installed
        XCTAssertNil(player.engine)
        XCTAssertNil(eq.engine)

        let rig = OfflineRig()
        rig.engine.attach(player)
        rig.engine.attach(eq)
        rig.engine.connect(player, to: eq, format: rig.format)
        rig.engine.connect(eq, to: rig.engine.mainMixerNode, format: rig.format)
        try rig.enable()
        player.stop()
        player.scheduleBuffer(makeBuffer([[5, 6, 7]]))
        try rig.engine.start()
        player.play()
        XCTAssertEqual(try rig.render(4)[0], [5, 6, 7, 0])
    }

    func testANodeAttachedToTwoEnginesIsRefusedByTheSecond() throws {
        let first = AVAudioEngine(), second = AVAudioEngine()
        let mixer = AVAudioMixerNode()
        first.attach(mixer)
        second.attach(mixer)
        XCTAssertTrue(mixer.engine === first)
        XCTAssertEqual(second.configurationError?.code, Int(kAudioUnitErr_CannotDoInCurrentContext))
        first.detach(mixer)
        second.attach(mixer)
        XCTAssertTrue(mixer.engine === second)
    }

    func testManyEnginesComeAndGoWhileRendering() throws {
        for round in 0..<20 {
            let rig = OfflineRig(channels: 2)
            let source = rampSource { Float($0 % 7) }
            rig.engine.attach(source)
            rig.engine.connect(source, to: rig.engine.mainMixerNode, format: rig.format)
            try rig.enable()
            try rig.engine.start()
            let out = try rig.render(256 + round)
            XCTAssertEqual(out[1], (0..<(256 + round)).map { Float($0 % 7) }, "round \(round)")
            if round % 2 == 0 { rig.engine.stop() }
        }
    }
}

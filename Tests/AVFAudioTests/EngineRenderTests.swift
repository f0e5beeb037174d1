import AVFAudio
import Foundation
import XCTest

/// What the engine renders: mixing, fan-out, changes while running, the real-time block.
final class EngineRenderTests: XCTestCase {
    func testMixerAppliesEachPlayersVolumeAndPanOnItsBus() throws {
        let rig = OfflineRig(channels: 2)
        let a = AVAudioPlayerNode(), b = AVAudioPlayerNode()
        let sa = (0..<1_000).map { Float($0 % 100) / 128 }, sb = (0..<1_000).map { Float(($0 * 7) % 50) / 64 }
        for p in [a, b] {
            rig.engine.attach(p)
            rig.engine.connect(p, to: rig.engine.mainMixerNode, format: rig.format)
        }
        a.volume = 0.5
        b.volume = 0.25
        b.pan = -1
        try rig.enable()
        a.scheduleBuffer(makeBuffer([sa, sa]))
        b.scheduleBuffer(makeBuffer([sb, sb]))
        try rig.engine.start()
        a.play()
        b.play()
        let out = try rig.render(1_000)
        XCTAssertEqual(out[0], (0..<1_000).map { 0.5 * sa[$0] + 0.25 * sb[$0] }, "left: both, b panned hard left")
        XCTAssertEqual(out[1], sa.map { 0.5 * $0 }, "right: a only")
    }

    func testMainMixerOutputVolumeScalesTheMix() throws {
        let rig = OfflineRig()
        let source = rampSource { Float($0 % 64) / 64 }
        rig.engine.attach(source)
        rig.engine.connect(source, to: rig.engine.mainMixerNode, format: rig.format)
        rig.engine.mainMixerNode.outputVolume = 0.5
        try rig.enable()
        try rig.engine.start()
        XCTAssertEqual(try rig.render(600)[0], (0..<600).map { Float($0 % 64) / 128 })
    }

    func testFanOutFeedsTwoMixerBusesFromOneRenderOfTheSource() throws {
        let rig = OfflineRig()
        var calls = 0
        let source = AVAudioSourceNode { _, _, frames, list in
            calls += 1
            let out = UnsafeMutableAudioBufferListPointer(list)[0].mData!.assumingMemoryBound(to: Float.self)
            for i in 0..<Int(frames) { out[i] = 0.25 }
            return noErr
        }
        let mixer = rig.engine.mainMixerNode
        rig.engine.attach(source)
        rig.engine.connect(
            source, to: [AVAudioConnectionPoint(node: mixer, bus: 0), AVAudioConnectionPoint(node: mixer, bus: 3)], fromBus: 0,
            format: rig.format)
        XCTAssertEqual(rig.engine.outputConnectionPoints(for: source, outputBus: 0).map(\.bus), [0, 3])
        try rig.enable()
        try rig.engine.start()
        XCTAssertEqual(try rig.render(1_024)[0], [Float](repeating: 0.5, count: 1_024))
        XCTAssertEqual(calls, 2, "the source rendered once per cycle (two cycles of 512)")
    }

    func testDisconnectingAndReconnectingWhileRunningTakesEffectAtTheNextCycle() throws {
        let rig = OfflineRig()
        let source = rampSource { _ in 1 }
        rig.engine.attach(source)
        rig.engine.connect(source, to: rig.engine.mainMixerNode, format: rig.format)
        try rig.enable()
        try rig.engine.start()
        XCTAssertEqual(try rig.render(512)[0], [Float](repeating: 1, count: 512))
        rig.engine.disconnectNodeOutput(source)
        XCTAssertNil(rig.engine.inputConnectionPoint(for: rig.engine.mainMixerNode, inputBus: 0))
        XCTAssertEqual(try rig.render(512)[0], [Float](repeating: 0, count: 512))
        rig.engine.connect(source, to: rig.engine.mainMixerNode, format: rig.format)
        XCTAssertEqual(try rig.render(512)[0], [Float](repeating: 1, count: 512))
        rig.engine.detach(source)
        XCTAssertFalse(rig.engine.attachedNodes.contains(source))
        XCTAssertEqual(try rig.render(512)[0], [Float](repeating: 0, count: 512))
    }

    func testTheRealtimeManualRenderingBlockRendersTheSourceAtTheEnginesSampleTime() throws {
        let engine = AVAudioEngine()
        let format = AVAudioFormat(standardFormatWithSampleRate: 48_000, channels: 2)!
        let source = rampSource { Float($0) }
        engine.attach(source)
        engine.connect(source, to: engine.mainMixerNode, format: format)
        try engine.enableManualRenderingMode(.realtime, format: format, maximumFrameCount: 256)
        XCTAssertEqual(engine.manualRenderingMode, .realtime)
        let block = engine.manualRenderingBlock
        let buffer = AVAudioPCMBuffer(pcmFormat: format, frameCapacity: 256)!
        var status: OSStatus = 0
        XCTAssertEqual(block(256, buffer.mutableAudioBufferList, &status), .error, "before start")
        XCTAssertEqual(status, kAudioUnitErr_Uninitialized)
        try engine.start()
        for cycle in 0..<3 {
            XCTAssertEqual(block(256, buffer.mutableAudioBufferList, &status), .success)
            XCTAssertEqual(status, noErr)
            buffer.frameLength = 256
            for c in 0..<2 {
                XCTAssertEqual(
                    Array(UnsafeBufferPointer(start: buffer.floatChannelData![c], count: 256)), (0..<256).map { Float(cycle * 256 + $0) })
            }
        }
        XCTAssertEqual(engine.manualRenderingSampleTime, 768)
        XCTAssertEqual(engine.lastRenderTime?.sampleTime, 512)
        XCTAssertEqual(block(512, buffer.mutableAudioBufferList, &status), .error, "more than the maximum")
        XCTAssertEqual(status, kAudioUnitErr_TooManyFramesToProcess)
    }

    func testEQGlobalGainOfMinusSixDecibelsScalesByItsLinearGain() throws {
        let rig = OfflineRig()
        let eq = AVAudioUnitEQ(numberOfBands: 2)
        XCTAssertEqual(eq.bands.count, 2)
        XCTAssertTrue(eq.bands[0].bypass, "bands start bypassed")
        eq.globalGain = -6
        eq.bands[1].filterType = .highShelf
        XCTAssertEqual(eq.bands[1].filterType, .highShelf)
        let source = rampSource { Float(($0 * 13) % 97) / 97 - 0.5 }
        rig.engine.attach(source)
        rig.engine.attach(eq)
        rig.engine.connect(source, to: eq, format: rig.format)
        rig.engine.connect(eq, to: rig.engine.mainMixerNode, format: rig.format)
        try rig.enable()
        try rig.engine.start()
        let out = try rig.render(1_000)[0]
        let g = Float(pow(10, -6.0 / 20))
        for n in 0..<1_000 {
            // Tolerance: the dB → linear conversion in Float (a few ulps of the gain).
            XCTAssertEqual(out[n], (Float((n * 13) % 97) / 97 - 0.5) * g, accuracy: 1e-6, "frame \(n)")
        }
        eq.bypass = true
        XCTAssertTrue(eq.bypass)
        let bypassed = try rig.render(100)[0]
        XCTAssertEqual(bypassed, (1_000..<1_100).map { Float(($0 * 13) % 97) / 97 - 0.5 })
    }
}

import AUHost
import XCTest

/// The stereo chorus plug-in.
final class ChorusTests: XCTestCase {
    enum P {
        static let rate: AudioUnitParameterID = 0, depth: AudioUnitParameterID = 1
        static let delay: AudioUnitParameterID = 2, mix: AudioUnitParameterID = 3
    }

    func testMixZeroIsExactlyTheDrySignal() throws {
        let input = [sine(440, frames: 4096), sine(660, amplitude: 0.5, frames: 4096)]
        let h = try EffectHarness(try BuiltPlugIns.component("chor"), input: input)
        try h.set(P.mix, 0)
        try h.set(P.depth, 10)
        XCTAssertEqual(try h.render(4096, slice: 300), input)
    }

    func testNoDepthFullMixIsAnExactDelay() throws {
        let fs = 48_000.0
        let input = [sine(440, frames: 4800, sampleRate: fs), sine(990, frames: 4800, sampleRate: fs)]
        let h = try EffectHarness(try BuiltPlugIns.component("chor"), sampleRate: fs, input: input)
        try h.set(P.mix, 100)
        try h.set(P.depth, 0)
        try h.set(P.delay, 10)  // 480 frames at 48 kHz
        let out = try h.render(4800)
        for c in 0..<2 {
            XCTAssertEqual(Array(out[c][0..<480]), Array(repeating: 0, count: 480))
            XCTAssertEqual(Array(out[c][480...]), Array(input[c][0..<(4800 - 480)]), "channel \(c)")
        }
    }

    func testChannelsAreModulatedInQuadrature() throws {
        // The same signal in both channels comes out different: the right sweep is a quarter cycle later.
        let signal = sine(1000, frames: 22_050)
        let h = try EffectHarness(try BuiltPlugIns.component("chor"), input: [signal, signal])
        try h.set(P.depth, 5)
        try h.set(P.rate, 2)
        try h.set(P.mix, 100)
        let out = try h.render(22_050)
        let difference = zip(out[0], out[1]).map { abs($0 - $1) }.max() ?? 0
        XCTAssertGreaterThan(difference, 0.1)
    }

    func testStateRoundTripsThroughClassInfo() throws {
        let input = [sine(220, frames: 2048), sine(330, frames: 2048)]
        let a = try EffectHarness(try BuiltPlugIns.component("chor"), input: input)
        try a.set(P.rate, 1.5)
        try a.set(P.depth, 4)
        try a.set(P.delay, 20)
        try a.set(P.mix, 60)
        let state = try a.classInfo()
        defer { Unmanaged<AnyObject>.fromOpaque(state).release() }
        let b = try EffectHarness(try BuiltPlugIns.component("chor"), input: input)
        try b.restore(classInfo: state)
        XCTAssertEqual([try b.get(P.rate), try b.get(P.depth), try b.get(P.delay), try b.get(P.mix)], [1.5, 4, 20, 60])
        XCTAssertEqual(try a.render(2048), try b.render(2048))
    }
}

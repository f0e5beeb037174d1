import AUHost
import XCTest

/// A plug-in pulling its input from another unit through kAudioUnitProperty_MakeConnection calls
/// AudioUnitRender from inside its own image: it reaches the host's through the function table the
/// loader handed over (the host executable exports no symbols).
final class PlugInConnectionTests: XCTestCase {
    func testPlugInPullsAnUpstreamUnitThroughMakeConnection() throws {
        let input: [[Float]] = [(0..<256).map { Float($0) }, (0..<256).map { Float(-$0) }]
        // Upstream: the tremolo at depth 0 (identity), fed by a callback.
        let source = try EffectHarness(try BuiltPlugIns.component("trem"), input: input)
        try source.set(1, 0)
        // Downstream: the gain, its input connected to the tremolo's output 0.
        let gain = try EffectHarness(try BuiltPlugIns.component("gain"), input: [[], []], initialize: false)
        var connection = AudioUnitConnection(sourceAudioUnit: source.unit, sourceOutputNumber: 0, destInputNumber: 0)
        XCTAssertEqual(
            AudioUnitSetProperty(
                gain.unit, kAudioUnitProperty_MakeConnection, kAudioUnitScope_Input, 0,
                &connection, UInt32(MemoryLayout<AudioUnitConnection>.size)), noErr)
        XCTAssertEqual(AudioUnitInitialize(gain.unit), noErr)
        try gain.set(0, 3)
        let out = try gain.render(256, slice: 128)
        XCTAssertEqual(out, input.map { $0.map { 3 * $0 } })
    }
}

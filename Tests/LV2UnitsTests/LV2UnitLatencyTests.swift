import Foundation
import LV2Host
import LV2Units
import TestSupport
import XCTest

/// An LV2 plug-in's latency port is known once the unit is initialized (before any render), and
/// finding it out leaves the first real render as it would have been.
final class LV2UnitLatencyTests: XCTestCase {
    static let hilbert = "http://plugin.org.uk/swh-plugins/hilbert"

    func latencySeconds(_ unit: AudioUnit) -> Float64 {
        var seconds: Float64 = -1
        var size = UInt32(8)
        XCTAssertEqual(AudioUnitGetProperty(unit, kAudioUnitProperty_Latency, kAudioUnitScope_Global, 0, &seconds, &size), noErr)
        return seconds
    }

    /// swh Hilbert writes 99 (its FIR's group delay) on its latency port in every run: right after
    /// AudioUnitInitialize, with nothing rendered, the Latency property is 99 frames and the latency
    /// meter parameter reads 99. (It read 0 until the first render.)
    func testLatencyIsKnownRightAfterInitialize() throws {
        let plugin = try LV2UnitTestSupport.world.plugin(uri: Self.hilbert)
        let latencyPort = UInt32(try XCTUnwrap(plugin.ports.first { $0.reportsLatency }).index)
        let rig = try LV2UnitRig(component: LV2UnitTestSupport.component(Self.hilbert), maxFrames: 512)
        XCTAssertEqual(latencySeconds(rig.unit), 99.0 / 48_000)
        XCTAssertEqual(rig.parameter(latencyPort), 99)
        // Uninitialized again, the unit keeps no running plug-in: no latency is claimed.
        XCTAssertEqual(AudioUnitUninitialize(rig.unit), noErr)
        XCTAssertEqual(latencySeconds(rig.unit), 0)
        XCTAssertEqual(AudioUnitInitialize(rig.unit), noErr)
        XCTAssertEqual(latencySeconds(rig.unit), 99.0 / 48_000)
    }

    /// swh Artificial latency reports `delay` ms as latency: the value known at initialize is the
    /// one for the parameter set before it (10 ms = 480 frames at 48 kHz), not for the default.
    func testLatencyAtInitializeFollowsTheParametersSetBeforeIt() throws {
        let uri = "http://plugin.org.uk/swh-plugins/artificialLatency"
        let plugin = try LV2UnitTestSupport.world.plugin(uri: uri)
        let delay = UInt32(try XCTUnwrap(plugin.ports.first { $0.symbol == "delay" }).index)
        let rig = try LV2UnitRig(component: LV2UnitTestSupport.component(uri), maxFrames: 256, initialize: false)
        XCTAssertEqual(AudioUnitSetParameter(rig.unit, delay, kAudioUnitScope_Global, 0, 10, 0), noErr)
        XCTAssertEqual(AudioUnitInitialize(rig.unit), noErr)
        XCTAssertEqual(latencySeconds(rig.unit), 480.0 / 48_000)
    }

    /// The run on silence that reveals the latency is undone (deactivate, activate) before the
    /// first real render: the unit's output equals a direct lilv run of a fresh instance that never
    /// ran before, bit for bit, for Hilbert (delay line) and fastLookaheadLimiter (gain state);
    /// Hilbert's 0° output is its input delayed by exactly the 99 frames it reports.
    func testFirstRenderEqualsAFreshInstanceAndHilbertDelaysByItsLatency() throws {
        let frames = 6_000, block = 256
        for uri in [Self.hilbert, "http://plugin.org.uk/swh-plugins/fastLookaheadLimiter"] {
            let plugin = try LV2UnitTestSupport.world.plugin(uri: uri)
            let direct = try LV2Instance(plugin: plugin, configuration: .init(sampleRate: 48_000, maxBlockLength: block))
            direct.activate()
            let audioIn = plugin.ports.filter { $0.kind == .audio && $0.direction == .input }.map(\.index)
            let audioOut = plugin.ports.filter { $0.kind == .audio && $0.direction == .output }.map(\.index)
            // Loud enough (peaks 1.5) that the limiter works on it.
            let input = audioIn.indices.map { LV2UnitTestSupport.noise(frames, seed: UInt32(40 + $0)).map { $0 * 3 } }
            let expected = LV2UnitTestSupport.renderDirect(direct, inputs: input, frames: frames, block: block)

            let rig = try LV2UnitRig(component: LV2UnitTestSupport.component(uri), maxFrames: UInt32(block))
            let (inBuses, outBuses) = LV2Bus.group(plugin.ports)
            rig.inputs = inBuses.map { bus in bus.portIndices.map { input[audioIn.firstIndex(of: $0)!] } }
            let rendered = rig.render(frames: frames, block: block)
            for (e, bus) in outBuses.enumerated() {
                for (ch, portIndex) in bus.portIndices.enumerated() {
                    let reference = expected[audioOut.firstIndex(of: portIndex)!]
                    XCTAssertNil(LV2UnitTestSupport.firstDifference(rendered[e][ch], reference), "\(uri) element \(e) channel \(ch)")
                }
            }
            if uri == Self.hilbert {
                let output0 = rendered[0][0]
                XCTAssertEqual(output0[0..<99].map(abs).max(), 0)
                XCTAssertNil(LV2UnitTestSupport.firstDifference(Array(output0[99...]), Array(input[0][..<(frames - 99)])))
            }
        }
    }
}

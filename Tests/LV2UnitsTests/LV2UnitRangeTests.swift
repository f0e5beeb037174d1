import Foundation
import LV2Host
import LV2Units
import TestSupport
import XCTest

/// LV2 control ranges as the unit presents them: `lv2:sampleRate` bounds follow the stream's rate
/// (issue 13) and values outside a range are refused like a built-in unit's (issue 21).
final class LV2UnitRangeTests: XCTestCase {
    let decimator = "http://plugin.org.uk/swh-plugins/decimator"

    /// swh Decimator's `fs` port (bounds 0.001…1 × rate, default 1 × rate) at 48 and 96 kHz: the
    /// parameter's range and default are those multiples of the rate in effect, the full rate is
    /// accepted and more is clamped to it, and the output equals a direct lilv run with the same value.
    func testSampleRatePortFollowsTheStreamRate() throws {
        let plugin = try LV2UnitTestSupport.world.plugin(uri: decimator)
        let fs = UInt32(try XCTUnwrap(plugin.ports.first { $0.symbol == "fs" }).index)
        let bits = UInt32(try XCTUnwrap(plugin.ports.first { $0.symbol == "bits" }).index)
        for rate in [48_000.0, 96_000.0] {
            let rig = try LV2UnitRig(component: LV2UnitTestSupport.component(decimator), sampleRate: rate, maxFrames: 256)
            let i = try parameterInfo(rig.unit, fs)
            XCTAssertEqual(i.minValue, Float(0.001) * Float(rate), "\(rate)")
            XCTAssertEqual(i.maxValue, Float(rate), "\(rate)")
            XCTAssertEqual(i.defaultValue, Float(rate), "\(rate)")
            XCTAssertEqual(rig.parameter(fs), Float(rate), "a parameter left at its default follows the rate")
            XCTAssertEqual(AudioUnitSetParameter(rig.unit, fs, kAudioUnitScope_Global, 0, Float(rate), 0), noErr)
            XCTAssertEqual(AudioUnitSetParameter(rig.unit, fs, kAudioUnitScope_Global, 0, Float(rate) * 1.01, 0), noErr)
            XCTAssertEqual(rig.parameter(fs), Float(rate), "clamped to the rate in effect")

            let value = Float(rate) / 7
            XCTAssertEqual(AudioUnitSetParameter(rig.unit, fs, kAudioUnitScope_Global, 0, value, 0), noErr)
            XCTAssertEqual(AudioUnitSetParameter(rig.unit, bits, kAudioUnitScope_Global, 0, 6, 0), noErr)
            let noise = LV2UnitTestSupport.noise(4_096, seed: 5)
            rig.inputs = [[noise]]
            let rendered = rig.render(frames: 4_096, block: 256)

            let direct = try LV2Instance(plugin: plugin, configuration: .init(sampleRate: rate, maxBlockLength: 256))
            try direct.setControl(portIndex: Int(fs), to: value)
            try direct.setControl(portIndex: Int(bits), to: 6)
            direct.activate()
            let expected = LV2UnitTestSupport.renderDirect(direct, inputs: [noise], frames: 4_096, block: 256)
            XCTAssertNil(LV2UnitTestSupport.firstDifference(rendered[0][0], expected[0]), "\(rate) Hz")
            XCTAssertGreaterThan(rendered[0][0].map(abs).max() ?? 0, 0.01)
        }
    }

    /// A preset whose value lies outside the port's range (eg-amp gain 1000 dB, from a preset
    /// bundle beside eg-amp) is kept to the range when applied: the parameter reads 24 dB, and the
    /// rendered output is the input times 10^(24/20), not infinity.
    func testPresetValueOutsideTheRangeIsKeptToIt() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lv2-preset-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("LV2HostTests/Fixtures/hostile/auhost-amp-preset.lv2").path
        try FileManager.default.copyItem(atPath: fixtures, toPath: folder + "/auhost-amp-preset.lv2")
        try FileManager.default.createSymbolicLink(atPath: folder + "/eg-amp.lv2", withDestinationPath: "/usr/lib/lv2/eg-amp.lv2")
        setenv("XDG_CACHE_HOME", folder + "/cache", 1)
        defer { unsetenv("XDG_CACHE_HOME") }
        let provider = LV2Provider(lv2Path: folder)
        ComponentRegistry.shared.install(provider)
        let component = try XCTUnwrap(provider.component(uri: "http://lv2plug.in/plugins/eg-amp"))
        let rig = try LV2UnitRig(component: component, maxFrames: 256)
        var preset = AUPreset(presetNumber: 0, presetName: nil)
        XCTAssertEqual(
            AudioUnitSetProperty(
                rig.unit, kAudioUnitProperty_PresentPreset, kAudioUnitScope_Global, 0, &preset,
                UInt32(MemoryLayout<AUPreset>.size)), noErr)
        let plugin = try LV2UnitTestSupport.world.plugin(uri: "http://lv2plug.in/plugins/eg-amp")
        let gain = UInt32(try XCTUnwrap(plugin.ports.first { $0.symbol == "gain" }).index)
        XCTAssertEqual(rig.parameter(gain), 24)
        rig.inputs = [[[Float](repeating: 0.01, count: 256)]]
        let out = rig.render(frames: 256, block: 256)[0][0]
        XCTAssertEqual(out.last ?? 0, 0.01 * powf(10, 24 / 20), accuracy: 1e-4)
    }

    /// eg-amp's gain is −90…24 dB: as on Apple, AudioUnitSetParameter and scheduled events take a
    /// finite value outside and clamp it to the nearer bound; NaN and infinities are refused with
    /// kAudioUnitErr_InvalidParameterValue and the old value stays (docs/PORTING.md).
    func testOutOfRangeControlValuesAreClampedAndNonFiniteOnesRefused() throws {
        let rig = try LV2UnitRig(component: LV2UnitTestSupport.component("http://lv2plug.in/plugins/eg-amp"), maxFrames: 256)
        let plugin = try LV2UnitTestSupport.world.plugin(uri: "http://lv2plug.in/plugins/eg-amp")
        let gain = UInt32(try XCTUnwrap(plugin.ports.first { $0.symbol == "gain" }).index)
        XCTAssertEqual(AudioUnitSetParameter(rig.unit, gain, kAudioUnitScope_Global, 0, -3, 0), noErr)
        for bad: Float in [.nan, .infinity, -.infinity] {
            XCTAssertEqual(
                AudioUnitSetParameter(rig.unit, gain, kAudioUnitScope_Global, 0, bad, 0), kAudioUnitErr_InvalidParameterValue, "\(bad)")
        }
        XCTAssertEqual(rig.parameter(gain), -3)
        for (value, clamped): (Float, Float) in [(1000, 24), (-1e30, -90), (24.001, 24), (-90.5, -90), (24, 24), (-90, -90)] {
            XCTAssertEqual(AudioUnitSetParameter(rig.unit, gain, kAudioUnitScope_Global, 0, value, 0), noErr, "\(value)")
            XCTAssertEqual(rig.parameter(gain), clamped, "\(value)")
        }
        var event = AudioUnitParameterEvent()
        event.scope = kAudioUnitScope_Global
        event.parameter = gain
        event.eventType = .parameterEvent_Immediate
        event.eventValues.immediate = .init(bufferOffset: 0, value: .nan)
        XCTAssertEqual(AudioUnitScheduleParameters(rig.unit, &event, 1), kAudioUnitErr_InvalidParameterValue)
        event.eventValues.immediate = .init(bufferOffset: 0, value: 1000)
        XCTAssertEqual(AudioUnitScheduleParameters(rig.unit, &event, 1), noErr)
        _ = rig.render(frames: 64, block: 64)
        XCTAssertEqual(rig.parameter(gain), 24, "a scheduled value is clamped")
        event.eventType = .parameterEvent_Ramped
        event.eventValues.ramp = .init(startBufferOffset: 0, durationInFrames: 64, startValue: 0, endValue: .infinity)
        XCTAssertEqual(AudioUnitScheduleParameters(rig.unit, &event, 1), kAudioUnitErr_InvalidParameterValue)
        event.eventValues.ramp = .init(startBufferOffset: 0, durationInFrames: 64, startValue: 0, endValue: -100)
        XCTAssertEqual(AudioUnitScheduleParameters(rig.unit, &event, 1), noErr)
        _ = rig.render(frames: 128, block: 64)
        XCTAssertEqual(rig.parameter(gain), -90, "a ramp's end is clamped")
    }

    /// swh SC4's meters declare ranges in its Turtle: amplitude −40…12 dB (port 7), gain
    /// reduction −24…0 dB (port 8). Their read-only parameters declare those ranges (they were
    /// ±FLT_MAX), a default inside them, and keep to them whatever the plug-in writes: silence
    /// gives an amplitude far below −40 dB (lin2db of a vanishing envelope) and a loud input one
    /// above 12 dB, and the parameter reads −40 and 12. Hilbert's latency port declares no range,
    /// so its parameter keeps ±FLT_MAX (any number of frames can be reported).
    func testOutputControlsDeclareTheTurtleRangeAndKeepToIt() throws {
        let uri = "http://plugin.org.uk/swh-plugins/sc4"
        let rig = try LV2UnitRig(component: LV2UnitTestSupport.component(uri), maxFrames: 512)
        func info(_ unit: AudioUnit, _ id: UInt32) -> AudioUnitParameterInfo {
            var info = AudioUnitParameterInfo()
            var size = UInt32(MemoryLayout<AudioUnitParameterInfo>.size)
            XCTAssertEqual(AudioUnitGetProperty(unit, kAudioUnitProperty_ParameterInfo, kAudioUnitScope_Global, id, &info, &size), noErr)
            return info
        }
        for (port, low, high): (UInt32, Float, Float) in [(7, -40, 12), (8, -24, 0)] {
            let meter = info(rig.unit, port)
            XCTAssertEqual(meter.minValue, low, "port \(port)")
            XCTAssertEqual(meter.maxValue, high, "port \(port)")
            XCTAssertTrue((low...high).contains(meter.defaultValue), "port \(port) default \(meter.defaultValue)")
            XCTAssertTrue(meter.flags.contains(.flag_MeterReadOnly))
        }
        rig.inputs = [[[Float](repeating: 0, count: 4096), [Float](repeating: 0, count: 4096)]]
        _ = rig.render(frames: 4096, block: 512)
        XCTAssertEqual(rig.parameter(7), -40, "silence: the amplitude meter is kept to its minimum")
        // Noise of ±32 peak (about +25 dB RMS) for a third of a second: well past the attack.
        let loud = LV2UnitTestSupport.noise(16_384, seed: 5).map { $0 * 64 }
        rig.inputs = [[[Float](repeating: 0, count: 4096) + loud, [Float](repeating: 0, count: 4096) + loud]]
        _ = rig.render(frames: 16_384, block: 512)
        XCTAssertEqual(rig.parameter(7), 12, "loud noise: the amplitude meter is kept to its maximum")
        XCTAssertTrue((-24...0).contains(rig.parameter(8)))

        let hilbert = try LV2UnitRig(component: LV2UnitTestSupport.component("http://plugin.org.uk/swh-plugins/hilbert"))
        let latency = info(hilbert.unit, 3)
        XCTAssertEqual(latency.minValue, -.greatestFiniteMagnitude)
        XCTAssertEqual(latency.maxValue, .greatestFiniteMagnitude)
    }
}

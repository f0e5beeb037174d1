import Foundation
import LV2Host
import LV2Units
import TestSupport
import XCTest

/// Real plug-ins rendered through the documented C API, against lv2apply and direct lilv runs.
final class LV2UnitRenderTests: XCTestCase {
    /// eg-amp through the unit (AudioUnitSetParameter, AudioUnitRender) equals lv2apply sample for sample.
    func testEgAmpThroughTheUnitIsBitIdenticalToLv2apply() throws {
        let directory = NSTemporaryDirectory() + "lv2unit-egamp-\(getpid())"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let input = (0..<48_000).map { Float(sin(Double($0) * 2 * .pi * 441 / 48_000) * 0.8) } + LV2UnitTestSupport.noise(12_345, seed: 7)
        try WAV.writeFloat(input, sampleRate: 48_000, to: directory + "/in.wav")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/lv2apply")
        process.arguments = [
            "-i", directory + "/in.wav", "-o", directory + "/out.wav", "-c", "gain", "-7.5", "http://lv2plug.in/plugins/eg-amp",
        ]
        try process.run()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0)
        let reference = try WAV.readFloat(directory + "/out.wav")

        let rig = try LV2UnitRig(component: LV2UnitTestSupport.component("http://lv2plug.in/plugins/eg-amp"), maxFrames: 1024)
        XCTAssertEqual(rig.inputChannels, [1])
        XCTAssertEqual(rig.outputChannels, [1])
        XCTAssertEqual(AudioUnitSetParameter(rig.unit, 0, kAudioUnitScope_Global, 0, -7.5, 0), noErr, "gain is port 0")
        rig.inputs = [[input]]
        let ours = rig.render(frames: input.count, block: 1024)[0][0]
        XCTAssertEqual(ours.count, reference.count)
        XCTAssertNil(LV2UnitTestSupport.firstDifference(ours, reference), "first sample that differs from lv2apply")
        XCTAssertGreaterThan(ours.map(abs).max()!, 0.3, "the gain was applied to a real signal")
    }

    /// Seven plug-ins (mda, swh; mono, stereo, mono→stereo) through the unit equal the same
    /// plug-in run directly with lilv (LV2Instance) at the same block size, sample for sample,
    /// with a non-default parameter value on each.
    func testPluginsThroughTheUnitEqualDirectLilvRuns() throws {
        let cases: [(uri: String, symbol: String, value: Float)] = [
            ("http://drobilla.net/plugins/mda/Delay", "feedback", 0.7),
            ("http://drobilla.net/plugins/mda/Overdrive", "drive", 0.8),
            ("http://drobilla.net/plugins/mda/Stereo", "width", 0.3),
            ("http://plugin.org.uk/swh-plugins/amp", "gain", 6),
            ("http://plugin.org.uk/swh-plugins/hardLimiter", "limit_db", -6),
            ("http://plugin.org.uk/swh-plugins/foldover", "drive_p", 0.5),
            ("http://plugin.org.uk/swh-plugins/gverb", "roomsize", 40),
        ]
        let frames = 9_000, block = 256
        for c in cases {
            let plugin = try LV2UnitTestSupport.world.plugin(uri: c.uri)
            let direct = try LV2Instance(plugin: plugin, configuration: .init(sampleRate: 48_000, maxBlockLength: block))
            let port = try direct.portIndex(symbol: c.symbol)
            try direct.setControl(portIndex: port, to: c.value)
            direct.activate()
            let audioIn = plugin.ports.filter { $0.kind == .audio && $0.direction == .input }.map(\.index)
            let audioOut = plugin.ports.filter { $0.kind == .audio && $0.direction == .output }.map(\.index)
            let noise = audioIn.indices.map { LV2UnitTestSupport.noise(frames, seed: UInt32(21 + $0)) }
            let expected = LV2UnitTestSupport.renderDirect(direct, inputs: noise, frames: frames, block: block)

            let rig = try LV2UnitRig(component: LV2UnitTestSupport.component(c.uri), maxFrames: UInt32(block))
            XCTAssertEqual(AudioUnitSetParameter(rig.unit, UInt32(port), kAudioUnitScope_Global, 0, c.value, 0), noErr, c.uri)
            let (inBuses, outBuses) = LV2Bus.group(plugin.ports)
            rig.inputs = inBuses.map { bus in bus.portIndices.map { noise[audioIn.firstIndex(of: $0)!] } }
            let rendered = rig.render(frames: frames, block: block)
            for (e, bus) in outBuses.enumerated() {
                for (ch, portIndex) in bus.portIndices.enumerated() {
                    let reference = expected[audioOut.firstIndex(of: portIndex)!]
                    XCTAssertNil(LV2UnitTestSupport.firstDifference(rendered[e][ch], reference), "\(c.uri) element \(e) channel \(ch)")
                }
            }
            XCTAssertGreaterThan(rendered.flatMap { $0 }.flatMap { $0 }.map(abs).max() ?? 0, 0.01, "\(c.uri) made sound")
        }
    }

    /// mda Piano: silent before a note, sounds after MusicDeviceMIDIEvent note-on, silent after
    /// note-off plus its release tail.
    func testPianoPlaysThroughMusicDeviceMIDIEvent() throws {
        let component = try LV2UnitTestSupport.component("http://drobilla.net/plugins/mda/Piano")
        XCTAssertEqual(component.description.componentType, kAudioUnitType_MusicDevice)
        let rig = try LV2UnitRig(component: component, maxFrames: 512)
        func peak(_ frames: Int) -> Float { rig.render(frames: frames, block: 512).flatMap { $0 }.flatMap { $0 }.map(abs).max() ?? 0 }
        XCTAssertEqual(peak(2048), 0, "silent before any note")
        XCTAssertEqual(MusicDeviceMIDIEvent(rig.unit, 0x90, 60, 100, 100), noErr)
        let first = rig.render(frames: 512, block: 512)[0][0]
        XCTAssertEqual(first[0..<100].map(abs).max(), 0, "nothing before the note's offset (100)")
        XCTAssertGreaterThan(first[100..<512].map(abs).max()!, 0.01, "the note starts at its offset")
        XCTAssertGreaterThan(peak(4096), 0.05, "a note-on sounds")
        XCTAssertEqual(MusicDeviceMIDIEvent(rig.unit, 0x80, 60, 0, 0), noErr)
        _ = peak(48_000 * 3)  // release tail
        XCTAssertLessThan(peak(4096), 1e-4, "silent after note-off and its tail")
    }

    /// The Latency property answers right after AudioUnitInitialize, before any render: hosts
    /// read it to compensate the delay from the first block (it said 0 until the plug-in's first
    /// run wrote its latency port, so `auhost render` compensated nothing on the limiter).
    func testLimiterReportsItsLatencyBeforeTheFirstRender() throws {
        let uri = "http://plugin.org.uk/swh-plugins/fastLookaheadLimiter"
        let rig = try LV2UnitRig(component: LV2UnitTestSupport.component(uri), maxFrames: 256)
        var before: Float64 = -1
        var size = UInt32(8)
        XCTAssertEqual(AudioUnitGetProperty(rig.unit, kAudioUnitProperty_Latency, kAudioUnitScope_Global, 0, &before, &size), noErr)
        XCTAssertGreaterThan(before, 0)
        rig.inputs = rig.inputChannels.map { n in (0..<n).map { LV2UnitTestSupport.noise(1024, seed: UInt32(3 + $0)) } }
        _ = rig.render(frames: 1024, block: 256)
        var after: Float64 = -1
        XCTAssertEqual(AudioUnitGetProperty(rig.unit, kAudioUnitProperty_Latency, kAudioUnitScope_Global, 0, &after, &size), noErr)
        XCTAssertEqual(before, after)
    }

    /// swh fastLookaheadLimiter: the Latency property equals the latency port's value in frames
    /// over the sample rate, exactly, and the port is a read-only meter parameter.
    func testLimiterLatencyPropertyEqualsItsLatencyPort() throws {
        let uri = "http://plugin.org.uk/swh-plugins/fastLookaheadLimiter"
        let plugin = try LV2UnitTestSupport.world.plugin(uri: uri)
        let latencyPort = try XCTUnwrap(plugin.ports.first { $0.reportsLatency }).index
        let rig = try LV2UnitRig(component: LV2UnitTestSupport.component(uri), maxFrames: 256)
        rig.inputs = rig.inputChannels.map { n in (0..<n).map { LV2UnitTestSupport.noise(1024, seed: UInt32(3 + $0)) } }
        _ = rig.render(frames: 1024, block: 256)
        let frames = rig.parameter(UInt32(latencyPort))
        XCTAssertGreaterThan(frames, 0)
        var seconds: Float64 = -1
        var size = UInt32(8)
        XCTAssertEqual(AudioUnitGetProperty(rig.unit, kAudioUnitProperty_Latency, kAudioUnitScope_Global, 0, &seconds, &size), noErr)
        XCTAssertEqual(seconds, Double(frames) / 48_000)
        // The same value a direct run reports.
        let direct = try LV2Instance(plugin: plugin, configuration: .init(sampleRate: 48_000, maxBlockLength: 256))
        direct.activate()
        _ = LV2UnitTestSupport.renderDirect(
            direct, inputs: [LV2UnitTestSupport.noise(256, seed: 1), LV2UnitTestSupport.noise(256, seed: 2)],
            frames: 256, block: 256)
        XCTAssertEqual(direct.latencyFrames, frames)
        var info = AudioUnitParameterInfo()
        size = UInt32(MemoryLayout<AudioUnitParameterInfo>.size)
        XCTAssertEqual(
            AudioUnitGetProperty(rig.unit, kAudioUnitProperty_ParameterInfo, kAudioUnitScope_Global, UInt32(latencyPort), &info, &size),
            noErr)
        XCTAssertTrue(info.flags.contains(.flag_MeterReadOnly))
        XCTAssertFalse(info.flags.contains(.flag_IsWritable))
    }
}

/// Mono 32-bit float WAV files, for lv2apply.
enum WAV {
    static func writeFloat(_ samples: [Float], sampleRate: Int, to path: String) throws {
        var data = Data()
        func append<T: FixedWidthInteger>(_ value: T) { withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) } }
        data.append(contentsOf: Array("RIFF".utf8)); append(UInt32(36 + samples.count * 4))
        data.append(contentsOf: Array("WAVEfmt ".utf8)); append(UInt32(16)); append(UInt16(3)); append(UInt16(1))
        append(UInt32(sampleRate)); append(UInt32(sampleRate * 4)); append(UInt16(4)); append(UInt16(32))
        data.append(contentsOf: Array("data".utf8)); append(UInt32(samples.count * 4))
        for sample in samples { append(sample.bitPattern) }
        try data.write(to: URL(fileURLWithPath: path))
    }

    static func readFloat(_ path: String) throws -> [Float] {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        func u32(_ at: Int) -> UInt32 {
            UInt32(bytes[at]) | UInt32(bytes[at + 1]) << 8 | UInt32(bytes[at + 2]) << 16 | UInt32(bytes[at + 3]) << 24
        }
        var offset = 12
        while offset + 8 <= bytes.count {
            let size = Int(u32(offset + 4))
            if String(decoding: bytes[offset..<offset + 4], as: UTF8.self) == "data" {
                return stride(from: offset + 8, to: offset + 8 + size, by: 4).map { Float(bitPattern: u32($0)) }
            }
            offset += 8 + size + (size & 1)
        }
        throw AudioError(kAudio_ParamError, "no data chunk in \(path)")
    }
}

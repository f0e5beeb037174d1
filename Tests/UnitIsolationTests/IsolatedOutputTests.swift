import AUHost
import LV2Units
import UnitIsolation
import XCTest

/// Out of process, a unit's output is the same as in process, sample for sample: the shared block
/// carries the input, the parameter changes (at their offsets) and MIDI exactly.
final class IsolatedOutputTests: XCTestCase {
    /// Deterministic effects of the test LV2_PATH (scripts/test-lv2-path.sh): mda, swh and the
    /// LV2 examples, with a parameter each to change mid-render (nil: none).
    static let effects: [(uri: String, parameterIndex: Int?)] = [
        ("http://lv2plug.in/plugins/eg-amp", 0),
        ("http://drobilla.net/plugins/mda/Ambience", 0),
        ("http://drobilla.net/plugins/mda/Delay", 1),
        ("http://drobilla.net/plugins/mda/Overdrive", 0),
        ("http://drobilla.net/plugins/mda/Combo", 1),
        ("http://drobilla.net/plugins/mda/Leslie", nil),
        ("http://drobilla.net/plugins/mda/RingMod", 0),
        ("http://drobilla.net/plugins/mda/Limiter", 0),
        ("http://plugin.org.uk/swh-plugins/comb", 0),
        ("http://plugin.org.uk/swh-plugins/decimator", 0),
        ("http://plugin.org.uk/swh-plugins/diode", 0),
        ("http://drobilla.net/plugins/mda/Stereo", nil),
    ]
    // Not swh dcRemove: it starts from uninitialized filter state (in process it inherits whatever
    // the heap held, 1e23 at times), so no two instances agree, in process or not.

    /// Latency crosses the process boundary as it is once the child's unit is initialized (an LV2
    /// plug-in knows its latency only then): the proxy said 0 for the limiter, so `render
    /// --isolate` and the Python door left 240 frames uncompensated.
    func testLatencyOutOfProcessEqualsInProcessAfterInitialize() throws {
        let component = try lv2Component("http://plugin.org.uk/swh-plugins/fastLookaheadLimiter")
        var latency: [Float64] = []
        for outOfProcess in [false, true] {
            let rig = try IsolationRig(try instantiate(component, outOfProcess: outOfProcess))
            var seconds: Float64 = -1
            var size = UInt32(8)
            XCTAssertEqual(AudioUnitGetProperty(rig.unit, kAudioUnitProperty_Latency, kAudioUnitScope_Global, 0, &seconds, &size), noErr)
            latency.append(seconds)
        }
        XCTAssertGreaterThan(latency[0], 0)
        XCTAssertEqual(latency[1], latency[0])
    }

    func lv2Component(_ uri: String) throws -> AudioComponent {
        try XCTUnwrap(LV2Provider.component(uri: uri)?.handle, "\(uri) is not on LV2_PATH (run with LV2_PATH=$(scripts/test-lv2-path.sh))")
    }

    /// Renders 24 blocks of 512 frames; at block 8 the chosen parameter moves to the middle of its
    /// range at frame 100 of the block, as a scheduled (offset) change.
    func render(_ component: AudioComponent, outOfProcess: Bool, parameterIndex: Int?) throws -> [[Float]] {
        let rig = try IsolationRig(try instantiate(component, outOfProcess: outOfProcess))
        var parameter: (id: AudioUnitParameterID, value: Float)?
        if let parameterIndex {
            var size: UInt32 = 0
            try AudioError.check(
                AudioUnitGetPropertyInfo(rig.unit, kAudioUnitProperty_ParameterList, kAudioUnitScope_Global, 0, &size, nil), "list")
            var ids = [AudioUnitParameterID](repeating: 0, count: Int(size) / 4)
            try AudioError.check(
                AudioUnitGetProperty(rig.unit, kAudioUnitProperty_ParameterList, kAudioUnitScope_Global, 0, &ids, &size), "list")
            let id = ids[parameterIndex]
            var info = AudioUnitParameterInfo()
            var infoSize = UInt32(MemoryLayout<AudioUnitParameterInfo>.size)
            try AudioError.check(
                AudioUnitGetProperty(rig.unit, kAudioUnitProperty_ParameterInfo, kAudioUnitScope_Global, id, &info, &infoSize), "info")
            info.cfNameString?.release()
            parameter = (id, (info.minValue + info.maxValue) / 2)
        }
        return try rig.render(blocks: 24, frames: 512) { block in
            if block == 8, let parameter {
                XCTAssertEqual(AudioUnitSetParameter(rig.unit, parameter.id, kAudioUnitScope_Global, 0, parameter.value, 100), noErr)
            }
        }
    }

    func testTwelveLV2EffectsRenderBitIdenticalOutOfProcess() throws {
        for (uri, parameterIndex) in Self.effects {
            let component = try lv2Component(uri)
            let inProcess = try render(component, outOfProcess: false, parameterIndex: parameterIndex)
            let isolated = try render(component, outOfProcess: true, parameterIndex: parameterIndex)
            XCTAssertEqual(isolated.count, inProcess.count, uri)
            XCTAssertFalse(inProcess.allSatisfy { $0.allSatisfy { $0 == 0 } }, "\(uri) rendered silence in process")
            for c in inProcess.indices where c < isolated.count {
                let firstDifference = inProcess[c].indices.first {
                    $0 >= isolated[c].count || isolated[c][$0].bitPattern != inProcess[c][$0].bitPattern
                }
                XCTAssertNil(firstDifference, "\(uri) channel \(c) differs out of process from frame \(firstDifference ?? -1)")
            }
        }
    }

    /// A mono plug-in refuses a stereo format when it is set, out of process as in process: a host
    /// negotiating formats (auhost render tries stereo first) hears it then. Before, the proxy took
    /// any format and initialize failed (246 of 590 plug-ins of the large set, render --isolate).
    func testAFormatTheChildRefusesIsRefusedWhenSet() throws {
        let component = try lv2Component("http://lv2plug.in/plugins/eg-amp")
        for outOfProcess in [false, true] {
            let unit = try instantiate(component, outOfProcess: outOfProcess)
            defer { AudioComponentInstanceDispose(unit) }
            for (channels, status) in [(2, kAudioUnitErr_FormatNotSupported), (1, noErr)] {
                var format = AudioStreamBasicDescription.canonical(sampleRate: 48_000, channels: UInt32(channels))
                let set = AudioUnitSetProperty(
                    unit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Input, 0, &format, UInt32(MemoryLayout.size(ofValue: format)))
                XCTAssertEqual(set, status, "\(channels) channel(s), out of process: \(outOfProcess)")
            }
            var mono = AudioStreamBasicDescription.canonical(sampleRate: 48_000, channels: 1)
            XCTAssertEqual(
                AudioUnitSetProperty(
                    unit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Output, 0, &mono, UInt32(MemoryLayout.size(ofValue: mono))),
                noErr)
            XCTAssertEqual(AudioUnitInitialize(unit), noErr, "out of process: \(outOfProcess)")
        }
    }

    /// An instrument gets its MIDI through the block's event list at the same offsets.
    func testInstrumentPlaysTheSameNotesOutOfProcess() throws {
        let component = try lv2Component("http://drobilla.net/plugins/mda/DX10")
        func play(_ outOfProcess: Bool) throws -> [[Float]] {
            let rig = try IsolationRig(try instantiate(component, outOfProcess: outOfProcess))
            return try rig.render(blocks: 16, frames: 512) { block in
                if block == 1 { XCTAssertEqual(MusicDeviceMIDIEvent(rig.unit, 0x90, 60, 100, 37), noErr) }
                if block == 9 { XCTAssertEqual(MusicDeviceMIDIEvent(rig.unit, 0x80, 60, 0, 200), noErr) }
            }
        }
        let inProcess = try play(false), isolated = try play(true)
        XCTAssertTrue(inProcess[0].contains { $0 != 0 }, "the note sounds in process")
        XCTAssertEqual(isolated.count, inProcess.count)
        for c in inProcess.indices where c < isolated.count {
            let differing = zip(isolated[c], inProcess[c]).filter { $0.bitPattern != $1.bitPattern }.count
            XCTAssertEqual(isolated[c].count, inProcess[c].count)
            XCTAssertEqual(differing, 0, "channel \(c): \(differing) samples differ out of process")
        }
    }

    /// A built-in unit: the child finds it in its own registry (built-in units come first, so no
    /// plug-in is read there).
    func testBuiltInDelayRendersBitIdenticalOutOfProcess() throws {
        var desc = AudioComponentDescription(
            type: kAudioUnitType_Effect, subType: kAudioUnitSubType_Delay, manufacturer: kAudioUnitManufacturer_Apple)
        let component = try XCTUnwrap(AudioComponentFindNext(nil, &desc))
        func render(_ outOfProcess: Bool) throws -> [[Float]] {
            let rig = try IsolationRig(try instantiate(component, outOfProcess: outOfProcess))
            return try rig.render(blocks: 20, frames: 512) { block in
                if block == 5 {
                    XCTAssertEqual(AudioUnitSetParameter(rig.unit, kDelayParam_WetDryMix, kAudioUnitScope_Global, 0, 80, 64), noErr)
                }
            }
        }
        let inProcess = try render(false), isolated = try render(true)
        XCTAssertEqual(isolated.count, inProcess.count)
        for c in inProcess.indices where c < isolated.count {
            XCTAssertEqual(isolated[c].count, inProcess[c].count)
            XCTAssertEqual(zip(isolated[c], inProcess[c]).filter { $0.bitPattern != $1.bitPattern }.count, 0, "channel \(c)")
        }
    }

    /// BypassEffect out of process: the input passes sample for sample without the child, a
    /// parameter changed meanwhile reaches the child afterwards, and bypass on and off renders what
    /// the same unit renders in process.
    func testBypassPassesTheInputAndResumesAsInProcess() throws {
        var desc = AudioComponentDescription(
            type: kAudioUnitType_Effect, subType: kAudioUnitSubType_Delay, manufacturer: kAudioUnitManufacturer_Apple)
        let component = try XCTUnwrap(AudioComponentFindNext(nil, &desc))
        func render(_ outOfProcess: Bool) throws -> [[Float]] {
            let rig = try IsolationRig(try instantiate(component, outOfProcess: outOfProcess))
            func bypass(_ on: UInt32) {
                var value = on
                XCTAssertEqual(AudioUnitSetProperty(rig.unit, kAudioUnitProperty_BypassEffect, kAudioUnitScope_Global, 0, &value, 4), noErr)
            }
            return try rig.render(blocks: 12, frames: 512) { block in
                if block == 2 { bypass(1) }
                if block == 4 {
                    XCTAssertEqual(AudioUnitSetParameter(rig.unit, kDelayParam_WetDryMix, kAudioUnitScope_Global, 0, 90, 0), noErr)
                }
                if block == 6 { bypass(0) }
            }
        }
        let inProcess = try render(false), isolated = try render(true)
        for c in inProcess.indices {
            for n in 1_024..<3_072 { XCTAssertEqual(isolated[c][n].bitPattern, testSignal(n, c).bitPattern, "channel \(c) frame \(n)") }
            XCTAssertEqual(zip(isolated[c], inProcess[c]).filter { $0.bitPattern != $1.bitPattern }.count, 0, "channel \(c)")
        }
    }

    /// Factory presets cross the boundary: the proxy lists the unit's, and choosing one applies it
    /// in the child (the built-in iPod EQ, whose presets are curves).
    func testFactoryPresetAppliesOutOfProcess() throws {
        var desc = AudioComponentDescription(
            type: kAudioUnitType_Effect, subType: kAudioUnitSubType_AUiPodEQ, manufacturer: kAudioUnitManufacturer_Apple)
        let component = try XCTUnwrap(AudioComponentFindNext(nil, &desc))
        func render(_ outOfProcess: Bool) throws -> [[Float]] {
            let unit = try instantiate(component, outOfProcess: outOfProcess)
            var array: Unmanaged<CFArray>?
            var size = UInt32(MemoryLayout<UnsafeRawPointer>.size)
            try AudioError.check(
                AudioUnitGetProperty(unit, kAudioUnitProperty_FactoryPresets, kAudioUnitScope_Global, 0, &array, &size), "presets")
            let presets = try XCTUnwrap(array?.takeRetainedValue())
            XCTAssertGreaterThan(CFArrayGetCount(presets), 3)
            var preset = CFArrayGetValueAtIndex(presets, 3)!.assumingMemoryBound(to: AUPreset.self).pointee
            try AudioError.check(
                AudioUnitSetProperty(
                    unit, kAudioUnitProperty_PresentPreset, kAudioUnitScope_Global, 0, &preset, UInt32(MemoryLayout<AUPreset>.size)),
                LastErrorMessage.current ?? "preset")
            return try IsolationRig(unit).render(blocks: 12, frames: 512)
        }
        let inProcess = try render(false), isolated = try render(true)
        XCTAssertEqual(isolated.count, inProcess.count)
        for c in inProcess.indices where c < isolated.count {
            XCTAssertEqual(isolated[c].count, inProcess[c].count)
            XCTAssertEqual(zip(isolated[c], inProcess[c]).filter { $0.bitPattern != $1.bitPattern }.count, 0, "channel \(c)")
        }
        // The preset changed the sound: not the unit's default curve.
        let plain = try IsolationRig(try instantiate(component, outOfProcess: true)).render(blocks: 12, frames: 512)
        XCTAssertNotEqual(plain[0].map(\.bitPattern), isolated[0].map(\.bitPattern), "the preset is heard")
    }

    /// ClassInfo carries the child unit's own state: saved in process, restored out of process
    /// (the iPod EQ's chosen curve lives in its extra state), the isolated unit renders the same
    /// and saves the same state back.
    func testClassInfoMovesBetweenInAndOutOfProcess() throws {
        var desc = AudioComponentDescription(
            type: kAudioUnitType_Effect, subType: kAudioUnitSubType_AUiPodEQ, manufacturer: kAudioUnitManufacturer_Apple)
        let component = try XCTUnwrap(Component.from(AudioComponentFindNext(nil, &desc)))
        let local = try AudioUnitInstance(component, outOfProcess: false)
        var preset = AUPreset(presetNumber: 5, presetName: nil)
        try AudioError.check(
            AudioUnitSetProperty(
                local.handle, kAudioUnitProperty_PresentPreset, kAudioUnitScope_Global, 0, &preset, UInt32(MemoryLayout<AUPreset>.size)),
            LastErrorMessage.current ?? "preset")
        let saved = try local.classInfo()
        XCTAssertNotNil(saved["auhost-state"], "the iPod EQ keeps extra state")
        let remote = try AudioUnitInstance(component, outOfProcess: true)
        try remote.setClassInfo(saved)
        XCTAssertEqual(try remote.classInfo()["auhost-state"], saved["auhost-state"])
        func render(_ unit: AudioUnitInstance) throws -> [[Float]] {
            // The rig disposes its unit: give it its own handle's owner by keeping `unit` alive.
            let rig = try IsolationRig(unit.handle, owned: false)
            return try rig.render(blocks: 12, frames: 512)
        }
        let a = try render(local), b = try render(remote)
        XCTAssertEqual(b.count, a.count)
        for c in a.indices where c < b.count {
            XCTAssertEqual(zip(a[c], b[c]).filter { $0.bitPattern != $1.bitPattern }.count, 0, "channel \(c)")
        }
    }

    /// The render deadline and the spin limit are properties with ranges; a unit that never spins
    /// (limit 0) renders the same.
    func testDeadlineAndSpinLimitProperties() throws {
        let component = try lv2Component("http://lv2plug.in/plugins/eg-amp")
        let unit = try instantiate(component, outOfProcess: true)
        var seconds: Float64 = 0
        var size: UInt32 = 8
        XCTAssertEqual(AudioUnitGetProperty(unit, kAUHostIsolatedUnitProperty_SpinLimit, kAudioUnitScope_Global, 0, &seconds, &size), noErr)
        XCTAssertEqual(seconds, 0.0002, accuracy: 1e-12, "the default")
        for (id, bad) in [
            (kAUHostIsolatedUnitProperty_SpinLimit, 1.0), (kAUHostIsolatedUnitProperty_RenderDeadline, -1),
            (kAUHostIsolatedUnitProperty_RenderDeadline, .nan),
        ] {
            var value: Float64 = bad
            XCTAssertEqual(
                AudioUnitSetProperty(unit, id, kAudioUnitScope_Global, 0, &value, 8), kAudioUnitErr_InvalidPropertyValue, "\(id) = \(bad)")
        }
        var never: Float64 = 0
        XCTAssertEqual(AudioUnitSetProperty(unit, kAUHostIsolatedUnitProperty_SpinLimit, kAudioUnitScope_Global, 0, &never, 8), noErr)
        let rig = try IsolationRig(unit)
        let out = try rig.render(blocks: 4, frames: 512)
        XCTAssertEqual(out[0].indices.filter { out[0][$0] != testSignal($0, 0) }.count, 0, "eg-amp at 0 dB passes its input")
    }

    /// The proxy answers the unit's parameters as the unit does.
    func testParametersAreMirrored() throws {
        for uri in ["http://drobilla.net/plugins/mda/Delay", "http://drobilla.net/plugins/mda/Bandisto"] {
            try assertParametersMirrored(try lv2Component(uri), uri)
        }
    }

    func assertParametersMirrored(_ component: AudioComponent, _ uri: String) throws {
        let local = try instantiate(component, outOfProcess: false)
        let remote = try instantiate(component, outOfProcess: true)
        defer {
            AudioComponentInstanceDispose(local)
            AudioComponentInstanceDispose(remote)
        }
        XCTAssertEqual(AUHostIsolatedUnitIsOutOfProcess(remote), 1)
        XCTAssertEqual(AUHostIsolatedUnitIsOutOfProcess(local), 0)
        func parameters(_ unit: AudioUnit) throws -> [String] {
            var size: UInt32 = 0
            try AudioError.check(
                AudioUnitGetPropertyInfo(unit, kAudioUnitProperty_ParameterList, kAudioUnitScope_Global, 0, &size, nil), "list")
            var ids = [AudioUnitParameterID](repeating: 0, count: Int(size) / 4)
            try AudioError.check(
                AudioUnitGetProperty(unit, kAudioUnitProperty_ParameterList, kAudioUnitScope_Global, 0, &ids, &size), "list")
            return try ids.map { id in
                var info = AudioUnitParameterInfo()
                var infoSize = UInt32(MemoryLayout<AudioUnitParameterInfo>.size)
                try AudioError.check(
                    AudioUnitGetProperty(unit, kAudioUnitProperty_ParameterInfo, kAudioUnitScope_Global, id, &info, &infoSize), "info")
                let name = info.cfNameString.map { CFBridge.value(UnsafeRawPointer($0.toOpaque()))?.stringValue ?? "" } ?? ""
                info.cfNameString?.release()
                var value: Float = 0
                try AudioError.check(AudioUnitGetParameter(unit, id, kAudioUnitScope_Global, 0, &value), "value")
                var strings: [String] = []
                var array: Unmanaged<CFArray>?
                var arraySize = UInt32(MemoryLayout<UnsafeRawPointer>.size)
                if AudioUnitGetProperty(unit, kAudioUnitProperty_ParameterValueStrings, kAudioUnitScope_Global, id, &array, &arraySize)
                    == noErr,
                    let array
                {
                    if case .array(let items)? = CFBridge.value(UnsafeRawPointer(array.toOpaque())) {
                        strings = items.compactMap(\.stringValue)
                    }
                    array.release()
                }
                return "\(id) \(name) \(info.minValue)…\(info.maxValue) default \(info.defaultValue) now \(value) strings \(strings)"
            }
        }
        XCTAssertEqual(try parameters(remote), try parameters(local), uri)
    }
}

import AUHost
import AudioTypes
import Foundation
import LADSPAHost
import LADSPAUnits
import XCTest

/// hexter (DSSI): an instrument ('aumu') whose programs are factory presets; MIDI through
/// MusicDeviceMIDIEvent or a MIDI file through `auhost render --midi` renders what a direct run
/// of the same events through its DSSI descriptor renders (ladspa-reference-host --dssi).
final class DSSIInstrumentTests: XCTestCase {
    static let freshProcess = "AUHOST_DSSI_FRESH_PROCESS"

    func testHexterIsAnInstrumentWithItsProgramsAsPresets() throws {
        let hexter = try LADSPATestSupport.component("hexter")
        XCTAssertEqual(hexter.description.componentType, kAudioUnitType_MusicDevice)
        let plugin = try XCTUnwrap(LADSPAUnitTestAccess.plugin(of: hexter))
        XCTAssertTrue(plugin.isDSSISynth)
        XCTAssertEqual(plugin.programs.count, 128)
        XCTAssertEqual(plugin.programs[0].name, "Elec Piano")
    }

    /// configure() keys (AUHostDSSI.h): hexter's "polyphony" at 1 leaves one voice of a
    /// three-note chord, given before Initialize (to the new instance) or after (at once); a key
    /// it does not know is refused with its own message and not remembered; a LADSPA unit has no
    /// such property.
    func testConfigureKeysReachTheRunningPlugInAndEachNewInstance() throws {
        func set(_ values: [String: String], on unit: AudioUnit) -> OSStatus {
            let dictionary = CFBridge.propertyList(.dictionary(values.mapValues { .string($0) }))
            defer { dictionary.release() }
            var ref: UnsafeRawPointer? = UnsafeRawPointer(dictionary.toOpaque())
            return AudioUnitSetProperty(
                unit, kDSSIUnitProperty_Configure, kAudioUnitScope_Global, 0, &ref, UInt32(MemoryLayout<UnsafeRawPointer>.size))
        }
        func chord(polyphonyOne: (before: Bool, after: Bool)) throws -> [Float] {
            let rig = try LADSPAUnitRig(try LADSPATestSupport.component("hexter"), rate: 48_000, maxFrames: 4096)
            if polyphonyOne.before { XCTAssertEqual(set(["polyphony": "1"], on: rig.unit), noErr) }
            try rig.initialize()
            if polyphonyOne.after { XCTAssertEqual(set(["polyphony": "1"], on: rig.unit), noErr) }
            for note: UInt32 in [60, 64, 67] { XCTAssertEqual(MusicDeviceMIDIEvent(rig.unit, 0x90, note, 100, 0), noErr) }
            return rig.render(frames: 24_000, block: 4096)[0]
        }
        func energy(_ x: [Float]) -> Float { x.reduce(0) { $0 + $1 * $1 } }
        let full = energy(try chord(polyphonyOne: (false, false)))
        XCTAssertGreaterThan(full, 1, "hexter played the chord")
        for when in [(true, false), (false, true)] {
            let single = energy(try chord(polyphonyOne: when))
            XCTAssertGreaterThan(single, 0.1, "hexter played")
            XCTAssertLessThan(single, full / 2, "one voice of three (polyphony 1 \(when.0 ? "before" : "after") Initialize)")
        }

        let rig = try LADSPAUnitRig(try LADSPATestSupport.component("hexter"), rate: 48_000, maxFrames: 4096)
        try rig.initialize()
        XCTAssertEqual(set(["polyphony": "1"], on: rig.unit), noErr)
        XCTAssertEqual(set(["no such key": "1"], on: rig.unit), kAudioUnitErr_InvalidPropertyValue)
        let message = String(cfString: AUHostCopyLastErrorMessage()?.takeRetainedValue()) ?? ""
        XCTAssertTrue(message.contains("unrecognized configure key"), message)
        var ref: UnsafeRawPointer?
        var size = UInt32(MemoryLayout<UnsafeRawPointer>.size)
        XCTAssertEqual(AudioUnitGetProperty(rig.unit, kDSSIUnitProperty_Configure, kAudioUnitScope_Global, 0, &ref, &size), noErr)
        XCTAssertEqual(CFBridge.value(ref), .dictionary(["polyphony": .string("1")]))
        if let ref { Unmanaged<AnyObject>.fromOpaque(ref).release() }

        let hpf = try LADSPAUnitRig(try LADSPATestSupport.component("hpf"), rate: 48_000, maxFrames: 256)
        let status = AudioUnitGetPropertyInfo(hpf.unit, kDSSIUnitProperty_Configure, kAudioUnitScope_Global, 0, nil, nil)
        XCTAssertEqual(status, kAudioUnitErr_InvalidProperty)
    }

    /// hexter's voices come from malloc and a note-on does not set every field they hold (with a
    /// program's oscillator key sync off, not even the oscillators' phases), so what it plays depends
    /// on what that memory held before: its direct run changes with glibc's fill of new allocations
    /// (MALLOC_PERTURB_, testHexterReadsMemoryItNeverSet). Comparisons run both hosts, each a fresh
    /// process, with the same fill: zeros, glibc's per-thread cache (which it does not fill) off.
    static let sameHeap = ["GLIBC_TUNABLES": "glibc.malloc.tcache_count=0", "MALLOC_PERTURB_": "255"]

    /// (frame at 48 kHz, status, data1, data2) of `notes.mid` below: three notes, a note-off and a
    /// note-on sharing a frame.
    let events: [(Int, UInt8, UInt8, UInt8)] = [
        (0, 0x90, 60, 100), (24_000, 0x80, 60, 0), (24_000, 0x90, 64, 90), (48_000, 0x80, 64, 0), (48_000, 0x90, 67, 80),
        (70_000, 0x80, 67, 0),
    ]

    /// MIDI through MusicDeviceMIDIEvent, with no program chosen and with program 3 chosen as a
    /// preset: every frame bit-identical to the direct run of the same events.
    func testMIDIEqualsADirectRunOfTheDescriptorWithAndWithoutAProgram() throws {
        if ProcessInfo.processInfo.environment[Self.freshProcess] == nil {
            let name = "LADSPAUnitsTests.DSSIInstrumentTests/testMIDIEqualsADirectRunOfTheDescriptorWithAndWithoutAProgram"
            let child = LADSPATestSupport.run(
                CommandLine.arguments[0], [name], environment: Self.sameHeap.merging([Self.freshProcess: "1"]) { $1 })
            XCTAssertEqual(child.status, 0, child.output)
            XCTAssertTrue(child.output.contains("Executed 1 test, with 0 failures"), child.output)
            return
        }
        var renders: [Int: [Float]] = [:]
        for program in [-1, 3] {
            let hexter = try LADSPATestSupport.component("hexter")
            let rig = try LADSPAUnitRig(hexter, rate: 48_000, maxFrames: 4096)
            if program >= 0 {
                var preset = AUPreset(presetNumber: Int32(program), presetName: nil)
                XCTAssertEqual(
                    AudioUnitSetProperty(
                        rig.unit, kAudioUnitProperty_PresentPreset, kAudioUnitScope_Global, 0, &preset, UInt32(MemoryLayout<AUPreset>.size)),
                    noErr)
            }
            try rig.initialize()
            let frames = 96_000, block = 4096
            var output: [Float] = []
            var next = 0
            for start in stride(from: 0, to: frames, by: block) {
                let n = min(block, frames - start)
                while next < events.count && events[next].0 < start + n {
                    let e = events[next]
                    XCTAssertEqual(MusicDeviceMIDIEvent(rig.unit, UInt32(e.1), UInt32(e.2), UInt32(e.3), UInt32(e.0 - start)), noErr)
                    next += 1
                }
                output += rig.render(frames: n, block: n)[0]
            }
            let controls = try hexterControls(rig)
            let reference = try directRun(program: program, frames: frames, controls: controls, name: "api")
            XCTAssertEqual(output.count, reference.count)
            XCTAssertGreaterThan(output.map(abs).max() ?? 0, 0.05, "hexter played")
            let first = zip(output, reference).enumerated().first { $0.element.0.bitPattern != $0.element.1.bitPattern }?.offset
            XCTAssertNil(first, "program \(program): first difference at frame \(first ?? -1); controls \(controls)")
            renders[program] = output
        }
        XCTAssertNotEqual(renders[3], renders[-1], "program 3 sounds unlike the default program")
    }

    /// `auhost render --midi notes.mid --preset 3 hexter`: a Standard MIDI File played by the
    /// MusicPlayer into hexter with its program chosen as a preset equals the direct run of the same
    /// events through its descriptor, every frame.
    func testAMIDIFileRenderedWithAProgramEqualsADirectRun() throws {
        let folder = LADSPATestSupport.scratch + "/midi-file"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try Self.standardMIDIFile(events).write(to: URL(fileURLWithPath: folder + "/notes.mid"))
        let environment = LADSPATestSupport.cliEnvironment.merging(Self.sameHeap) { $1 }
        let arguments = [
            "render", "--midi", folder + "/notes.mid", "--preset", "3", "--rate", "48000", "--block", "4096", "--tail", "0.5",
            "-o", folder + "/out.wav", "hexter",
        ]
        let result = LADSPATestSupport.run(LADSPATestSupport.products + "/auhost", arguments, environment: environment)
        XCTAssertEqual(result.status, 0, result.output)
        let output = try Self.floatWAVSamples(folder + "/out.wav")
        XCTAssertEqual(output.count, 94_000, "1.458 s of notes and 0.5 s of tail at 48 kHz")
        let rig = try LADSPAUnitRig(try LADSPATestSupport.component("hexter"), rate: 48_000, maxFrames: 4096)
        let reference = try directRun(program: 3, frames: output.count, controls: try hexterControls(rig), name: "file")
        let first = zip(output, reference).enumerated().first { $0.element.0.bitPattern != $0.element.1.bitPattern }?.offset
        XCTAssertNil(first, "first difference at frame \(first ?? -1)")
        XCTAssertGreaterThan(output.map(abs).max() ?? 0, 0.05, "hexter played")
    }

    /// kDSSIUnitProperty_Program from a careless caller: a short value, numbers past 65535 and
    /// a read before any set are refused with their status codes, and nothing is remembered; a
    /// LADSPA unit has no such property.
    func testProgramPropertyRefusesWhatItCannotTake() throws {
        let rig = try LADSPAUnitRig(try LADSPATestSupport.component("hexter"), rate: 48_000, maxFrames: 4096)
        let full = UInt32(MemoryLayout<DSSIUnitProgram>.size)
        var program = DSSIUnitProgram(bank: 0, program: 3)
        var size = full
        XCTAssertEqual(
            AudioUnitGetProperty(rig.unit, kDSSIUnitProperty_Program, kAudioUnitScope_Global, 0, &program, &size),
            kAudioUnitErr_PropertyNotInUse)
        XCTAssertEqual(
            AudioUnitSetProperty(rig.unit, kDSSIUnitProperty_Program, kAudioUnitScope_Global, 0, &program, full - 1),
            kAudioUnitErr_InvalidPropertyValue)
        for (bank, number) in [(UInt32(70_000), UInt32(0)), (0, UInt32.max)] {
            var wide = DSSIUnitProgram(bank: bank, program: number)
            XCTAssertEqual(
                AudioUnitSetProperty(rig.unit, kDSSIUnitProperty_Program, kAudioUnitScope_Global, 0, &wide, full),
                kAudioUnitErr_InvalidPropertyValue)
        }
        XCTAssertEqual(
            AudioUnitGetProperty(rig.unit, kDSSIUnitProperty_Program, kAudioUnitScope_Global, 0, &program, &size),
            kAudioUnitErr_PropertyNotInUse, "a refused value is not remembered")
        let hpf = try LADSPAUnitRig(try LADSPATestSupport.component("hpf"), rate: 48_000, maxFrames: 256)
        XCTAssertEqual(
            AudioUnitSetProperty(hpf.unit, kDSSIUnitProperty_Program, kAudioUnitScope_Global, 0, &program, full),
            kAudioUnitErr_InvalidProperty)
    }

    /// A graph file of LADSPA and DSSI nodes (`auhost run`): the MIDI file into hexter with program
    /// 3, through CMT's amp at 0.5, is the direct run halved, every frame (halving is exact).
    func testAGraphFileOfDSSIAndLADSPANodesRendersTheDirectRunHalved() throws {
        let folder = LADSPATestSupport.scratch + "/graph"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try Self.standardMIDIFile(events).write(to: URL(fileURLWithPath: folder + "/notes.mid"))
        let graph = """
            {"sampleRate": 48000, "channels": 1, "block": 4096, "midi": {"file": "notes.mid", "node": "synth"},
             "nodes": [{"name": "synth", "unit": "hexter", "preset": "3"},
                       {"name": "half", "unit": "amp_mono", "parameters": {"0": 0.5}}],
             "connections": [{"from": "synth", "to": "half"}, {"from": "half", "to": "output"}],
             "output": {"file": "out.wav"}}
            """
        try graph.write(toFile: folder + "/graph.json", atomically: true, encoding: .utf8)
        let environment = LADSPATestSupport.cliEnvironment.merging(Self.sameHeap) { $1 }
        let auhost = LADSPATestSupport.products + "/auhost"
        let result = LADSPATestSupport.run(auhost, ["run", folder + "/graph.json"], environment: environment)
        XCTAssertEqual(result.status, 0, result.output)
        let output = try Self.floatWAVSamples(folder + "/out.wav")
        XCTAssertEqual(output.count, 70_000, "the MIDI file's 1.458 s")
        let rig = try LADSPAUnitRig(try LADSPATestSupport.component("hexter"), rate: 48_000, maxFrames: 4096)
        let reference = try directRun(program: 3, frames: output.count, controls: try hexterControls(rig), name: "graph")
        let first = zip(output, reference).enumerated().first { $0.element.0 != $0.element.1 * 0.5 }?.offset
        XCTAssertNil(first, "first difference at frame \(first ?? -1)")
        XCTAssertGreaterThan(output.map(abs).max() ?? 0, 0.02, "hexter played through the amp")
    }

    /// Why the comparisons fill the heap alike: the direct run of the same events, no program
    /// chosen, plays differently when new allocations hold other bytes.
    func testHexterReadsMemoryItNeverSet() throws {
        let rig = try LADSPAUnitRig(try LADSPATestSupport.component("hexter"), rate: 48_000, maxFrames: 4096)
        let controls = try hexterControls(rig)
        let zeros = try directRun(program: -1, frames: 96_000, controls: controls, name: "zeros")
        let other = try directRun(program: -1, frames: 96_000, controls: controls, name: "0x42", perturb: "189")
        XCTAssertEqual(zeros.count, other.count)
        XCTAssertNotEqual(zeros, other)
    }

    /// The unit's control values (tuning, volume) as the direct run's arguments.
    private func hexterControls(_ rig: LADSPAUnitRig) throws -> [String] {
        let plugin = try XCTUnwrap(LADSPAUnitTestAccess.plugin(of: try LADSPATestSupport.component("hexter")))
        return plugin.controlInputs.map { String(format: "%.9g", Double(rig.parameter(AudioUnitParameterID($0)))) }
    }

    /// `events` through hexter's DSSI descriptor by `ladspa-reference-host --dssi` in blocks of
    /// 4096, with the heap filled as `sameHeap` fills it (or with the complement of `perturb`).
    private func directRun(program: Int, frames: Int, controls: [String], name: String, perturb: String = "255") throws -> [Float] {
        let plugin = try XCTUnwrap(LADSPAUnitTestAccess.plugin(of: try LADSPATestSupport.component("hexter")))
        let eventsFile = LADSPATestSupport.scratch + "/hexter-events.txt"
        try events.map { "\($0.0) \($0.1) \($0.2) \($0.3)\n" }.joined().write(toFile: eventsFile, atomically: true, encoding: .utf8)
        let outFile = LADSPATestSupport.scratch + "/hexter-\(name)-\(program).raw"
        let result = LADSPATestSupport.run(
            LADSPATestSupport.products + "/ladspa-reference-host",
            ["--dssi", plugin.library, "hexter", "48000", "4096", String(frames), eventsFile, outFile, String(program)] + controls,
            environment: Self.sameHeap.merging(["MALLOC_PERTURB_": perturb]) { $1 })
        XCTAssertEqual(result.status, 0, result.output)
        return try Data(contentsOf: URL(fileURLWithPath: outFile)).withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
    }

    /// A format-0 Standard MIDI File of `events` at 480 ticks a quarter and the default 120 bpm:
    /// 50 frames a tick at 48 kHz.
    static func standardMIDIFile(_ events: [(Int, UInt8, UInt8, UInt8)]) -> Data {
        func quantity(_ n: Int) -> [UInt8] {
            var bytes = [UInt8(n & 0x7F)], rest = n >> 7
            while rest > 0 { bytes.insert(UInt8(rest & 0x7F) | 0x80, at: 0); rest >>= 7 }
            return bytes
        }
        var track: [UInt8] = [], last = 0
        for (frame, status, data1, data2) in events {
            track += quantity(frame / 50 - last) + [status, data1, data2]
            last = frame / 50
        }
        track += [0x00, 0xFF, 0x2F, 0x00]
        func be32(_ n: Int) -> [UInt8] { [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: n >> $0) } }
        return Data(Array("MThd".utf8) + be32(6) + [0, 0, 0, 1, 0x01, 0xE0] + Array("MTrk".utf8) + be32(track.count) + track)
    }

    /// The samples of a mono 32-bit float WAV file.
    static func floatWAVSamples(_ path: String) throws -> [Float] {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        func le32(_ at: Int) -> Int { (0..<4).reduce(0) { $0 | Int(bytes[at + $1]) << (8 * $1) } }
        var at = 12
        while at + 8 <= bytes.count {
            let size = le32(at + 4)
            if bytes[at..<at + 4].elementsEqual("data".utf8) {
                return stride(from: at + 8, to: at + 8 + size, by: 4).map { Float(bitPattern: UInt32(le32($0))) }
            }
            at += 8 + size + (size & 1)
        }
        throw AudioError(kAudioFileInvalidFileError, "\(path) has no data chunk")
    }
}

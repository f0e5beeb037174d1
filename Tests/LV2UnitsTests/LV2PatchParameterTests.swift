import Foundation
import LV2Host
import LV2Units
import TestSupport
import XCTest

/// Settings an LV2 plug-in takes through patch:Set (patch:writable), on eg-sampler (lv2-examples):
/// its sample by path (kLV2UnitProperty_PatchText) and its gain as a parameter
/// (kLV2UnitPatchParameterBase). A note then plays exactly the file's samples times the gain.
final class LV2PatchParameterTests: XCTestCase {
    let sampler = "http://lv2plug.in/plugins/eg-sampler"
    let ramp = (0..<300).map { Float($0 + 1) / 1_024 }

    /// A mono 32-bit float WAV file of `samples` at 48 kHz.
    func writeWAV(_ samples: [Float], to path: String) throws {
        var data = Data()
        func append<T>(_ value: T) { withUnsafeBytes(of: value) { data.append(contentsOf: $0) } }
        data.append(contentsOf: Array("RIFF".utf8)); append(UInt32(36 + samples.count * 4))
        data.append(contentsOf: Array("WAVEfmt ".utf8)); append(UInt32(16)); append(UInt16(3)); append(UInt16(1))
        append(UInt32(48_000)); append(UInt32(48_000 * 4)); append(UInt16(4)); append(UInt16(32))
        data.append(contentsOf: Array("data".utf8)); append(UInt32(samples.count * 4))
        samples.forEach { append($0.bitPattern) }
        try data.write(to: URL(fileURLWithPath: path))
    }

    func setText(_ values: [String: PropertyListValue], on unit: AudioUnit) -> OSStatus {
        let dictionary = CFBridge.propertyList(.dictionary(values))
        defer { dictionary.release() }
        var ref: UnsafeRawPointer? = UnsafeRawPointer(dictionary.toOpaque())
        return AudioUnitSetProperty(
            unit, kLV2UnitProperty_PatchText, kAudioUnitScope_Global, 0, &ref, UInt32(MemoryLayout<UnsafeRawPointer>.size))
    }

    /// Renders a block (the patch messages go, the worker loads the sample), then a note at
    /// frame 100 of the next call; returns the 1,024 frames after the first block.
    func playNote(_ rig: LV2UnitRig) -> [Float] {
        _ = rig.render(frames: 512, block: 512)
        XCTAssertEqual(MusicDeviceMIDIEvent(rig.unit, 0x90, 60, 100, 100), noErr)
        return rig.render(frames: 1_024, block: 512)[0][0]
    }

    func testTheSampleGoesByPathAndTheGainAsAParameter() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("patch-\(getpid())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("ramp.wav").path
        try writeWAV(ramp, to: file)
        let rig = try LV2UnitRig(component: LV2UnitTestSupport.component(sampler), maxFrames: 512)

        var info = AudioUnitParameterInfo()
        var size = UInt32(MemoryLayout<AudioUnitParameterInfo>.size)
        XCTAssertEqual(
            AudioUnitGetProperty(
                rig.unit, kAudioUnitProperty_ParameterInfo, kAudioUnitScope_Global, kLV2UnitPatchParameterBase, &info, &size),
            noErr)
        XCTAssertEqual([info.minValue, info.maxValue, info.defaultValue], [-20, 20, 0], "param:gain's range from parameters.lv2")
        XCTAssertEqual(info.unit, kAudioUnitParameterUnit_Decibels)

        XCTAssertEqual(setText(["sample": .string(file)], on: rig.unit), noErr)
        XCTAssertEqual(AudioUnitSetParameter(rig.unit, kLV2UnitPatchParameterBase, kAudioUnitScope_Global, 0, -6, 0), noErr)
        let out = playNote(rig)
        let gain = powf(10, -6 * 0.05)
        // eg-sampler's render loop breaks at the sample's end before it advances, so its silence
        // loop overwrites the last sample (sampler.c, render()): 299 of the 300 frames sound.
        let expected = [Float](repeating: 0, count: 100) + ramp.dropLast().map { $0 * gain } + [Float](repeating: 0, count: 1_024 - 399)
        XCTAssertEqual(out.map(\.bitPattern), expected.map(\.bitPattern), "the note plays the file times -6 dB")
        XCTAssertEqual(rig.parameter(kLV2UnitPatchParameterBase), -6, "the plug-in's answer to patch:Get did not undo the value sent")

        // State saved with ClassInfo and restored into a new unit renders the same.
        var classInfo: Unmanaged<CFPropertyList>?
        var classSize = UInt32(MemoryLayout<Unmanaged<CFPropertyList>?>.size)
        XCTAssertEqual(
            AudioUnitGetProperty(rig.unit, kAudioUnitProperty_ClassInfo, kAudioUnitScope_Global, 0, &classInfo, &classSize), noErr)
        let restored = try LV2UnitRig(component: LV2UnitTestSupport.component(sampler), maxFrames: 512)
        XCTAssertEqual(
            AudioUnitSetProperty(restored.unit, kAudioUnitProperty_ClassInfo, kAudioUnitScope_Global, 0, &classInfo, classSize), noErr)
        classInfo?.release()
        XCTAssertEqual(playNote(restored).map(\.bitPattern), expected.map(\.bitPattern), "restored state plays the same")
    }

    func readText(_ unit: AudioUnit) throws -> PropertyListValue? {
        var value: UnsafeRawPointer?
        var size = UInt32(MemoryLayout<UnsafeRawPointer>.size)
        XCTAssertEqual(AudioUnitGetProperty(unit, kLV2UnitProperty_PatchText, kAudioUnitScope_Global, 0, &value, &size), noErr)
        defer { value.map { Unmanaged<AnyObject>.fromOpaque($0).release() } }
        return CFBridge.value(value)
    }

    /// What the plug-in reports is read back: asked with patch:Get at its first run, eg-sampler
    /// answers with the sample it loaded at instantiation (its bundle's click.wav), which nobody
    /// set here; after the host sets another file, the plug-in's report of it is what reads back.
    func testThePluginsReportedValuesAreReadBack() throws {
        let rig = try LV2UnitRig(component: LV2UnitTestSupport.component(sampler), maxFrames: 512)
        XCTAssertEqual(try readText(rig.unit), .dictionary([:]), "nothing set, nothing run: nothing known yet")
        _ = rig.render(frames: 1_024, block: 512)
        let plugin = try LV2UnitTestSupport.world.plugin(uri: sampler)
        let bundle = try XCTUnwrap(plugin.binaryPath.map { ($0 as NSString).deletingLastPathComponent })
        XCTAssertEqual(try readText(rig.unit), .dictionary([sampler + "#sample": .string(bundle + "/click.wav")]))

        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("patch-readback-\(getpid())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("ramp.wav").path
        try writeWAV(ramp, to: file)
        XCTAssertEqual(setText(["sample": .string(file)], on: rig.unit), noErr)
        _ = rig.render(frames: 1_024, block: 512)
        XCTAssertEqual(try readText(rig.unit), .dictionary([sampler + "#sample": .string(file)]))
    }

    /// The fixture patch-reporter (Tests/LV2HostTests/Fixtures/patch_reporter.c) answers patch:Get
    /// with one patch:Put of its file, level and read-only status, reports its read-only peak every
    /// run, and in its third run turns its level to 0.25 by itself and says so: the file nobody set
    /// and the status read back from the Put, the peak is a read-only parameter, and the level it
    /// chose is the parameter's value and what it renders with, not overwritten by the host.
    func testAPutAnswerAndTheUnitsOwnChangeAreReadBack() throws {
        let component = try XCTUnwrap(LV2UnitTestSupport.fixtures.component(uri: "urn:auhost:fixture:patch-reporter"))
        let rig = try LV2UnitRig(component: component, maxFrames: 256)
        rig.inputs = [[[Float](repeating: 0.75, count: 1_024)]]
        XCTAssertEqual(rig.render(frames: 256, block: 256)[0][0].last, 0.375, "run 1 at the default level 0.5")
        let prefix = "urn:auhost:fixture:patch-reporter#"
        XCTAssertEqual(
            try readText(rig.unit), .dictionary([prefix + "file": .string("/fixture/default.wav"), prefix + "status": .string("ready")]))
        XCTAssertEqual(rig.parameter(kLV2UnitPatchParameterBase), 0.5)
        XCTAssertEqual(rig.parameter(kLV2UnitPatchParameterBase + 1), 0.75, "the peak of an input of 0.75")
        var info = AudioUnitParameterInfo()
        var size = UInt32(MemoryLayout<AudioUnitParameterInfo>.size)
        XCTAssertEqual(
            AudioUnitGetProperty(
                rig.unit, kAudioUnitProperty_ParameterInfo, kAudioUnitScope_Global, kLV2UnitPatchParameterBase + 1, &info, &size),
            noErr)
        XCTAssertFalse(info.flags.contains(.flag_IsWritable), "patch:readable only: a read-only parameter")
        XCTAssertEqual(setText(["status": .string("busy")], on: rig.unit), kAudioUnitErr_InvalidPropertyValue)
        _ = rig.render(frames: 512, block: 256)  // runs 2 and 3: the level becomes 0.25
        XCTAssertEqual(rig.parameter(kLV2UnitPatchParameterBase), 0.25, "the level the plug-in reported")
        XCTAssertEqual(rig.render(frames: 256, block: 256)[0][0].last, 0.1875, "run 4 still at 0.25: not set back to 0.5")
    }

    /// patch-garbage writes replies whose sizes lie (a sequence longer than its buffer, a
    /// patch:body claiming a million bytes inside a 40-byte object, with a level of 0.9 planted
    /// just past the object): the unit reads nothing past them, renders exactly, and takes in no
    /// value.
    func testRepliesWhoseSizesLieAreNotReadPast() throws {
        let component = try XCTUnwrap(LV2UnitTestSupport.fixtures.component(uri: "urn:auhost:fixture:patch-garbage"))
        let rig = try LV2UnitRig(component: component, maxFrames: 256)
        rig.inputs = [[[Float](repeating: 0.75, count: 1_024)]]
        XCTAssertEqual(rig.render(frames: 1_024, block: 256)[0][0], [Float](repeating: 0.375, count: 1_024))
        XCTAssertEqual(try readText(rig.unit), .dictionary([:]))
        XCTAssertEqual(rig.parameter(kLV2UnitPatchParameterBase), 0.5)
    }

    func testUnknownNamesAndNonStringValuesAreRefusedNamingThem() throws {
        let rig = try LV2UnitRig(component: LV2UnitTestSupport.component(sampler), maxFrames: 512)
        XCTAssertEqual(setText(["impulse": .string("/tmp/x.wav")], on: rig.unit), kAudioUnitErr_InvalidPropertyValue)
        let message = String(cfString: AUHostCopyLastErrorMessage()?.takeRetainedValue()) ?? ""
        XCTAssertTrue(message.contains("\"impulse\"") && message.contains("eg-sampler#sample"), message)
        XCTAssertEqual(setText(["sample": .integer(3)], on: rig.unit), kAudioUnitErr_InvalidPropertyValue)
        XCTAssertEqual(setText(["sample": .string("relative.wav")], on: rig.unit), noErr)
        var value: UnsafeRawPointer?
        var size = UInt32(MemoryLayout<UnsafeRawPointer>.size)
        XCTAssertEqual(AudioUnitGetProperty(rig.unit, kLV2UnitProperty_PatchText, kAudioUnitScope_Global, 0, &value, &size), noErr)
        let read = CFBridge.value(value)
        Unmanaged<AnyObject>.fromOpaque(value!).release()
        XCTAssertEqual(
            read, .dictionary([sampler + "#sample": .string(FileManager.default.currentDirectoryPath + "/relative.wav")]),
            "a relative path is made absolute")
    }
}

import AUHost
import Foundation
import XCTest

/// The author's path, automated: copy SDK/Templates/EffectUnit to a temporary folder, rename the
/// unit, build it as a separate package against the SDK with its Makefile, then in separate host
/// processes list it by triple (`auhost list`), render a file through it (`auhost render`), and
/// validate and render it through the C API (a child run of this test binary; $AUHOST_PLUGIN_PATH).
final class PlugInTemplateTests: XCTestCase {
    static let childVariable = "AUHOST_TEMPLATE_CHILD"
    static let testName = "PlugInLoaderTests.PlugInTemplateTests/testTemplateCopiedRenamedBuiltIsFoundValidatedAndRendered"

    func testTemplateCopiedRenamedBuiltIsFoundValidatedAndRendered() throws {
        // Step 6 runs this binary again for this test alone with the variable set: that child does
        // only step 6. (A separate child test method was reported as skipped in every normal run.)
        if ProcessInfo.processInfo.environment[Self.childVariable] == "1" { return try childValidatesAndRendersTheBuiltTemplate() }
        let fm = FileManager.default
        let folder = fm.temporaryDirectory.appendingPathComponent("auhost-template-\(getpid())/Brightener")
        try? fm.removeItem(at: folder.deletingLastPathComponent())
        try fm.createDirectory(at: folder.deletingLastPathComponent(), withIntermediateDirectories: true)
        // 1. Copy (without any build folder).
        let template = checkoutRoot.appendingPathComponent("SDK/Templates/EffectUnit")
        try fm.createDirectory(at: folder, withIntermediateDirectories: true)
        for item in ["Package.swift", "Makefile", "Sources"] {
            try fm.copyItem(at: template.appendingPathComponent(item), to: folder.appendingPathComponent(item))
        }
        // 2. Rename as README.md says: the name in file names and contents, and the four-char codes.
        let sources = folder.appendingPathComponent("Sources")
        try fm.moveItem(at: sources.appendingPathComponent("MyEffect"), to: sources.appendingPathComponent("Brightener"))
        for name in ["MyEffect.swift", "MyEffect.auplugin.json"] {
            try fm.moveItem(
                at: sources.appendingPathComponent("Brightener/\(name)"),
                to: sources.appendingPathComponent("Brightener/\(name.replacingOccurrences(of: "MyEffect", with: "Brightener"))"))
        }
        for file in ["Package.swift", "Makefile", "Sources/Brightener/Brightener.swift", "Sources/Brightener/Brightener.auplugin.json"] {
            let url = folder.appendingPathComponent(file)
            let text = try String(contentsOf: url, encoding: .utf8)
                .replacingOccurrences(of: "MyEffect", with: "Brightener")
                .replacingOccurrences(of: "\"myfx\"", with: "\"brit\"")
                .replacingOccurrences(of: "\"Demo\"", with: "\"Tmpl\"")
                .replacingOccurrences(of: "Demo: Brightener", with: "Template Test: Brightener")
            try text.write(to: url, atomically: true, encoding: .utf8)
        }
        // 3. Build it as its own package, against the SDK of this checkout.
        let sdk = checkoutRoot.appendingPathComponent("SDK").path
        let build = try runCommand("/usr/bin/make", ["-C", folder.path], environment: ["AUHOST_SDK": sdk])
        XCTAssertEqual(build.status, 0, build.output)
        guard build.status == 0 else { return }
        let binFolder = try XCTUnwrap(build.output.split(separator: "\n").last { $0.hasPrefix("built ") })
            .dropFirst("built ".count)
        let pluginFolder = URL(fileURLWithPath: String(binFolder)).deletingLastPathComponent().path
        XCTAssertTrue(fm.fileExists(atPath: pluginFolder + "/Brightener.auplugin.json"))

        // 4. A host process lists it by triple.
        let auhost = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("auhost").path
        XCTAssertTrue(fm.isExecutableFile(atPath: auhost), "the auhost tool is built beside the tests (\(auhost))")
        let list = try runCommand(auhost, ["list", "aufx", "brit", "Tmpl"], environment: ["AUHOST_PLUGIN_PATH": pluginFolder])
        XCTAssertEqual(list.status, 0, list.output)
        XCTAssertTrue(list.output.contains("aufx brit Tmpl") && list.output.contains("Template Test: Brightener"), list.output)

        // 5. The host renders a file through it.
        let input: [[Float]] = [(0..<4410).map { Float($0 % 100) / 100 }, (0..<4410).map { -Float($0 % 50) / 50 }]
        let inURL = folder.appendingPathComponent("in.wav"), outURL = folder.appendingPathComponent("out.wav")
        try FloatWAV.write(input, sampleRate: 44_100, to: inURL)
        let render = try runCommand(
            auhost,
            [
                "render", "-i", inURL.path, "-o", outURL.path, "aufx brit Tmpl",
                "-p", "Level=-6.0206", "-p", "Invert=1",
            ],
            environment: ["AUHOST_PLUGIN_PATH": pluginFolder])
        XCTAssertEqual(render.status, 0, render.output)
        let rendered = try FloatWAV.read(outURL, channels: 2)
        XCTAssertEqual(rendered.map(\.count), [4410, 4410])
        for c in 0..<2 {
            for i in stride(from: 0, to: 4410, by: 7) { XCTAssertEqual(rendered[c][i], -0.5 * input[c][i], accuracy: 1e-4) }
        }

        // 6. Another host process finds it by triple, validates it and renders through it.
        let child = try runCommand(
            CommandLine.arguments[0], [Self.testName],
            environment: ["AUHOST_PLUGIN_PATH": pluginFolder, Self.childVariable: "1"])
        XCTAssertEqual(child.status, 0, child.output)
        XCTAssertTrue(child.output.contains("Executed 1 test, with 0 failures"), child.output)
    }

    /// Step 6, in the child process: finds the built unit by triple, validates it and renders
    /// through it with the C API.
    private func childValidatesAndRendersTheBuiltTemplate() throws {
        var desc = AudioComponentDescription("aufx", "brit", "Tmpl")!
        let component = try XCTUnwrap(AudioComponentFindNext(nil, &desc), "found by triple on $AUHOST_PLUGIN_PATH")
        try validate(component)
        // Render: level −6.0206 dB halves, Invert flips.
        let input: [[Float]] = [(0..<1000).map { Float($0) / 1000 }, (0..<1000).map { -Float($0) / 1000 }]
        let h = try EffectHarness(component, input: input)
        try h.set(0, -6.020_6)
        try h.set(1, 1)
        let out = try h.render(1000, slice: 333)
        for c in 0..<2 {
            for i in 0..<1000 { XCTAssertEqual(out[c][i], -0.5 * input[c][i], accuracy: 1e-4) }
        }
    }

    /// The checks a validator makes through the C API: identity, parameters, formats, lifecycle,
    /// render of silence, state round trip, reset, bad calls refused.
    private func validate(_ component: AudioComponent) throws {
        var description = AudioComponentDescription()
        XCTAssertEqual(AudioComponentGetDescription(component, &description), noErr)
        XCTAssertEqual(description.tripleString, "aufx brit Tmpl")
        var unit: AudioUnit?
        XCTAssertEqual(AudioComponentInstanceNew(component, &unit), noErr, lastErrorMessage())
        let u = try XCTUnwrap(unit)
        defer { AudioComponentInstanceDispose(u) }
        var size: UInt32 = 0
        var writable: UInt8 = 0
        XCTAssertEqual(AudioUnitGetPropertyInfo(u, kAudioUnitProperty_ParameterList, kAudioUnitScope_Global, 0, &size, &writable), noErr)
        var ids = [AudioUnitParameterID](repeating: 99, count: Int(size) / 4)
        XCTAssertEqual(AudioUnitGetProperty(u, kAudioUnitProperty_ParameterList, kAudioUnitScope_Global, 0, &ids, &size), noErr)
        XCTAssertEqual(ids, [0, 1])
        for id in ids {
            var info = AudioUnitParameterInfo()
            var infoSize = UInt32(MemoryLayout<AudioUnitParameterInfo>.size)
            XCTAssertEqual(AudioUnitGetProperty(u, kAudioUnitProperty_ParameterInfo, kAudioUnitScope_Global, id, &info, &infoSize), noErr)
            XCTAssertLessThanOrEqual(info.minValue, info.defaultValue)
            XCTAssertLessThanOrEqual(info.defaultValue, info.maxValue)
            var value: Float = .nan
            XCTAssertEqual(AudioUnitGetParameter(u, id, kAudioUnitScope_Global, 0, &value), noErr)
            XCTAssertEqual(value, info.defaultValue, "parameter \(id) starts at its default")
            info.cfNameString?.release()
        }
        var mono = AudioStreamBasicDescription.canonical(sampleRate: 96_000, channels: 1)
        let asbdSize = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
        XCTAssertEqual(AudioUnitSetProperty(u, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Input, 0, &mono, asbdSize), noErr)
        XCTAssertEqual(AudioUnitSetProperty(u, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Output, 0, &mono, asbdSize), noErr)
        var interleaved = AudioStreamBasicDescription.canonical(sampleRate: 96_000, channels: 2)
        interleaved.mFormatFlags &= ~kAudioFormatFlagIsNonInterleaved
        interleaved.mBytesPerFrame = 8
        interleaved.mBytesPerPacket = 8
        XCTAssertNotEqual(
            AudioUnitSetProperty(u, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Input, 0, &interleaved, asbdSize), noErr,
            "a non-canonical format is refused")
        XCTAssertEqual(AudioUnitInitialize(u), noErr, lastErrorMessage())
        var flags: AudioUnitRenderActionFlags = []
        var time = AudioTimeStamp()
        let storage = AudioBufferStorage(format: mono, capacity: 512)
        storage.prepare(frames: 512)
        XCTAssertEqual(AudioUnitRender(u, &flags, &time, 0, 512, storage.list), kAudioUnitErr_NoConnection, "no input connected")
        XCTAssertEqual(AudioUnitRender(u, &flags, &time, 0, 100_000, storage.list), kAudioUnitErr_TooManyFramesToProcess)
        XCTAssertEqual(AudioUnitReset(u, kAudioUnitScope_Global, 0), noErr)
        XCTAssertEqual(AudioUnitSetParameter(u, 0, kAudioUnitScope_Global, 0, -12, 0), noErr)
        var state: UnsafeRawPointer?
        var stateSize = UInt32(MemoryLayout<UnsafeRawPointer>.size)
        XCTAssertEqual(AudioUnitGetProperty(u, kAudioUnitProperty_ClassInfo, kAudioUnitScope_Global, 0, &state, &stateSize), noErr)
        XCTAssertEqual(AudioUnitSetParameter(u, 0, kAudioUnitScope_Global, 0, 3, 0), noErr)
        XCTAssertEqual(AudioUnitSetProperty(u, kAudioUnitProperty_ClassInfo, kAudioUnitScope_Global, 0, &state, stateSize), noErr)
        var level: Float = 0
        XCTAssertEqual(AudioUnitGetParameter(u, 0, kAudioUnitScope_Global, 0, &level), noErr)
        XCTAssertEqual(level, -12, "ClassInfo restores the saved value")
        state.map { Unmanaged<AnyObject>.fromOpaque($0).release() }
        XCTAssertEqual(AudioUnitUninitialize(u), noErr)
    }
}

import AUHost
import Foundation
import LADSPAHost
import LADSPAUnits
import LV2Host
import XCTest

/// What the LADSPA tests share: a fixed LADSPA_PATH (scripts/test-ladspa-path.sh: the six Debian
/// packages the project installs, nothing else), a provider over it with its own cache, the
/// products' folder (auhost, lv2-sweep-child, ladspa-reference-host) and a C compiler for fixtures.
enum LADSPATestSupport {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    /// Where the test's executables are (beside the xctest bundle's runner).
    static let products = (LV2Sweep.defaultChildPath() as NSString).deletingLastPathComponent
    static let scratch: String = {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("ladspa-tests-\(getpid())").path
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }()

    /// The fixed LADSPA_PATH folder, made once per test process.
    static let fixedPath: String = {
        let out = scratch + "/path"
        let result = run(root.path + "/scripts/test-ladspa-path.sh", [], environment: ["TEST_LADSPA_DIR": out])
        precondition(result.status == 0, "scripts/test-ladspa-path.sh failed: \(result.output)")
        return out
    }()

    /// A DSSI_PATH of hexter alone.
    static let fixedDSSIPath: String = {
        let out = scratch + "/dssi"
        try? FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        try? FileManager.default.createSymbolicLink(atPath: out + "/hexter.so", withDestinationPath: "/usr/lib/dssi/hexter.so")
        return out
    }()

    /// A provider over the fixed paths with a cache file of this test process.
    nonisolated(unsafe) static let provider: LADSPAProvider = {
        setenv("XDG_CACHE_HOME", scratch + "/cache", 1)
        let provider = LADSPAProvider(ladspaPath: fixedPath, dssiPath: fixedDSSIPath)
        // Installed, so that its components' handles are ones AudioComponentInstanceNew knows.
        ComponentRegistry.shared.install(provider)
        return provider
    }()

    static func component(_ label: String) throws -> Component {
        try XCTUnwrap(provider.component(label: label), "no LADSPA plug-in \(label) on the fixed path")
    }

    /// The environment a CLI run needs to see the same plug-ins (and reuse the provider's cache).
    static var cliEnvironment: [String: String] {
        _ = provider
        return ["LADSPA_PATH": fixedPath, "DSSI_PATH": fixedDSSIPath, "XDG_CACHE_HOME": scratch + "/cache"]
    }

    /// Runs `executable` with `arguments`; its status and standard output + error.
    @discardableResult
    static func run(_ executable: String, _ arguments: [String], environment: [String: String] = [:]) -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try! process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    /// Compiles C `source` into the shared object `path`.
    static func compileLibrary(_ source: String, to path: String) throws {
        let file = path + ".c"
        try source.write(toFile: file, atomically: true, encoding: .utf8)
        let result = run("/usr/bin/cc", ["-shared", "-fPIC", "-O1", "-o", path, file])
        XCTAssertEqual(result.status, 0, result.output)
    }

    /// The float reference host's output for `input` (per channel; one channel of the length
    /// wanted for a generator), as per-channel samples.
    static func reference(
        library: String, label: String, rate: Int, block: Int, input: [[Float]], controls: [Float]
    ) throws -> [[Float]] {
        let frames = input[0].count
        var interleaved = [Float](repeating: 0, count: frames * input.count)
        for (c, channel) in input.enumerated() { for i in 0..<frames { interleaved[i * input.count + c] = channel[i] } }
        let name = label.replacingOccurrences(of: "/", with: "_")
        let inFile = scratch + "/ref-\(name).in", outFile = scratch + "/ref-\(name).out"
        try interleaved.withUnsafeBytes { Data($0) }.write(to: URL(fileURLWithPath: inFile))
        let result = run(
            products + "/ladspa-reference-host",
            [library, label, String(rate), String(block), inFile, outFile] + controls.map { String(format: "%.9g", Double($0)) })
        XCTAssertEqual(result.status, 0, result.output)
        let data = try Data(contentsOf: URL(fileURLWithPath: outFile))
        let samples = data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
        let outputs = samples.count / frames
        return (0..<outputs).map { c in (0..<frames).map { samples[$0 * outputs + c] } }
    }

    /// A deterministic signal in [-0.5, 0.5].
    static func signal(_ frames: Int, seed: UInt32) -> [Float] {
        var state = seed
        return (0..<frames).map { i in
            state = state &* 1_664_525 &+ 1_013_904_223
            return 0.4 * Float(sin(Double(i) * 0.05)) + Float(state >> 8) / Float(1 << 24) * 0.1 - 0.05
        }
    }
}

/// A LADSPA unit set up through the C API: formats at `rate`, a render callback playing given
/// samples, one output element.
final class LADSPAUnitRig {
    let unit: AudioUnit
    var input: [[Float]] = []
    var time = AudioTimeStamp()
    let storage: AudioBufferStorage
    let outputChannels: Int

    init(_ component: Component, rate: Double = 44_100, maxFrames: UInt32 = 2048) throws {
        var made: AudioUnit?
        try AudioError.check(AudioComponentInstanceNew(component.handle, &made), "AudioComponentInstanceNew")
        unit = made!
        var frames = maxFrames
        try AudioError.check(
            AudioUnitSetProperty(unit, kAudioUnitProperty_MaximumFramesPerSlice, kAudioUnitScope_Global, 0, &frames, 4), "max")
        var channels: [Int] = []
        for scope in [kAudioUnitScope_Input, kAudioUnitScope_Output] {
            var count: UInt32 = 0, size: UInt32 = 4
            try AudioError.check(AudioUnitGetProperty(unit, kAudioUnitProperty_ElementCount, scope, 0, &count, &size), "count")
            guard count > 0 else { channels.append(0); continue }
            var format = AudioStreamBasicDescription()
            size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
            try AudioError.check(AudioUnitGetProperty(unit, kAudioUnitProperty_StreamFormat, scope, 0, &format, &size), "format")
            format.mSampleRate = rate
            try AudioError.check(AudioUnitSetProperty(unit, kAudioUnitProperty_StreamFormat, scope, 0, &format, size), "format")
            channels.append(Int(format.mChannelsPerFrame))
        }
        outputChannels = channels[1]
        storage = AudioBufferStorage(format: .canonical(sampleRate: rate, channels: UInt32(channels[1])), capacity: maxFrames)
        time.mFlags = .sampleTimeValid
        if channels[0] > 0 {
            var callback = AURenderCallbackStruct(
                inputProc: { refCon, _, timeStamp, _, frames, ioData in
                    let rig = Unmanaged<LADSPAUnitRig>.fromOpaque(refCon).takeUnretainedValue()
                    let start = Int(timeStamp.pointee.mSampleTime)
                    for (c, buffer) in UnsafeMutableAudioBufferListPointer(ioData!).enumerated() {
                        let samples = buffer.mData!.assumingMemoryBound(to: Float.self)
                        for i in 0..<Int(frames) { samples[i] = start + i < rig.input[c].count ? rig.input[c][start + i] : 0 }
                    }
                    return noErr
                }, inputProcRefCon: Unmanaged.passUnretained(self).toOpaque())
            try AudioError.check(
                AudioUnitSetProperty(
                    unit, kAudioUnitProperty_SetRenderCallback, kAudioUnitScope_Input, 0, &callback,
                    UInt32(MemoryLayout<AURenderCallbackStruct>.size)), "callback")
        }
    }

    deinit { AudioComponentInstanceDispose(unit) }

    func initialize() throws { try AudioError.check(AudioUnitInitialize(unit), "AudioUnitInitialize") }

    func set(_ id: AudioUnitParameterID, _ value: Float) {
        XCTAssertEqual(AudioUnitSetParameter(unit, id, kAudioUnitScope_Global, 0, value, 0), noErr)
    }

    func parameter(_ id: AudioUnitParameterID) -> Float {
        var value: Float = .nan
        XCTAssertEqual(AudioUnitGetParameter(unit, id, kAudioUnitScope_Global, 0, &value), noErr)
        return value
    }

    /// Renders `frames` frames in calls of `block`; samples per output channel.
    func render(frames: Int, block: Int) -> [[Float]] {
        var result = [[Float]](repeating: [], count: outputChannels)
        var done = 0
        while done < frames {
            let count = UInt32(min(block, frames - done))
            storage.prepare(frames: count)
            var flags: AudioUnitRenderActionFlags = []
            XCTAssertEqual(AudioUnitRender(unit, &flags, &time, 0, count, storage.list), noErr)
            for c in 0..<outputChannels { result[c] += storage.samples(channel: c, frames: Int(count)) }
            time.mSampleTime += Double(count)
            done += Int(count)
        }
        return result
    }
}

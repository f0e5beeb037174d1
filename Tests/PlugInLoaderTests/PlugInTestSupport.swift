import AUHost
import Foundation
import PlugInLoader
import XCTest

/// The checkout's root (from this file's location).
let checkoutRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

/// Runs a command, returning its status and everything it printed.
@discardableResult
func runCommand(
    _ executable: String, _ arguments: [String], environment: [String: String] = [:],
    directory: URL? = nil
) throws -> (status: Int32, output: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    if let directory { process.currentDirectoryURL = directory }
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
}

/// AUHost's own plug-ins, built once per test process with Plugins/build.sh (incremental), in
/// release: the configuration the development search path prefers, so that the registry never
/// finds a stale release build before a fresh debug one.
enum BuiltPlugIns {
    static let folder: Result<String, Error> = Result(catching: { () throws -> String in
        let script = checkoutRoot.appendingPathComponent("Plugins/build.sh").path
        let result = try runCommand("/bin/sh", [script, "release"])
        guard result.status == 0 else { throw AudioError(kAudio_ParamError, "Plugins/build.sh failed:\n\(result.output)") }
        return result.output.split(separator: "\n").last.map(String.init) ?? ""
    })

    /// The component for a plug-in of Plugins/ by subtype ('AUSd' manufacturer), found through the
    /// C API like any unit. If the registry listed the plug-in folders before they were built
    /// (another test ran first), their provider is installed now.
    static func component(_ subtype: String) throws -> AudioComponent {
        let folder = try folder.get()
        var desc = AudioComponentDescription("aufx", subtype, "AUSd")!
        if let found = AudioComponentFindNext(nil, &desc) { return found }
        ComponentRegistry.shared.install(PlugInProvider(folders: [folder]))
        return try XCTUnwrap(AudioComponentFindNext(nil, &desc), "aufx \(subtype) AUSd is not listed")
    }
}

/// An SDK effect plug-in set up as a host does: canonical formats at `sampleRate`, input from a
/// render callback reading `input` (per channel), output rendered into preallocated buffers.
final class EffectHarness {
    let unit: AudioUnit
    let channels: Int
    let storage: AudioBufferStorage
    /// What the callback plays: per channel, read from `inputPosition`.
    let source: UnsafeMutablePointer<SourceState>
    var timeStamp = AudioTimeStamp()

    struct SourceState {
        var samples: UnsafeMutablePointer<Float>
        var length: Int
        var channels: Int
        var position: Int
    }

    init(
        _ component: AudioComponent, sampleRate: Double = 44_100, channels: Int = 2, maxFrames: UInt32 = 4096,
        input: [[Float]], initialize: Bool = true
    ) throws {
        self.channels = channels
        var u: AudioUnit?
        try AudioError.check(AudioComponentInstanceNew(component, &u), "AudioComponentInstanceNew")
        unit = u!
        storage = AudioBufferStorage(format: .canonical(sampleRate: sampleRate, channels: UInt32(channels)), capacity: maxFrames)
        let length = input.map(\.count).max() ?? 0
        let samples = UnsafeMutablePointer<Float>.allocate(capacity: max(1, length * channels))
        samples.initialize(repeating: 0, count: max(1, length * channels))
        for (c, channel) in input.enumerated() { for (i, x) in channel.enumerated() { samples[c * length + i] = x } }
        source = .allocate(capacity: 1)
        source.initialize(to: SourceState(samples: samples, length: length, channels: channels, position: 0))
        var format = AudioStreamBasicDescription.canonical(sampleRate: sampleRate, channels: UInt32(channels))
        let size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
        try AudioError.check(
            AudioUnitSetProperty(unit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Input, 0, &format, size), "input format")
        try AudioError.check(
            AudioUnitSetProperty(unit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Output, 0, &format, size), "output format")
        var frames = maxFrames
        try AudioError.check(
            AudioUnitSetProperty(unit, kAudioUnitProperty_MaximumFramesPerSlice, kAudioUnitScope_Global, 0, &frames, 4), "max frames")
        var callback = AURenderCallbackStruct(
            inputProc: { refCon, _, _, _, frames, ioData in
                let s = refCon.assumingMemoryBound(to: SourceState.self)
                let list = UnsafeMutableAudioBufferListPointer(ioData!)
                for (c, buffer) in list.enumerated() {
                    let out = buffer.mData!.assumingMemoryBound(to: Float.self)
                    for i in 0..<Int(frames) {
                        let n = s.pointee.position + i
                        out[i] = n < s.pointee.length ? s.pointee.samples[c * s.pointee.length + n] : 0
                    }
                }
                s.pointee.position += Int(frames)
                return noErr
            }, inputProcRefCon: UnsafeMutableRawPointer(source))
        try AudioError.check(
            AudioUnitSetProperty(
                unit, kAudioUnitProperty_SetRenderCallback, kAudioUnitScope_Input, 0,
                &callback, UInt32(MemoryLayout<AURenderCallbackStruct>.size)), "callback")
        timeStamp.mFlags = .sampleTimeValid
        if initialize { try AudioError.check(AudioUnitInitialize(unit), "AudioUnitInitialize") }
    }

    deinit {
        AudioComponentInstanceDispose(unit)
        source.pointee.samples.deallocate()
        source.deallocate()
    }

    func set(_ id: AudioUnitParameterID, _ value: Float) throws {
        try AudioError.check(AudioUnitSetParameter(unit, id, kAudioUnitScope_Global, 0, value, 0), "set parameter \(id)")
    }

    func get(_ id: AudioUnitParameterID) throws -> Float {
        var v: Float = 0
        try AudioError.check(AudioUnitGetParameter(unit, id, kAudioUnitScope_Global, 0, &v), "get parameter \(id)")
        return v
    }

    /// Renders `total` frames in calls of `slice` frames; returns each channel's output.
    func render(_ total: Int, slice: Int = 512) throws -> [[Float]] {
        var out = Array(repeating: [Float](), count: channels)
        var done = 0
        while done < total {
            let n = UInt32(min(slice, total - done))
            storage.prepare(frames: n)
            var flags: AudioUnitRenderActionFlags = []
            try AudioError.check(AudioUnitRender(unit, &flags, &timeStamp, 0, n, storage.list), "AudioUnitRender")
            for c in 0..<channels { out[c] += storage.samples(channel: c, frames: Int(n)) }
            timeStamp.mSampleTime += Double(n)
            done += Int(n)
        }
        return out
    }

    /// ClassInfo as a retained CF object (release with CFRelease via Unmanaged).
    func classInfo() throws -> UnsafeRawPointer {
        var p: UnsafeRawPointer?
        var size = UInt32(MemoryLayout<UnsafeRawPointer>.size)
        try AudioError.check(
            AudioUnitGetProperty(unit, kAudioUnitProperty_ClassInfo, kAudioUnitScope_Global, 0, &p, &size), "get ClassInfo")
        return try XCTUnwrap(p)
    }

    func restore(classInfo: UnsafeRawPointer) throws {
        var p: UnsafeRawPointer? = classInfo
        try AudioError.check(
            AudioUnitSetProperty(
                unit, kAudioUnitProperty_ClassInfo, kAudioUnitScope_Global, 0, &p,
                UInt32(MemoryLayout<UnsafeRawPointer>.size)), "set ClassInfo")
    }
}

/// A sine of `frequency` Hz.
func sine(_ frequency: Double, amplitude: Float = 1, frames: Int, sampleRate: Double = 44_100) -> [Float] {
    (0..<frames).map { amplitude * Float(sin(2 * .pi * frequency * Double($0) / sampleRate)) }
}

/// The last message the C API recorded on this thread.
func lastErrorMessage() -> String {
    String(cfString: AUHostCopyLastErrorMessage()?.takeRetainedValue()) ?? ""
}

import Foundation
import LV2Host
import LV2Units
import TestSupport
import XCTest

/// An LV2 unit set up through the C API as a host does: formats at `sampleRate`, a render
/// callback per input element that plays given samples (continuing across calls), and buffers
/// per output element.
final class LV2UnitRig {
    let unit: AudioUnit
    let inputChannels: [Int]
    let outputChannels: [Int]
    /// Per input element, per channel: the samples the callback plays from.
    var inputs: [[[Float]]]
    var position = 0
    var time = AudioTimeStamp()
    let storages: [AudioBufferStorage]
    private var refCons: [UnsafeMutablePointer<Int>] = []

    init(component: Component, sampleRate: Double = 48_000, maxFrames: UInt32 = 1024, initialize: Bool = true) throws {
        var made: AudioUnit?
        try AudioError.check(AudioComponentInstanceNew(component.handle, &made), "AudioComponentInstanceNew")
        unit = made!
        var frames = maxFrames
        try AudioError.check(
            AudioUnitSetProperty(unit, kAudioUnitProperty_MaximumFramesPerSlice, kAudioUnitScope_Global, 0, &frames, 4), "max")
        let unit = self.unit
        func channels(_ scope: AudioUnitScope) throws -> [Int] {
            var count: UInt32 = 0, size: UInt32 = 4
            try AudioError.check(AudioUnitGetProperty(unit, kAudioUnitProperty_ElementCount, scope, 0, &count, &size), "count")
            return try (0..<count).map { element in
                var format = AudioStreamBasicDescription()
                var size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
                try AudioError.check(AudioUnitGetProperty(unit, kAudioUnitProperty_StreamFormat, scope, element, &format, &size), "format")
                format.mSampleRate = sampleRate
                try AudioError.check(AudioUnitSetProperty(unit, kAudioUnitProperty_StreamFormat, scope, element, &format, size), "format")
                return Int(format.mChannelsPerFrame)
            }
        }
        inputChannels = try channels(kAudioUnitScope_Input)
        outputChannels = try channels(kAudioUnitScope_Output)
        inputs = inputChannels.map { Array(repeating: [], count: $0) }
        storages = outputChannels.map {
            AudioBufferStorage(format: .canonical(sampleRate: sampleRate, channels: UInt32($0)), capacity: maxFrames)
        }
        time.mFlags = .sampleTimeValid
        for element in inputChannels.indices {
            let refCon = UnsafeMutablePointer<Int>.allocate(capacity: 2)
            refCon[0] = Int(bitPattern: Unmanaged.passUnretained(self).toOpaque())
            refCon[1] = element
            refCons.append(refCon)
            var callback = AURenderCallbackStruct(
                inputProc: { refCon, _, timeStamp, _, frames, ioData in
                    let values = refCon.assumingMemoryBound(to: Int.self)
                    let rig = Unmanaged<LV2UnitRig>.fromOpaque(UnsafeRawPointer(bitPattern: values[0])!).takeUnretainedValue()
                    let start = Int(timeStamp.pointee.mSampleTime)
                    for (c, buffer) in UnsafeMutableAudioBufferListPointer(ioData!).enumerated() {
                        let samples = buffer.mData!.assumingMemoryBound(to: Float.self)
                        let source = rig.inputs[values[1]][c]
                        for i in 0..<Int(frames) { samples[i] = start + i < source.count ? source[start + i] : 0 }
                    }
                    return noErr
                }, inputProcRefCon: UnsafeMutableRawPointer(refCon))
            try AudioError.check(
                AudioUnitSetProperty(
                    unit, kAudioUnitProperty_SetRenderCallback, kAudioUnitScope_Input, UInt32(element),
                    &callback, UInt32(MemoryLayout<AURenderCallbackStruct>.size)), "callback")
        }
        if initialize { try AudioError.check(AudioUnitInitialize(unit), "AudioUnitInitialize") }
    }

    deinit {
        AudioComponentInstanceDispose(unit)
        refCons.forEach { $0.deallocate() }
    }

    /// Renders `frames` frames in calls of `block`, every output element each call; returns the
    /// samples per output element and channel.
    func render(frames: Int, block: Int, file: StaticString = #filePath, line: UInt = #line) -> [[[Float]]] {
        var result = outputChannels.map { [[Float]](repeating: [], count: $0) }
        var done = 0
        while done < frames {
            let count = UInt32(min(block, frames - done))
            for (element, storage) in storages.enumerated() {
                storage.prepare(frames: count)
                var flags: AudioUnitRenderActionFlags = []
                XCTAssertEqual(AudioUnitRender(unit, &flags, &time, UInt32(element), count, storage.list), noErr, file: file, line: line)
                for c in 0..<outputChannels[element] { result[element][c] += storage.samples(channel: c, frames: Int(count)) }
            }
            time.mSampleTime += Double(count)
            done += Int(count)
        }
        return result
    }

    func parameter(_ id: UInt32) -> Float {
        var value: Float = .nan
        XCTAssertEqual(AudioUnitGetParameter(unit, id, kAudioUnitScope_Global, 0, &value), noErr)
        return value
    }
}

enum LV2UnitTestSupport {
    /// The installed plug-in `uri` as a registered component (default provider).
    static func component(_ uri: String) throws -> Component {
        try XCTUnwrap(LV2Provider.component(uri: uri), "no component for \(uri)")
    }

    /// A world for direct lilv runs (separate from the provider's, as another host's would be).
    nonisolated(unsafe) static let world = LV2World()

    /// The broken fixture bundles (scripts/build-lv2-fixtures.sh), as an installed provider.
    static let fixtureDirectory: String = {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("lv2units-fixtures-\(getpid())").path
        let process = Process()
        process.executableURL = root.appendingPathComponent("scripts/build-lv2-fixtures.sh")
        process.arguments = [output]
        process.standardOutput = FileHandle.nullDevice
        try! process.run()
        process.waitUntilExit()
        precondition(process.terminationStatus == 0, "building the LV2 fixtures failed")
        return output
    }()

    nonisolated(unsafe) static let fixtures: LV2Provider = {
        let provider = LV2Provider(lv2Path: fixtureDirectory)
        ComponentRegistry.shared.install(provider)
        return provider
    }()

    static func noise(_ count: Int, seed: UInt32) -> [Float] {
        var generator = NoiseGenerator(seed: seed)
        return (0..<count).map { _ in generator.next() * 0.5 }
    }

    /// Renders through an LV2Instance directly in blocks of `block` frames.
    static func renderDirect(_ instance: LV2Instance, inputs: [[Float]], frames: Int, block: Int) -> [[Float]] {
        var outputs = [[Float]](repeating: [], count: instance.audioOutputCount)
        var position = 0
        while position < frames {
            let count = min(block, frames - position)
            for (i, input) in inputs.enumerated() {
                for frame in 0..<count { instance.audioInput(i)[frame] = input[position + frame] }
            }
            XCTAssertEqual(instance.run(frames: count), .ok)
            for o in 0..<outputs.count { outputs[o] += UnsafeBufferPointer(start: instance.audioOutput(o), count: count) }
            position += count
        }
        return outputs
    }

    static func firstDifference(_ a: [Float], _ b: [Float]) -> Int? {
        if a.count != b.count { return min(a.count, b.count) }
        return zip(a, b).enumerated().first { $0.element.0.bitPattern != $0.element.1.bitPattern }?.offset
    }
}

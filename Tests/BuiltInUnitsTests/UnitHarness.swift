import XCTest
import TestSupport

/// A signal fed to one input bus through a render callback: channel c plays `channels[c]` from
/// the start, then silence.
final class SignalSource {
    let channels: [[Float]]
    var position = 0
    init(_ channels: [[Float]]) { self.channels = channels }
}

let signalCallback: AURenderCallback = { refCon, _, _, _, frames, ioData in
    let source = Unmanaged<SignalSource>.fromOpaque(refCon).takeUnretainedValue()
    let buffers = UnsafeMutableAudioBufferListPointer(ioData!)
    for c in 0..<buffers.count {
        let out = buffers[c].mData!.assumingMemoryBound(to: Float.self)
        let channel = source.channels[min(c, source.channels.count - 1)]
        for i in 0..<Int(frames) {
            let n = source.position + i
            out[i] = n < channel.count ? channel[n] : 0
        }
    }
    source.position += Int(frames)
    return noErr
}

/// A built-in unit found by Apple's manufacturer and a documented subtype, driven through the C API.
final class UnitHarness {
    let unit: AudioUnit
    var sources: [SignalSource] = []
    var timeStamp = AudioTimeStamp()
    let slice: UInt32

    init(type: OSType, subType: OSType, slice: UInt32 = 512) throws {
        var d = AudioComponentDescription(
            componentType: type, componentSubType: subType,
            componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0)
        guard let component = AudioComponentFindNext(nil, &d) else { throw AudioError(-1, "no component \(FourCC.string(subType))") }
        var u: AudioUnit?
        try AudioError.check(AudioComponentInstanceNew(component, &u), "instance")
        unit = u!
        self.slice = slice
        var frames = slice
        try AudioError.check(
            AudioUnitSetProperty(unit, kAudioUnitProperty_MaximumFramesPerSlice, kAudioUnitScope_Global, 0, &frames, 4), "max")
        timeStamp.mFlags = .sampleTimeValid
    }

    deinit { AudioComponentInstanceDispose(unit) }

    func setFormat(_ format: AudioStreamBasicDescription, scope: AudioUnitScope, element: UInt32 = 0) throws {
        var f = format
        try AudioError.check(
            AudioUnitSetProperty(
                unit, kAudioUnitProperty_StreamFormat, scope, element, &f,
                UInt32(MemoryLayout<AudioStreamBasicDescription>.size)), "format")
    }

    func feed(bus: UInt32, _ channels: [[Float]]) throws {
        let source = SignalSource(channels)
        sources.append(source)
        var cb = AURenderCallbackStruct(inputProc: signalCallback, inputProcRefCon: Unmanaged.passUnretained(source).toOpaque())
        try AudioError.check(
            AudioUnitSetProperty(
                unit, kAudioUnitProperty_SetRenderCallback, kAudioUnitScope_Input, bus, &cb,
                UInt32(MemoryLayout<AURenderCallbackStruct>.size)), "callback")
    }

    func set(_ id: AudioUnitParameterID, _ value: Float, scope: AudioUnitScope = kAudioUnitScope_Global, element: UInt32 = 0) throws {
        try AudioError.check(AudioUnitSetParameter(unit, id, scope, element, value, 0), "set parameter \(id)")
    }

    func get(_ id: AudioUnitParameterID, scope: AudioUnitScope = kAudioUnitScope_Global, element: UInt32 = 0) throws -> Float {
        var v: Float = 0
        try AudioError.check(AudioUnitGetParameter(unit, id, scope, element, &v), "get parameter \(id)")
        return v
    }

    func initialize() throws { try AudioError.check(AudioUnitInitialize(unit), "initialize") }

    /// Renders `frames` frames of `channels` canonical channels in slices; returns them per channel.
    func render(frames: Int, channels: Int) throws -> [[Float]] {
        let storage = AudioBufferStorage(format: .canonical(sampleRate: 44_100, channels: UInt32(channels)), capacity: slice)
        var result = [[Float]](repeating: [], count: channels)
        var done = 0
        while done < frames {
            let n = UInt32(min(Int(slice), frames - done))
            storage.prepare(frames: n)
            var flags: AudioUnitRenderActionFlags = []
            try AudioError.check(AudioUnitRender(unit, &flags, &timeStamp, 0, n, storage.list), "render")
            for c in 0..<channels { result[c] += storage.samples(channel: c, frames: Int(n)) }
            timeStamp.mSampleTime += Double(n)
            done += Int(n)
        }
        return result
    }
}

/// |H(f)| of an impulse response, by direct DFT at one frequency.
func measuredMagnitude(_ h: [Float], frequency: Double, sampleRate: Double) -> Double {
    var re = 0.0, im = 0.0
    let w = 2 * Double.pi * frequency / sampleRate
    for (n, x) in h.enumerated() {
        re += Double(x) * cos(w * Double(n))
        im -= Double(x) * sin(w * Double(n))
    }
    return (re * re + im * im).squareRoot()
}

func impulse(_ count: Int) -> [Float] { [1] + [Float](repeating: 0, count: count - 1) }

import AUHost
import XCTest

/// A mono signal a render callback plays from the start, then silence.
final class SignalSource {
    let samples: [Float]
    var position = 0
    var calls = 0
    init(_ samples: [Float]) { self.samples = samples }
}

let signalCallback: AURenderCallback = { refCon, _, _, _, frames, ioData in
    let source = Unmanaged<SignalSource>.fromOpaque(refCon).takeUnretainedValue()
    let buffers = UnsafeMutableAudioBufferListPointer(ioData!)
    for c in 0..<buffers.count {
        let out = buffers[c].mData!.assumingMemoryBound(to: Float.self)
        for i in 0..<Int(frames) {
            let n = source.position + i
            out[i] = n < source.samples.count ? source.samples[n] : 0
        }
    }
    source.position += Int(frames)
    source.calls += 1
    return noErr
}

/// The offline voice-processing unit ('auou' 'vpof' 'AUHs'), found and driven through the C API,
/// mono at `rate`, far end on input 0 and microphone on input 1.
final class OfflineVoiceHarness {
    let unit: AudioUnit
    let far: SignalSource
    let microphone: SignalSource
    let rate: Double
    var timeStamp = AudioTimeStamp()

    init(far: [Float], microphone: [Float], rate: Double = 48_000, slice: UInt32 = 512) throws {
        var d = AudioComponentDescription(
            componentType: kAudioUnitType_Output, componentSubType: kAudioUnitSubType_AUHostVoiceProcessingOffline,
            componentManufacturer: kAudioUnitManufacturer_AUHost, componentFlags: 0, componentFlagsMask: 0)
        guard let component = AudioComponentFindNext(nil, &d) else { throw AudioError(-1, "no offline voice-processing unit") }
        var u: AudioUnit?
        try AudioError.check(AudioComponentInstanceNew(component, &u), "instance")
        unit = u!
        self.rate = rate
        self.far = SignalSource(far)
        self.microphone = SignalSource(microphone)
        var frames = slice
        try AudioError.check(
            AudioUnitSetProperty(unit, kAudioUnitProperty_MaximumFramesPerSlice, kAudioUnitScope_Global, 0, &frames, 4), "max")
        for (scope, element) in [
            (kAudioUnitScope_Input, 0), (kAudioUnitScope_Input, 1), (kAudioUnitScope_Output, 0), (kAudioUnitScope_Output, 1),
        ] {
            var f = AudioStreamBasicDescription.canonical(sampleRate: rate, channels: 1)
            try AudioError.check(
                AudioUnitSetProperty(
                    unit, kAudioUnitProperty_StreamFormat, AudioUnitScope(scope), UInt32(element), &f, UInt32(MemoryLayout.size(ofValue: f))
                ),
                "format")
        }
        for (bus, source) in [(UInt32(0), self.far), (1, self.microphone)] {
            var cb = AURenderCallbackStruct(inputProc: signalCallback, inputProcRefCon: Unmanaged.passUnretained(source).toOpaque())
            try AudioError.check(
                AudioUnitSetProperty(
                    unit, kAudioUnitProperty_SetRenderCallback, kAudioUnitScope_Input, bus, &cb,
                    UInt32(MemoryLayout<AURenderCallbackStruct>.size)),
                "callback")
        }
        timeStamp.mFlags = .sampleTimeValid
    }

    deinit { AudioComponentInstanceDispose(unit) }

    func setSwitch(_ id: AudioUnitPropertyID, _ on: Bool) throws {
        var v: UInt32 = on ? 1 : 0
        try AudioError.check(AudioUnitSetProperty(unit, id, kAudioUnitScope_Global, 0, &v, 4), "set \(id)")
    }

    func initialize() throws { try AudioError.check(AudioUnitInitialize(unit), "initialize") }

    /// Renders `frames` of output element 1 in blocks of `block` (and element 0 after each block
    /// when `alsoFarEnd`); returns both.
    func render(frames: Int, block: Int, alsoFarEnd: Bool = false) throws -> (processed: [Float], farEnd: [Float]) {
        try render(frames: frames, blocks: [block], alsoFarEnd: alsoFarEnd)
    }

    /// As `render(frames:block:)` with block sizes taken from `blocks` in turn, cyclically.
    func render(frames: Int, blocks: [Int], alsoFarEnd: Bool = false) throws -> (processed: [Float], farEnd: [Float]) {
        let storage = AudioBufferStorage(format: .canonical(sampleRate: rate, channels: 1), capacity: UInt32(blocks.max()!))
        var processed: [Float] = [], farEnd: [Float] = []
        processed.reserveCapacity(frames)
        var done = 0, turn = 0
        while done < frames {
            let n = UInt32(min(blocks[turn % blocks.count], frames - done))
            turn += 1
            storage.prepare(frames: n)
            var flags: AudioUnitRenderActionFlags = []
            try AudioError.check(AudioUnitRender(unit, &flags, &timeStamp, 1, n, storage.list), "render element 1")
            processed += storage.samples(channel: 0, frames: Int(n))
            if alsoFarEnd {
                storage.prepare(frames: n)
                try AudioError.check(AudioUnitRender(unit, &flags, &timeStamp, 0, n, storage.list), "render element 0")
                farEnd += storage.samples(channel: 0, frames: Int(n))
            }
            timeStamp.mSampleTime += Double(n)
            done += Int(n)
        }
        return (processed, farEnd)
    }

    var latency: Double {
        var v: Float64 = 0
        var size = UInt32(8)
        AudioUnitGetProperty(unit, kAudioUnitProperty_Latency, kAudioUnitScope_Global, 0, &v, &size)
        return v
    }

    var metrics: AUHostVoiceIOMetrics {
        var m = AUHostVoiceIOMetrics()
        var size = UInt32(MemoryLayout<AUHostVoiceIOMetrics>.size)
        AudioUnitGetProperty(unit, kAUHostVoiceIOProperty_EchoMetrics, kAudioUnitScope_Global, 0, &m, &size)
        return m
    }
}

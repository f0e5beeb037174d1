import AUHostCore
import Foundation
import LV2Host

/// The sweep's check through the unit API: the plug-in's component is instantiated with
/// AudioComponentInstanceNew, initialized at 48 kHz with 512-frame slices, fed 0.5 s of noise on
/// every input element (and a note every 8 slices through MusicDeviceMIDIEvent), and rendered
/// with AudioUnitRender on every output element.
public enum LV2UnitSmokeRender {
    /// Renders `seconds` through plug-in `uri` of `provider`; `rendered` gets the report before
    /// the unit is disposed (a plug-in may crash in its cleanup: what it rendered is known by
    /// then). Throws an AudioError with the status and message of the call that failed.
    /// Thread: setup.
    public static func run(
        uri: String, provider: LV2Provider, seconds: Double = 0.5, rendered: (LV2SmokeRender.Report) -> Void = { _ in }
    ) throws -> LV2SmokeRender.Report {
        if provider.component(uri: uri) == nil { ComponentRegistry.shared.install(provider) }
        guard let component = provider.component(uri: uri) else {
            throw AudioError(kAudioUnitErr_ExtensionNotFound, "No LV2 plug-in with URI <\(uri)> is installed.")
        }
        var unit: AudioUnit?
        try check(AudioComponentInstanceNew(component.handle, &unit), "AudioComponentInstanceNew")
        guard let unit else { throw AudioError(kAudioUnitErr_FailedInitialization, "No unit was made.") }
        defer { AudioComponentInstanceDispose(unit) }
        let block: UInt32 = 512
        var frames = block
        try check(
            AudioUnitSetProperty(unit, kAudioUnitProperty_MaximumFramesPerSlice, kAudioUnitScope_Global, 0, &frames, 4),
            "MaximumFramesPerSlice")
        let inputs = try elementChannels(unit, kAudioUnitScope_Input), outputs = try elementChannels(unit, kAudioUnitScope_Output)
        for (scope, channels) in [(kAudioUnitScope_Input, inputs), (kAudioUnitScope_Output, outputs)] {
            for (element, count) in channels.enumerated() {
                var format = AudioStreamBasicDescription.canonical(sampleRate: 48_000, channels: UInt32(count))
                try check(
                    AudioUnitSetProperty(
                        unit, kAudioUnitProperty_StreamFormat, scope, UInt32(element), &format,
                        UInt32(MemoryLayout<AudioStreamBasicDescription>.size)), "StreamFormat")
            }
        }
        let noise = UnsafeMutablePointer<UInt32>.allocate(capacity: 1)
        noise.initialize(to: 0x1234_5678)
        defer { noise.deallocate() }
        for element in inputs.indices {
            var callback = AURenderCallbackStruct(inputProc: noiseCallback, inputProcRefCon: UnsafeMutableRawPointer(noise))
            try check(
                AudioUnitSetProperty(
                    unit, kAudioUnitProperty_SetRenderCallback, kAudioUnitScope_Input, UInt32(element), &callback,
                    UInt32(MemoryLayout<AURenderCallbackStruct>.size)), "SetRenderCallback")
        }
        try check(AudioUnitInitialize(unit), "AudioUnitInitialize")
        let storages = outputs.map { AudioBufferStorage(format: .canonical(sampleRate: 48_000, channels: UInt32($0)), capacity: block) }
        var report = LV2SmokeRender.Report(framesRendered: 0, peak: 0, producedNonFinite: false)
        var time = AudioTimeStamp()
        time.mFlags = .sampleTimeValid
        let total = Int(seconds * 48_000)
        var cycle = 0
        while report.framesRendered < total {
            let count = UInt32(min(Int(block), total - report.framesRendered))
            if cycle % 8 == 0 { _ = MusicDeviceMIDIEvent(unit, 0x90, 60 + UInt32(cycle / 8 % 12), 100, 0) }
            if cycle % 8 == 4 { _ = MusicDeviceMIDIEvent(unit, 0x80, 60 + UInt32(cycle / 8 % 12), 0, 0) }
            for (element, storage) in storages.enumerated() {
                storage.prepare(frames: count)
                var flags: AudioUnitRenderActionFlags = []
                let status = AudioUnitRender(unit, &flags, &time, UInt32(element), count, storage.list)
                if status == kAudioUnitErr_InvalidOfflineRender { report.producedNonFinite = true; continue }
                try check(status, "AudioUnitRender")
                for channel in 0..<outputs[element] {
                    for sample in storage.samples(channel: channel, frames: Int(count)) where sample.isFinite {
                        report.peak = max(report.peak, abs(sample))
                    }
                }
            }
            time.mSampleTime += Double(count)
            report.framesRendered += Int(count)
            cycle += 1
        }
        rendered(report)
        return report
    }

    private static func elementChannels(_ unit: AudioUnit, _ scope: AudioUnitScope) throws -> [Int] {
        var count: UInt32 = 0
        var size: UInt32 = 4
        try check(AudioUnitGetProperty(unit, kAudioUnitProperty_ElementCount, scope, 0, &count, &size), "ElementCount")
        return try (0..<count).map { element in
            var format = AudioStreamBasicDescription()
            var size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
            try check(AudioUnitGetProperty(unit, kAudioUnitProperty_StreamFormat, scope, element, &format, &size), "StreamFormat")
            return Int(format.mChannelsPerFrame)
        }
    }

    private static func check(_ status: OSStatus, _ call: String) throws {
        guard status != noErr else { return }
        let message = String(cfString: AUHostCopyLastErrorMessage()?.takeRetainedValue()) ?? ""
        throw AudioError(status, "\(call) failed: \(message.isEmpty ? "status \(status)" : message)")
    }
}

/// Uniform noise in ±0.5 into every channel (xorshift32 state at refCon).
private let noiseCallback: AURenderCallback = { refCon, _, _, _, frames, ioData in
    guard let ioData else { return kAudio_ParamError }
    let state = refCon.assumingMemoryBound(to: UInt32.self)
    for buffer in UnsafeMutableAudioBufferListPointer(ioData) {
        guard let samples = buffer.mData?.assumingMemoryBound(to: Float.self) else { continue }
        for i in 0..<Int(frames) {
            var x = state.pointee
            x ^= x << 13; x ^= x >> 17; x ^= x << 5
            state.pointee = x
            samples[i] = (Float(x) / Float(UInt32.max) * 2 - 1) * 0.5
        }
    }
    return noErr
}

import ArgumentParser
import AUHost
import Foundation

/// `auhost demo`: the README's main job on a machine with no sound card. Renders a chord offline
/// through a chain of built-in units (delay, iPod EQ, multichannel mixer, generic output), each
/// found by its documented description, into a WAV file written through ExtAudioFile, and says
/// what it did.
struct DemoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo", abstract: "Render a demo offline to a WAV file (no sound card needed).")

    @Option(name: .shortAndLong, help: "Output WAV file.")
    var output = "auhost-demo.wav"

    @Option(help: "Seconds to render.")
    var seconds = 2.0

    func run() throws {
        let sampleRate = 48_000.0, slice: UInt32 = 512
        let format = AudioStreamBasicDescription.canonical(sampleRate: sampleRate, channels: 2)
        // As the hosting guide does it: units found by their documented descriptions.
        func unit(_ type: OSType, _ subType: OSType) throws -> AudioUnitInstance {
            let d = AudioComponentDescription(
                componentType: type, componentSubType: subType,
                componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0)
            let u = try AudioUnitInstance(d)
            try u.setMaximumFramesPerSlice(slice)
            for scope in [kAudioUnitScope_Input, kAudioUnitScope_Output] { try u.setStreamFormat(format, scope: scope) }
            print("  \(u.component.description.tripleString) \(u.component.name), found as \(d.tripleString)")
            return u
        }
        print("Chain: tone → delay → iPod EQ → multichannel mixer → generic output")
        let delay = try unit(kAudioUnitType_Effect, kAudioUnitSubType_Delay)
        let eq = try unit(kAudioUnitType_Effect, kAudioUnitSubType_AUiPodEQ)
        let mixer = try unit(kAudioUnitType_Mixer, kAudioUnitSubType_MultiChannelMixer)
        let head = try unit(kAudioUnitType_Output, kAudioUnitSubType_GenericOutput)
        let tone = ToneState(sampleRate: sampleRate)
        try delay.setRenderCallback(bus: 0, toneCallback, refCon: Unmanaged.passUnretained(tone).toOpaque())
        try delay.setParameter(kDelayParam_DelayTime, 0.25)
        try delay.setParameter(kDelayParam_WetDryMix, 35)
        try delay.setParameter(kDelayParam_Feedback, 40)
        var preset = AUPreset(presetNumber: 1, presetName: nil)  // "Bass Booster"
        try AudioError.check(
            AudioUnitSetProperty(
                eq.handle, kAudioUnitProperty_PresentPreset, kAudioUnitScope_Global, 0, &preset,
                UInt32(MemoryLayout<AUPreset>.size)), "Choosing the iPod EQ preset failed.")
        var buses: UInt32 = 1
        try AudioError.check(
            AudioUnitSetProperty(mixer.handle, kAudioUnitProperty_ElementCount, kAudioUnitScope_Input, 0, &buses, 4),
            "Setting the mixer's bus count failed.")
        try mixer.setStreamFormat(format, scope: kAudioUnitScope_Input)
        try mixer.setParameter(kMultiChannelMixerParam_Volume, 0.8, scope: kAudioUnitScope_Output)
        try eq.connectInput(0, from: delay)
        try mixer.connectInput(0, from: eq)
        try head.connectInput(0, from: mixer)
        for u in [delay, eq, mixer, head] { try u.initialize() }
        print("Delay 0.25 s, 35 % wet, 40 % feedback; iPod EQ \"Bass Booster\"; mixer output volume 0.8. Stream format: \(format)")

        // The file, through Extended Audio File Services: 16-bit WAV, written from Float32 buffers.
        var fileFormat = AudioStreamBasicDescription(
            mSampleRate: sampleRate, mFormatID: kAudioFormatLinearPCM,
            mFormatFlags: kAudioFormatFlagIsSignedInteger | kAudioFormatFlagIsPacked,
            mBytesPerPacket: 4, mFramesPerPacket: 1, mBytesPerFrame: 4, mChannelsPerFrame: 2,
            mBitsPerChannel: 16, mReserved: 0)
        var file: ExtAudioFileRef?
        let staged = try StagedOutput(output)
        try AudioError.check(
            ExtAudioFileCreateWithPath(staged.temporary, kAudioFileWAVEType, &fileFormat, nil, AudioFileFlags.eraseFile.rawValue, &file),
            "Cannot create \(output).")
        var client = format
        try AudioError.check(
            ExtAudioFileSetProperty(
                file!, kExtAudioFileProperty_ClientDataFormat,
                UInt32(MemoryLayout<AudioStreamBasicDescription>.size), &client), "Client format refused.")
        let buffers = AudioBufferStorage(format: format, capacity: slice)
        var timeStamp = AudioTimeStamp()
        timeStamp.mFlags = .sampleTimeValid
        let total = Int(seconds * sampleRate)
        var rendered = 0, peak: Float = 0
        while rendered < total {
            let frames = UInt32(min(Int(slice), total - rendered))
            buffers.prepare(frames: frames)
            var flags: AudioUnitRenderActionFlags = []
            try AudioError.check(
                head.render(&flags, &timeStamp, bus: 0, frames: frames, buffers.list), "Render failed at frame \(rendered).")
            for c in 0..<2 { peak = max(peak, buffers.samples(channel: c, frames: Int(frames)).map(abs).max() ?? 0) }
            try AudioError.check(ExtAudioFileWrite(file!, frames, buffers.list), "Writing \(output) failed.")
            rendered += Int(frames)
            timeStamp.mSampleTime += Double(frames)
        }
        try AudioError.check(ExtAudioFileDispose(file!), "Closing \(output) failed.")
        try staged.commit()
        print(
            "Rendered \(rendered) frames (\(seconds) s) in \((total + Int(slice) - 1) / Int(slice)) slices of \(slice); peak \(String(format: "%.3f", peak))."
        )
        print("Wrote \(output) (16-bit WAV through ExtAudioFile).")
    }
}

/// The demo's source: an A major chord with a one-second fade-in, rendered on the render thread.
final class ToneState {
    let sampleRate: Double
    var frame = 0
    init(sampleRate: Double) { self.sampleRate = sampleRate }
}

let toneCallback: AURenderCallback = { refCon, _, _, _, frames, ioData in
    let tone = Unmanaged<ToneState>.fromOpaque(refCon).takeUnretainedValue()
    let buffers = UnsafeMutableAudioBufferListPointer(ioData!)
    for i in 0..<Int(frames) {
        let t = Double(tone.frame + i) / tone.sampleRate
        let fade = Float(min(t, 1))
        let left = Float(sin(2 * .pi * 440 * t) + sin(2 * .pi * 554.37 * t)) * 0.2 * fade
        let right = Float(sin(2 * .pi * 440 * t) + sin(2 * .pi * 659.25 * t)) * 0.2 * fade
        buffers.floatChannel(0)?[i] = left
        buffers.floatChannel(1)?[i] = right
    }
    tone.frame += Int(frames)
    return noErr
}

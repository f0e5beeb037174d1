import ArgumentParser
import AUHost
import CSndFile
import Foundation

/// `auhost demo`: the README's main job on a machine with no sound card. Renders a tone offline
/// through a generic output unit, found by its documented description, into a WAV file, and says
/// what it did.
struct DemoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "demo", abstract: "Render a demo offline to a WAV file (no sound card needed).")

    @Option(name: .shortAndLong, help: "Output WAV file.")
    var output = "auhost-demo.wav"

    @Option(help: "Seconds to render.")
    var seconds = 2.0

    func run() throws {
        let sampleRate = 48_000.0, slice: UInt32 = 512
        // As the hosting guide does it: the generic output, by its documented identity.
        var description = AudioComponentDescription(componentType: kAudioUnitType_Output, componentSubType: kAudioUnitSubType_GenericOutput,
                                                    componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0)
        let head = try AudioUnitInstance(description)
        print("Head unit: \(head.component.description.tripleString) \(head.component.name), found as \(description.tripleString)")
        let format = AudioStreamBasicDescription.canonical(sampleRate: sampleRate, channels: 2)
        try head.setStreamFormat(format, scope: kAudioUnitScope_Input)
        try head.setStreamFormat(format, scope: kAudioUnitScope_Output)
        try head.setMaximumFramesPerSlice(slice)
        let tone = ToneState(sampleRate: sampleRate)
        try head.setRenderCallback(bus: 0, toneCallback, refCon: Unmanaged.passUnretained(tone).toOpaque())
        try head.initialize()
        print("Stream format: \(format)")

        var info = SF_INFO(frames: 0, samplerate: Int32(sampleRate), channels: 2, format: Int32(SF_FORMAT_WAV | SF_FORMAT_FLOAT), sections: 0, seekable: 0)
        guard let file = sf_open(output, Int32(SFM_WRITE), &info) else {
            throw AudioError(kAudioFilePermissionsError, "Cannot write \(output): \(String(cString: sf_strerror(nil))).")
        }
        defer { sf_close(file) }
        let buffers = AudioBufferStorage(format: format, capacity: slice)
        var interleaved = [Float](repeating: 0, count: Int(slice) * 2)
        var timeStamp = AudioTimeStamp()
        timeStamp.mFlags = kAudioTimeStampSampleTimeValid
        let total = Int(seconds * sampleRate)
        var rendered = 0, peak: Float = 0
        while rendered < total {
            let frames = UInt32(min(Int(slice), total - rendered))
            buffers.prepare(frames: frames)
            var flags: AudioUnitRenderActionFlags = 0
            try AudioError.check(head.render(&flags, &timeStamp, bus: 0, frames: frames, buffers.list), "Render failed at frame \(rendered).")
            for i in 0..<Int(frames) {
                interleaved[2 * i] = buffers.channel(0)[i]
                interleaved[2 * i + 1] = buffers.channel(1)[i]
                peak = max(peak, abs(interleaved[2 * i]), abs(interleaved[2 * i + 1]))
            }
            sf_writef_float(file, interleaved, sf_count_t(frames))
            rendered += Int(frames)
            timeStamp.mSampleTime += Double(frames)
        }
        print("Rendered \(rendered) frames (\(seconds) s) in \((total + Int(slice) - 1) / Int(slice)) slices of \(slice); peak \(String(format: "%.3f", peak)).")
        print("Wrote \(output).")
    }
}

/// kAudioFilePermissionsError ('prm?').
let kAudioFilePermissionsError: OSStatus = 0x70726D3F

/// The demo's source: an A major chord with a one-second fade-in, rendered on the render thread.
final class ToneState {
    let sampleRate: Double
    var frame = 0
    init(sampleRate: Double) { self.sampleRate = sampleRate }
}

let toneCallback: AURenderCallback = { refCon, _, _, _, frames, ioData in
    let tone = Unmanaged<ToneState>.fromOpaque(refCon!).takeUnretainedValue()
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

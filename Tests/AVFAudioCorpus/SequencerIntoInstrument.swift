// After Apple's AVAudioSequencer documentation: a Standard MIDI File loaded into a sequencer that
// plays into the engine's instrument (here LV2's example sampler, 'aumu' 'tuLM' 'QkhN' as
// `auhost list` shows it, instantiated by description), rendered offline.
import AVFAudio
import Foundation

final class SequencedSampler {
    let engine = AVAudioEngine()
    var sequencer: AVAudioSequencer?

    func render(midiFile: URL, frames: Int) throws -> [Float] {
        let description = AudioComponentDescription(
            componentType: kAudioUnitType_MusicDevice, componentSubType: 0x7475_4C4D /* 'tuLM' */,
            componentManufacturer: 0x516B_684E /* 'QkhN' */, componentFlags: 0, componentFlagsMask: 0)
        let sampler = AVAudioUnitMIDIInstrument(audioComponentDescription: description)
        let format = AVAudioFormat(standardFormatWithSampleRate: 44_100, channels: 1)!
        engine.attach(sampler)
        engine.connect(sampler, to: engine.mainMixerNode, format: format)
        try engine.enableManualRenderingMode(.offline, format: format, maximumFrameCount: 512)

        let sequencer = AVAudioSequencer(audioEngine: engine)
        try sequencer.load(from: midiFile, options: [])
        sequencer.tracks.forEach { $0.destinationAudioUnit = sampler }
        sequencer.prepareToPlay()
        self.sequencer = sequencer

        try engine.start()
        try sequencer.start()
        let buffer = AVAudioPCMBuffer(pcmFormat: format, frameCapacity: 512)!
        var output: [Float] = []
        while output.count < frames {
            _ = try engine.renderOffline(AVAudioFrameCount(min(512, frames - output.count)), to: buffer)
            output += UnsafeBufferPointer(start: buffer.floatChannelData![0], count: Int(buffer.frameLength))
        }
        sequencer.stop()
        engine.stop()
        return output
    }
}

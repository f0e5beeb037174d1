// After Apple's AVAudioUnitSampler documentation: a sampler loaded with a General MIDI SoundFont
// bank (program 0, the melodic bank), playing middle C into the main mixer, rendered offline.
import AVFAudio
import Foundation

final class SoundFontSampler {
    let engine = AVAudioEngine()
    let sampler = AVAudioUnitSampler()

    func render(bankURL: URL, note: UInt8, frames: Int) throws -> [Float] {
        let format = AVAudioFormat(standardFormatWithSampleRate: 48_000, channels: 2)!
        engine.attach(sampler)
        engine.connect(sampler, to: engine.mainMixerNode, format: format)
        try engine.enableManualRenderingMode(.offline, format: format, maximumFrameCount: 512)
        try sampler.loadSoundBankInstrument(
            at: bankURL, program: 0, bankMSB: UInt8(kAUSampler_DefaultMelodicBankMSB), bankLSB: UInt8(kAUSampler_DefaultBankLSB))

        try engine.start()
        sampler.startNote(note, withVelocity: 100, onChannel: 0)
        let buffer = AVAudioPCMBuffer(pcmFormat: engine.manualRenderingFormat, frameCapacity: 512)!
        var output: [Float] = []
        while output.count < frames {
            _ = try engine.renderOffline(AVAudioFrameCount(min(512, frames - output.count)), to: buffer)
            output += UnsafeBufferPointer(start: buffer.floatChannelData![0], count: Int(buffer.frameLength))
        }
        sampler.stopNote(note, onChannel: 0)
        engine.stop()
        engine.detach(sampler)
        return output
    }
}

// After Apple's AVAudioUnit documentation, instantiate(with:options:completionHandler:): an effect
// found by its component description (here LV2's example amplifier, 'aufx' '5VLf' 'QkhN' as
// `auhost list` shows it), in process or out of process, between a source node and the mixer.
import AVFAudio
import Foundation

final class ComponentEffectHost {
    let engine = AVAudioEngine()

    func render(
        _ description: AudioComponentDescription, options: AudioComponentInstantiationOptions, gain: AudioUnitParameterValue,
        input: [Float]
    ) throws -> [Float] {
        let instantiated = DispatchSemaphore(value: 0)
        var effect: AVAudioUnit?
        var failure: Error?
        AVAudioUnit.instantiate(with: description, options: options) { avAudioUnit, error in
            effect = avAudioUnit
            failure = error
            instantiated.signal()
        }
        instantiated.wait()
        guard let effect else { throw failure! }
        AudioUnitSetParameter(effect.audioUnit, 0, kAudioUnitScope_Global, 0, gain, 0)

        let format = AVAudioFormat(standardFormatWithSampleRate: 44_100, channels: 1)!
        var position = 0
        let source = AVAudioSourceNode(format: format) { _, _, frameCount, audioBufferList -> OSStatus in
            let out = UnsafeMutableBufferPointer<Float>(UnsafeMutableAudioBufferListPointer(audioBufferList)[0])
            for frame in 0..<Int(frameCount) {
                out[frame] = position + frame < input.count ? input[position + frame] : 0
            }
            position += Int(frameCount)
            return noErr
        }
        engine.attach(source)
        engine.attach(effect)
        engine.connect(source, to: effect, format: format)
        engine.connect(effect, to: engine.mainMixerNode, format: format)
        try engine.enableManualRenderingMode(.offline, format: format, maximumFrameCount: 512)
        try engine.start()
        defer { engine.stop() }

        let buffer = AVAudioPCMBuffer(pcmFormat: format, frameCapacity: 512)!
        var output: [Float] = []
        while output.count < input.count {
            _ = try engine.renderOffline(AVAudioFrameCount(min(512, input.count - output.count)), to: buffer)
            output += Array(UnsafeBufferPointer(start: buffer.floatChannelData![0], count: Int(buffer.frameLength)))
        }
        return output
    }
}

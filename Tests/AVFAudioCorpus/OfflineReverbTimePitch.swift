// After Apple's sample "Performing Offline Audio Processing", with the effects of
// "Audio Engine: Building an Effects Chain": a file played by an AVAudioPlayerNode through an
// AVAudioUnitReverb and an AVAudioUnitTimePitch into the main mixer, rendered offline with
// renderOffline(_:to:) into an output file in the source's file format.
import AVFAudio
import Foundation

final class OfflineReverbTimePitchRenderer {
    let engine = AVAudioEngine()
    let player = AVAudioPlayerNode()
    let reverb = AVAudioUnitReverb()
    let timePitch = AVAudioUnitTimePitch()

    func render(
        sourceURL: URL, outputURL: URL, preset: AVAudioUnitReverbPreset, wetDryMix: Float, rate: Float, pitch: Float
    ) throws {
        let sourceFile = try AVAudioFile(forReading: sourceURL)
        let format = sourceFile.processingFormat

        reverb.loadFactoryPreset(preset)
        reverb.wetDryMix = wetDryMix
        timePitch.rate = rate
        timePitch.pitch = pitch

        engine.attach(player)
        engine.attach(reverb)
        engine.attach(timePitch)
        engine.connect(player, to: reverb, format: format)
        engine.connect(reverb, to: timePitch, format: format)
        engine.connect(timePitch, to: engine.mainMixerNode, format: format)

        player.scheduleFile(sourceFile, at: nil)

        try engine.enableManualRenderingMode(.offline, format: format, maximumFrameCount: 4096)
        try engine.start()
        player.play()

        let buffer = AVAudioPCMBuffer(
            pcmFormat: engine.manualRenderingFormat, frameCapacity: engine.manualRenderingMaximumFrameCount)!
        let outputFile = try AVAudioFile(forWriting: outputURL, settings: sourceFile.fileFormat.settings)

        while engine.manualRenderingSampleTime < sourceFile.length {
            let frameCount = sourceFile.length - engine.manualRenderingSampleTime
            let framesToRender = min(AVAudioFrameCount(frameCount), buffer.frameCapacity)
            let status = try engine.renderOffline(framesToRender, to: buffer)
            switch status {
            case .success:
                try outputFile.write(from: buffer)
            case .insufficientDataFromInputNode, .cannotDoInCurrentContext:
                break
            case .error:
                fatalError("The manual rendering failed.")
            }
        }
        player.stop()
        engine.stop()
    }
}

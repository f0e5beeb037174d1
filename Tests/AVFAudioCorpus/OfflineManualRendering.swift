// After Apple's sample "Performing Offline Audio Processing" (AVAudioEngine manual rendering): a
// source file played by an AVAudioPlayerNode through an effect into the main mixer, rendered
// offline with renderOffline(_:to:) and written to an output file in the source's file format.
import AVFAudio
import Foundation

final class OfflineEffectRenderer {
    let engine = AVAudioEngine()
    let player = AVAudioPlayerNode()
    let delay = AVAudioUnitDelay()

    func render(sourceURL: URL, outputURL: URL, delayTime: TimeInterval) throws {
        let sourceFile = try AVAudioFile(forReading: sourceURL)
        let format = sourceFile.processingFormat

        delay.delayTime = delayTime
        delay.feedback = 0
        delay.wetDryMix = 50

        engine.attach(player)
        engine.attach(delay)
        engine.connect(player, to: delay, format: format)
        engine.connect(delay, to: engine.mainMixerNode, format: format)

        player.scheduleFile(sourceFile, at: nil)

        let maxFrames: AVAudioFrameCount = 4096
        try engine.enableManualRenderingMode(.offline, format: format, maximumFrameCount: maxFrames)
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
            case .insufficientDataFromInputNode:
                break
            case .cannotDoInCurrentContext:
                break
            case .error:
                fatalError("The manual rendering failed.")
            }
        }
        player.stop()
        engine.stop()
    }
}

// After Apple's AVAudioNode documentation, "installTap(onBus:bufferSize:format:block:)": a tap on
// the main mixer's output collects what the engine renders, on the engine's own thread.
import AVFAudio
import Foundation

final class MixerTapRecorder {
    let engine = AVAudioEngine()
    private let lock = NSLock()
    private(set) var recorded: [Float] = []
    private(set) var times: [AVAudioFramePosition] = []
    private(set) var bufferSizes: [AVAudioFrameCount] = []
    let done = DispatchSemaphore(value: 0)

    /// Renders `frames` frames of a source node's ramp with a tap of `tapSize` frames on the mixer,
    /// returning what renderOffline produced.
    func run(frames: Int, tapSize: AVAudioFrameCount) throws -> [Float] {
        let format = AVAudioFormat(standardFormatWithSampleRate: 48_000, channels: 1)!
        var n = 0
        let source = AVAudioSourceNode { _, _, frameCount, audioBufferList -> OSStatus in
            let buffers = UnsafeMutableAudioBufferListPointer(audioBufferList)
            for frame in 0..<Int(frameCount) {
                let value = Float((n + frame) % 1000) / 1000
                for buffer in buffers {
                    let samples: UnsafeMutableBufferPointer<Float> = UnsafeMutableBufferPointer(buffer)
                    samples[frame] = value
                }
            }
            n += Int(frameCount)
            return noErr
        }
        engine.attach(source)
        engine.connect(source, to: engine.mainMixerNode, format: format)
        try engine.enableManualRenderingMode(.offline, format: format, maximumFrameCount: 1024)

        let wanted = frames / Int(tapSize) * Int(tapSize)
        engine.mainMixerNode.installTap(onBus: 0, bufferSize: tapSize, format: nil) { buffer, when in
            self.lock.lock()
            self.recorded += Array(UnsafeBufferPointer(start: buffer.floatChannelData![0], count: Int(buffer.frameLength)))
            self.times.append(when.sampleTime)
            self.bufferSizes.append(buffer.frameLength)
            let finished = self.recorded.count == wanted
            self.lock.unlock()
            if finished { self.done.signal() }
        }
        try engine.start()
        let buffer = AVAudioPCMBuffer(pcmFormat: engine.manualRenderingFormat, frameCapacity: 1024)!
        var rendered: [Float] = []
        while rendered.count < frames {
            _ = try engine.renderOffline(AVAudioFrameCount(min(1000, frames - rendered.count)), to: buffer)
            rendered += Array(UnsafeBufferPointer(start: buffer.floatChannelData![0], count: Int(buffer.frameLength)))
        }
        return rendered
    }

    func stop() {
        engine.mainMixerNode.removeTap(onBus: 0)
        engine.stop()
    }
}

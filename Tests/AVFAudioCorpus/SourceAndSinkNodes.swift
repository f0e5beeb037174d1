// After Apple's AVAudioSourceNode and AVAudioSinkNode documentation (WWDC 2019 "What's New in
// AVAudio"): a source node generating a sine into the main mixer, and the input node's audio
// (here supplied by setManualRenderingInputPCMFormat(_:inputBlock:)) handed to a sink node's
// receiver block, rendered offline.
import AVFAudio
import Foundation

final class SineSourceAndInputSink {
    let engine = AVAudioEngine()
    let frequency: Double
    private var phase = 0.0
    private(set) var received: [Float] = []
    private(set) var receivedTimes: [Double] = []
    private let input: [Float]
    private var inputPosition = 0
    private let inputList = AudioBufferList.allocate(maximumBuffers: 1)
    private let inputStorage = UnsafeMutablePointer<Float>.allocate(capacity: 4096)

    init(frequency: Double, input: [Float]) {
        self.frequency = frequency
        self.input = input
    }

    deinit {
        inputStorage.deallocate()
        free(inputList.unsafeMutablePointer)
    }

    func run(frames: Int) throws -> [Float] {
        let format = AVAudioFormat(standardFormatWithSampleRate: 48_000, channels: 1)!
        let increment = 2 * Double.pi * frequency / format.sampleRate
        let sourceNode = AVAudioSourceNode { _, _, frameCount, audioBufferList -> OSStatus in
            let ablPointer = UnsafeMutableAudioBufferListPointer(audioBufferList)
            for frame in 0..<Int(frameCount) {
                let value = Float(sin(self.phase))
                self.phase += increment
                for buffer in ablPointer {
                    let buf: UnsafeMutableBufferPointer<Float> = UnsafeMutableBufferPointer(buffer)
                    buf[frame] = value
                }
            }
            return noErr
        }
        let sinkNode = AVAudioSinkNode { timestamp, frameCount, inputData -> OSStatus in
            let buffers = UnsafeMutableAudioBufferListPointer(UnsafeMutablePointer(mutating: inputData))
            let samples = buffers[0].mData!.assumingMemoryBound(to: Float.self)
            self.received += UnsafeBufferPointer(start: samples, count: Int(frameCount))
            self.receivedTimes.append(timestamp.pointee.mSampleTime)
            return noErr
        }

        try engine.enableManualRenderingMode(.offline, format: format, maximumFrameCount: 1024)
        let inputOK = engine.inputNode.setManualRenderingInputPCMFormat(format) { frameCount in
            for i in 0..<Int(frameCount) {
                self.inputStorage[i] = self.inputPosition + i < self.input.count ? self.input[self.inputPosition + i] : 0
            }
            self.inputPosition += Int(frameCount)
            self.inputList[0] = AudioBuffer(mNumberChannels: 1, mDataByteSize: frameCount * 4, mData: self.inputStorage)
            return UnsafePointer(self.inputList.unsafeMutablePointer)
        }
        precondition(inputOK, "setManualRenderingInputPCMFormat")

        engine.attach(sourceNode)
        engine.attach(sinkNode)
        engine.connect(sourceNode, to: engine.mainMixerNode, format: format)
        engine.connect(engine.inputNode, to: sinkNode, format: format)
        try engine.start()

        let buffer = AVAudioPCMBuffer(pcmFormat: format, frameCapacity: 1024)!
        var output: [Float] = []
        while output.count < frames {
            _ = try engine.renderOffline(AVAudioFrameCount(min(1024, frames - output.count)), to: buffer)
            output += UnsafeBufferPointer(start: buffer.floatChannelData![0], count: Int(buffer.frameLength))
        }
        engine.stop()
        return output
    }
}

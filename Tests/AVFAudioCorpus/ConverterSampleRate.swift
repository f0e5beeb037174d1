// After Apple's AVAudioConverter documentation, convert(to:error:withInputFrom:): 44.1 kHz
// stereo to 48 kHz, the input handed over in one buffer and then the end of the stream.
import AVFAudio
import Foundation

func resample(_ input: AVAudioPCMBuffer, to outputFormat: AVAudioFormat) throws -> [[Float]] {
    guard let converter = AVAudioConverter(from: input.format, to: outputFormat) else {
        throw NSError(domain: NSOSStatusErrorDomain, code: Int(kAudioConverterErr_FormatNotSupported))
    }
    let capacity = AVAudioFrameCount(Double(input.frameLength) * outputFormat.sampleRate / input.format.sampleRate) + 1024
    let output = AVAudioPCMBuffer(pcmFormat: outputFormat, frameCapacity: capacity)!
    var result = [[Float]](repeating: [], count: Int(outputFormat.channelCount))
    var inputDone = false
    while true {
        var error: NSError?
        let status = converter.convert(to: output, error: &error) { _, outStatus in
            if inputDone {
                outStatus.pointee = .endOfStream
                return nil
            }
            inputDone = true
            outStatus.pointee = .haveData
            return input
        }
        if status == .error, let error { throw error }
        for c in 0..<result.count {
            result[c] += Array(UnsafeBufferPointer(start: output.floatChannelData![c], count: Int(output.frameLength)))
        }
        if status == .endOfStream || status == .inputRanDry || output.frameLength == 0 { break }
    }
    return result
}

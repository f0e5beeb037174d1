// After Apple's AVAudioFile documentation: a buffer written to a 16-bit WAV file through
// AVAudioFile(forWriting:settings:), read back in the file's processing format and as
// interleaved Int16, seeking with framePosition.
import AVFAudio
import Foundation

struct AudioFileRoundTrip {
    let url: URL

    func write(_ samples: [[Float]], sampleRate: Double) throws {
        let settings: [String: Any] = [
            AVFormatIDKey: kAudioFormatLinearPCM,
            AVSampleRateKey: sampleRate,
            AVNumberOfChannelsKey: samples.count,
            AVLinearPCMBitDepthKey: 16,
            AVLinearPCMIsFloatKey: false,
            AVLinearPCMIsBigEndianKey: false,
        ]
        let file = try AVAudioFile(forWriting: url, settings: settings)
        let buffer = AVAudioPCMBuffer(pcmFormat: file.processingFormat, frameCapacity: AVAudioFrameCount(samples[0].count))!
        for (c, channel) in samples.enumerated() {
            for (i, sample) in channel.enumerated() { buffer.floatChannelData![c][i] = sample }
        }
        buffer.frameLength = AVAudioFrameCount(samples[0].count)
        try file.write(from: buffer)
    }

    /// The file's formats and length, and its frames from `position` as interleaved Int16.
    func readInt16(from position: AVAudioFramePosition) throws -> (
        file: AVAudioFormat, processing: AVAudioFormat, length: AVAudioFramePosition, samples: [Int16]
    ) {
        let file = try AVAudioFile(forReading: url, commonFormat: .pcmFormatInt16, interleaved: true)
        file.framePosition = position
        let buffer = AVAudioPCMBuffer(pcmFormat: file.processingFormat, frameCapacity: AVAudioFrameCount(file.length))!
        try file.read(into: buffer)
        let count = Int(buffer.frameLength) * Int(file.processingFormat.channelCount)
        let samples = Array(UnsafeBufferPointer(start: buffer.int16ChannelData![0], count: count))
        return (file.fileFormat, file.processingFormat, file.length, samples)
    }

    /// The whole file in the standard format.
    func readFloat() throws -> [[Float]] {
        let file = try AVAudioFile(forReading: url)
        let buffer = AVAudioPCMBuffer(pcmFormat: file.processingFormat, frameCapacity: AVAudioFrameCount(file.length))!
        try file.read(into: buffer)
        return (0..<Int(buffer.format.channelCount)).map { c in
            Array(UnsafeBufferPointer(start: buffer.floatChannelData![c], count: Int(buffer.frameLength)))
        }
    }
}

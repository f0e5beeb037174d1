// After Apple's AVAudioPlayerNode documentation: buffers and file segments scheduled at sample
// times (AVAudioTime(sampleTime:atRate:)), with completion handlers, rendered offline.
import AVFAudio
import Foundation

final class SegmentScheduler {
    let engine = AVAudioEngine()
    let player = AVAudioPlayerNode()
    private let lock = NSLock()
    private(set) var completed: [String] = []

    func render(
        file: AVAudioFile, buffer: AVAudioPCMBuffer, bufferTime: AVAudioFramePosition, segmentStart: AVAudioFramePosition,
        segmentLength: AVAudioFrameCount, segmentTime: AVAudioFramePosition, frames: Int
    ) throws -> [Float] {
        let format = file.processingFormat
        engine.attach(player)
        engine.connect(player, to: engine.mainMixerNode, format: format)
        try engine.enableManualRenderingMode(.offline, format: format, maximumFrameCount: 512)

        let rate = format.sampleRate
        player.scheduleBuffer(buffer, at: AVAudioTime(sampleTime: bufferTime, atRate: rate), options: []) {
            self.finished("buffer")
        }
        player.scheduleSegment(
            file, startingFrame: segmentStart, frameCount: segmentLength, at: AVAudioTime(sampleTime: segmentTime, atRate: rate),
            completionCallbackType: .dataPlayedBack
        ) { callbackType in
            self.finished("segment \(callbackType.rawValue)")
        }
        try engine.start()
        player.play()

        let output = AVAudioPCMBuffer(pcmFormat: engine.manualRenderingFormat, frameCapacity: 512)!
        var rendered: [Float] = []
        while rendered.count < frames {
            _ = try engine.renderOffline(512, to: output)
            rendered += Array(UnsafeBufferPointer(start: output.floatChannelData![0], count: Int(output.frameLength)))
        }
        return Array(rendered.prefix(frames))
    }

    var playerTime: AVAudioFramePosition? {
        guard let nodeTime = player.lastRenderTime, let playerTime = player.playerTime(forNodeTime: nodeTime) else { return nil }
        return playerTime.sampleTime
    }

    private func finished(_ what: String) {
        lock.lock()
        completed.append(what)
        lock.unlock()
    }

    var completedSoFar: [String] {
        lock.lock()
        defer { lock.unlock() }
        return completed
    }
}

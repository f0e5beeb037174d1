import AVFAudio
import Foundation
import XCTest

/// A 48 kHz engine in offline manual rendering with helpers to pull it.
final class OfflineRig {
    let engine = AVAudioEngine()
    let format: AVAudioFormat

    init(channels: AVAudioChannelCount = 1, sampleRate: Double = 48_000) {
        format = AVAudioFormat(standardFormatWithSampleRate: sampleRate, channels: channels)!
    }

    func enable(maximumFrameCount: AVAudioFrameCount = 512) throws {
        try engine.enableManualRenderingMode(.offline, format: format, maximumFrameCount: maximumFrameCount)
    }

    /// Renders `frames` frames in slices of up to 512; one array per channel.
    func render(_ frames: Int) throws -> [[Float]] {
        let buffer = AVAudioPCMBuffer(pcmFormat: engine.manualRenderingFormat, frameCapacity: 512)!
        var out = [[Float]](repeating: [], count: Int(format.channelCount))
        while out[0].count < frames {
            let n = AVAudioFrameCount(min(512, frames - out[0].count))
            XCTAssertEqual(try engine.renderOffline(n, to: buffer), .success)
            for c in out.indices { out[c] += UnsafeBufferPointer(start: buffer.floatChannelData![c], count: Int(buffer.frameLength)) }
        }
        return out
    }
}

/// A source node producing `value(frame)` on every channel (frame counted from its first render).
func rampSource(_ value: @escaping (Int) -> Float) -> AVAudioSourceNode {
    var n = 0
    return AVAudioSourceNode { _, _, frames, list in
        for buffer in UnsafeMutableAudioBufferListPointer(list) {
            let samples = buffer.mData!.assumingMemoryBound(to: Float.self)
            for i in 0..<Int(frames) { samples[i] = value(n + i) }
        }
        n += Int(frames)
        return noErr
    }
}

/// A buffer holding `channels` of samples in the standard format.
func makeBuffer(_ channels: [[Float]], sampleRate: Double = 48_000) -> AVAudioPCMBuffer {
    let format = AVAudioFormat(standardFormatWithSampleRate: sampleRate, channels: AVAudioChannelCount(channels.count))!
    let buffer = AVAudioPCMBuffer(pcmFormat: format, frameCapacity: AVAudioFrameCount(channels[0].count))!
    for (c, samples) in channels.enumerated() { for (i, s) in samples.enumerated() { buffer.floatChannelData![c][i] = s } }
    buffer.frameLength = AVAudioFrameCount(channels[0].count)
    return buffer
}

/// Asserts that `body` throws an NSError of NSOSStatusErrorDomain with `status`.
func assertThrowsStatus(_ status: OSStatus, _ what: String, file: StaticString = #filePath, line: UInt = #line, _ body: () throws -> Void) {
    do {
        try body()
        XCTFail("\(what): no error", file: file, line: line)
    } catch let error as NSError {
        XCTAssertEqual(error.domain, NSOSStatusErrorDomain, what, file: file, line: line)
        XCTAssertEqual(error.code, Int(status), "\(what): \(error.localizedDescription)", file: file, line: line)
    }
}

/// What a tap received (left channel), on the engine's tap thread.
final class TapRecord: @unchecked Sendable {
    private let lock = NSLock()
    private var samples: [Float] = []
    var frames: Int { lock.withLock { samples.count } }
    var left: [Float] { lock.withLock { samples } }

    func append(_ buffer: AVAudioPCMBuffer) {
        let data = UnsafeBufferPointer(start: buffer.floatChannelData![0], count: Int(buffer.frameLength))
        lock.withLock { samples += data }
    }
}

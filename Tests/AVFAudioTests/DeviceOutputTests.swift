import AVFAudio
import Foundation
import XCTest

/// The engine on a device: the output node is the ALSA I/O unit, here on ALSA's "null" PCM
/// (defined by alsa-lib itself; it has no clock, so the device thread renders back to back).
final class DeviceOutputTests: XCTestCase {
    func testTheEngineRendersASourceThroughTheALSAOutputUntilStopped() throws {
        let engine = AVAudioEngine()
        XCTAssertEqual(setCurrentDevice(engine.outputNode.audioUnit!, "null"), noErr)
        let format = AVAudioFormat(standardFormatWithSampleRate: engine.outputNode.outputFormat(forBus: 0).sampleRate, channels: 2)!
        let source = AVAudioSourceNode { _, _, frames, list in
            for buffer in UnsafeMutableAudioBufferListPointer(list) {
                let samples = buffer.mData!.assumingMemoryBound(to: Float.self)
                for i in 0..<Int(frames) { samples[i] = 0.125 }
            }
            return noErr
        }
        engine.attach(source)
        engine.connect(source, to: engine.mainMixerNode, format: format)
        let heard = DispatchSemaphore(value: 0)
        var first: [Float] = []
        engine.mainMixerNode.installTap(onBus: 0, bufferSize: 256, format: nil) { buffer, _ in
            if first.isEmpty {
                first = Array(UnsafeBufferPointer(start: buffer.floatChannelData![1], count: Int(buffer.frameLength)))
                heard.signal()
            }
        }
        XCTAssertFalse(engine.isInManualRenderingMode)
        try engine.start()
        XCTAssertTrue(engine.isRunning)
        XCTAssertEqual(heard.wait(timeout: .now() + 30), .success, "the device pulled the engine")
        engine.stop()
        XCTAssertFalse(engine.isRunning)
        XCTAssertEqual(first, [Float](repeating: 0.125, count: 256))
    }
}

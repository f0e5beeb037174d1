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

    /// AUHOST_AUDIO_DEVICE names the PCM for programs written for Apple, which never set one:
    /// the engine plays on it, and a PCM that does not exist fails start naming it.
    func testTheEnvironmentChoosesThePCM() throws {
        setenv("AUHOST_AUDIO_DEVICE", "null", 1)
        defer { unsetenv("AUHOST_AUDIO_DEVICE") }
        let engine = AVAudioEngine()
        let source = AVAudioSourceNode { _, _, frames, list in
            for buffer in UnsafeMutableAudioBufferListPointer(list) {
                buffer.mData!.initializeMemory(as: Float.self, repeating: 0.25, count: Int(frames))
            }
            return noErr
        }
        engine.attach(source)
        engine.connect(source, to: engine.mainMixerNode, format: nil)
        let heard = DispatchSemaphore(value: 0)
        engine.mainMixerNode.installTap(onBus: 0, bufferSize: 256, format: nil) { buffer, _ in
            if buffer.floatChannelData![0][0] == 0.25 { heard.signal() }
        }
        try engine.start()
        XCTAssertEqual(heard.wait(timeout: .now() + 30), .success, "the null PCM pulled the engine")
        engine.stop()

        setenv("AUHOST_AUDIO_DEVICE", "auhost_no_such_pcm", 1)
        let lost = AVAudioEngine()
        _ = lost.mainMixerNode
        XCTAssertThrowsError(try lost.start()) { error in
            XCTAssertTrue("\(error)".contains("auhost_no_such_pcm"), "\(error)")
        }
    }
}
